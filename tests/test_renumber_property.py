"""Property: after random inserts, moves and deletes, renumber leaves a book that checks clean.

For random edit scripts on a generated three-chapter book, ``renumber --write`` then ``check``
gives no ``sec-order``/``sec-nesting``/``sec-chapter``, and every mention whose section survived
still names a heading with the same title as before (each mention is written ``§N.M（T7）``).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seriesbook.commands.reading import read_book, read_pages
from seriesbook.commands.renumber import renumber
from seriesbook.commands.rewrite import apply_checked

CONF = 'extensions = ["myst_parser", "seriesbook.sections"]\nlanguage = "zh_CN"\n'


@dataclass
class Section:
    title: str
    number: str | None  # None: a new section, written `§ 标题`
    children: list[Section] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # titles of the sections it mentions


def _initial(chapters: int, sizes: list[int], children: list[int]) -> list[list[Section]]:
    book: list[list[Section]] = []
    counter = 0
    for chapter in range(1, chapters + 1):
        sections = []
        for index in range(1, sizes[chapter - 1] + 1):
            counter += 1
            section = Section(f"T{counter}", f"{chapter}.{index}")
            for sub in range(1, children[(counter - 1) % len(children)] + 1):
                counter += 1
                section.children.append(Section(f"T{counter}", f"{chapter}.{index}.{sub}"))
            sections.append(section)
        book.append(sections)
    return book


def _all(book: list[list[Section]]) -> list[Section]:
    return [s for chapter in book for top in chapter for s in [top, *top.children]]


def _render(book: list[list[Section]], numbers: dict[str, str]) -> dict[str, str]:
    """The pages; *numbers* maps each title to the number its mentions are written with."""
    pages = {"index.md": "# 书\n\n```{toctree}\n" + "".join(
        f"ch{c + 1}\n" for c in range(len(book))) + "```\n"}
    for index, chapter in enumerate(book, 1):
        lines = [f"# 第{index}章 章{index}", ""]
        for top in chapter:
            for section, hashes in [(top, "##"), *[(c, "###") for c in top.children]]:
                number = f"§{section.number}" if section.number else "§"
                lines += [f"{hashes} {number} {section.title}", ""]
                said = "、".join(f"§{numbers[t]}（{t}）" for t in section.mentions if t in numbers)
                lines += [f"正文{said}。", ""]
        pages[f"ch{index}.md"] = "\n".join(lines)
    return pages


edits = st.lists(
    st.tuples(st.sampled_from(["insert", "insert-sub", "move", "delete"]),
              st.integers(0, 1000), st.integers(0, 1000), st.integers(0, 1000)),
    min_size=1, max_size=6,
)


def _apply(book: list[list[Section]], script: list[tuple[str, int, int, int]]) -> None:
    fresh = 0
    for op, a, b, c in script:
        chapter = book[a % len(book)]
        if op == "insert":
            fresh += 1
            chapter.insert(b % (len(chapter) + 1), Section(f"N{fresh}", None))
        elif op == "insert-sub" and chapter:
            fresh += 1
            parent = chapter[b % len(chapter)]
            parent.children.insert(c % (len(parent.children) + 1), Section(f"N{fresh}", None))
        elif op == "move" and chapter:
            section = chapter.pop(b % len(chapter))
            target = book[c % len(book)]
            target.insert(c % (len(target) + 1), section)
        elif op == "delete" and chapter:
            top = chapter[b % len(chapter)]
            if top.children and c % 2:
                top.children.pop(c % len(top.children))
            else:
                chapter.remove(top)


def _book(
    sizes: list[int], children: list[int], mentions: list[int]
) -> tuple[list[list[Section]], dict[str, str]]:
    """A generated book, and each section's title → number before any edit."""
    book = _initial(3, sizes, children)
    sections = _all(book)
    for index, pick in enumerate(mentions):
        sections[index % len(sections)].mentions.append(sections[pick % len(sections)].title)
    return book, {s.title: s.number for s in sections if s.number}


def random_books(test: Callable[..., None]) -> Callable[..., None]:
    """The random books and edit scripts both properties run on."""
    return settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))(
        given(
            sizes=st.lists(st.integers(1, 4), min_size=3, max_size=3),
            children=st.lists(st.integers(0, 2), min_size=1, max_size=4),
            mentions=st.lists(st.integers(0, 1000), min_size=2, max_size=12),
            script=edits,
        )(test)
    )

@random_books
def test_renumber_then_check_is_clean(
    sizes: list[int], children: list[int], mentions: list[int],
    script: list[tuple[str, int, int, int]],
) -> None:
    book, before = _book(sizes, children, mentions)
    _apply(book, script)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "conf.py").write_text(CONF, encoding="utf-8")
        for name, text in _render(book, before).items():
            (root / name).write_text(text, encoding="utf-8")
        with read_book(root, root) as run:
            _, plan, catalogs = renumber(run.app, root)
            apply_checked(plan, catalogs)
        with read_book(root, root) as run:
            codes = {r.code for r in run.reported}
        assert not codes & {"sec-order", "sec-nesting", "sec-chapter", "sec-duplicate"}
        headings: dict[str, str] = {}
        mentioned: list[tuple[str, str]] = []
        for page in root.glob("ch*.md"):
            text = page.read_text(encoding="utf-8")
            assert not re.search(r"^#+ § ", text, re.MULTILINE), "a section left unnumbered"
            for match in re.finditer(r"^#+ §(\S+) (\S+)$", text, re.MULTILINE):
                headings[match[1]] = match[2]
            mentioned += re.findall(r"§([\d.]+)（(\w+)）", text)
    survivors = {s.title for s in _all(book)}
    for number, title in mentioned:
        if title in survivors:
            assert headings.get(number) == title, (number, title)


@random_books
def test_the_kept_environment_plans_as_a_fresh_read(
    sizes: list[int], children: list[int], mentions: list[int],
    script: list[tuple[str, int, int, int]],
) -> None:
    """Read once and kept, then edited: the plan is a fresh read's of the edited book."""
    book, before = _book(sizes, children, mentions)
    with tempfile.TemporaryDirectory() as tmp:
        root, kept = Path(tmp) / "book", Path(tmp) / "kept"
        root.mkdir()
        (root / "conf.py").write_text(CONF, encoding="utf-8")
        for name, text in _render(book, before).items():
            (root / name).write_text(text, encoding="utf-8")
        with read_pages(root, root, kept=kept) as run:
            renumber(run.app, root)
        _apply(book, script)
        for name, text in _render(book, before).items():
            if (root / name).read_text(encoding="utf-8") != text:
                (root / name).write_text(text, encoding="utf-8")
        reports = []
        for keep in (kept, None):
            with read_pages(root, root, kept=keep) as run:
                reports.append(renumber(run.app, root)[0].as_json())
    assert reports[0] == reports[1]
