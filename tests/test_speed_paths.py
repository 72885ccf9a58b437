"""The hot paths issue 32 made cheaper give what the plain definitions give: the search
index's § lists and their lengths, Han bigrams, citation previews' highlighting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.token import Text
from seriesbook.previews._code import PLAIN, highlighted_lines
from seriesbook.search.compact import (
    bitmap,
    read_varints,
    section_list,
    section_list_length,
    varints,
)
from seriesbook.search.splitter import han_bigrams

NUMBERS = st.lists(st.integers(0, 40_000), unique=True, max_size=60).map(sorted)


@settings(max_examples=300, deadline=None)
@given(NUMBERS)
def test_a_section_list_is_the_shorter_form_and_its_length_is_counted_right(
        numbers: list[int]) -> None:
    gaps, bits = varints(numbers), bitmap(numbers)
    assert section_list(numbers) == (gaps if len(gaps) <= len(bits) else bits)
    assert section_list_length(numbers) == len(section_list(numbers))


@given(st.lists(st.integers(0, 2**31), unique=True, max_size=20).map(sorted))
def test_varints_of_gaps_of_any_size_read_back(numbers: list[int]) -> None:
    """The one-digit shortcut and the general loop write one format (``read_varints``')."""
    assert read_varints(varints(numbers)) == numbers


@given(st.text(alphabet=st.sampled_from(list("缓存分配器 a,，𠀀𠀁")), max_size=30))
def test_han_bigrams_are_each_adjacent_pair_once(text: str) -> None:
    import re

    from seriesbook.core.text import HAN

    expected: dict[str, None] = {}
    for run in re.findall(f"{HAN.pattern}+", text):
        for start in range(len(run) - 1):
            expected[run[start:start + 2]] = None
    assert han_bigrams(text) == list(expected)


@pytest.mark.parametrize("path", ["torch/nn/modules/module.py", "c10/core/TensorImpl.cpp",
                                  "aten/src/ATen/native/cuda/Loops.cuh", "c10/core/Device.h",
                                  "CMakeLists.txt", "setup.py", "README", "docs/x.unknownsuffix"])
def test_previews_highlight_as_a_fresh_lexer_and_formatter_do(path: str) -> None:
    """One lexer per file name and one formatter for all: the same lines, call after call."""
    text = 'def f(x):\n    return x  # "q"\n\nint main() { return 0; }\n'
    first = highlighted_lines(path, text)
    assert highlighted_lines("other.py", "x = 1\n") == highlighted_lines("other.py", "x = 1\n")
    assert highlighted_lines(path, text) == first
    if path.endswith((".py", ".cpp", ".txt")):  # what a lexer and a formatter made afresh give
        lexer = get_lexer_for_filename(path, stripnl=False, ensurenl=False)
        tokens = ((Text if kind in PLAIN else kind, value) for kind, value in
                  lexer.get_tokens(text))
        html = str(format_tokens(tokens, HtmlFormatter(nowrap=True)))
        assert first == html.split("\n")[: text.count("\n") + 1]
