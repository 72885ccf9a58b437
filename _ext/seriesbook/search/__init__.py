"""Chinese search that finds what readers type, segmenting each text once across builds.

With ``seriesbook.search`` the ``zh`` search language is
:class:`seriesbook.search.zh.SearchChinese`: Sphinx's index (every term, for at least the same
pages) plus the Han bigrams of the text (:mod:`~seriesbook.search.splitter`), written packed
(:mod:`~seriesbook.search.compact`), and the search page's query splitter and ranking
(``search/seriesbook-search.js``). jieba's segmentation of each text is kept in
``<doctreedir>/seriesbook-search-zh.pickle``, and jieba's dictionary by first character in
``<doctreedir>/seriesbook-search-jieba.sqlite``. A rebuild (``-E``, ``-a``, an incremental build, a
theme change) segments only the texts that changed, and loads jieba's dictionary only if some
text is new, and then only the dictionary entries that text needs. ``seriesbook_search_cache =
False`` turns these and the kept § parts and packed groups off (the index is the same).

Search results land on the § that matches: each page's § parts
(:mod:`~seriesbook.search.sections`, from the doctree and the ``sec`` domain's anchors) are kept
in ``<doctreedir>/seriesbook-search-sections.pickle`` and written into the index as per-§
postings (and by their text in ``seriesbook-search-parts.pickle``,
:mod:`~seriesbook.search.kept_parts`, so an unchanged page is not scanned again); the index also
carries the part of OpenCC's traditional-to-simplified table the book needs
(:mod:`~seriesbook.search.variants`).

The index is fed in the main process, also under ``-j N`` (the HTML builder calls
``IndexBuilder.feed`` from ``write_doc_serialized``), so one cache sees every page. The cache is
attached when the first page is resolved for writing, each page's texts are recorded under its
name, and the file is written when the build succeeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.search import SearchLanguage
from sphinx.util import logging

from seriesbook import __version__, compat
from seriesbook.core.config import (
    get_config,
    is_traditional_chinese,
    is_translated_edition,
    source_language,
)
from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

    from seriesbook.search.compact import PackedJavaScriptIndex
    from seriesbook.search.zh import SearchChinese

logger = logging.getLogger(__name__)

class SearchChineseOnDemand(SearchLanguage):
    """Registered for ``zh`` with ``app.add_search_language``: instantiating it gives
    :class:`seriesbook.search.zh.SearchChinese`, imported only then (it imports jieba, 0.4 s,
    which a build that indexes no Chinese never needs)."""

    lang = "zh"

    def __new__(cls, options: dict[str, str]) -> Any:
        compat.import_jieba()  # before sphinx.search.zh imports it: without pkg_resources
        from seriesbook.search.zh import SearchChinese

        return SearchChinese(options)


def _language(app: Sphinx) -> SearchChinese | None:
    """The build's search language if it is ours (HTML builders with search only)."""
    lang = getattr(getattr(app.builder, "indexer", None), "lang", None)
    if lang is None:
        return None  # no search index (dummy, LaTeX, EPUB …): jieba need not even be imported
    from seriesbook.search.zh import SearchChinese

    return lang if isinstance(lang, SearchChinese) else None


def _packed_format(app: Sphinx) -> PackedJavaScriptIndex | None:
    from seriesbook.search.compact import PackedJavaScriptIndex

    index_format = getattr(app.builder, "indexer_format", None)
    return index_format if isinstance(index_format, PackedJavaScriptIndex) else None


def _begin_page(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Before a page is indexed (main process): the cache notes the page, the words no text
    node holds are prepared, the page's § parts are noted for the index."""
    lang = _language(app)
    if lang is None:
        return
    index_format = _packed_format(app)
    if index_format is not None:
        from seriesbook.search.kept_parts import PartsCache, scan
        from seriesbook.search.sections import page_texts, section_anchors

        translated = is_translated_edition(app.config)
        texts = page_texts(doctree, section_anchors(app, docname), translated)
        if not get_config(app.config).search_cache:
            parts = list(scan(texts, lang).parts)
        else:
            if index_format.kept is None:
                index_format.kept = PartsCache.open(Path(app.doctreedir))
            parts = index_format.kept.parts(docname, texts, lang)
        index_format.store.used[docname] = {part.anchor: part for part in parts}
    if get_config(app.config).search_cache:
        if lang.cache is None:
            lang.attach(Path(app.doctreedir))
        assert lang.cache is not None
        lang.cache.begin_page(docname)
    lang.begin_page(doctree)


def _save_sections(app: Sphinx, exception: BaseException | None) -> None:
    index_format = _packed_format(app)
    if exception is not None or index_format is None:
        return
    store, kept, docnames = index_format.store, index_format.kept, set(app.env.all_docs)
    try:
        store.save(store.used, docnames)
        if kept is not None:
            kept.save(kept.used, docnames)
        if index_format.groups is not None and index_format.groups.used:
            index_format.groups.save()
    except OSError as error:
        warn(Problem.SEARCH_CACHE, f"cannot save the § sections of the search: {error}", None)


def _save(app: Sphinx, exception: BaseException | None) -> None:
    lang = _language(app)
    if exception is not None or lang is None or lang.cache is None:
        return
    cache = lang.cache
    lang.close()
    try:
        cache.save(cache.used, set(app.env.all_docs))
    except OSError as error:
        warn(Problem.SEARCH_CACHE, f"cannot save the segmentation cache: {error}", None)
    logger.verbose(
        "seriesbook.search: %d texts from the cache, %d segmented by jieba",
        cache.hits,
        cache.misses,
    )


def _pack_index(app: Sphinx) -> None:
    """Write (and reload) ``searchindex.js`` with packed bigrams when the index is ours."""
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.search import js_index, languages

    from seriesbook.search.compact import PackedJavaScriptIndex
    from seriesbook.search.kept_groups import KeptGroups
    from seriesbook.search.sections import SectionStore

    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder) or builder.indexer_format is not js_index:
        return
    lang = app.config.html_search_language or app.config.language or ""
    chosen = languages.get(lang) or languages.get(lang.partition("_")[0])
    if chosen is SearchChineseOnDemand:
        source = source_language(app.config) if is_translated_edition(app.config) else None
        packed = PackedJavaScriptIndex(
            SectionStore.open(Path(app.doctreedir)),
            source.replace("_", "-") if source else None,
            traditional=is_traditional_chinese(str(app.config.language or "")),
        )
        if get_config(app.config).search_cache:
            packed.groups = KeptGroups.open(Path(app.doctreedir))
        builder.indexer_format = packed


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.add_search_language(SearchChineseOnDemand)
    app.connect("builder-inited", _pack_index)
    app.connect("doctree-resolved", _begin_page)
    app.connect("build-finished", _save)
    app.connect("build-finished", _save_sections)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
