"""The pure parts of seriesbook.citations: recognizing citations, paths, excerpts, symbols."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.citations import Citation, find_citations, parse_citation
from seriesbook.citations._links import citation_url
from seriesbook.citations._parse import parse_role, unsafe_path
from seriesbook.citations._verify import excerpt_hash, excerpt_matches, symbol_occurs
from test_citations import ENGINE_PY


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("torch/csrc/engine.h:131", Citation("", "torch/csrc/engine.h", 131, 131)),
        ("c10/core/TensorImpl.h:512-530", Citation("", "c10/core/TensorImpl.h", 512, 530)),
        ("vllm:vllm/a/__init__.py:79", Citation("vllm", "vllm/a/__init__.py", 79, 79)),
        ("setup.py:3", Citation("", "setup.py", 3, 3)),
        ("../x.py:1", Citation("", "../x.py", 1, 1)),
        ("torch.add", None),
        ("x:1", None),
        ("a/b", None),
        ("engine.py", None),
        ("a/b.py:1:2", None),
        ("see a/b.py:1", None),
        ("a/b.py:x", None),
    ],
)
def test_parse_citation(text: str, expected: Citation | None) -> None:
    assert parse_citation(text) == expected


def test_role_with_symbol() -> None:
    assert parse_role("Engine::execute <torch/csrc/autograd/engine.h:153>") == Citation(
        "", "torch/csrc/autograd/engine.h", 153, 153, "Engine::execute"
    )
    assert parse_role("operator< <a/b.h:1-2>") == Citation("", "a/b.h", 1, 2, "operator<")
    assert parse_role("no citation") is None


paths = st.lists(
    st.text(st.characters(blacklist_characters=":`/\\", blacklist_categories=("Z", "C")),
             min_size=1, max_size=8),
    min_size=2, max_size=4,
).map("/".join)
lines = st.integers(min_value=0, max_value=10**6)


@given(st.sampled_from(["", "pytorch", "v-llm"]), paths, lines, lines)
def test_normalized_citations_parse_back(source: str, path: str, start: int, end: int) -> None:
    citation = Citation(source, path, start, end)
    assert parse_citation(citation.normalized()) == citation
    assert find_citations(f"see `{citation.normalized()}` here") == [citation.normalized()]


@given(st.text())
def test_any_text_is_parsed_without_error(text: str) -> None:
    parse_citation(text)
    parse_role(text)
    for found in find_citations(text):
        assert parse_citation(found) is not None


def test_find_citations_in_a_message() -> None:
    message = (
        "见 `torch/a.py:3`、{src}`Engine::run <torch/b.h:5-5>` 和 `vllm:vllm/c.py:7-9`；"
        "`torch.add`、``x:1`` 不是引用。"
    )
    assert find_citations(message) == ["torch/a.py:3", "torch/b.h:5", "vllm:vllm/c.py:7-9"]
    assert find_citations("torch/a.py:1-5") == ["torch/a.py:1-5"]  # a caption's message
    assert find_citations("``a/b.py:1`` and ``` `x` a/c.py:2 ```") == ["a/b.py:1"]


@pytest.mark.parametrize(
    ("path", "unsafe"),
    [
        ("torch/a.py", False),
        ("a.py", False),
        ("/etc/passwd", True),
        ("a/../b.py", True),
        ("..", True),
        ("a\\b.py", True),
        ("a//b.py", True),
        ("a/./b.py", True),
        ("a/b.py/", True),
        ("a/\x00.py", True),
    ],
)
def test_unsafe_path(path: str, unsafe: bool) -> None:
    assert bool(unsafe_path(path)) == unsafe


def test_url_escapes_the_path_and_keeps_slashes() -> None:
    spec = {"repo": "https://github.com/o/r/", "ref": "v1.0"}
    assert citation_url(spec, Citation("", 'a b/<x>&"y".py', 3, 3)) == (
        "https://github.com/o/r/blob/v1.0/a%20b/%3Cx%3E%26%22y%22.py#L3"
    )
    assert citation_url(spec, Citation("", "a/b.py", 3, 9)).endswith("/a/b.py#L3-L9")


INDENTED = ENGINE_PY.split("\n")[4:10]  # the method Engine.run, as the demo source has it
SOURCE = textwrap.dedent("\n".join(INDENTED)).split("\n")


@pytest.mark.parametrize(
    ("excerpt", "matches"),
    [
        ("\n".join(SOURCE), True),
        ("\n".join(SOURCE) + "   \n", True),
        ("def run(self, graph):\n    ...\n    return None", True),
        ("def run(self, graph):\n    # ...\n        node.execute()\n    …\n", True),
        ("def run(self, graph):\n    # ...\n    node.execute()\n    …\n", False),
        ("...\nwhile ready:\n    node = ready.pop()\n...", True),
        ("def run(self, graph):\n    return None", False),
        ("def run(self, graph):\n    ready = tuple(graph)\n    ...", False),
        ("def run(self, graph):\n...\nnode.execute()\n...", False),  # indentation matters
        ("\n".join(SOURCE[:-1]), False),
        ("...\nreturn None", True),
        ("return None\n...", False),
    ],
)
def test_excerpt_matching(excerpt: str, matches: bool) -> None:
    assert excerpt_matches(excerpt, SOURCE) is matches
    assert excerpt_matches(excerpt, INDENTED) is matches


@given(st.integers(0, len(SOURCE) - 1), st.integers(0, len(SOURCE) - 1))
def test_an_elided_slice_matches(cut_from: int, cut_to: int) -> None:
    lo, hi = sorted((cut_from, cut_to))
    excerpt = [*SOURCE[:lo], "    ...", *SOURCE[hi:]]
    assert excerpt_matches("\n".join(excerpt), INDENTED)


def test_excerpt_hash_ignores_indentation_and_trailing_space() -> None:
    assert excerpt_hash("  a\n    b  \n") == excerpt_hash("a\n  b")
    assert excerpt_hash("a\n...") == excerpt_hash("a\n# ...")
    assert excerpt_hash("a\nb") != excerpt_hash("a\n  b")


@pytest.mark.parametrize(
    ("symbol", "text", "occurs"),
    [
        ("Engine::execute", "  virtual variable_list execute(", True),
        ("Engine::execute", "auto Engine::execute(const edge_list&", True),
        ("Engine.run", "    def run(self, graph):", True),
        ("run()", "    def run(self, graph):", True),
        ("Engine::execute", "  void execute_with_graph_task(", False),
        ("bump", "  void bump_version() {", False),
        ("operator<", "  friend bool operator<(const Engine&", True),
    ],
)
def test_symbol_occurs(symbol: str, text: str, occurs: bool) -> None:
    assert symbol_occurs(symbol, text) is occurs


@given(st.text(alphabet=st.sampled_from(list("ab/.py:5-9`{src}<> 中：")), max_size=30))
def test_a_text_without_colon_or_backtick_cites_nothing(text: str) -> None:
    """``find_citations``' shortcut: the same list as its regular expressions give."""
    from seriesbook.citations import _parse

    full = list(_parse._IN_TEXT.finditer(text))
    if ":" not in text and "`" not in text:
        assert _parse.CITATION.fullmatch(text.strip()) is None and full == []
    assert isinstance(_parse.find_citations(text), list)
