"""Catalogs read safely (i18n-catalog), one percentage rule, seriesbook's own UI catalog."""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from seriesbook.core.percent import floor_percent, percent_text
from seriesbook.editions._catalogs import load_catalog
from seriesbook.editions._coverage import Coverage
from seriesbook.editions._ui import CATALOG, LOCALE_DIR
from sphinx.testing.util import SphinxTestApp
from test_editions import copy_root

MakeApp = Callable[..., SphinxTestApp]
REPO = Path(__file__).resolve().parent.parent
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def problems(path: Path) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for p in load_catalog(path).problems]


def test_load_catalog_reports_instead_of_raising_or_printing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.po"
    good.write_text(HEADER + 'msgid "a"\nmsgstr "b"\n', encoding="utf-8")
    assert problems(good) == []
    assert load_catalog(good).catalog is not None

    latin = tmp_path / "latin.po"
    latin.write_bytes(HEADER.encode() + b'msgid "a"\nmsgstr "\xe9"\n')
    loaded = load_catalog(latin)
    assert loaded.catalog is None
    assert problems(latin) == [(6, "not utf-8: byte 0xe9; the catalog is not used")]

    garbage = tmp_path / "garbage.po"
    garbage.write_text(HEADER + "garbage line\n", encoding="utf-8")
    assert load_catalog(garbage).catalog is None
    [(line, message)] = problems(garbage)
    assert line == 5 and message.startswith("not a valid .po file")

    folder = tmp_path / "folder.po"
    folder.mkdir()
    [(line, message)] = problems(folder)
    assert line is None and message.startswith("cannot read the catalog")

    duplicate = tmp_path / "duplicate.po"
    duplicate.write_text(HEADER + 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', "utf-8")
    loaded = load_catalog(duplicate)
    assert loaded.catalog is not None and loaded.catalog.get("a").string == "b"
    assert problems(duplicate) == [
        (8, "duplicate msgid 'a' (first at line 5); the first translation is used")
    ]
    assert capsys.readouterr() == ("", "")  # Babel printed nothing


def test_one_percentage_rule() -> None:
    assert floor_percent(2, 3) == 66.6  # floored, never rounded up
    assert floor_percent(999, 1000) == 99.9
    assert floor_percent(0, 0) == 100.0
    assert Coverage.of(3, 2, 0).percent == floor_percent(2, 3)
    assert Coverage.of(1000, 999, 0).percent == 99.9  # never called complete
    assert [percent_text(p) for p in (92.3, 40.0, 100.0)] == ["92.3", "40", "100"]


def test_ui_catalog_ships_as_po_files_in_the_package() -> None:
    shipped = sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{CATALOG}.po"))
    assert {path.parent.parent.name for path in shipped} == {"zh", "zh_TW", "ja"}
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["seriesbook"]
    package = LOCALE_DIR.parent
    for path in shipped:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative


@pytest.mark.parametrize(
    ("language", "title", "notice"),
    [
        ("ja", "翻訳中", "このページの翻訳率は 0% です。"),
        ("en", "Translation in progress", "This page is 0% translated."),
        ("zh_TW", "翻譯進行中", "本頁已翻譯 0%。"),  # its own catalog, Traditional
        ("zh_HK", "翻译进行中", "本页已翻译 0%。"),  # none of its own: zh's
    ],
)
def test_notice_in_the_editions_language_from_the_ui_catalog(
    make_app: MakeApp, tmp_path: Path, language: str, title: str, notice: str
) -> None:
    srcdir = copy_root(tmp_path, "book")
    (srcdir / "locale" / "en").rename(srcdir / "locale" / "unused")
    app = make_app(
        "html",
        srcdir=srcdir,
        builddir=srcdir / "_build" / language,
        confoverrides={"language": language, "seriesbook_editions": ["zh_CN", language]},
        freshenv=True,
    )
    app.build()
    soup = BeautifulSoup((Path(app.outdir) / "ch01.html").read_text("utf-8"), "html.parser")
    box = soup.select_one(".seriesbook-translation-notice")
    assert box is not None
    assert title in box.get_text() and notice in box.get_text()
    compiled = Path(app.doctreedir) / "seriesbook-locale"
    assert sorted(p.parent.parent.name for p in compiled.glob("*/LC_MESSAGES/*.mo")) == [
        "ja",
        "zh",
        "zh_TW",
    ]


def test_a_catalog_is_parsed_again_only_when_its_file_changed(tmp_path: Path) -> None:
    """Shared between a build's readers while unchanged; an edit or a chmod is seen at once."""
    po = tmp_path / "ch01.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "甲"\nmsgstr "A"\n', encoding="utf-8")
    first = load_catalog(po)
    assert load_catalog(po) is first
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "甲"\nmsgstr "B"\n', encoding="utf-8")
    edited = load_catalog(po)
    assert edited is not first and edited.catalog is not None
    assert edited.catalog.get("甲").string == "B"
    po.chmod(0)
    try:
        unreadable = load_catalog(po)
        if os.geteuid() != 0:  # root reads it anyway
            assert unreadable.catalog is None and unreadable.problems
        assert unreadable is not edited
    finally:
        po.chmod(0o644)
