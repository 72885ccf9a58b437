"""seriesbook.search gives Sphinx's Chinese index while segmenting each text once.

The comparison builds run in fresh processes: Sphinx's own Chinese search changes jieba's global
tokenizer every time it is set up, so only a fresh process shows the index a real build writes.
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import jieba
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.search.cache import CACHE_NAME
from seriesbook.search.dictionary import DB_NAME, PartialDictionary, write_table
from seriesbook.search.query import load_index, search
from seriesbook.search.zh import SearchChinese, make_tokenizer
from sphinx.search.zh import JIEBA_DEFAULT_DICT

ROOT = Path(__file__).parent / "roots" / "test-search-zh"
STOCK = "myst_parser"  # the same book without seriesbook.search: Sphinx's own zh
OURS = "myst_parser,seriesbook.search"
QUERIES = (
    "反向传播",
    "反向",
    "内存块",
    "缓存",
    "引擎",
    "checkpoint",
    "streams",
    "CUDA 缓存",
    "ies",
    "工作线程",
    "TensorImpl",
    "分配器",
    "§4.1",
    "backward",
    "不存在的词",
)


@pytest.fixture(scope="module")
def reference_tokenizer() -> jieba.Tokenizer:
    """jieba as Sphinx's SearchChinese leaves it: the default dictionary loaded twice."""
    tokenizer = jieba.Tokenizer()
    tokenizer.load_userdict(JIEBA_DEFAULT_DICT)
    return tokenizer


def test_tokenizer_state_is_sphinx_state(reference_tokenizer: jieba.Tokenizer) -> None:
    ours = make_tokenizer(JIEBA_DEFAULT_DICT)
    assert ours.total == reference_tokenizer.total
    assert ours.FREQ == reference_tokenizer.FREQ


HAN_WORDS = [
    "张量",
    "反向传播",
    "分配器",
    "内存块",
    "的",
    "在",
    "引擎",
    "工作线程",
    "梯度",
    "缓存",
    "，",
    "。",
    "显存",
    "碎片化",
    "调度",
    "计算图",
]
LATIN = ["TensorImpl", "was", "ies", "its", "CUDA", "cudaMalloc", "x1", "running", "a", "2.11"]


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(st.sampled_from(HAN_WORDS + LATIN) | st.text(max_size=4), max_size=20))
def test_split_and_stem_are_sphinx(parts: list[str], reference_tokenizer: jieba.Tokenizer) -> None:
    text = " ".join(parts) if len(parts) % 2 else "".join(parts)
    lang = SearchChinese({})
    lang._tokenizer = reference_tokenizer
    expected_latin = [t.strip() for t in SearchChinese.latin1_letters.findall(text)]
    expected = list(reference_tokenizer.cut_for_search(text)) + expected_latin
    assert lang.split(text) == list(dict.fromkeys(expected))  # each word once: feed adds to sets
    stock_stem = SearchChinese.__mro__[1].stem  # Sphinx's SearchChinese.stem
    for word in expected:
        assert lang.stem(word) == stock_stem(lang, word)


@pytest.fixture(scope="module")
def stored_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("table") / DB_NAME
    write_table(path, ("test",), make_tokenizer(JIEBA_DEFAULT_DICT))
    return path


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(st.sampled_from(HAN_WORDS + LATIN) | st.text(max_size=6), max_size=30))
def test_split_dictionary_segments_like_the_full_one(
    parts: list[str], stored_table: Path, reference_tokenizer: jieba.Tokenizer
) -> None:
    text = "".join(parts)
    partial = PartialDictionary.open(stored_table, ("test",))
    assert partial is not None
    try:
        partial.prepare(text)
        assert len(partial.tokenizer.FREQ) < len(reference_tokenizer.FREQ)
        expected = list(reference_tokenizer.cut_for_search(text))
        assert list(partial.tokenizer.cut_for_search(text)) == expected
    finally:
        partial.close()
    assert PartialDictionary.open(stored_table, ("another key",)) is None


def _build(book: Path, extensions: str, *options: str) -> tuple[str, str]:
    """Build *book* in a fresh process; return (searchindex.js text, stderr)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-q",
            "-b",
            "html",
            "-D",
            f"extensions={extensions}",
            *options,
            str(book),
            str(book / "_build" / "html"),
            "-d",
            str(book / "_build" / "doctrees"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return (book / "_build" / "html" / "searchindex.js").read_text(encoding="utf-8"), done.stderr


def _terms(index: str) -> dict[str, object]:
    terms: dict[str, object] = json.loads(index[len("Search.setIndex(") : -1])["terms"]
    return terms


@pytest.fixture
def books(tmp_path: Path) -> tuple[Path, Path]:
    stock, ours = tmp_path / "stock", tmp_path / "ours"
    shutil.copytree(ROOT, stock)
    shutil.copytree(ROOT, ours)
    return stock, ours


def _cache(book: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    with (book / "_build" / "doctrees" / CACHE_NAME).open("rb") as stream:
        pages: dict[str, dict[str, tuple[str, ...]]] = pickle.load(stream)["pages"]
    return pages


def test_same_index_cold_warm_incremental_parallel(books: tuple[Path, Path]) -> None:
    stock, ours = books
    expected, _ = _build(stock, STOCK)
    assert "反向" in _terms(expected)
    cold, _ = _build(ours, OURS)
    assert cold == expected
    assert set(_cache(ours)) == {"index", "alloc", "engine"}

    # a full rebuild with a fresh environment: every text from the cache, jieba never loaded
    warm, stderr = _build(ours, OURS, "-E", "-a")
    assert warm == expected
    assert "Prefix dict" not in stderr and "Loading model" not in stderr

    # an incremental build after an edit, both ways
    for book in books:
        page = book / "engine.md"
        page.write_text(
            page.read_text(encoding="utf-8").replace("重入的", "可重入的反向图"), encoding="utf-8"
        )
    expected, _ = _build(stock, STOCK)
    incremental, stderr = _build(ours, OURS)
    assert incremental == expected
    assert "Loading model" not in stderr  # the new text used the stored split dictionary
    engine_texts = set(_cache(ours)["engine"])
    assert any("可重入的反向图" in text for text in engine_texts)
    assert not any("重入的反向传播" in text for text in engine_texts)  # the old text is gone

    parallel, _ = _build(ours, OURS, "-E", "-a", "-j", "2")
    assert parallel == expected

    for query in QUERIES:
        assert search(load_index(ours / "_build/html/searchindex.js"), query) == search(
            load_index(stock / "_build/html/searchindex.js"), query
        )
    assert search(load_index(ours / "_build/html/searchindex.js"), "反向")["pages"] == [
        "engine",
        "index",
    ]


def test_removed_page_leaves_the_cache(books: tuple[Path, Path]) -> None:
    _, ours = books
    _build(ours, OURS)
    (ours / "alloc.md").unlink()
    index = ours / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("alloc\n", ""), encoding="utf-8")
    _build(ours, OURS)
    assert set(_cache(ours)) == {"index", "engine"}


def test_cache_off_and_custom_dictionary(books: tuple[Path, Path], tmp_path: Path) -> None:
    stock, ours = books
    userdict = tmp_path / "words.txt"
    userdict.write_text("缓存分配器 50000 n\n内存块 3 n\n", encoding="utf-8")
    option = f"html_search_options.dict={userdict}"
    expected, _ = _build(stock, STOCK, "-D", option)
    assert "缓存分配器" in _terms(expected)
    assert _build(ours, OURS, "-D", option, "-D", "seriesbook_search_cache=0")[0] == expected
    assert not (ours / "_build" / "doctrees" / CACHE_NAME).exists()
    assert _build(ours, OURS, "-E", "-D", option)[0] == expected
    # a changed dictionary makes every cached segmentation stale
    userdict.write_text("缓存分配器 50000 n\n内存块 3 n\n命中率 9 n\n", encoding="utf-8")
    expected, _ = _build(stock, STOCK, "-E", "-D", option)
    assert _build(ours, OURS, "-E", "-D", option)[0] == expected


def test_unwritable_cache_warns_and_builds_the_same_index(books: tuple[Path, Path]) -> None:
    stock, ours = books
    expected, _ = _build(stock, STOCK)
    doctrees = ours / "_build" / "doctrees"
    (doctrees / CACHE_NAME).mkdir(parents=True)  # a directory where the files should go
    (doctrees / DB_NAME).mkdir()
    index, stderr = _build(ours, OURS)
    assert index == expected
    assert stderr.count("[seriesbook.search-cache]") == 2, stderr
    assert "cannot store jieba's dictionary" in stderr
    assert "cannot save the segmentation cache" in stderr
