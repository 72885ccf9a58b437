"""Numbers that agree and marks that are right (issue 31): ``seriesbook stats``, ``seriesbook
translations``, the page's notice and the status page count the same messages the same way; a
title the edition shows untranslated (status page, sidebar in any theme) carries its language."""

from __future__ import annotations

import json
import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from seriesbook.commands.cli import main
from seriesbook.core.percent import floor_percent, percent_text
from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-translations-book"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """The translators' book with one fuzzy and one empty translation in ch01."""
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = catalog.read_text(encoding="utf-8")
    intro, storage = "本章介绍张量的存储与视图。", "存储是一块连续的内存，张量只是它的一个视图。"
    text = text.replace(f'msgid "{intro}"', f'#, fuzzy\nmsgid "{intro}"')
    text = re.sub(f'(msgid "{storage}"\nmsgstr )".*"', r'\1""', text)
    catalog.write_text(text, encoding="utf-8")
    return book


def english_site(book: Path) -> Path:
    """The English edition of *book*, built; its output directory."""
    app = SphinxTestApp("html", srcdir=book, builddir=book / "_build" / "en",
                        confoverrides={"language": "en"}, status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    capsys.readouterr()
    assert main(list(argv)) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_stats_translations_notice_and_status_page_agree(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stats = _json(capsys, "stats", str(book), "--format", "json")["editions"]["en"]  # type: ignore[index]
    report = _json(capsys, "translations", str(book), "--format", "json")
    counts = {key: report[key] for key in ("translated", "fuzzy", "untranslated")}
    assert counts == {"translated": 11, "fuzzy": 1, "untranslated": 1}  # the book as edited
    assert {key: stats[key] for key in counts} == counts
    assert stats["total"] == sum(counts.values())  # type: ignore[arg-type]
    percent = floor_percent(11, 13)
    assert stats["percent"] == percent
    chapters = {c["docname"]: c["percent"] for c in report["chapters"]}  # type: ignore[attr-defined]
    assert stats["chapters"] == {d: p for d, p in chapters.items() if d != "index"}

    capsys.readouterr()
    main(["translations", str(book)])
    assert capsys.readouterr().out.startswith(f"en: {percent_text(percent)}% translated: 11 ")

    out = english_site(book)
    status = BeautifulSoup((out / "translation-status.html").read_text("utf-8"), "html.parser")
    summary = status.select_one("section p")
    assert summary is not None
    assert summary.get_text().startswith(f"{percent_text(percent)}% translated: 11 of 13")
    page = BeautifulSoup((out / "ch01.html").read_text("utf-8"), "html.parser")
    notice = page.select_one(".seriesbook-translation-notice")
    assert notice is not None
    assert f"This page is {percent_text(chapters['ch01'])}% translated" in notice.get_text()


def test_status_page_marks_titles_shown_untranslated(tmp_path: Path) -> None:
    """Marks that are right: a title the edition shows in the book's language says so."""
    book = tmp_path / "lang"
    shutil.copytree(Path(__file__).parent / "roots" / "test-editions-lang", book)
    page = BeautifulSoup((english_site(book) / "translation-status.html").read_text("utf-8"),
                         "html.parser")
    marks = {link.get_text(): link.find("span", lang=True) for link in page.select("tbody a")}
    assert marks["§2.2 未译小节"] is not None and marks["§2.2 未译小节"]["lang"] == "zh-CN"
    assert marks["§2.1 A translated section"] is None
    assert marks["Chapter 2 Partly translated"] is None
    untranslated = [text for text, mark in marks.items() if mark is not None]
    assert all(any("\u4e00" <= c <= "\u9fff" for c in text) for text in untranslated)


def test_sidebar_captions_are_marked_in_any_theme(tmp_path: Path) -> None:
    """alabaster asks for the sidebar without ``titles_only``: its captions are marked too."""
    book = tmp_path / "lang"
    shutil.copytree(Path(__file__).parent / "roots" / "test-editions-lang", book)
    app = SphinxTestApp("html", srcdir=book, builddir=book / "_build" / "en",
                        confoverrides={"language": "en", "html_theme": "alabaster"},
                        status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
    page = BeautifulSoup((Path(app.outdir) / "ch01.html").read_text("utf-8"), "html.parser")
    captions = {c.get_text(): c.get("lang") for c in page.select(".sphinxsidebar p.caption")}
    assert captions == {"Part One Translated": None, '第二篇 "原文" & @源码': "zh-CN"}
