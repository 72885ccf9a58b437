"""Chinese search that finds what readers type, indexing each unchanged page once across builds.

With ``seriesbook.search`` the ``zh`` search language is
:class:`seriesbook.search.zh.SearchChinese`: Sphinx's index (every term, for at least the same
pages) plus the Han bigrams of the text (:mod:`~seriesbook.search.splitter`), written packed
(:mod:`~seriesbook.search.compact`), and the search page's query splitter and ranking
(``search/seriesbook-search.js``).

Search results land on the § that matches: each page's § parts
(:mod:`~seriesbook.search.sections`, from the doctree and the ``sec`` domain's anchors) are
written into the index as per-§ postings (:mod:`~seriesbook.search.postings`); the index also
carries the part of OpenCC's traditional-to-simplified table the book needs
(:mod:`~seriesbook.search.variants`).

What a build needs of the last one is kept in ``<doctreedir>/seriesbook-search.pickle``
(:mod:`~seriesbook.search.store`): each page's § parts (an incremental build writes only the
changed pages) and, with ``seriesbook_search_cache`` (the default), what each page gave the
index under digests of the page (:mod:`~seriesbook.search.pages`), its split texts, the §
postings, the variants table and the index as last written; jieba's dictionary is kept by first
character in ``<doctreedir>/seriesbook-search-jieba.sqlite``. A rebuild (``-E``, ``-a``, an
incremental build, a theme change) walks, splits and stems only the pages that changed,
segments only their changed texts (loading only the dictionary entries those need), updates
only their keys' § postings, and reloads the index it wrote without parsing it.
``seriesbook_search_cache = False`` keeps the § parts only (the index is the same).

The index is fed in the main process, also under ``-j N`` (the HTML builder resolves each page and
calls ``IndexBuilder.feed`` from ``write_doc_serialized``), so the kept pages are used and
noted in the order of the pages, and the store is written when the build succeeds.
"""

from __future__ import annotations

from functools import partial
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
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

    from seriesbook.search.compact import PackedJavaScriptIndex
    from seriesbook.search.pages import KeptPages
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
    """Before a page is indexed (main process): its § parts noted for the index, the words no
    text node holds prepared; with the cache, from the page's kept record if it holds."""
    lang = _language(app)
    if lang is None:
        return
    index_format = _packed_format(app)
    if index_format is None:
        lang.begin_page(doctree)
        return
    from seriesbook.search.sections import page_texts, section_anchors

    anchors = section_anchors(app, docname)
    translated = is_translated_edition(app.config)
    store = index_format.store
    if not store.caching:
        from seriesbook.search.pages import scan

        store.put(docname, scan(page_texts(doctree, anchors, translated), lang).parts)
        lang.begin_page(doctree)
        return
    from seriesbook.search.view import page_digest

    seen = page_digest(doctree, sorted(anchors), translated)
    texts = partial(page_texts, doctree, anchors, translated)
    _kept_pages(app, index_format, lang).resolve(doctree, docname, texts, seen)


def _kept_pages(app: Sphinx, index_format: PackedJavaScriptIndex, lang: SearchChinese) -> KeptPages:
    """This build's kept pages, and its indexer routed through them (once per build)."""
    pages = index_format.pages
    if pages is None or pages.lang is not lang:
        from seriesbook.search.index import KeptIndex
        from seriesbook.search.pages import KeptPages

        indexer = app.builder.indexer  # type: ignore[attr-defined]
        lang.attach(Path(app.doctreedir))
        pages = index_format.pages = KeptPages(index_format.store, lang, indexer)
        index_format.index = KeptIndex(
            indexer, index_format.loaded, index_format.members, pages.feed
        )
    return pages


def _route_index(app: Sphinx, *args: object) -> list[Any]:
    """``html-collect-pages`` (before the index is dumped): the indexer routed, also in a build
    that wrote no page (it loaded the index without its terms)."""
    lang, index_format = _language(app), _packed_format(app)
    if lang is not None and index_format is not None and index_format.store.caching:
        _kept_pages(app, index_format, lang)
    return []


def _save(app: Sphinx, exception: BaseException | None) -> None:
    """When the build succeeded: the search's store written (if it changed). Either way this
    build's state is dropped (a process may build again, as ``seriesbook serve`` does)."""
    index_format = _packed_format(app)
    if index_format is None:
        return
    pages, lang = index_format.pages, _language(app)
    try:
        if lang is not None:
            lang.close()
        if exception is None:
            if pages is not None:
                pages.finish()
            index_format.store.save(set(app.env.all_docs))
            if pages is not None and lang is not None and lang.splits is not None:
                logger.verbose(
                    "seriesbook.search: %d pages kept, %d indexed (%d texts split before, %d now)",
                    pages.kept,
                    pages.indexed,
                    lang.splits.hits,
                    lang.splits.misses,
                )
    except OSError as error:
        warn(Problem.SEARCH_CACHE, f"cannot save the search's kept pages: {error}", None)
        index_format.store.forget(read_again=True)
    finally:
        index_format.finish_build()


def _unknown_pages(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: without the store (none, or one of another format, as after an
    upgrade), the § parts of the pages an incremental build would not write are unknown: every
    page is read and written again, so the index gets every page's §."""
    index_format = _packed_format(app)
    if index_format is None or index_format.store.intact():
        return []
    return sorted(set(env.all_docs) - added - changed - removed)


def _cache_key(options: dict[str, str]) -> tuple[object, ...]:
    """:func:`seriesbook.search.store.cache_key` for the search options *options*."""
    compat.import_jieba()  # before sphinx.search.zh imports it: without pkg_resources
    from seriesbook.search.cache import signature
    from seriesbook.search.store import cache_key
    from seriesbook.search.zh import user_dictionary

    return cache_key(signature(user_dictionary(options)))


def _pack_index(app: Sphinx) -> None:
    """Write (and reload) ``searchindex.js`` with packed bigrams when the index is ours."""
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.search import js_index, languages

    from seriesbook.search.compact import PackedJavaScriptIndex
    from seriesbook.search.store import SearchStore

    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder) or builder.indexer_format is not js_index:
        return
    lang = app.config.html_search_language or app.config.language or ""
    chosen = languages.get(lang) or languages.get(lang.partition("_")[0])
    if chosen is SearchChineseOnDemand:
        source = source_language(app.config) if is_translated_edition(app.config) else None
        options = dict(app.config.html_search_options or {})
        key = partial(_cache_key, options) if get_config(app.config).search_cache else None
        builder.indexer_format = PackedJavaScriptIndex(
            SearchStore.open(Path(app.doctreedir), key),
            source.replace("_", "-") if source else None,
            traditional=is_traditional_chinese(str(app.config.language or "")),
        )


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.add_search_language(SearchChineseOnDemand)
    app.connect("builder-inited", _pack_index)
    app.connect("env-get-outdated", _unknown_pages)
    app.connect("doctree-resolved", _begin_page)
    app.connect("html-collect-pages", _route_index)
    app.connect("build-finished", _save)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
