"""Doors to what Sphinx's search index holds of each page: a page fed as Sphinx's
``IndexBuilder.feed`` feeds it, saying what it added, and that contribution given back to
another build's index without walking, splitting or stemming the page again.

Sphinx offers no way to hand the index a page's words: :func:`feed_page` is a copy of
``IndexBuilder.feed`` (pinned) that also returns the keys it added, and :func:`restore_page`
puts the same into the index's private mappings.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, NamedTuple

from sphinx import addnodes
from sphinx.util.index_entries import split_index_msg

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.search import IndexBuilder


class FedPage(NamedTuple):
    """What feeding one page added to the index (besides its title and file name)."""

    title_keys: tuple[str, ...]  # terms of its titles (``titleterms``)
    word_keys: tuple[str, ...]  # terms of its text (``terms``)
    titles: tuple[tuple[str, str | None], ...]  # its titles and their anchors (``alltitles``)
    index_entries: tuple[tuple[str, str, str], ...]  # its index directives' entries


def feed_page(
    indexer: IndexBuilder,
    docname: str,
    filename: str | os.PathLike[str],
    title: str,
    doctree: nodes.document,
) -> FedPage:
    """``IndexBuilder.feed(docname, filename, title, doctree)``, returning what it added.

    A copy of Sphinx's ``feed`` (the same calls in the same order) that notes each key it adds
    a page to."""
    indexer._titles[docname] = title
    indexer._filenames[docname] = os.fspath(filename)

    word_store = indexer._word_collector(doctree)

    _filter = indexer.lang.word_filter
    _stem = indexer.lang.stem

    @functools.cache
    def stem(word_to_stem: str) -> str:
        return _stem(word_to_stem).lower()

    indexer._all_titles[docname] = word_store.titles
    title_keys: dict[str, None] = {}
    word_keys: dict[str, None] = {}

    for word in word_store.title_words:
        stemmed_word = stem(word)
        if _filter(stemmed_word):
            indexer._title_mapping.setdefault(stemmed_word, set()).add(docname)
            title_keys[stemmed_word] = None
        elif _filter(word):
            indexer._title_mapping.setdefault(word, set()).add(docname)
            title_keys[word] = None

    for word in word_store.words:
        stemmed_word = stem(word)
        if not _filter(stemmed_word) and _filter(word):
            stemmed_word = word
        already_indexed = docname in indexer._title_mapping.get(stemmed_word, ())
        if _filter(stemmed_word) and not already_indexed:
            indexer._mapping.setdefault(stemmed_word, set()).add(docname)
            word_keys[stemmed_word] = None

    _index_entries: set[tuple[str, str, str]] = set()
    for node in doctree.findall(addnodes.index):
        for entry_type, value, target_id, main, _category_key in node["entries"]:
            try:
                result = split_index_msg(entry_type, value)
            except ValueError:
                pass
            else:
                target_id = target_id or ""
                if entry_type in {"see", "seealso"}:
                    _index_entries.add((result[0], target_id, main))
                _index_entries |= {(x, target_id, main) for x in result}

    indexer._index_entries[docname] = sorted(_index_entries)
    return FedPage(
        tuple(title_keys),
        tuple(word_keys),
        tuple(word_store.titles),
        tuple(indexer._index_entries[docname]),
    )


def restore_page(
    indexer: IndexBuilder,
    docname: str,
    filename: str | os.PathLike[str],
    title: str,
    fed: FedPage,
) -> None:
    """Leave *indexer* as :func:`feed_page` of the same page left it (*fed* its answer)."""
    indexer._titles[docname] = title
    indexer._filenames[docname] = os.fspath(filename)
    indexer._all_titles[docname] = list(fed.titles)
    title_mapping, mapping = indexer._title_mapping, indexer._mapping
    for key in fed.title_keys:
        title_mapping.setdefault(key, set()).add(docname)
    for key in fed.word_keys:
        mapping.setdefault(key, set()).add(docname)
    indexer._index_entries[docname] = list(fed.index_entries)
