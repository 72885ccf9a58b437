"""Property (issue 24): ``renumber --write`` and ``repin --write`` on generated books write
exactly the plan.

``repin``: a generated source file and a new release made by inserting, deleting and copying
lines (a copy makes a cited block ambiguous), cited from a page (sometimes reached through a
symbolic link) and its catalog; after ``--write`` the build reads exactly the planned citations,
each file is its old text with exactly the planned citations replaced, a ``moved`` citation
points at the very lines it cited, and the exit status is the README's.

``renumber``:
Books come from :mod:`test_renumber_property` (three chapters, sections inserted, moved and
deleted, mentions written ``§N.M（T7）``), with an English catalog for every paragraph, some
chapters reached through symbolic links to files outside the book, and sometimes a write that
fails half-way (an ``OSError`` from the n-th move, simulated at the write layer). After
``--write``:

* a failed write leaves every byte as it was (exit 2, one line);
* otherwise the build reads exactly the planned numbers: every heading has its planned number,
  every mention the number the map gives it (mentions of deleted sections as written), at the
  same lines; every catalog's msgid and msgstr mention the same renumbered numbers;
* no untouched byte moved: each file is its old text with the report's edits, nothing else;
  links are still links;
* the exit status is the README's: 1 while a mention names no section (or a deleted one), else
  0; a second run has no edits.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from seriesbook.commands.cli import main
from seriesbook.commands.reading import read_book
from seriesbook.sections import get_domain
from test_renumber_property import _apply, _book, _render, edits

CONF = '''extensions = ["seriesbook"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_editions = ["zh_CN", "en"]
'''
PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
MENTION = re.compile(r"§([\d.]+)")


def _catalog(page: str) -> str:
    """An English catalog translating each paragraph that mentions a section."""
    entries = []
    for paragraph in (p.strip() for p in page.split("\n\n")):
        if paragraph.startswith("正文§"):
            english = paragraph.replace("正文", "Text ").replace("（", " (").replace("）", ")")
            entries.append(f'msgid "{paragraph}"\nmsgstr "{english}"\n')
    return PO_HEAD + "\n".join(entries)


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def _read(root: Path) -> tuple[dict[tuple[str, int], str], dict[str, list[tuple[str, int]]]]:
    """Headings (page, line) → number, and each page's mentions (number, line), as read."""
    with read_book(root, root) as run:
        domain = get_domain(run.app.env)
        headings = {(r.docname, r.line or 0): r.number for r in domain.all_sections()}
        mentions = {doc: sorted((m.number, m.line or 0) for m in found if m.kind == "sec")
                    for doc, found in domain.mentions.items()}
    return headings, mentions


def _with_edits(text: str, edits: list[dict[str, object]]) -> str:
    """*text* with the report's edits made one after another (each at or after its line)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out, cursor = [], 0
    for edit in sorted(edits, key=lambda e: int(str(e["line"]))):
        at = text.find(str(edit["old"]), max(cursor, starts[int(str(edit["line"])) - 1]))
        assert at >= 0, edit
        out += [text[cursor:at], str(edit["new"])]
        cursor = at + len(str(edit["old"]))
    return "".join(out) + text[cursor:]


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # shrinking costs minutes
@example(sizes=[3, 1, 1], children=[1, 2, 0], mentions=[550, 269, 793, 253, 259, 250],
         script=[('delete', 76, 222, 13), ('insert-sub', 807, 331, 411), ('move', 448, 794, 309),
                 ('move', 258, 502, 298), ('insert', 428, 72, 61), ('delete', 8, 802, 472)],
         linked=[False, False, True], fail_at=None)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=3, max_size=3),
    children=st.lists(st.integers(0, 2), min_size=1, max_size=3),
    mentions=st.lists(st.integers(0, 1000), min_size=2, max_size=8),
    script=edits,
    linked=st.lists(st.booleans(), min_size=3, max_size=3),
    fail_at=st.one_of(st.none(), st.integers(1, 4)),
)
def test_write_makes_exactly_the_planned_edits(
    sizes: list[int], children: list[int], mentions: list[int],
    script: list[tuple[str, int, int, int]], linked: list[bool], fail_at: int | None,
) -> None:
    book, before = _book(sizes, children, mentions)
    _apply(book, script)
    with tempfile.TemporaryDirectory() as tmp:
        root, shared = Path(tmp) / "book", Path(tmp) / "shared"
        (root / "locale/en/LC_MESSAGES").mkdir(parents=True)
        shared.mkdir()
        (root / "conf.py").write_text(CONF, encoding="utf-8")
        for name, text in _render(book, before).items():
            path = root / name
            if name.startswith("ch") and linked[int(name[2]) - 1]:
                (shared / name).write_text(text, encoding="utf-8")
                path.symlink_to(shared / name)
            else:
                path.write_text(text, encoding="utf-8")
            if name.startswith("ch"):
                (root / "locale/en/LC_MESSAGES" / name.replace(".md", ".po")).write_text(
                    _catalog(text), encoding="utf-8")
        files = sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink())
        old = {p: p.read_text(encoding="utf-8") for p in files}
        old_headings, old_mentions = _read(root)

        status, out, _ = _cli("renumber", str(root), "--format", "json", "--fresh")
        report = json.loads(out)
        mapping: dict[str, str] = report["map"]
        by_hand = bool(report["unresolved"] or report["stale"] or report["unlocated"])
        assert status == (1 if report["edits"] or by_hand else 0)

        replace = os.replace
        moves: list[str] = []

        def failing(source: str, target: str) -> None:
            if Path(target).is_relative_to(tmp) and "_build" not in Path(target).parts:
                moves.append(target)
                if len(moves) == fail_at:
                    raise OSError(5, "Input/output error", target)
            replace(source, target)

        with mock.patch.object(os, "replace", failing):
            status, _, err = _cli("renumber", str(root), "--write", "--fresh")
        if fail_at is not None and len(moves) >= fail_at:
            assert status == 2 and err.count("\n") == 1 and "nothing written" in err
            assert {p: p.read_text(encoding="utf-8") for p in files} == old
            return
        assert status == (1 if by_hand else 0), err

        for path in files:  # no untouched byte moved; links stay links
            assert path.is_symlink() == (path.parent == root and path.name.startswith("ch")
                                         and linked[int(path.name[2]) - 1])
            shown = str(path.relative_to(root))
            mine = [e for e in report["edits"] if e["file"] == shown]
            if path.name == "seriesbook-renumbered.json":
                continue
            assert path.read_text(encoding="utf-8") == _with_edits(old[path], mine), shown
        new_headings, new_mentions = _read(root)
        for (doc, line), number in old_headings.items():
            assert new_headings[(doc, line)] == mapping.get(number, number)
        assert {k: v for k, v in new_headings.items() if k not in old_headings} == {
            (n["file"].removesuffix(".md"), n["line"]): n["number"] for n in report["new"]}
        for doc, found in old_mentions.items():
            assert new_mentions[doc] == sorted((mapping.get(n, n), line) for n, line in found)
        for po in (root / "locale/en/LC_MESSAGES").glob("*.po"):
            for before_line, after_line in zip(old[po].split("\n"), po.read_text().split("\n"),
                                               strict=True):
                assert MENTION.findall(after_line) == [
                    mapping.get(n, n) for n in MENTION.findall(before_line)]
        status, out, _ = _cli("renumber", str(root), "--format", "json", "--fresh")
        again = json.loads(out)
        assert again["edits"] == [] and status == (1 if by_hand else 0)
        assert len(again["pending"]) == len(report["stale"])


# --- repin: generated releases, citations in pages and catalogs -----------------------------------

REPIN_CONF = '''extensions = ["myst_parser", "seriesbook.citations"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_sources = {"demo": {"repo": "https://example.org/demo", "ref": "v1"}}
seriesbook_default_source = "demo"
'''
SOURCE_LINE = st.one_of(
    st.sampled_from(["", "}", "    return x"]),
    st.integers(0, 30).map(lambda n: f"    value_{n} = compute_{n}(value_{n - 1})"),
)


def _citations(root: Path) -> dict[str, list[tuple[str, int]]]:
    """Each page's citations as the build reads them: (path:start-end, line)."""
    from seriesbook.citations._data import citations_domain

    with read_book(root, root) as run:
        records = citations_domain(run.app.env).records
        return {doc: sorted((f"{r.citation.path}:{r.citation.start}-{r.citation.end}",
                             r.line or 0) for r in found if r.citation is not None)
                for doc, found in records.items()}


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    old=st.lists(SOURCE_LINE, min_size=4, max_size=20),
    edits=st.lists(st.tuples(st.sampled_from(["insert", "delete", "copy"]), st.integers(0, 99),
                             st.lists(SOURCE_LINE, min_size=1, max_size=3)), max_size=4),
    cited=st.lists(st.tuples(st.integers(0, 99), st.integers(0, 2)), min_size=1, max_size=5),
    linked=st.booleans(),
)
def test_repin_write_makes_exactly_the_planned_edits(
    old: list[str], edits: list[tuple[str, int, list[str]]], cited: list[tuple[int, int]],
    linked: bool,
) -> None:
    new = list(old)
    for kind, where, lines in edits:
        at = where % (len(new) + 1)
        if kind == "insert":
            new[at:at] = lines
        elif kind == "delete" and new:
            del new[at % len(new)]
        elif kind == "copy" and new:  # a copy of some lines elsewhere: ambiguity, never a guess
            new[at:at] = new[at % len(new): at % len(new) + 2]
    ranges = sorted({(s % len(old) + 1, min(len(old), s % len(old) + 1 + n)) for s, n in cited})
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for name, lines in (("v1", old), ("v2", new)):
            (base / name / "pkg").mkdir(parents=True)
            (base / name / "pkg/mod.py").write_text("".join(f"{x}\n" for x in lines))
        root = base / "book"
        (root / "locale/en/LC_MESSAGES").mkdir(parents=True)
        (root / "conf.py").write_text(REPIN_CONF)
        paragraphs = [f"引用 `pkg/mod.py:{s}{f'-{e}' if e > s else ''}`。" for s, e in ranges]
        page = "# 页\n\n" + "\n\n".join(paragraphs) + "\n"
        if linked:
            (base / "index.md").write_text(page)
            (root / "index.md").symlink_to(base / "index.md")
        else:
            (root / "index.md").write_text(page)
        po = root / "locale/en/LC_MESSAGES/index.po"
        po.write_text(PO_HEAD + "\n".join(
            f'msgid "{p}"\nmsgstr "{p.replace("引用", "Cites")}"\n' for p in paragraphs))
        files = [root / "index.md", po]
        before = {p: p.read_text() for p in files}
        args = ["repin", str(root), "--source", f"demo={base / 'v1'}", "--to", "demo=v2",
                "--to-source", f"demo={base / 'v2'}"]
        status, out, _ = _cli(*args, "--format", "json")
        report = json.loads(out)
        review = any(c["status"] in ("changed", "lost") or c.get("by_hand")
                     for c in report["citations"])
        assert status == 1  # the ref in conf.py is to change, at least
        status, _, err = _cli(*args, "--write")
        assert status == (1 if review else 0), err
        assert (root / "index.md").is_symlink() == linked
        moved = {c["old"]: c["new"] for c in report["citations"]
                 if c["file"] == "index.md" and c["new"] not in (None, c["old"])}
        for path in files:  # no untouched byte moved: each citation as planned, nothing else
            expected = re.sub("`(" + "|".join(map(re.escape, moved)) + ")`",
                              lambda m: f"`{moved[m[1]]}`", before[path]) if moved else before[path]
            assert path.read_text() == expected  # all at once: 5 → 9 and 9 → 13 are two moves
        def ranged(citation: str) -> str:  # `path:8` is lines 8-8
            lines = citation.rsplit(":", 1)[1]
            return citation if "-" in lines else f"{citation}-{lines}"

        planned = sorted((ranged(c["new"] or c["old"]), c["line"]) for c in report["citations"]
                         if c["file"] == "index.md")
        assert _citations(root)["index"] == planned
        for c in report["citations"]:  # a move points at the very lines it cited
            if c["status"] == "moved":
                cited_lines = c["old"].rsplit(":", 1)[1].split("-")
                start, end = int(cited_lines[0]), int(cited_lines[-1])
                to = c["new"].rsplit(":", 1)[1].split("-")
                at, until = int(to[0]), int(to[-1])
                assert new[at - 1:until] == old[start - 1:end]
        assert "v2" in (root / "conf.py").read_text()
