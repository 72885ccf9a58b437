"""seriesbook.search: § postings in the index, and traditional characters in queries.

The browser half runs in node (``tests/search_twin.mjs``) against the Python half; the ranking
and the query sets run in Chromium (``tests/test_browser.py``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ask
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.search.compact import (
    SECTIONS,
    VARIANTS,
    PackedJavaScriptIndex,
    pack,
    read_section_list,
    section_list,
    unpack,
)
from seriesbook.search.query import load_index
from seriesbook.search.sections import SectionText
from seriesbook.search.store import STORE_NAME, SearchStore
from seriesbook.search.variants import convert, opencc_tables, table_for

ROOT = Path(__file__).parent / "roots" / "test-search-ranking"




@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5000), unique=True).map(sorted))
def test_section_lists_round_trip(numbers: list[int]) -> None:
    written = section_list(numbers)
    assert read_section_list(written) == numbers
    assert written.isascii() and " " not in written and "." not in written and "~" not in written


KEYS = st.sampled_from(["缓存", "存分", "分配", "配器", "碎片", "tensor", "alloc", "图中"])
PARTS = st.lists(
    st.builds(
        SectionText,
        anchor=st.sampled_from(["", "sec-1-1", "sec-1-2", "sec-2-1"]),
        length=st.integers(0, 5000),
        keys=st.lists(KEYS, unique=True).map(tuple),
        source_title=st.booleans(),
    ),
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(pages=st.lists(PARTS, min_size=1, max_size=5))
def test_section_postings_read_alike_in_javascript(
    twin: subprocess.Popen[str], pages: list[list[SectionText]]
) -> None:
    """Every key of a small book is located; the page reads each key's § as Python wrote them."""
    docnames = [f"p{n}" for n in range(len(pages))]
    terms: dict[str, Any] = {"缓存": 0, "分配": 0, "tensor": 0}
    data = {"docnames": docnames, "terms": terms, "titleterms": {}, "alltitles": {}}
    packed = pack(data, dict(zip(docnames, pages, strict=True)))
    assert unpack(packed) == data  # Sphinx's index as it was
    expected: dict[str, list[int]] = {}
    number = 0
    for parts in pages:
        for part in parts:
            for key in part.keys:
                expected.setdefault(key, []).append(number)
            number += 1
    answer = ask(twin, {"sections": packed})
    if any(pages):
        assert answer["located"] == expected
        assert answer["parts"] == [
            [docnames.index(doc), part.anchor, part.length, part.source_title]
            for doc, parts in zip(docnames, pages, strict=True)
            for part in parts
        ]
    else:
        assert SECTIONS not in packed


BOOK = "缓存分配器的碎片整理与后向传播发生在显存里著作干燥"


def book_table() -> tuple[dict[str, str], dict[str, str]]:
    return table_for(BOOK, lambda pair: pair in BOOK)


def test_traditional_table_leads_to_the_book() -> None:
    characters, phrases = book_table()
    assert convert("緩存分配器的碎片", characters, phrases) == "缓存分配器的碎片"
    assert convert("後向傳播發生在顯存", characters, phrases) == "后向传播发生在显存"
    assert "著" not in characters  # the book writes 著: its own text is never converted
    assert all(simp in BOOK for simp in characters.values())
    assert all(trad not in BOOK for trad in characters)
    # OpenCC's phrases: 乾 is 干 in 乾燥 (the book's 干燥)
    assert convert("乾燥", characters, phrases) == "干燥"
    all_characters, _ = opencc_tables()
    assert len(all_characters) > 4000  # the whole table, not a hand-written list
    assert len(characters) < 100  # only what leads to the book's text


TRADITIONAL_ALPHABET = st.sampled_from(
    [*"緩存分配器的碎片整理與後向傳播發生在顯存裡乾燥著作干燥", "乾燥", "後向", "Tensor", " ", "§"]
)


@settings(max_examples=200, deadline=None)
@given(query=st.lists(TRADITIONAL_ALPHABET | st.text(max_size=3), max_size=12).map("".join))
def test_traditional_twins_agree(twin: subprocess.Popen[str], query: str) -> None:
    characters, phrases = book_table()
    data = {"docnames": ["p0"], "terms": {pair: 0 for pair in _pairs(BOOK)}, "titleterms": {}}
    data["alltitles"] = {BOOK: [[0, None]]}
    packed = pack(data)
    assert packed[VARIANTS]["phrases"] == phrases
    assert ask(twin, {"simplify": query, "index": packed}) == convert(query, characters, phrases)


def _pairs(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(len(text) - 1)]


@pytest.fixture(scope="module")
def ranking_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The ranking book built once: (source copy, HTML output)."""
    base = tmp_path_factory.mktemp("ranking")
    source = base / "src"
    shutil.copytree(ROOT, source)
    out = base / "html"
    build(source, out)
    return source, out


def build(source: Path, out: Path) -> None:
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", str(source), str(out)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_index_holds_each_page_sections(ranking_book: tuple[Path, Path]) -> None:
    _, out = ranking_book
    raw = raw_index(out / "searchindex.js")
    index = load_index(out / "searchindex.js")
    anchors = dict(zip(index["docnames"], raw[SECTIONS]["anchors"], strict=True))
    assert anchors["ch01"] == ["", "sec-1-1", "sec-1-2", "sec-1-3", "sec-1-4"]
    assert anchors["ch02"] == ["", "sec-2-1", "sec-2-2", "sec-2-3"]
    assert anchors["notes"] == []  # no § sections: page results
    store = SearchStore.open(out / ".doctrees", None)
    assert store.path.name == STORE_NAME
    parts = {part.anchor: part for part in store.parts("ch01")}
    # §1.3 owns its two paragraphs and its title, not §1.4's text
    own = parts["sec-1-3"].keys
    assert {"流水", "碎片", "配角"} <= set(own) and "合并" not in own
    assert "合并" in parts["sec-1-4"].keys
    # an unnumbered sub-heading and its text stay with their §
    assert {"小结", "编号"} <= set(parts["sec-1-2"].keys)


def test_incremental_build_keeps_every_page_sections(
    ranking_book: tuple[Path, Path], tmp_path: Path
) -> None:
    source, out = ranking_book
    copy = tmp_path / "html"
    shutil.copytree(out, copy)
    (source / "ch02.md").write_text(
        (source / "ch02.md").read_text("utf-8") + "\n新增的一段话。\n", "utf-8"
    )
    try:
        build(source, copy)  # writes ch02 only: ch01's § come from the store
        raw = raw_index(copy / "searchindex.js")
        index = load_index(copy / "searchindex.js")
        anchors = dict(zip(index["docnames"], raw[SECTIONS]["anchors"], strict=True))
        assert anchors["ch01"] == ["", "sec-1-1", "sec-1-2", "sec-1-3", "sec-1-4"]
        parts = {p.anchor: p for p in SearchStore.open(copy / ".doctrees", None).parts("ch02")}
        assert "新增" in parts["sec-2-3"].keys
    finally:
        (source / "ch02.md").write_text(
            (source / "ch02.md").read_text("utf-8").replace("\n新增的一段话。\n", ""), "utf-8"
        )


def raw_index(path: Path) -> dict[str, Any]:
    """The index as written, before unpacking (seriesbook's fields still there)."""
    text = path.read_text("utf-8")
    prefix, suffix = PackedJavaScriptIndex.PREFIX, PackedJavaScriptIndex.SUFFIX
    assert text.startswith(prefix) and text.endswith(suffix)
    literal = text[len(prefix) : -len(suffix)]
    data: dict[str, Any] = json.loads(re.sub(r"\\(.)", r"\1", literal))
    return data


def test_index_is_json_in_a_string_and_reads_back(ranking_book: tuple[Path, Path]) -> None:
    """JSON.parse of one string literal (quick to read in the page), UTF-8, read back alike."""
    _, out = ranking_book
    text = (out / "searchindex.js").read_text("utf-8")
    assert "\\u663e" not in text and "显存管理" in text  # unescaped: 3 bytes a character
    raw = raw_index(out / "searchindex.js")
    assert load_index(out / "searchindex.js") == unpack(raw)
    assert PackedJavaScriptIndex().loads(text) == unpack(raw)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from([*sorted(set(BOOK)), " ", "a", "§"]), max_size=20))
def test_the_books_own_text_is_never_converted(text: str) -> None:
    characters, phrases = book_table()
    assert convert(text, characters, phrases) == text
