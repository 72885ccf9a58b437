"""§ rules on hostile but fair input: extra `#` headings, the heading tree, full-width digits,
numbers of any length, one warning per unresolved sibling mention, problems in table cells."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.core.config import DEFAULT_CHAPTER_PATTERNS
from seriesbook.core.numbers import canonical, number_key, successor
from seriesbook.sections import find_mentions
from seriesbook.sections._parse import chapter_title_number, heading_number
from sphinx.testing.util import SphinxTestApp

ZH = DEFAULT_CHAPTER_PATTERNS["zh"]


def _ours(app: SphinxTestApp) -> list[str]:
    """Every warning, ours or Sphinx's, without colours and the source directory."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    return [line.replace(f"{app.srcdir}/", "") for line in text.splitlines() if "WARNING" in line]


def _soup(app: SphinxTestApp, page: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")


def _hrefs(app: SphinxTestApp, page: str) -> dict[str, str]:
    links = _soup(app, page).select("a.reference.internal")
    marked = [a for a in links if a.find(class_=["sec-ref", "chapter-ref"])]
    return {a.get_text(): str(a["href"]) for a in marked}


@pytest.mark.sphinx("html", testroot="sections-rules", freshenv=True)
def test_only_the_problems_of_the_book_are_reported(app: SphinxTestApp) -> None:
    app.build()
    assert _ours(app) == [
        "ch01.md:5: WARNING: §1.2.1 is nested in §1.1 (line 3): a §1.2.x heading belongs under "
        "§1.2 [seriesbook.sec-nesting]",
        # one warning, not also Sphinx's `undefined label` (ref.ref)
        "ch02.md:7: WARNING: §3.2 is in the inventory 'vllm', which needs "
        "sphinx.ext.intersphinx [seriesbook.sec-unresolved]",
        # at the table row it is written in, not the table's first line (9)
        "ch02.md:12: WARNING: no section §9.9 in this book [seriesbook.sec-unresolved]",
    ]


@pytest.mark.sphinx("html", testroot="sections-rules", freshenv=True)
def test_a_second_top_heading_keeps_the_chapter_and_the_levels(app: SphinxTestApp) -> None:
    app.build()
    ids = [s["id"] for s in _soup(app, "ch01.html").find_all("section")]
    assert ids[:5] == ["ch-1", "sec-1-1", "sec-1-2-1", "sec-1-2", "sec-1-3"]
    assert ids[6] == "sec-1-4"  # `## §1.4` under `# 附录` is a level-2 heading
    assert _hrefs(app, "ch02.html")["第1章"] == "ch01.html#ch-1"


@pytest.mark.sphinx("html", testroot="sections-rules", freshenv=True)
def test_full_width_digits_mean_ascii_numbers(app: SphinxTestApp) -> None:
    app.build()
    heading = _soup(app, "ch01.html").find("section", id="sec-1-3")
    assert heading is not None and "§１．３ 全角数字" in heading.h2.get_text()  # as written
    links = _hrefs(app, "ch02.html")
    assert links["§１．３"] == "ch01.html#sec-1-3"
    assert links["第１章"] == "ch01.html#ch-1"


def test_numbers_of_any_length_are_problems_not_tracebacks(
    make_app: type[SphinxTestApp], tmp_path: Path
) -> None:
    huge = "9" * 5000  # Python's int() refuses more than 4,300 digits
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "seriesbook.sections"]\n'
                                      'language = "zh_CN"\n')
    (tmp_path / "index.md").write_text(
        "# 第1章 大数\n\n## §1.1 一\n\n"
        f"## §1.{huge} 二\n\n## §1.1{huge} 三\n\n"
        f"见 §1.{huge}、§1.2 与第{huge}章。\n"
    )
    app = make_app("html", srcdir=tmp_path)
    app.build()
    found = [re.search(r"index\.md:(\d+): .*\[seriesbook\.([\w-]+)\]", w) for w in _ours(app)]
    assert [(int(m[1]), m[2]) for m in found if m] == [
        (5, "sec-order"),  # §1.99…9 leaves a gap after §1.1
        (7, "sec-order"),  # §1.199…9 goes backwards after it
        (9, "sec-unresolved"),  # §1.2; §1.99…9 links
        (9, "chapter-unresolved"),
    ]
    assert "expected §1.2)" in _ours(app)[0]
    assert f"expected §1.1{'0' * 5000})" in _ours(app)[1]


DIGITS = st.text(alphabet="0123456789０１２３４５６７８９", min_size=1, max_size=6000)


@given(DIGITS, DIGITS)
def test_any_written_number_is_read_as_ascii(first: str, second: str) -> None:
    ascii_first = first.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    ascii_second = second.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    assert heading_number(f"§{first}．{second} 题") == f"{ascii_first}.{ascii_second}"
    chapter = canonical(first)
    assert chapter_title_number(f"第{first}章 题", {"zh": ZH}) == chapter
    mentions = find_mentions(f"见§{first}.{second}与第{first}章。", ZH)
    assert [(m.kind, m.number) for m in mentions] == [
        ("sec", f"{ascii_first}.{ascii_second}"), ("chapter", chapter),
    ]


@given(st.integers(min_value=0, max_value=10**60), st.integers(min_value=0, max_value=10**60))
def test_digit_strings_order_and_count_like_integers(a: int, b: int) -> None:
    assert successor(str(a)) == str(a + 1)
    assert (number_key(str(a)) < number_key(str(b))) == (a < b)
    assert canonical("0" * 3 + str(a)) == str(a)


def test_table_cells_are_reported_at_their_rows(
    make_app: type[SphinxTestApp], tmp_path: Path
) -> None:
    """Pipe tables (also nested in a directive, also after an inline literal) and list-tables."""
    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "seriesbook.sections"]\n'
                                      'language = "zh_CN"\n')
    (tmp_path / "index.md").write_text(
        "# 第1章 表\n\n## §1.1 一\n\n"
        "```{list-table}\n:widths: auto\n:header-rows: 1\n\n"
        "* - 名\n  - 位\n* - 甲\n  - §9.1\n* - 乙\n  - §9.2\n```\n\n"
        "````{note}\n| a | b |\n|---|---|\n| x | §9.3 |\n| y | `lit` §9.4 |\n| z | §9.5 |\n````\n"
    )
    app = make_app("html", srcdir=tmp_path)
    app.build()
    lines = (tmp_path / "index.md").read_text().splitlines()
    expected = [(n, f"§9.{k}") for k in range(1, 6)
                for n, line in enumerate(lines, 1) if f"§9.{k}" in line]
    reported = [re.search(r"index\.md:(\d+): WARNING: no section (§[\d.]+)", w) for w in _ours(app)]
    assert [(int(m[1]), m[2]) for m in reported if m] == expected


def test_renumber_reads_full_width_numbers(tmp_path: Path) -> None:
    """`seriesbook renumber` finds `§１．３` as §1.3 (heading, mention, role) and renumbers it."""
    from seriesbook.commands.cli import main

    (tmp_path / "conf.py").write_text('extensions = ["myst_parser", "seriesbook.sections"]\n'
                                      'language = "zh_CN"\n')
    (tmp_path / "index.md").write_text("# 书\n\n```{toctree}\nch01\n```\n")
    chapter = tmp_path / "ch01.md"
    chapter.write_text("# 第1章 张量\n\n## §1.1 一\n\n"
                       "## §１．３ 全角\n\n见 §１．３ 与 {sec}`１．３`。\n")
    assert main(["renumber", "--write", str(tmp_path)]) == 0
    assert chapter.read_text().splitlines()[4:] == ["## §1.2 全角", "", "见 §1.2 与 {sec}`1.2`。"]
    assert main(["check", str(tmp_path)]) == 0
