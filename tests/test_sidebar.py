"""seriesbook.speed.sidebar: the theme's titles-only toctree from reduced tocs, same pages.

Every test builds the same book with the reduction off (Sphinx's own path) and on, and compares
every written file byte for byte: a book with two captioned parts, a hidden toctree, a toctree
nested in a subsection, toctrees inside ``only``, a ``:tocdepth:`` page, an external entry, a page
in a subdirectory and a page in no toctree.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from conftest import assert_same_files, warning_lines
from docutils import nodes
from seriesbook.speed import sidebar
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
IGNORED = {".buildinfo", ".buildinfo.bak"}


def _written(outdir: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and path.name not in IGNORED and ".doctrees" not in path.parts
    }


def _build(
    make_app: MakeApp, src: Path, *, enabled: bool, jobs: int = 1, fresh: bool = True, **conf: Any
) -> tuple[SphinxTestApp, dict[str, bytes]]:
    conf = {"seriesbook_speedups": enabled, **conf}
    app = make_app("html", srcdir=src, parallel=jobs, freshenv=fresh, confoverrides=conf)
    app.build()
    app.cleanup()  # the next app in this test registers docutils' nodes afresh
    return app, _written(Path(app.outdir))


def _pages(written: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in written.items() if name.endswith(".html")}




def _copy_root(rootdir: Path, target: Path) -> Path:
    shutil.copytree(rootdir / "test-site-sidebar", target)
    return target


@pytest.mark.parametrize(
    ("theme_options", "jobs"),
    [
        ({}, 1),
        ({}, 2),
        ({"collapse_navbar": True}, 1),
        ({"max_navbar_depth": 1, "show_navbar_depth": 2}, 2),
    ],
)
@pytest.mark.slow  # two builds per theme option set
def test_pages_are_byte_identical(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, theme_options: dict[str, Any], jobs: int
) -> None:
    conf = {"html_theme_options": theme_options}
    sphinx_app, sphinx_pages = _build(
        make_app, _copy_root(rootdir, tmp_path / "off"), enabled=False, jobs=jobs, **conf
    )
    ours_app, our_pages = _build(
        make_app, _copy_root(rootdir, tmp_path / "on"), enabled=True, jobs=jobs, **conf
    )
    assert warning_lines(ours_app) == warning_lines(sphinx_app) == []
    assert_same_files(sphinx_pages, our_pages)
    assert "orphan.html" in our_pages


def test_incremental_build_is_byte_identical(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """An edited document's new toc reaches every page's sidebar, as in a clean build."""
    incremental = _copy_root(rootdir, tmp_path / "incremental")
    _build(make_app, incremental, enabled=True)
    for src in (incremental, _copy_root(rootdir, tmp_path / "clean")):
        page = src / "part1" / "ch01-extra.md"
        text = page.read_text(encoding="utf-8").replace("第1章附：深入", "第1章附：改名")
        page.write_text(text + "\n```{toctree}\n../appendix\n```\n", encoding="utf-8")
    app, our_pages = _build(make_app, incremental, enabled=True, fresh=False)
    assert "1 changed" in app.status.getvalue(), app.status.getvalue()
    _, clean_pages = _build(make_app, tmp_path / "clean", enabled=False)
    # Sphinx's own search index keeps the old terms of a re-read page: compare the pages
    assert_same_files(_pages(clean_pages), _pages(our_pages))
    assert "第1章附：改名" in our_pages["orphan.html"].decode()


def test_an_edited_paragraph_writes_no_more_pages_than_sphinx_would(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    """Only a change of what other pages show (a title, a toctree) writes every page again."""
    src = _copy_root(rootdir, tmp_path / "book")
    _build(make_app, src, enabled=True)
    page = src / "part1" / "ch01-extra.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n又一段。\n", encoding="utf-8")
    app, _ = _build(make_app, src, enabled=True, fresh=False)
    status = re.sub(r"\x1b\[[\d;]*m", "", app.status.getvalue())
    written = re.findall(r"writing output\.\.\. \[[ \d]+%\] (\S+)", status)
    assert "part1/ch01-extra" in written
    assert len(written) < 4, written


def test_sidebar_shows_titles_and_nested_toctrees(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reduced: list[nodes.Element] = []
    original = sidebar.titles_only_toc

    def counting(toc: nodes.Element) -> nodes.Element:
        reduced.append(toc)
        return original(toc)

    monkeypatch.setattr(sidebar, "titles_only_toc", counting)
    _, pages = _build(make_app, _copy_root(rootdir, tmp_path / "book"), enabled=True)
    assert reduced, "the theme's titles-only sidebar did not go through the reduced tocs"
    nav = BeautifulSoup(pages["ch02.html"], "html.parser").select_one("nav.bd-docs-nav")
    assert nav is not None
    links = [a.get_text(strip=True) for a in nav.find_all("a")]
    assert "第1章附：深入" in links  # a toctree below a subsection of ch01
    assert "页面 ch02-html" in links and "页面 ch02-hidden" in links
    assert "附录" in links  # the hidden toctree of the root
    assert "附录注释" not in links  # below a section the appendix's `tocdepth: 1` cuts
    assert not any("1.1" in link for link in links)  # titles only, no sections
    captions = [p.get_text(strip=True) for p in nav.select("p.caption")]
    assert captions == ["第一篇", "第二篇"]


def test_reduced_toc_keeps_titles_and_paths_to_toctrees(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    app, _ = _build(make_app, _copy_root(rootdir, tmp_path / "book"), enabled=True)
    toc = app.env.tocs["part1/ch01"]
    reduced = sidebar.titles_only_toc(toc)
    titles = [ref.astext() for ref in reduced.findall(nodes.reference)]
    assert titles == ["第1章 架构"]
    assert len(list(reduced.findall(sidebar.addnodes.toctree))) == 1
    assert len(list(toc.findall(nodes.reference))) > len(titles)  # the original is untouched
