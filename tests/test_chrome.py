"""seriesbook.site._chrome in the built HTML: the theme's words in the edition's language, the
page's metadata, the 404 page; and the upstream code our fixes stand in for, pinned."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import sphinx_book_theme
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from seriesbook.site._chrome import theme_words_catalog
from seriesbook.site._templates import TEMPLATES
from sphinx.testing.util import SphinxTestApp

BOOK_THEME = Path(sphinx_book_theme.__file__).resolve().parent
CATALOG = Path(__file__).resolve().parent.parent / "_ext" / "seriesbook" / "locale" / "zh" / (
    "LC_MESSAGES/seriesbook.po")
# The templates of sphinx-book-theme our copies in site/templates/ replace (words in English
# only). When one changes upstream, compare it with our copy, carry the change, update the hash.
UPSTREAM_TEMPLATES = {
    "toggle-primary-sidebar.html":
        "316c98ec6677c6568d15dfd809ec20ad0458569110c435480ed87d2af34f13bb",
    "toggle-secondary-sidebar.html":
        "0cf39e5b61b02a71d94782c433ec6175bf464a593b6b64bdf16bf04a87767204",
    "sbt-sidebar-nav.html": "38342bd744042ee107080378719e7a55892f7c294bffad6f4efc78185edf7ae1",
}
# What a page of the Chinese edition must not say (the theme's English and Taiwan wording).
NOT_CHINESE = ("Search...", "Color mode", "System Settings", "Toggle primary sidebar",
               "Toggle secondary sidebar", "Repository", "Suggest edit", "Source repositories",
               "Print to PDF", "列印", 'aria-label="Main"')


def page(app: Any, name: str) -> str:
    return (Path(app.outdir) / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(UPSTREAM_TEMPLATES))
def test_upstream_templates_we_replace_are_pinned(name: str) -> None:
    upstream = BOOK_THEME / "theme" / "sphinx_book_theme" / "components" / name
    digest = hashlib.sha256(upstream.read_bytes()).hexdigest()
    assert digest == UPSTREAM_TEMPLATES[name], (
        f"sphinx-book-theme's {name} changed: carry the change into {TEMPLATES / name}")
    assert (TEMPLATES / name).is_file()


def test_sphinx_still_writes_captions_without_a_level() -> None:
    """sphinx-doc/sphinx#14030: when Sphinx writes aria-level itself, drop CAPTION_WITH_LEVEL."""
    import sphinx.writers.html5

    source = Path(sphinx.writers.html5.__file__).read_text(encoding="utf-8")
    assert "CLASS='caption', ROLE='heading')" in source


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_toctree_captions_have_a_heading_level(make_app: Any, rootdir: Path, tmp_path: Path,
                                               language: str) -> None:
    shutil.copytree(rootdir / "test-chrome", tmp_path / "src")
    app: SphinxTestApp = make_app("html", srcdir=tmp_path / "src",
                                  confoverrides={"language": language})
    app.build()
    for name in ("index.html", "ch01.html", "404.html"):
        soup = BeautifulSoup(page(app, name), "html.parser")
        captions = soup.select('[role="heading"]')
        assert captions and all(c.get("aria-level") == "2" for c in captions), name


def test_simplified_words_never_stand_in_for_traditional(tmp_path: Path) -> None:
    compiled = tmp_path / "zh" / "LC_MESSAGES" / "seriesbook.mo"
    compiled.parent.mkdir(parents=True)
    compiled.write_bytes(b"")
    assert theme_words_catalog(tmp_path, "zh_CN") == compiled
    assert theme_words_catalog(tmp_path, "zh_TW") is None
    assert theme_words_catalog(tmp_path, "en") is None


def theme_messages() -> set[str]:
    """Every word sphinx-book-theme translates (its Python and templates), by its source."""
    found: set[str] = set()
    for path in BOOK_THEME.rglob("*"):
        if path.suffix in {".py", ".html"}:
            text = path.read_text(encoding="utf-8")
            found.update(re.findall(r"""\btranslat(?:ion|e)\(\s*["']([^"']+)["']\s*\)""", text))
    return found


def test_the_catalog_holds_every_word_of_the_book_theme() -> None:
    with CATALOG.open("rb") as stream:
        catalog = read_po(stream)
    missing = sorted(word for word in theme_messages() if not catalog.get(word))
    assert missing == [], f"sphinx-book-theme has new words: translate them in {CATALOG}"


@pytest.mark.sphinx(
    "html", testroot="chrome",
    confoverrides={"language": "en", "html_baseurl": "https://book.example.org/en/"},
)
def test_hreflang_alternates_are_fully_qualified_where_the_address_is_known(app: Any) -> None:
    app.build()
    soup = BeautifulSoup(page(app, "ch02.html"), "html.parser")
    alternates = {link["hreflang"]: link["href"] for link in soup.select("link[hreflang]")}
    assert alternates == {
        "zh-CN": "https://book.example.org/zh_CN/ch02.html",
        "en": "https://book.example.org/en/ch02.html",
    }


@pytest.mark.sphinx("html", testroot="chrome")
def test_chinese_edition_speaks_chinese(app: Any) -> None:
    app.build()
    html = page(app, "ch01.html")
    assert [word for word in NOT_CHINESE if word in html] == []
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select_one(".search-button__default-text") is not None
    assert soup.select_one("input.form-control")["placeholder"] == "搜索…"
    primary = soup.select_one(".bd-header-article .primary-toggle")
    assert primary is not None and primary["title"] == "显示或隐藏全书目录"
    assert soup.select_one('[data-bs-title="打印成 PDF"], [title="打印成 PDF"]') is not None


def test_an_earlier_build_in_the_process_leaves_the_theme_words_alone(
        make_app: Any, rootdir: Path, tmp_path: Path) -> None:
    """Sphinx's default ``templates_path`` is one list for the whole process, which both themes
    append their component directories to: an HTML build, then a gettext build (which takes our
    layer out of its own list), then an HTML build in one process, as ``seriesbook serve`` or
    ``check`` may run them, still puts our layer before the themes' and speaks Chinese."""
    from sphinx.config import Config

    shared = Config.config_values["templates_path"].default
    before = list(shared)
    for name, builder in (("first", "html"), ("gettext", "gettext"), ("last", "html")):
        src = shutil.copytree(rootdir / "test-chrome", tmp_path / name)
        app = make_app(builder, srcdir=src)
        app.build()
        if builder == "html":
            assert app.config.templates_path[0] == str(TEMPLATES)
            html = page(app, "ch01.html")
            assert [word for word in NOT_CHINESE if word in html] == [], name
    assert str(TEMPLATES) not in shared
    assert shared[:len(before)] == before  # nothing of ours was put in or taken out


@pytest.mark.sphinx("html", testroot="chrome", confoverrides={"language": "en"})
def test_english_edition_speaks_english(app: Any) -> None:
    app.build()
    soup = BeautifulSoup(page(app, "ch02.html"), "html.parser")
    primary = soup.select_one(".bd-header-article .primary-toggle")
    assert primary is not None and primary["title"] == "Toggle primary sidebar"
    assert soup.select_one("input.form-control")["placeholder"] == "Search…"
    assert soup.select_one('nav.bd-docs-nav')["aria-label"] == "Chapters"


@pytest.mark.sphinx("html", testroot="chrome", confoverrides={"language": "en"})
def test_metadata(app: Any) -> None:
    app.build()
    soup = BeautifulSoup(page(app, "ch02.html"), "html.parser")
    description = soup.select_one('meta[name="description"]')["content"]
    assert description.startswith("Dispatch picks the kernel that runs")
    assert soup.select_one('meta[property="og:title"]')["content"] == "Chapter 2 Dispatch"
    assert soup.select_one('meta[property="og:description"]')["content"] == description
    alternates = {link["hreflang"]: link["href"] for link in soup.select("link[hreflang]")}
    assert alternates == {"zh-CN": "../zh_CN/ch02.html", "en": "../en/ch02.html"}
    icon = soup.select_one('link[rel="icon"]')["href"]
    assert (Path(app.outdir) / icon).is_file()
    assert "localStorage.getItem(\"mode\") || \"auto\"" in page(app, "ch02.html")


@pytest.mark.sphinx("html", testroot="chrome")
def test_a_404_page_in_the_editions_words(app: Any) -> None:
    app.build()
    html = page(app, "404.html")
    assert "<h1>页面不存在</h1>" in html
    assert 'href="/zh_CN/_static/' in html
    # the sidebar's chapters too (seriesbook's faster sidebar yields to sphinx-notfound-page here)
    sidebar = BeautifulSoup(html, "html.parser").select("nav.bd-docs-nav a[href]")
    assert sidebar and all(str(a["href"]).startswith("/zh_CN/") for a in sidebar)
    assert "<h1>Page not found</h1>" not in html


@pytest.mark.sphinx("epub", testroot="chrome", freshenv=True)
def test_no_chrome_in_an_epub(app: Any) -> None:
    app.build()
    assert not (Path(app.outdir) / "404.xhtml").exists()
    pages = [p.read_text(encoding="utf-8") for p in Path(app.outdir).rglob("*.xhtml")]
    assert pages and not [text for text in pages if "seriesbook-chrome" in text]


@pytest.mark.sphinx("gettext", testroot="chrome", freshenv=True)
def test_no_theme_words_in_the_books_catalogs(app: Any) -> None:
    """Our templates' words are context values, not ``_()`` calls: ``make gettext`` extracts
    nothing from them into the book's catalog templates."""
    app.build()
    templates = Path(app.outdir) / "sphinx.pot"
    assert not templates.exists() or "Toggle primary sidebar" not in templates.read_text(
        encoding="utf-8")
