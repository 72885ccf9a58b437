"""The recognizer and linker on free text (hypothesis): never crash, one outcome per mention."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from docutils import nodes
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.sections import find_mentions
from seriesbook.sections._parse import heading_number, recognizer
from seriesbook.sections._transforms import _DocumentWalk
from sphinx import addnodes
from sphinx.testing.util import SphinxTestApp
from sphinx.util.docutils import new_document
from test_sections import built_copy


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory, rootdir: Path) -> Iterator[SphinxTestApp]:
    yield from built_copy("links", tmp_path_factory, rootdir)


CHAPTER = r"第(?P<chapter>\d+)章"
# test-sections-links defines these
KNOWN_SECTIONS = {"1.1", "1.1.1", "1.1.2", "1.2", "2.1", "2.2", "3.1"}
KNOWN_CHAPTERS = {"1", "2"}


def _link(app: SphinxTestApp, text: str) -> tuple[nodes.document, int, int]:
    """Link *text* as a paragraph of ch02; return the doctree, links made and warnings."""
    document = new_document(str(Path(app.srcdir) / "ch02.md"))
    paragraph = nodes.paragraph(text, text)
    paragraph.source, paragraph.line = document["source"], 3
    document += paragraph
    _DocumentWalk(document, "ch02", recognizer(CHAPTER)).run()
    before = app.warning.getvalue().count("-unresolved]")
    app.env.apply_post_transforms(document, "ch02")
    warnings = app.warning.getvalue().count("-unresolved]") - before
    links = sum(
        1
        for ref in document.findall(nodes.reference)
        if ref.next_node(nodes.inline) is not None
        and {"sec-ref", "chapter-ref"} & set(ref.next_node(nodes.inline)["classes"])
    )
    assert not list(document.findall(addnodes.pending_xref))
    return document, links, warnings


prose = st.text(
    alphabet=st.sampled_from(list("§.0123456789-–—~～、，。；（）“” \n abc第章中文Chapter")),
    max_size=80,
)


@settings(max_examples=150, deadline=None)
@given(text=prose | st.text(max_size=60))
def test_each_mention_is_one_link_or_one_warning(book: SphinxTestApp, text: str) -> None:
    mentions = find_mentions(text, CHAPTER)
    document, links, warnings = _link(book, text)
    assert document.astext() == nodes.unescape(text)  # the link text stays as written
    assert links + warnings == len(mentions)
    expected_links = sum(
        1
        for m in mentions
        if m.number in (KNOWN_SECTIONS if m.kind == "sec" else KNOWN_CHAPTERS)
    )
    assert links == expected_links


numbers = st.lists(st.integers(min_value=0, max_value=30), min_size=2, max_size=4).map(
    lambda parts: ".".join(map(str, parts))
)
separators = st.sampled_from([" ", "、", "，", "。", "（", "）", "“", "”", "与", "\n", "；"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(numbers, separators), min_size=1, max_size=6))
def test_written_numbers_are_found(pairs: list[tuple[str, str]]) -> None:
    text = "见" + "".join(f"§{number}{sep}" for number, sep in pairs)
    assert [m.number for m in find_mentions(text)] == [n for n, _ in pairs]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("§4.2、§4.3", ["4.2", "4.3"]),
        ("§4.2–§4.5", ["4.2", "4.5"]),
        ("§4.2-4.5", ["4.2", "4.5"]),
        ("§4.2-5", ["4.2"]),
        ("见§12.3.4。", ["12.3.4"]),
        ("§12 不是节号", []),
        ("（§1.1）", ["1.1"]),
    ],
)
def test_forms(text: str, found: list[str]) -> None:
    assert [m.number for m in find_mentions(text)] == found


def test_lines_within_a_paragraph(book: SphinxTestApp) -> None:
    _link(book, "第一行\n第二行 §9.8\n第三行 §9.9")
    text = re.sub(r"\x1b\[[0-9;]*m", "", book.warning.getvalue())
    assert "ch02.md:4: WARNING: no section §9.8" in text
    assert "ch02.md:5: WARNING: no section §9.9" in text


@pytest.mark.parametrize(
    ("title", "number"),
    [
        ("§12.3 Guard 的生成", "12.3"),
        ("§12.3：Guard", "12.3"),
        ("§12.3.4. 标题", "12.3.4"),
        ("§12 不是节号", None),
        ("Guard §1.2", None),
        ("第12章 TorchDynamo", None),
    ],
)
def test_heading_numbers(title: str, number: str | None) -> None:
    assert heading_number(title) == number
