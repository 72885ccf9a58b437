"""§ sections across language editions and sibling volumes (intersphinx), and beside MyST."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]


def _soup(app: SphinxTestApp, page: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")


def _ours(app: SphinxTestApp) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    return [line for line in text.splitlines() if "[seriesbook." in line]


@pytest.mark.sphinx("html", testroot="sections-i18n")
def test_translated_edition_keeps_anchors(app: SphinxTestApp) -> None:
    app.build()
    ch01 = _soup(app, "ch01.html")
    assert [s["id"] for s in ch01.find_all("section")] == ["ch-1", "sec-1-1", "sec-1-2"]
    # the translator dropped "§1.2" from the heading: same id, the number kept in the tooltip
    assert ch01.find("section", id="sec-1-2").h2.get_text().startswith("Allocator")
    links = [
        (a.get_text(), a["href"], a["title"])
        for a in _soup(app, "ch02.html").select("a.reference")
        if a.find(class_=["sec-ref", "chapter-ref"])
    ]
    assert links == [
        ("§1.2", "ch01.html#sec-1-2", "§1.2 Allocator"),
        ("Chapter 1", "ch01.html#ch-1", "Chapter 1 Tensors"),  # the English chapter pattern
        # an untranslated paragraph: the source language's chapter pattern still links
        ("§1.1", "ch01.html#sec-1-1", "§1.1 Storage"),
        ("第1章", "ch01.html#ch-1", "Chapter 1 Tensors"),
    ]
    assert _ours(app) == []


def test_sibling_volumes_link_both_ways(make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    def build(name: str, **inventories: SphinxTestApp) -> SphinxTestApp:
        """Build a copy of test-sections-<name> with intersphinx to the given volumes."""
        shutil.copytree(rootdir / f"test-sections-{name}", tmp_path / name)
        mapping = {
            inv: (str(app.outdir), str(Path(app.outdir) / "objects.inv"))
            for inv, app in inventories.items()
        }
        app = make_app("html", srcdir=tmp_path / name,
                       confoverrides={"intersphinx_mapping": mapping})
        app.build()
        return app

    ours = build("links")
    this_volume = Path(ours.outdir)

    # a stock-Sphinx sibling links in through this volume's objects.inv
    sibling = build("sibling", pt=ours)
    # (a second app in one process re-registers Sphinx's nodes: that warning is not ours)
    assert not re.search(r"not found|intersphinx|inventory", sibling.warning.getvalue())
    links = {a.get_text(): a["href"] for a in _soup(sibling, "index.html").select("a.reference")}
    assert links["§1.1.1 sizes 与 strides"] == f"{this_volume}/ch01.html#sec-1-1-1"
    assert links["第2章 Dispatcher"] == f"{this_volume}/ch02.html#ch-2"

    # and {sec}`sib:3.2` links this series' volume into the sibling
    sibling_out = Path(sibling.outdir)
    external = build("external", sib=sibling)
    [link] = [a for a in _soup(external, "index.html").select("a.reference") if a.get("href")]
    assert link.get_text() == "§3.2"
    assert link["href"] == f"{sibling_out}/index.html#sec-3-2"
    assert link["title"] == "3.2 兄弟卷里的一节"  # the sibling's own display name
    warnings = _ours(external)
    assert len(warnings) == 2
    assert "index.md:3: WARNING: §9.9 is not in the inventory 'sib'" in warnings[0]
    assert "[seriesbook.sec-unresolved]" in warnings[0]
    assert "§1.1 names the inventory 'nowhere', which intersphinx_mapping lacks" in warnings[1]
    # one warning each: not also Sphinx's `undefined label` (ref.ref)
    assert "ref.ref" not in external.warning.getvalue()


@pytest.mark.sphinx(
    "html",
    testroot="sections-incremental",
    confoverrides={"myst_enable_extensions": ["section_ref"]},
)
def test_myst_section_ref_warns_and_yields(app: SphinxTestApp) -> None:
    app.build()
    warnings = _ours(app)
    assert len(warnings) == 1
    assert "section_ref" in warnings[0] and "[seriesbook.sec-section-ref]" in warnings[0]
    links = [
        (a.get_text(), a["href"])
        for a in _soup(app, "ch02.html").select("a.reference")
        if a.find(class_=["sec-ref", "chapter-ref"])
    ]
    assert links == [
        ("§1.2", "ch01.html#sec-1-2"),
        ("§1.3", "ch01.html#sec-1-3"),
        ("第1章", "ch01.html#ch-1"),
    ]
    assert "Section reference target not found" not in app.warning.getvalue()
