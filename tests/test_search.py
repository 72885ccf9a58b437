"""seriesbook.search: every stock hit still a hit, any Chinese phrase found, texts segmented once.

The comparison builds run in fresh processes: Sphinx's own Chinese search changes jieba's global
tokenizer every time it is set up, so only a fresh process shows the index a real build writes.
The browser side (``search/seriesbook-search.js``) runs in node for the twin tests; the query
set against the real book runs in Chromium (``tests/test_browser.py``).
"""

from __future__ import annotations

import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jieba
import pytest
from conftest import ask
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.search import query
from seriesbook.search.compact import KEY, PACKED, pack, unpack
from seriesbook.search.dictionary import DB_NAME, PartialDictionary, write_table
from seriesbook.search.query import load_index, missing_stock_terms, search
from seriesbook.search.splitter import han_bigrams, split_query
from seriesbook.search.store import SPLITS_NAME, STORE_NAME
from seriesbook.search.zh import SearchChinese, make_tokenizer
from sphinx.search.zh import JIEBA_DEFAULT_DICT

ROOT = Path(__file__).parent / "roots" / "test-search-zh"
STOCK = "myst_parser,sphinxcontrib.mermaid"  # the same book with Sphinx's own zh search
OURS = "myst_parser,sphinxcontrib.mermaid,seriesbook.search"
HAN_PHRASE = re.compile("[\u4e00-\u9fff]{2,}")
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
def test_split_keeps_sphinx_words_and_adds_bigrams(
    parts: list[str], reference_tokenizer: jieba.Tokenizer
) -> None:
    text = " ".join(parts) if len(parts) % 2 else "".join(parts)
    lang = SearchChinese({})
    lang._tokenizer = reference_tokenizer
    expected_latin = [t.strip() for t in SearchChinese.latin1_letters.findall(text)]
    stock_words = list(reference_tokenizer.cut_for_search(text)) + expected_latin
    words = lang.split(text)
    assert len(words) == len(set(words))  # each word once: feed adds to sets
    assert set(words) == set(stock_words) | set(han_bigrams(text))
    stock_stem = SearchChinese.__mro__[1].stem  # Sphinx's SearchChinese.stem
    for word in stock_words:
        assert lang.stem(word) == stock_stem(lang, word)


def test_bigrams_of_han_runs() -> None:
    assert han_bigrams("缓存分配器，缓存 a池") == ["缓存", "存分", "分配", "配器"]
    assert han_bigrams("𠀀𠀁x") == ["𠀀𠀁"]  # beyond the BMP (CJK Extension B)


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


def _index(text: str) -> dict[str, Any]:
    """A written ``searchindex.js`` as Sphinx froze it (packed bigrams unpacked)."""
    data: dict[str, Any] = PACKED.loads(text)
    return data


_pages = query._page_names


def assert_every_stock_hit_is_a_hit(stock: str, ours: str) -> None:
    """Every term of Sphinx's index is a term of ours, for at least the same pages."""
    expected, actual = _index(stock), _index(ours)
    assert expected["alltitles"] == actual["alltitles"]
    assert missing_stock_terms(expected, actual) == {}


def assert_every_phrase_is_findable(book: Path, ours: str) -> None:
    """Each Chinese phrase of a page's text has every bigram among that page's terms."""
    index = _index(ours)
    terms, titles = _pages(index, "terms"), _pages(index, "titleterms")
    for page in index["docnames"]:
        text = (book / f"{page}.md").read_text(encoding="utf-8").replace("**", "")
        text = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", text)  # link text only
        for phrase in HAN_PHRASE.findall(text):
            for bigram in han_bigrams(phrase):
                assert page in terms.get(bigram, set()) | titles.get(bigram, set()), bigram


@pytest.fixture
def books(tmp_path: Path) -> tuple[Path, Path]:
    stock, ours = tmp_path / "stock", tmp_path / "ours"
    shutil.copytree(ROOT, stock)
    shutil.copytree(ROOT, ours)
    return stock, ours


def _cache(book: Path) -> dict[str, dict[str, tuple[str, str]]]:
    """Each page's split texts, as the search's store keeps them."""
    found = {}
    for path in sorted((book / "_build" / "doctrees" / SPLITS_NAME).glob("*.pickle")):
        with path.open("rb") as stream:
            stored = pickle.load(stream)
        found[stored["key"][-1]] = stored["splits"]
    return found


def _fresh(book: Path, tmp_path: Path, *options: str) -> str:
    """The index of a cold build of *book*'s sources, without the cache."""
    copy = tmp_path / "fresh"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(book, copy, ignore=shutil.ignore_patterns("_build"))
    return _build(copy, OURS, "-D", "seriesbook_search_cache=0", *options)[0]


@pytest.mark.slow  # seven builds of one book
def test_same_index_cold_warm_incremental_parallel(
    books: tuple[Path, Path], tmp_path: Path
) -> None:
    stock, ours = books
    expected, _ = _build(stock, STOCK)
    cold, _ = _build(ours, OURS)
    assert_every_stock_hit_is_a_hit(expected, cold)
    assert_every_phrase_is_findable(ours, cold)
    assert KEY in cold and "存分" in _index(cold)["terms"]  # packed, and unpacked again
    assert cold == _fresh(ours, tmp_path)  # the cache changes nothing
    assert set(_cache(ours)) == {"index", "alloc", "engine", "markup"}

    # a full rebuild with a fresh environment: every text from the cache, jieba never loaded
    warm, stderr = _build(ours, OURS, "-E", "-a")
    assert warm == cold
    assert "Prefix dict" not in stderr and "Loading model" not in stderr

    # an incremental build after an edit, both ways
    for book in books:
        page = book / "engine.md"
        page.write_text(
            page.read_text(encoding="utf-8").replace("重入的", "可重入的反向图"), encoding="utf-8"
        )
    expected, _ = _build(stock, STOCK)
    incremental, stderr = _build(ours, OURS)
    assert incremental == _fresh(ours, tmp_path)  # the reloaded index lost nothing
    assert_every_stock_hit_is_a_hit(expected, incremental)
    assert "Loading model" not in stderr  # the new text used the stored split dictionary
    engine_texts = set(_cache(ours)["engine"])
    assert any("可重入的反向图" in text for text in engine_texts)
    assert not any("重入的反向传播" in text for text in engine_texts)  # the old text is gone

    parallel, _ = _build(ours, OURS, "-E", "-a", "-j", "2")
    assert parallel == incremental

    index = load_index(ours / "_build/html/searchindex.js")
    assert search(index, "反向")["pages"] == ["engine", "index"]
    assert search(index, "入的反")["pages"] == []  # one word to stock search: no such term
    assert search(index, "入的 的反")["pages"] == ["engine"]  # bigrams: what the browser asks


def test_markup_and_diagrams_are_indexed(books: tuple[Path, Path]) -> None:
    stock, ours = books
    terms = _pages(_index(_build(ours, OURS)[0]), "terms")
    stock_terms = _pages(_index(_build(stock, STOCK)[0]), "terms")
    assert "markup" in terms["存分"] and "存分" not in stock_terms  # **缓存**分配器
    assert "markup" in terms["见第"]  # 细节见[第8章](…)
    for word in ("默认", "实现", "认实", "设备", "nativecachingalloc"):  # the diagram's words
        assert "markup" in terms[word], word
    assert "flowchart" not in terms and "td" not in terms  # Mermaid's own words are not


def test_removed_page_leaves_the_cache(books: tuple[Path, Path]) -> None:
    _, ours = books
    _build(ours, OURS)
    (ours / "alloc.md").unlink()
    index = ours / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("alloc\n", ""), encoding="utf-8")
    _build(ours, OURS)
    assert set(_cache(ours)) == {"index", "engine", "markup"}


def test_cache_off_and_custom_dictionary(books: tuple[Path, Path], tmp_path: Path) -> None:
    stock, ours = books
    userdict = tmp_path / "words.txt"
    userdict.write_text("缓存分配器 50000 n\n内存块 3 n\n", encoding="utf-8")
    option = f"html_search_options.dict={userdict}"
    expected, _ = _build(stock, STOCK, "-D", option)
    assert "缓存分配器" in _index(expected)["terms"]
    uncached = _build(ours, OURS, "-D", option, "-D", "seriesbook_search_cache=0")[0]
    assert_every_stock_hit_is_a_hit(expected, uncached)
    assert _cache(ours) == {}  # the store keeps the § parts only
    assert _build(ours, OURS, "-E", "-D", option)[0] == uncached
    # a changed dictionary makes every cached segmentation stale
    userdict.write_text("缓存分配器 50000 n\n内存块 3 n\n命中率 9 n\n", encoding="utf-8")
    expected, _ = _build(stock, STOCK, "-E", "-D", option)
    changed = _build(ours, OURS, "-E", "-D", option)[0]
    assert "命中率" in _index(changed)["terms"]
    assert_every_stock_hit_is_a_hit(expected, changed)


def test_unwritable_cache_warns_and_builds_the_same_index(
    books: tuple[Path, Path], tmp_path: Path
) -> None:
    _, ours = books
    doctrees = ours / "_build" / "doctrees"
    (doctrees / STORE_NAME).mkdir(parents=True)  # a directory where the files should go
    (doctrees / DB_NAME).mkdir()
    index, stderr = _build(ours, OURS)
    assert index == _fresh(ours, tmp_path)
    assert stderr.count("[seriesbook.search-cache]") == 2, stderr
    assert "cannot store jieba's dictionary" in stderr
    assert "cannot save the search's kept pages" in stderr






INDEX_TERMS = ["缓存分配器", "分配器", "反向传播", "缓存", "工作线程", "计算图", "碎片化", "内存块"]
QUERY_ALPHABET = st.sampled_from(
    [
        *"缓存分配器反向传播的图中断帧求值默认实现第章§.·，。、（）：- _\t",
        *["𠀀", "Tensor", "Impl", "c10", "x_1", "2.11", "é", "Ω", "١", "²"],
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    # random characters from the BMP: node and Python may know different Unicode versions above
    query=st.lists(
        QUERY_ALPHABET | st.text(st.characters(max_codepoint=0xFFFF), max_size=3), max_size=12
    ).map("".join),
    terms=st.lists(st.sampled_from(INDEX_TERMS) | st.text("缓存分配器反向传播", max_size=6)),
)
def test_splitter_twins_agree(
    twin: subprocess.Popen[str], query: str, terms: list[str]
) -> None:
    known = set(terms)
    expected = split_query(query, known.__contains__)
    assert ask(twin, {"split": query, "terms": sorted(known)}) == expected


def test_splitter_cuts_runs_into_fewest_terms() -> None:
    terms = {"缓存分配器", "分配器", "反向传播", "缓存"}.__contains__
    assert split_query("缓存分配器", terms) == ["缓存分配器"]
    assert split_query("反向传播缓存分配器", terms) == ["反向传播", "缓存分配器"]
    assert split_query("缓存分配器的", terms) == ["缓存分配器", "器的"]  # no single character
    assert split_query("图中断", lambda _: False) == ["图中", "中断"]
    assert split_query("TensorImpl 的引用计数", terms) == ["TensorImpl", "的引", "引用", "计数"]
    assert split_query("§12.3 第3章", terms) == ["12", "3", "第", "章"]


@settings(max_examples=60, deadline=None)
@given(
    terms=st.dictionaries(
        st.text("缓存分配器𠀀ab", min_size=1, max_size=4),
        st.integers(0, 69) | st.lists(st.integers(0, 69), min_size=2, unique=True).map(sorted),
    )
)
def test_packed_index_unpacks_alike_in_python_and_javascript(
    twin: subprocess.Popen[str], terms: dict[str, Any]
) -> None:
    data = {"docnames": [f"p{n}" for n in range(70)], "terms": terms, "titleterms": {}}
    packed = pack(data)
    assert all(len(term) != 2 or "a" in term or "b" in term for term in packed["terms"])
    assert unpack(packed) == data
    assert ask(twin, {"unpack": packed}) == data
