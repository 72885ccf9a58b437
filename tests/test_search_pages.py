"""The pieces that let a build reuse the last one's search work give what the work gives:

* a page's digest (:mod:`seriesbook.search.view`) changes with everything the search reads of
  its doctree;
* Sphinx's ``feed`` behind the door notes exactly what it added, and giving that back leaves the
  index as feeding the page does;
* the § postings updated for the changed pages are those made from every page;
* the index reloaded from the store is the one Sphinx parses from the file written.
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook import compat
from seriesbook.search.compact import PackedJavaScriptIndex
from seriesbook.search.postings import Postings, book_postings
from seriesbook.search.sections import SectionText
from seriesbook.search.store import SearchStore
from seriesbook.search.view import page_digest

PAGE = """\
标题
====

一段话， **缓存** 分配器 ops 的说明。

.. raw:: html

   <b>原样</b>

.. image:: x.png
   :alt: 图的说明

小节
----

.. note:: 注意事项

第二段 TensorImpl。
"""


def _doctree(text: str = PAGE) -> nodes.document:
    settings = get_default_settings(Parser)
    settings.report_level = 5
    document = new_document("page.rst", settings)
    Parser().parse(text, document)
    return document


def _changed(change: Any) -> bool:
    """Whether *change* (done to a fresh page) changes its digest."""
    before = _doctree()
    document = _doctree()
    change(document)
    return page_digest(document) != page_digest(before)


def _first(document: nodes.document, cls: type[nodes.Node]) -> Any:
    return next(document.findall(cls))


def test_the_same_page_has_the_same_digest() -> None:
    assert page_digest(_doctree()) == page_digest(_doctree()) is not None
    assert page_digest(_doctree(), "extra") != page_digest(_doctree())


@pytest.mark.parametrize(
    "change",
    [
        lambda d: _first(d, nodes.paragraph).append(nodes.Text("多")),  # a text more
        lambda d: _first(d, nodes.strong).replace_self(nodes.Text("缓存")),  # markup gone
        lambda d: _first(d, nodes.section)["ids"].append("sec-1"),  # an anchor
        lambda d: _first(d, nodes.paragraph)["classes"].append("no-search"),  # Sphinx skips it
        lambda d: _first(d, nodes.raw).__setitem__("format", "latex"),  # Sphinx skips it
        lambda d: _first(d, nodes.image).__setitem__("alt", "另一个说明"),  # its own astext
        lambda d: _first(d, nodes.title).__setitem__("translated", True),  # § parts read it
        lambda d: _first(d, nodes.note).replace_self(nodes.comment("", "注意事项")),  # a class
        lambda d: d.append(nodes.paragraph("", "", nodes.Text(""))),  # an empty paragraph
    ],
)
def test_the_digest_changes_with_what_the_search_reads(change: Any) -> None:
    assert _changed(change)


def test_what_the_search_does_not_read_leaves_the_digest() -> None:
    assert not _changed(lambda d: _first(d, nodes.paragraph).__setitem__("classes", ["wide"]))
    assert not _changed(lambda d: _first(d, nodes.section).__setitem__("names", ["other"]))


def test_a_text_holding_the_separator_is_not_digested() -> None:
    document = _doctree()
    _first(document, nodes.paragraph).append(nodes.Text("a\x00b"))
    assert page_digest(document) is not None  # texts are cut apart by their lengths
    _first(document, nodes.section)["ids"].append("a\x00b")
    assert page_digest(document) is not None  # written with repr


def _indexer(tmp_path: Path) -> Any:
    from sphinx.search import IndexBuilder
    from sphinx.testing.util import SphinxTestApp

    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "conf.py").write_text("html_search_language = 'zh'\n", encoding="utf-8")
    (tmp_path / "index.rst").write_text("x\n=\n", encoding="utf-8")
    app = SphinxTestApp("html", srcdir=tmp_path)
    try:
        return IndexBuilder(app.env, "zh", {}, "")
    finally:
        app.cleanup()


def test_a_fed_page_given_back_leaves_the_index_as_feeding_it(tmp_path: Path) -> None:
    from sphinx.search import IndexBuilder

    ours, sphinx, restored = (_indexer(tmp_path) for _ in range(3))
    fed = compat.feed_page(ours, "page", "page.rst", "标题", _doctree())
    IndexBuilder.feed(sphinx, "page", "page.rst", "标题", _doctree())
    compat.restore_page(restored, "page", "page.rst", "标题", fed)
    assert fed.word_keys and fed.title_keys
    for index in (ours, restored):
        assert index.freeze() == sphinx.freeze()
    assert set(fed.word_keys) == {key for key, pages in sphinx._mapping.items() if pages}


@st.composite
def books(draw: st.DrawFn) -> list[list[SectionText]]:
    keys = st.lists(st.sampled_from(["缓存", "存分", "分配", "tensor", "ops", "图中"]), unique=True)
    part = st.builds(
        SectionText, anchor=st.sampled_from(["", "sec-1", "sec-2"]), length=st.integers(0, 99),
        keys=keys.map(tuple), source_title=st.booleans(),
    )  # fmt: skip
    return draw(st.lists(st.lists(part, max_size=40), min_size=1, max_size=6))


def _postings(pages: list[list[SectionText]], kept: Postings | None = None,
              former: list[list[SectionText]] | None = None) -> Postings:
    docnames = [f"p{n}" for n in range(len(pages))]
    tokens = [repr(parts) for parts in pages]
    found = dict(zip(docnames, pages, strict=True))
    before = dict(zip(docnames, former or [], strict=False))

    def formerly(docname: str, token: str) -> list[SectionText] | None:
        parts = before.get(docname)
        return parts if parts is not None and repr(parts) == token else None

    return book_postings(docnames, tokens, found.__getitem__, kept, formerly)


@settings(max_examples=150, deadline=None)
@given(books(), st.data())
def test_postings_updated_are_the_postings_made_afresh(
    book: list[list[SectionText]], data: st.DataObject
) -> None:
    kept = _postings(book)
    edited = [
        data.draw(st.sampled_from([parts, parts[::-1], [p._replace(keys=p.keys[1:]) for p in parts],
                                   [p._replace(keys=(*p.keys, "新键")) for p in parts], parts[1:]]))
        for parts in book
    ]  # fmt: skip
    assert _postings(edited, kept, book) == _postings(edited)


def test_an_index_reloaded_from_the_store_is_the_one_parsed(tmp_path: Path) -> None:

    parts = {"page": (SectionText("", 4, ("缓存", "ops")),)}
    store = SearchStore.open(tmp_path, lambda: ("key",))
    store.put("page", parts["page"])
    written = PackedJavaScriptIndex(store)
    indexer = _indexer(tmp_path / "book")
    compat.feed_page(indexer, "page", "page.rst", "标题", _doctree())
    stream = io.StringIO()
    indexer.dump(stream, written)
    store.save({"page"})
    text = stream.getvalue()

    def loaded(fmt: PackedJavaScriptIndex) -> dict[str, Any]:
        index = _indexer(tmp_path / "book")
        index.load(io.StringIO(text), fmt)
        if fmt.loaded is not None:  # Sphinx got it without its terms: filled as it would
            compat.fill_mappings(index, fmt.loaded, compat.pages_of(index))
        return {
            name: getattr(index, f"_{name}")
            for name in ("titles", "filenames", "all_titles", "mapping", "title_mapping")
        }

    kept = SearchStore.open(tmp_path, lambda: ("key",))
    assert loaded(PackedJavaScriptIndex(kept)) == loaded(PackedJavaScriptIndex())
    assert kept.index is not None  # from the store, not parsed
    parsed = SearchStore.open(tmp_path / "elsewhere", lambda: ("key",))
    assert loaded(PackedJavaScriptIndex(parsed)) == loaded(PackedJavaScriptIndex())
    other = SearchStore.open(tmp_path, lambda: ("key",))
    assert other.kept_index("another digest") is None
    assert pickle.loads(pickle.dumps(text)) == text


class _Given:
    """An index format whose ``load`` gives *frozen* (as the packed format gives Sphinx)."""

    def __init__(self, frozen: dict[str, Any]) -> None:
        self.frozen = frozen

    def load(self, stream: object) -> dict[str, Any]:
        return self.frozen


TEXTS = {
    "a": "第一页\n======\n\n缓存分配器 ops 的说明。\n",
    "b": "第二页\n======\n\n反向传播引擎。\n\n小节\n----\n\n工作线程 TensorImpl。\n",
    "c": "第三页\n======\n\n只在这一页的词：碎片整理。\n",
    "d": "第四页\n======\n\n缓存与引擎。\n",
}


@pytest.mark.parametrize(
    ("edits", "written"),
    [
        ({}, {"a", "b", "c", "d"}),  # every page written again, none changed
        ({}, {"b"}),  # one page written, unchanged
        ({"c": "第三页\n======\n\n换了的话。\n"}, {"c"}),  # its only terms gone: kept empty
        ({"a": TEXTS["a"] + "\n新增的一句。\n", "b": "第二页\n======\n\n短了。\n"}, {"a", "b"}),
        ({"d": "改名\n====\n\n缓存与引擎。\n"}, {"a", "b", "c", "d"}),  # a renamed title
    ],
)
def test_an_index_frozen_from_the_one_loaded_is_sphinxs(
    tmp_path: Path, edits: dict[str, str], written: set[str]
) -> None:
    from sphinx.search import IndexBuilder

    first = _indexer(tmp_path)
    for name, text in TEXTS.items():
        IndexBuilder.feed(first, name, f"{name}.rst", name, _doctree(text))
    loaded = pickle.loads(pickle.dumps(first.freeze()))
    texts = {**TEXTS, **edits}
    keep = set(TEXTS) - written

    sphinx = _indexer(tmp_path)
    sphinx.load(None, _Given(loaded))
    sphinx.prune(keep)
    for name in sorted(written):
        IndexBuilder.feed(sphinx, name, f"{name}.rst", name, _doctree(texts[name]))
    sphinx.prune(set(TEXTS))
    expected = sphinx.freeze()

    ours = _indexer(tmp_path)
    ours.load(None, _Given({**loaded, "terms": {}, "titleterms": {}}))
    ours.prune(keep)
    kept = compat.pages_of(ours)
    fed = {
        name: (f"{name}.rst", name,
               compat.feed_alone(ours, name, f"{name}.rst", name, _doctree(texts[name])))
        for name in sorted(written)
    }  # fmt: skip
    assert compat.freeze_with(ours, loaded, kept, fed, set(TEXTS)) == expected
    if not edits:
        assert compat.freeze_with(ours, loaded, kept, fed, set(TEXTS))["terms"] is loaded["terms"]


def test_an_index_with_other_pages_is_frozen_by_sphinx(tmp_path: Path) -> None:
    from sphinx.search import IndexBuilder

    first = _indexer(tmp_path)
    for name in ("a", "b"):
        IndexBuilder.feed(first, name, f"{name}.rst", name, _doctree(TEXTS[name]))
    loaded = first.freeze()
    ours = _indexer(tmp_path)
    ours.load(None, _Given({**loaded, "terms": {}, "titleterms": {}}))
    ours.prune(set())
    page = compat.feed_alone(ours, "c", "c.rst", "c", _doctree(TEXTS["c"]))
    fed = {"a": ("a.rst", "a", page), "c": ("c.rst", "c", page)}
    assert compat.freeze_with(ours, loaded, set(), fed, {"a", "b", "c"}) is None  # b is gone


def test_a_page_scanned_again_keeps_its_unchanged_parts_as_a_fresh_scan_makes_them() -> None:
    from seriesbook.search.pages import scan
    from seriesbook.search.zh import SearchChinese

    lang = SearchChinese({})
    texts = (("", ("开头 ops",), False), ("sec-1", ("缓存分配器 ops",), False),
             ("sec-2", ("另一节",), True))  # fmt: skip
    before = scan(texts, lang)
    edited = (texts[0], ("sec-1", ("缓存分配器 ops 改了",), False), texts[2])
    assert scan(edited, lang, before) == scan(edited, SearchChinese({}))
    lang.latin_terms.add("ops")  # the kept parts' stems of ops no longer hold
    again = scan(texts, lang, before)
    assert again == scan(texts, lang) and "ops" in again.parts[0].keys
    assert again.part_depends[0] == (("ops", True),) and again.depends == (("ops", True),)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.sampled_from(["缓", "存", "𠀀", "a", "\x00", "\n", "，"]), max_size=3)))
def test_bigram_terms_found_at_once_are_those_found_one_by_one(terms: list[str]) -> None:
    from seriesbook.search.compact import _bigrams, is_bigram

    assert _bigrams(terms) == {term for term in terms if is_bigram(term)}


HAN_POOL = "缓存分配器图中𠀀𠀁"


@st.composite
def repacked(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any], set[str]]:
    """An index, the same index with some terms' pages changed and some terms added, and the
    terms whose pages changed."""
    count = draw(st.sampled_from([1, 3, 8, 70]))
    docnames = tuple(f"p{n:02}" for n in range(count))
    words = st.one_of(
        st.text(alphabet=HAN_POOL, min_size=2, max_size=2),
        st.text(alphabet=HAN_POOL, min_size=1, max_size=3),
        st.sampled_from(["tensor", "ops", "cuda", "alloc"]),
    )
    pages = st.one_of(
        st.integers(0, count - 1),
        st.lists(st.integers(0, count - 1), unique=True, max_size=count).map(sorted).filter(
            lambda found: len(found) != 1),
    )
    terms = draw(st.dictionaries(words, pages, max_size=40))
    edits = draw(st.dictionaries(words, pages, max_size=12))
    new_terms = {**terms, **edits}
    changed = {term for term, found in new_terms.items() if terms.get(term) != found}

    def index(found: dict[str, Any]) -> dict[str, Any]:
        return {
            "docnames": docnames, "filenames": [f"{name}.md" for name in docnames],
            "titles": tuple(f"第{n}章" for n in range(count)), "terms": found, "objects": {},
            "objtypes": {}, "objnames": {}, "titleterms": {"分配": 0}, "envversion": {"x": 1},
            "alltitles": {"分配器": [(0, "sec-1")]}, "indexentries": {},
        }  # fmt: skip

    return index(terms), index(new_terms), changed


@settings(max_examples=200, deadline=None)
@given(repacked(), books(), books(), st.sampled_from([(0.45, 96_000), (0.1, 0), (0.02, 0)]),
       st.sampled_from([None, "zh-CN"]))
def test_an_index_packed_again_from_the_last_pack_is_the_one_packed_afresh(
    indexes: tuple[dict[str, Any], dict[str, Any], set[str]],
    before: list[list[SectionText]],
    after: list[list[SectionText]],
    budget: tuple[float, int],
    source_lang: str | None,
) -> None:
    """The groups whose terms or § lists changed written again, the rest taken: the same JSON
    and the same state as packing afresh, whatever the budget lets in."""
    from unittest import mock

    from seriesbook.search import compact

    old, new, changed = indexes
    width = len(old["docnames"])
    old_postings = _postings((before * width)[:width])
    new_postings = _postings((after * width)[:width])
    with mock.patch.object(compact, "SECTION_SHARE", budget[0]), \
            mock.patch.object(compact, "SECTION_FLOOR", budget[1]):
        _, _, state = compact._pack(old, old_postings, source_lang, False, None)
        made = compact._repack(
            new, new_postings, source_lang, False, None, (state, old, old_postings, changed)
        )
        _, written, fresh = compact._pack(new, new_postings, source_lang, False, None)
    assert made == (written, fresh)


def test_a_kept_pack_state_of_another_form_is_not_taken() -> None:
    from seriesbook.search import compact

    index = {"docnames": ("p0",), "terms": {"缓存": 0, "ops": 0}, "titleterms": {},
             "alltitles": {}}
    _, _, state = compact._pack(index, _postings([[]]), None, False, None)
    assert compact._well_formed(state)
    for field, other in (("format", compact.PACK_FORMAT + 1), ("budget", {}), ("groups", [])):
        assert not compact._well_formed(state._replace(**{field: other}))
