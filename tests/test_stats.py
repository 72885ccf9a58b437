"""seriesbook.stats on a small book whose every figure is counted by hand below."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from seriesbook.commands.cli import main
from seriesbook.stats._collect import doc_counts, stats_pages
from seriesbook.stats.report import to_markdown
from sphinx.errors import ConfigError
from sphinx.testing.util import SphinxTestApp

# Counted by hand from tests/roots/test-stats-book (han = Chinese characters, en = English words).
# preface.md (status: draft): title 前言 (han 2); "这是前言 draft text。" (han 4, en 2).
PREFACE = {"han": 6, "words": 8, "mermaid": 0}
# ch1.md (front matter not counted):
#   title "第1章 Tensor 入门"                                   han 4  en 1
#   "张量是 PyTorch 的核心数据结构，调用 `torch.add(a, b)` 会经过
#    dispatcher_v2 与 3 个 kernel。"  han 张量是 的核心数据结构 调用 会经过 与 个 = 17;
#    en PyTorch torch add a b dispatcher_v2 kernel = 7          han 17 en 7
#   "参见[官方文档](url)或 <autolink>。" (URLs not counted)       han 7  en 0
#   HTML comment and % comment                                  han 0  en 0
#   list "列表 item_one", "第二项 2024"                          han 5  en 1
#   table 名称 value / 表格 cell                                 han 4  en 2
#   note "提示 tip"                                              han 2  en 1
#   code block "def add(x, y): return x + y  # 加法"             han 2  en 7
#   two mermaid diagrams (source not counted)
CH1 = {"han": 4 + 17 + 7 + 5 + 4 + 2 + 2, "words": 41 + (1 + 7 + 1 + 2 + 1 + 7), "mermaid": 2}
# ch2.md: title "第2章 Short" (han 2, en 1); "短文 only。" (han 2, en 1); one diagram.
CH2 = {"han": 4, "words": 6, "mermaid": 1}
STATS_BOOK = Path(__file__).parent / "roots" / "test-stats-book"


def test_hand_counts_are_consistent() -> None:
    assert (CH1["han"], CH1["words"]) == (41, 60)


@pytest.mark.sphinx(
    "html",
    testroot="stats-book",
    freshenv=True,
    confoverrides={"language": "en", "seriesbook_editions": ["zh_CN", "en"]},
)
def test_translated_edition_is_not_gated(app: SphinxTestApp) -> None:
    """Gates measure the author's text; an English edition has fewer Chinese characters."""
    app.build()
    assert "[seriesbook.gate-" not in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="stats-book", freshenv=True)
def test_figures_and_gates(app: SphinxTestApp) -> None:
    from seriesbook.stats.report import book_report

    app.build()
    report = book_report(app)
    chapters = {c["docname"]: c for c in report["chapters"]}
    assert list(chapters) == ["preface", "ch1", "ch2"]  # toctree order; the root is no chapter
    for docname, expected in (("preface", PREFACE), ("ch1", CH1), ("ch2", CH2)):
        assert {key: chapters[docname][key] for key in expected} == expected, docname
    assert [c["draft"] for c in chapters.values()] == [True, False, False]
    # seriesbook_gates = {"min_han": 20, "min_mermaid": 2}; excerpts need seriesbook.citations
    assert [c["gates"] for c in chapters.values()] == [[], [], ["gate-han", "gate-mermaid"]]
    assert report["book"] == {
        "chapters": 3,
        "words": 8 + 60 + 6,
        "han": 6 + 41 + 4,
        "mermaid": 3,
        "citations": None,
        "citations_verified": None,
        "sections": None,
        "sec_refs": None,
        "sec_refs_resolved": None,
    }
    assert "editions" not in report

    warnings = app.warning.getvalue()
    assert warnings.count("[seriesbook.gate-") == 2
    assert "ch2.md:1: WARNING: " in warnings
    assert "第2章 Short has too few Chinese characters: 4, the gate is 20 (min_han)" in warnings
    assert "[seriesbook.gate-han]" in warnings and "[seriesbook.gate-mermaid]" in warnings
    assert "preface.md" not in warnings  # drafts are exempt


@pytest.mark.parametrize(
    ("gates", "message"),
    [
        ({"min_words": 1}, "unknown gate 'min_words'"),
        ({"min_han": "6500"}, "min_han must be a whole number"),
        ({"min_mermaid": -1}, "min_mermaid must be a whole number"),
    ],
)
def test_gate_options_are_checked(
    make_app: Any, tmp_path: Path, gates: dict[str, Any], message: str
) -> None:
    shutil.copytree(STATS_BOOK, tmp_path / "book")
    overrides = {"seriesbook_gates": gates}
    with pytest.raises(ConfigError, match=message):
        make_app("dummy", srcdir=tmp_path / "book", confoverrides=overrides)


def book_table(outdir: Path, page: str = "index") -> dict[str, str]:
    soup = BeautifulSoup((outdir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    table = soup.select_one("table.seriesbook-stats-book")
    assert table is not None
    rows = table.select("tbody tr")
    return dict(tuple(td.get_text() for td in row.find_all("td")) for row in rows)  # type: ignore[misc]


def chapter_table(outdir: Path) -> list[list[str]]:
    soup = BeautifulSoup((outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    rows = soup.select("table.seriesbook-stats-chapters tbody tr")
    return [[td.get_text() for td in row.find_all("td")] for row in rows]


@pytest.mark.sphinx("html", testroot="stats-book")
def test_directive_renders_the_tables(app: SphinxTestApp) -> None:
    app.build()
    assert book_table(app.outdir) == {
        "章数": "3（前言 + 2 章）",
        "字数": "74（汉字 + 英文单词）",
        "汉字": "51",
        "Mermaid 图": "3",
        "源码引用": "—",
        "编号小节": "—",
        "§ 交叉引用": "—",
    }
    rows = chapter_table(app.outdir)
    assert [row[:4] for row in rows] == [
        ["前言", "8", "6", "0"],
        ["第1章 Tensor 入门", "60", "41", "2"],
        ["第2章 Short", "6", "4", "1"],
    ]
    assert [row[-2:] for row in rows] == [["是", ""], ["", ""], ["", "gate-han, gate-mermaid"]]
    soup = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    links = [a["href"] for a in soup.select("table.seriesbook-stats-chapters tbody a")]
    assert links == ["preface.html", "ch1.html", "ch2.html"]


@pytest.mark.sphinx("html", testroot="stats-book", srcdir="stats-book-incremental")
def test_incremental_rebuild_refreshes_the_table(app: SphinxTestApp) -> None:
    app.build()
    assert book_table(app.outdir)["汉字"] == "51"
    assert book_table(app.outdir, "stats")["汉字"] == "51"
    ch2 = app.srcdir / "ch2.md"
    # 16 more Chinese characters and one more diagram: ch2 now clears both gates.
    ch2.write_text(
        ch2.read_text(encoding="utf-8")
        + "\n再添十六个汉字好让这一章达到门槛。\n\n```{mermaid}\ngraph TD\n  A --> B\n```\n",
        encoding="utf-8",
    )
    later = ch2.stat().st_mtime + 10  # newer than the last read, without sleeping
    os.utime(ch2, (later, later))
    app.warning.seek(0)
    app.warning.truncate()
    app.build()
    assert book_table(app.outdir)["汉字"] == "67"
    assert book_table(app.outdir)["Mermaid 图"] == "4"
    assert book_table(app.outdir, "stats")["汉字"] == "67"  # not in a toctree with ch2
    assert chapter_table(app.outdir)[2][1:4] == ["22", "20", "2"]
    assert chapter_table(app.outdir)[2][-1] == ""
    assert "gate-" not in app.warning.getvalue()


@pytest.mark.sphinx("html", testroot="stats-book", srcdir="stats-book-parallel", parallel=2)
def test_parallel_build_counts_the_same(app: SphinxTestApp) -> None:
    app.build()
    assert book_table(app.outdir)["字数"] == "74（汉字 + 英文单词）"
    assert [row[1] for row in chapter_table(app.outdir)] == ["8", "60", "6"]
    # what the incremental build needs was merged from the workers
    assert set(doc_counts(app.env)) == {"index", "preface", "ch1", "ch2", "stats"}
    assert stats_pages(app.env) == {"index", "stats"}


def run_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    book = tmp_path / "book"
    shutil.copytree(STATS_BOOK, book)
    assert main(["stats", str(book), *args]) == 0
    return capsys.readouterr().out


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report: dict[str, Any] = json.loads(run_stats(tmp_path, capsys, "--format", "json"))
    assert set(report) == {"book", "chapters"}
    assert report["book"]["words"] == 74
    assert list(report["chapters"][0]) == [
        "docname", "title", "words", "han", "mermaid", "citations", "excerpts",
        "sections", "sec_refs", "sec_refs_resolved", "draft", "gates",
    ]  # fmt: skip
    assert report["chapters"][2]["gates"] == ["gate-han", "gate-mermaid"]


def test_cli_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_stats(tmp_path, capsys)
    book, chapters = out.strip().split("\n\n")
    assert book.splitlines()[:4] == [
        "| item | figure |",
        "|---|---|",
        "| chapters | 3 (前言 + 2 chapters) |",
        "| words | 74 (Chinese characters + English words) |",
    ]
    assert "| source citations | — |" in book
    lines = chapters.splitlines()
    assert lines[0].startswith("| chapter | words | Chinese characters | Mermaid diagrams |")
    assert lines[4] == "| 第2章 Short | 6 | 4 | 1 | — | — | — | — | — |  | gate-han, gate-mermaid |"


def test_markdown_hit_rate_and_escaping() -> None:
    chapter = {
        "docname": "a", "title": "第1章 a|b", "words": 1, "han": 1, "mermaid": 0,
        "citations": 3, "excerpts": 1, "sections": 2, "sec_refs": 2001,
        "sec_refs_resolved": 2000, "draft": False, "gates": [],
    }  # fmt: skip
    book = {
        "chapters": 1, "words": 1, "han": 1, "mermaid": 0, "citations": 3,
        "citations_verified": 2, "sections": 2, "sec_refs": 2001, "sec_refs_resolved": 2000,
    }  # fmt: skip
    out = to_markdown({"book": book, "chapters": [chapter]})
    assert "| § cross-references | 2,001 (resolved 2,000, hit rate 99.9%) |" in out
    assert "| source citations | 3 (verified 2) |" in out
    assert "| chapters | 1 |" in out  # every chapter numbered: no breakdown
    assert "| 第1章 a\\|b | 1 | 1 | 0 | 3 | 1 | 2 | 2,001 | 1 |  |  |" in out


# tests/roots/test-stats-full, with seriesbook.sections and seriesbook.citations loaded:
# ch01: §1.1, §1.2; mentions §1.2 (resolves), §1.9 (does not); citations: an inline literal, a
#       {src} role, an excerpt (code block captioned pkg/engine.py:1-2), all verified.
# ch02: §2.1; mention §1.1; no citation, so it fails min_excerpts = 1.
#   ch01 text: title 第1章 引擎 (han 4); §1.1 入口 (han 2); "见 §1.2 与 §1.9。调用
#   `pkg/engine.py:1` 和 {src}`stop <…>`。" (han 5; en pkg engine py stop); §1.2 执行 (han 2);
#   caption pkg/engine.py:1-2 (en 3); code "def run(): return 1" (en 3).


@pytest.mark.sphinx("html", testroot="stats-full", freshenv=True)
def test_sections_and_citations_figures(app: SphinxTestApp) -> None:
    from seriesbook.stats.report import book_report

    app.build()
    report = book_report(app)
    assert report["book"] == {
        "chapters": 2,
        "words": (13 + 10) + 8,
        "han": 13 + 8,
        "mermaid": 0,
        "citations": 3,
        "citations_verified": 3,
        "sections": 3,
        "sec_refs": 3,
        "sec_refs_resolved": 2,
    }
    ch01, ch02 = report["chapters"]
    assert (ch01["citations"], ch01["excerpts"], ch01["sections"]) == (3, 1, 2)
    assert (ch01["sec_refs"], ch01["sec_refs_resolved"], ch01["gates"]) == (2, 1, [])
    assert (ch02["excerpts"], ch02["gates"]) == (0, ["gate-excerpts"])
    warnings = app.warning.getvalue()
    expected = "ch02.md:1: WARNING: 第2章 回看 has too few source excerpts: 0, the gate is 1"
    assert expected in warnings
    assert warnings.count("[seriesbook.gate-excerpts]") == 1
    assert book_table(app.outdir)["源码引用"] == "3（已核验 3）"
    assert book_table(app.outdir)["§ 交叉引用"] == "3（已解析 2，命中率 66.6%）"
    assert chapter_table(app.outdir)[0][4:9] == ["3", "1", "2", "2", "1"]


# tests/roots/test-stats-editions, editions zh_CN (the source) and en; the en catalog of ch1
# translates the title and the first paragraph, marks the second fuzzy; ch2 has no catalog.
#   zh: ch1 第1章 译本 / 第一段文字。 / 第二段。 = han 4 + 5 + 3;
#       ch2 第2章 无译文 / 只有原文。 = han 5 + 4
#   en: ch1 "Chapter 1 Translation" (en 2), "The first paragraph, translated." (en 4), the fuzzy
#       paragraph stays 第二段。 (han 3); ch2 untranslated (han 9); the editions capability's
#       "not fully translated" notice is not counted.
EN_COVERAGE = {  # every page's messages, the root page's too (as translations counts them)
    "total": 6,
    "translated": 2,
    "fuzzy": 1,
    "untranslated": 3,
    "percent": 33.3,
    "chapters": {"ch1": 66.6, "ch2": 0.0},  # 2 of 3, floored like every percentage
}


@pytest.mark.sphinx("html", testroot="stats-editions", freshenv=True)
def test_edition_coverage(app: SphinxTestApp) -> None:
    from seriesbook.stats.report import book_report

    app.build()
    report = book_report(app)
    assert report["editions"] == {"en": EN_COVERAGE}
    assert (report["book"]["han"], report["book"]["words"]) == (12 + 9, 12 + 9)
    assert book_table(app.outdir)["译本 en"] == "33.3%（2 / 6 条）"


@pytest.mark.sphinx(
    "html",
    testroot="stats-editions",
    srcdir="stats-editions-en",
    confoverrides={"language": "en"},
    freshenv=True,
)
def test_translated_edition_counts_translated_text(app: SphinxTestApp) -> None:
    from seriesbook.stats.report import book_report

    app.build()
    report = book_report(app)
    # the fuzzy "第二段。" is shown as its (possibly outdated) translation "Second."
    assert [(c["title"], c["han"], c["words"]) for c in report["chapters"]] == [
        ("Chapter 1 Translation", 0, 2 + 4 + 1),
        ("第2章 无译文", 9, 9),
    ]
    assert report["editions"] == {"en": EN_COVERAGE}
    table = book_table(app.outdir)
    assert table["words"] == "16 (Chinese characters + English words)"
    assert table["translation en"] == "33.3% (2 / 6 messages)"
