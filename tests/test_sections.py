"""§ sections in an HTML build: anchors, toc, auto-links, places never linked, role, checks."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from seriesbook.sections import find_mentions, section_counts
from sphinx.testing.util import SphinxTestApp
from sphinx.util.inventory import InventoryFile


def _soup(app: SphinxTestApp, page: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")


def _links(soup: BeautifulSoup, section_id: str) -> list[tuple[str, str, str]]:
    """(text, href, title) of the § and chapter links inside one section (not its subsections)."""
    section = soup.find("section", id=section_id)
    assert isinstance(section, Tag)
    found = []
    for a in section.find_all("a", class_="reference"):
        if a.find_parent("section") is section and a.find(class_=["sec-ref", "chapter-ref"]):
            found.append((a.get_text(), a.get("href", ""), a.get("title", "")))
    return found


def _warnings(app: SphinxTestApp) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())


def built_copy(
    name: str, tmp_path_factory: pytest.TempPathFactory, rootdir: Path
) -> Iterator[SphinxTestApp]:
    """Build a copy of test-sections-<name> once, for read-only tests of a module."""
    src = tmp_path_factory.mktemp(name) / "src"
    shutil.copytree(rootdir / f"test-sections-{name}", src)
    app = SphinxTestApp("html", srcdir=src, status=StringIO(), warning=StringIO())
    app.build()
    yield app
    app.cleanup()


@pytest.fixture(scope="module")
def links_app(tmp_path_factory: pytest.TempPathFactory, rootdir: Path) -> Iterator[SphinxTestApp]:
    yield from built_copy("links", tmp_path_factory, rootdir)


def test_headings_get_number_ids(links_app: SphinxTestApp) -> None:
    soup = _soup(links_app, "ch01.html")
    ids = [s["id"] for s in soup.find_all("section")]
    assert ids == ["ch-1", "sec-1-1", "sec-1-1-1", "sec-1-1-2", "sec-1-2"]
    permalink = soup.find("section", id="sec-1-1-1").find("a", class_="headerlink")
    assert permalink["href"] == "#sec-1-1-1"


def test_toc_links_use_number_ids(links_app: SphinxTestApp) -> None:
    index = _soup(links_app, "index.html")
    toc = [a["href"] for a in index.select("li.toctree-l2 > a, li.toctree-l3 > a")]
    assert toc == [
        "ch01.html#sec-1-1", "ch01.html#sec-1-1-1", "ch01.html#sec-1-1-2", "ch01.html#sec-1-2",
        "ch02.html#sec-2-1", "ch02.html#sec-2-2", "ch03.html#sec-3-1",
    ]


def test_every_mention_form_links(links_app: SphinxTestApp) -> None:
    links = _links(_soup(links_app, "ch02.html"), "sec-2-1")
    texts = [text for text, _, _ in links]
    assert texts == [
        "§1.1", "§1.2",  # single, sentence-final
        "§1.1", "§1.2",  # list with 、
        "§1.1", "§1.2", "§1.1", "1.2", "§1.1.1", "1.1.2",  # ranges
        "§1.1.2", "§1.1.1", "§1.2", "§1.1",  # full-width punctuation around the number
        "§1.2",  # third line of the paragraph
        "§1.1",  # §1.1-2 is not a full range
        "第1章", "第2章",  # chapters (第9章 does not exist)
        "§1.1.1", "字段",  # {sec} role, plain and with an explicit title
    ]
    assert links[0] == ("§1.1", "ch01.html#sec-1-1", "§1.1 TensorImpl 的字段")
    assert links[7] == ("1.2", "ch01.html#sec-1-2", "§1.2 分配器")
    assert links[16] == ("第1章", "ch01.html#ch-1", "第1章 张量与存储")
    assert links[17] == ("第2章", "#ch-2", "第2章 Dispatcher")


def test_never_linked_places(links_app: SphinxTestApp) -> None:
    soup = _soup(links_app, "ch02.html")
    section = soup.find("section", id="sec-2-2")
    assert isinstance(section, Tag)
    assert not section.find(class_=["sec-ref", "chapter-ref"], string=re.compile("§1.1|第1章"))
    assert "§1.1" in section.find("code").get_text()
    assert "代码块 §1.1 第1章" in section.find("pre").get_text()
    assert "§1.1" in section.find("pre", class_="mermaid").get_text()
    external = section.find("a", href="https://example.org")
    assert external.get_text() == "见 §1.1" and not external.find("a")
    note = section.find(class_="admonition")
    assert note.find(class_="admonition-title").get_text() == "标题 §1.1"
    assert [a.get_text() for a in note.find_all("a")] == ["§1.2"]
    assert "<!-- 注释 §1.1 -->" in str(section)
    # headings themselves are never links
    assert all(not h.find(class_=["sec-ref", "chapter-ref"]) for h in soup.find_all(["h1", "h2"]))


def test_labels_and_inventory(links_app: SphinxTestApp) -> None:
    soup = _soup(links_app, "ch01.html")
    ref = soup.find("section", id="sec-1-2").find("a", class_="reference")
    assert ref["href"] == "#sec-1-1" and ref.get_text() == "§1.1 TensorImpl 的字段"
    inventory = InventoryFile.loads(
        (Path(links_app.outdir) / "objects.inv").read_bytes(), uri=""
    )
    labels = inventory.data["std:label"]
    assert labels["sec-1-1-1"].uri == "ch01.html#sec-1-1-1"
    assert labels["sec-1-1-1"].display_name == "§1.1.1 sizes 与 strides"
    assert labels["ch-2"].uri == "ch02.html#ch-2"
    assert labels["ch-2"].display_name == "第2章 Dispatcher"


def test_unresolved_only_where_missing(links_app: SphinxTestApp) -> None:
    warnings = _warnings(links_app).splitlines()
    ours = [w for w in warnings if "seriesbook." in w]
    assert len(ours) == 1, ours
    assert re.search(r"ch02\.md:11: WARNING: no chapter 9 .*\[seriesbook\.chapter-unresolved\]",
                     ours[0])


def test_counts_for_stats(links_app: SphinxTestApp) -> None:
    counts = section_counts(links_app.env, "ch02")
    assert counts.sections == 2
    assert counts.sec_refs == 16 + 2 + 1  # auto-links and roles of §2.1, the admonition body
    assert counts.sec_refs_resolved == counts.sec_refs
    assert section_counts(links_app.env, "ch01").sections == 4


@pytest.mark.sphinx("html", testroot="sections-problems")
def test_each_problem_at_its_line(app: SphinxTestApp) -> None:
    app.build()
    found = re.findall(
        r"(ch0\d)\.md:(\d+): WARNING: .*\[seriesbook\.([a-z-]+)\]", _warnings(app)
    )
    assert sorted((doc, int(line), code) for doc, line, code in found) == [
        ("ch03", 5, "chapter-unresolved"),
        ("ch03", 5, "sec-unresolved"),
        ("ch03", 7, "sec-order"),  # §3.1 → §3.3: gap
        ("ch03", 11, "sec-order"),  # §3.3 → §3.2: backwards
        ("ch03", 13, "sec-duplicate"),  # §3.1 again
        ("ch03", 15, "sec-chapter"),  # §4.1.1 in chapter 3
        ("ch03", 17, "sec-duplicate"),  # §3.2 again
        ("ch03", 17, "sec-nesting"),  # §3.2 as ###
        ("ch03", 19, "sec-unresolved"),  # {sec}`7.7`
        ("ch04", 1, "sec-duplicate"),  # a second 第3章
        ("ch04", 3, "sec-chapter"),  # §4.1 in chapter 3
    ]


def test_find_mentions_for_editions() -> None:
    text = "见 §4.2、§4.3 与 §4.2–4.5，第12章。"
    assert [m.number for m in find_mentions(text)] == ["4.2", "4.3", "4.2", "4.5"]
    chapters = [m.number for m in find_mentions(text, r"第(?P<chapter>\d+)章")]
    assert chapters[-1] == "12"


def test_keep_going_reports_every_problem(rootdir: Path, tmp_path: Path) -> None:
    """``sphinx-build -W --keep-going``: the whole book's problems in one failing build."""
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going",
         str(rootdir / "test-sections-problems"), str(tmp_path / "out")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 1
    assert result.stderr.count("[seriesbook.") == 11
