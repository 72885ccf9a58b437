"""seriesbook.site: local Mermaid, a Chinese search index, theme wiring, an offline site."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import seriesbook
from bs4 import BeautifulSoup
from seriesbook.search.query import load_index
from seriesbook.site import (
    CHINESE_STEMMER_SHIM,
    MERMAID_CHUNKS,
    MERMAID_ENTRY,
    MERMAID_ENV,
    packaged_mermaid,
)
from sphinx.errors import ExtensionError
from sphinx.testing.util import SphinxTestApp

CSS_REFERENCE = re.compile(
    r"""@import\s+(?:url\()?\s*["']?(?P<import>[^"')\s;]+)|url\(\s*["']?(?P<url>[^"')\s]+)"""
)
ES_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](?P<url>[^"']+)["']""")


def is_off_site(url: str) -> bool:
    """A URL the browser would fetch from another host (data:, relative and #ids are local)."""
    return url.startswith("//") or urlsplit(url).scheme in {"http", "https", "ftp"}


def off_site_references(outdir: Path) -> Iterator[str]:
    """Every off-site reference a page would load: scripts, stylesheets, CSS and ES imports."""
    for path in sorted(outdir.rglob("*")):
        where = path.relative_to(outdir)
        if path.suffix == ".html":
            soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src")):
                for element in soup.find_all(tag, attrs={attribute: True}):
                    url = str(element[attribute])
                    relations = (element.get("rel") or []) if tag == "link" else []
                    if "canonical" in relations or (
                        "alternate" in relations and element.get("hreflang")
                    ):
                        continue  # metadata for search engines, never fetched
                    if is_off_site(url):
                        yield f"{where}: <{tag} {attribute}={url}>"
            styles = [s.get_text() for s in soup.find_all("style")]
            styles += [str(e["style"]) for e in soup.find_all(style=True)]
            yield from (f"{where}: {url}" for url in _css_urls("\n".join(styles)))
            scripts = "\n".join(s.get_text() for s in soup.find_all("script", src=False))
            yield from (f"{where}: {url}" for url in _js_urls(scripts))
        elif path.suffix == ".css":
            yield from (f"{where}: {url}" for url in _css_urls(path.read_text(encoding="utf-8")))
        elif path.suffix in {".js", ".mjs"}:
            text = path.read_text(encoding="utf-8")
            yield from (f"{where}: {url}" for url in [*_css_urls(text), *_js_urls(text)])


def _css_urls(text: str) -> list[str]:
    found = (m.group("import") or m.group("url") for m in CSS_REFERENCE.finditer(text))
    return [url for url in found if is_off_site(url)]


def _js_urls(text: str) -> list[str]:
    return [m.group("url") for m in ES_IMPORT.finditer(text) if is_off_site(m.group("url"))]


def search_index(outdir: Path) -> dict[str, Any]:
    """Sphinx's search index, the JSON inside ``searchindex.js`` (seriesbook's packing undone)."""
    return load_index(outdir / "searchindex.js")


@pytest.mark.sphinx("html", testroot="site-basic")
def test_build_is_clean(app: SphinxTestApp) -> None:
    app.build()
    assert app.warning.getvalue() == ""


@pytest.mark.sphinx("html", testroot="site-basic")
def test_mermaid_is_served_from_the_site(app: SphinxTestApp) -> None:
    app.build()
    static = app.outdir / "_static" / "mermaid"
    assert (static / MERMAID_ENTRY).is_file()
    chunks = list((static / MERMAID_CHUNKS).glob("*.mjs"))
    assert chunks
    assert not list(static.rglob("*.map"))
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    # the diagram is drawn at build time: mermaid stays in the site for diagrams an author
    # leaves to the browser (test_diagrams.py), and this page loads none of it
    assert 'class="seriesbook-diagram"' in html
    assert MERMAID_ENTRY not in html


@pytest.mark.sphinx("html", testroot="site-basic")
def test_no_reference_leaves_the_site(app: SphinxTestApp) -> None:
    app.build()
    assert list(off_site_references(app.outdir)) == []


def test_off_site_scan_finds_each_kind(tmp_path: Path) -> None:
    """The scanner must be able to fail: plant one of each off-site reference."""
    (tmp_path / "page.html").write_text(
        '<html><head><script src="https://cdn.example/a.js"></script>'
        '<link rel="stylesheet" href="//fonts.example/f.css">'
        '<link rel="canonical" href="https://book.example/page.html">'
        '<link rel="alternate" hreflang="en" href="https://book.example/en/page.html">'
        '<link rel="alternate" type="application/rss+xml" href="https://feeds.example/r.xml">'
        '<style>@import url("https://fonts.example/g.css");</style>'
        '<script type="module">import m from "https://cdn.example/m.mjs";</script>'
        '</head><body><div style="background: url(http://img.example/x.png)"></div>'
        '<script src="_static/local.js"></script></body></html>',
        encoding="utf-8",
    )
    (tmp_path / "a.css").write_text(
        "@import 'https://fonts.example/h.css';\n"
        "b { background: url(data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg'/>) }\n"
        "i { background: url('https://img.example/y.png') }\n",
        encoding="utf-8",
    )
    (tmp_path / "b.js").write_text('await import("https://cdn.example/late.mjs");\n')
    found = list(off_site_references(tmp_path))
    assert [line.split(": ", 1)[1] for line in found] == [
        "https://fonts.example/h.css",
        "https://img.example/y.png",
        "https://cdn.example/late.mjs",
        "<script src=https://cdn.example/a.js>",
        "<link href=//fonts.example/f.css>",
        "<link href=https://feeds.example/r.xml>",
        "https://fonts.example/g.css",
        "http://img.example/x.png",
        "https://cdn.example/m.mjs",
    ]


@pytest.mark.sphinx("html", testroot="site-basic")
def test_search_index_holds_chinese_words(app: SphinxTestApp) -> None:
    app.build()
    index = search_index(app.outdir)
    for word in ("拓扑", "节点", "驱动"):
        assert word in index["terms"], f"{word!r} missing from the search index"
    assert "引擎" in index["titleterms"]


@pytest.mark.sphinx("html", testroot="site-basic")
def test_chinese_stemmer_is_defined_before_language_data(app: SphinxTestApp) -> None:
    """Sphinx 9.0's language_data.js names ``ChineseStemmer``; search breaks if it is undefined."""
    app.build()
    language_data = (app.outdir / "_static" / "language_data.js").read_text(encoding="utf-8")
    if "window.Stemmer = ChineseStemmer" not in language_data:
        pytest.skip("this Sphinx no longer names ChineseStemmer: the shim can go")
    html = (app.outdir / "search.html").read_text(encoding="utf-8")
    assert f"<script>{CHINESE_STEMMER_SHIM}</script>" in html  # inline: runs as it is parsed
    # language_data.js runs after it: later in the page, or deferred (the search page's scripts
    # are, so its text shows before the index arrives)
    deferred = '<script defer src="_static/language_data.js">' in html
    assert deferred or html.index(CHINESE_STEMMER_SHIM) < html.index("_static/language_data.js")


@pytest.mark.sphinx("html", testroot="site-basic")
def test_theme_buttons_come_from_repository_url(app: SphinxTestApp) -> None:
    app.build()
    soup = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    links = {str(a["href"]) for a in soup.find_all("a", href=True)}
    assert "https://github.com/example/site-book" in links
    assert "https://github.com/example/site-book/edit/main/index.md" in links


@pytest.mark.sphinx("html", testroot="site-basic")
def test_footer_shows_configured_copyright(app: SphinxTestApp) -> None:
    app.build()
    soup = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    footer = soup.find(class_="copyright")
    assert footer is not None
    assert "2026，站点测试作者。正文采用 CC BY-NC-SA 4.0 许可" in footer.get_text()
    assert soup.html is not None and soup.html["lang"] == "zh-CN"


@pytest.mark.sphinx("html", testroot="site-basic")
def test_without_an_override_the_packaged_mermaid_is_served(
    make_app: Any, app_params: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a volume that only `pip install`s seriesbook gets: no npm, no CDN."""
    monkeypatch.delenv(MERMAID_ENV, raising=False)
    args, kwargs = app_params
    app = make_app(*args, **kwargs)
    app.build()
    served, packaged = app.outdir / "_static" / "mermaid", packaged_mermaid()
    assert (served / MERMAID_ENTRY).read_bytes() == (packaged / MERMAID_ENTRY).read_bytes()
    assert {p.name for p in (served / MERMAID_CHUNKS).iterdir()} == {
        p.name for p in (packaged / MERMAID_CHUNKS).iterdir()
    }


@pytest.mark.sphinx("html", testroot="site-basic")
@pytest.mark.parametrize("named_by", ["seriesbook_mermaid_dir", MERMAID_ENV])
def test_an_override_without_mermaid_is_an_error_naming_it(
    make_app: Any, app_params: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named_by: str
) -> None:
    """Never a silent fallback to the packaged copy: the author asked for another mermaid."""
    monkeypatch.delenv(MERMAID_ENV, raising=False)
    args, kwargs = app_params
    if named_by == MERMAID_ENV:
        monkeypatch.setenv(MERMAID_ENV, str(tmp_path))
    else:
        kwargs["confoverrides"] = {"seriesbook_mermaid_dir": str(tmp_path)}
    with pytest.raises(ExtensionError, match=rf"{re.escape(named_by)} is .*holds no mermaid"):
        make_app(*args, **kwargs)


@pytest.mark.sphinx("html", testroot="site-basic")
def test_build_without_jieba_names_jieba(
    make_app: Any, app_params: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "jieba", None)  # `import jieba` now raises ImportError
    args, kwargs = app_params
    with pytest.raises(ExtensionError, match=r"pip install jieba"):
        make_app(*args, **kwargs)


@pytest.mark.sphinx("dummy", testroot="site-basic")
def test_non_html_builds_need_neither_mermaid_nor_jieba(
    make_app: Any, app_params: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MERMAID_ENV, str(tmp_path))
    monkeypatch.setitem(sys.modules, "jieba", None)
    args, kwargs = app_params
    kwargs["confoverrides"] = {"seriesbook_mermaid_dir": str(tmp_path), "language": "zh_CN"}
    app = make_app(*args, **kwargs)
    app.build()
    assert "mermaid" not in app.warning.getvalue()


def _extension_modules() -> list[str]:
    """Every module of the package that is a Sphinx extension (has a ``setup``)."""
    names = ["seriesbook"]
    for module in pkgutil.walk_packages(seriesbook.__path__, "seriesbook."):
        if module.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it would run the command line
        if hasattr(importlib.import_module(module.name), "setup"):
            names.append(module.name)
    return names


@pytest.mark.sphinx("dummy", testroot="site-minimal")
@pytest.mark.parametrize("name", _extension_modules())
def test_every_setup_returns_version_and_parallel_safety(
    make_app: Any, app_params: Any, name: str
) -> None:
    args, kwargs = app_params
    app = make_app(*args, **kwargs, confoverrides={"extensions": [name]})
    extension = app.extensions[name]
    assert extension.version == seriesbook.__version__
    assert extension.parallel_read_safe is True
    assert extension.parallel_write_safe is True


def test_capabilities_are_extension_modules() -> None:
    assert set(seriesbook.CAPABILITIES) <= set(_extension_modules())


@pytest.mark.parametrize(
    ("argument", "expected"),
    [("--version", f"seriesbook {seriesbook.__version__}\n"), ("--help", "usage: seriesbook")],
)
def test_python_m_seriesbook(argument: str, expected: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "seriesbook", argument], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(expected)


@pytest.mark.sphinx(
    "html",
    testroot="site-basic",
    confoverrides={"seriesbook_download_url": "downloads/{language}/book.{format}"},
)
def test_download_menu_in_the_editions_language(app: SphinxTestApp) -> None:
    """The theme's download menu links the book's PDF and EPUB, its tooltip from the UI catalog."""
    app.build()
    html = (Path(app.outdir) / "index.html").read_text("utf-8")
    assert 'href="downloads/zh_CN/book.pdf"' in html  # from the edition's root page
    assert 'href="downloads/zh_CN/book.epub"' in html
    assert "下载全书（PDF）" in html
