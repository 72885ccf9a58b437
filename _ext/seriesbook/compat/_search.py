"""Doors to what Sphinx's search index holds of each page: a page fed as Sphinx's
``IndexBuilder.feed`` feeds it, saying what it added, and that contribution given back to
another build's index without walking, splitting or stemming the page again; and the index
frozen from the one it loaded, changed only where pages were fed.

Sphinx offers no way to hand the index a page's words: :func:`feed_page` is a copy of
``IndexBuilder.feed`` (pinned) that also returns the keys it added, :func:`feed_alone` runs it
on an empty copy of the indexer, and :func:`restore_page` puts the same into the index's
private mappings. Every build loads the index it wrote last, prunes the pages it writes and
feeds them again; :func:`freeze_with` gives what ``IndexBuilder.freeze`` would then, taking each
term's pages from the loaded index and changing only the fed pages' terms, without making the
mappings of sets Sphinx would fill, empty and fill again (sphinx-doc/sphinx#11120 is about the
second prune); :func:`fill_mappings` makes them when Sphinx's own ``freeze`` must run.
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

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
    for mapping, keys in (
        (indexer._title_mapping, fed.title_keys),
        (indexer._mapping, fed.word_keys),
    ):
        found = mapping.get
        for key in keys:
            pages = found(key)
            if pages is None:
                mapping[key] = {docname}
            else:
                pages.add(docname)
    indexer._index_entries[docname] = list(fed.index_entries)


def feed_alone(
    indexer: IndexBuilder,
    docname: str,
    filename: str | os.PathLike[str],
    title: str,
    doctree: nodes.document,
) -> FedPage:
    """What :func:`feed_page` of the page adds to an index that does not hold it (as Sphinx's
    prunes each page it writes before feeding it), *indexer* itself untouched."""
    alone = copy.copy(indexer)
    alone._titles, alone._filenames, alone._all_titles = {}, {}, {}
    alone._mapping, alone._title_mapping, alone._index_entries = {}, {}, {}
    return feed_page(alone, docname, filename, title, doctree)


def pages_of(indexer: IndexBuilder) -> set[str]:
    """The pages whose titles *indexer* holds."""
    return set(indexer._titles)


def loads(indexer: IndexBuilder, frozen: object) -> bool:
    """Whether ``IndexBuilder.load`` takes *frozen* (else it says "old format", or its pages'
    names, files and titles do not pair up)."""
    if not isinstance(frozen, dict) or frozen.get("envversion") != indexer._env_version:
        return False
    return len(frozen["docnames"]) == len(frozen["filenames"]) == len(frozen["titles"])


def fill_mappings(
    indexer: IndexBuilder, frozen: Mapping[str, Any], docnames: Collection[str]
) -> None:
    """The term mappings ``IndexBuilder.load`` of *frozen* and then ``prune(docnames)`` leave
    (each term's pages as sets, a term whose pages all went kept with none)."""
    index2fn = frozen["docnames"]

    def load_terms(mapping: Mapping[str, Any]) -> dict[str, set[str]]:
        rv = {}
        for k, v in mapping.items():
            if isinstance(v, int):
                rv[k] = {index2fn[v]}
            else:
                rv[k] = {index2fn[i] for i in v}
        return rv

    indexer._mapping = load_terms(frozen["terms"])
    indexer._title_mapping = load_terms(frozen["titleterms"])
    for wordnames in indexer._mapping.values():
        wordnames.intersection_update(docnames)
    for wordnames in indexer._title_mapping.values():
        wordnames.intersection_update(docnames)


def freeze_with(
    indexer: IndexBuilder,
    frozen: Mapping[str, Any],
    kept: Collection[str],
    fed: Mapping[str, tuple[str, str, FedPage]],
    pruned: Collection[str],
    same: Collection[str] = (),
    changed: set[str] | None = None,
) -> dict[str, Any] | None:
    """``IndexBuilder.freeze()`` of *indexer* after it loaded *frozen* (its term mappings left
    empty), was pruned to *kept*, was fed the pages *fed* (each with its file name, title and
    what feeding it added) and was pruned to *pruned*; ``None`` (nothing done) unless its pages
    are then *frozen*'s, the fed ones among them and not kept, and every term in *frozen* has
    the form ``freeze`` gives it (a page number, or a sorted list of another length).

    *same*: fed pages known to be in exactly the terms of *frozen* feeding them adds (their
    terms are not looked for). *changed* (if given) gets the ``terms`` whose pages are not
    *frozen*'s (the new ones among them): every other term is *frozen*'s, as it was."""
    docnames = tuple(frozen["docnames"])
    pages = set(docnames)
    if (
        list(docnames) != sorted(pages)
        or len(pages) != len(docnames)
        or not pages.issubset(pruned)
        or not set(kept).isdisjoint(fed)
        or set(kept) | set(fed) != pages
    ):
        return None
    fn2index = {f: i for (i, f) in enumerate(docnames)}
    numbers = {
        fn2index[docname]: page for docname, (_, _, page) in fed.items() if docname not in same
    }
    found = _terms(frozen["terms"], {n: page.word_keys for n, page in numbers.items()})
    title_found = _terms(
        frozen["titleterms"], {n: page.title_keys for n, page in numbers.items()}
    )
    if found is None or title_found is None:
        return None
    (terms, terms_changed), (title_terms, _) = found, title_found
    if changed is not None:
        changed.update(terms_changed)
    for docname, (filename, title, page) in fed.items():
        indexer._titles[docname] = title
        indexer._filenames[docname] = os.fspath(filename)
        indexer._all_titles[docname] = list(page.titles)
        indexer._index_entries[docname] = list(page.index_entries)
    titles = tuple(indexer._titles[docname] for docname in docnames)
    filenames = [indexer._filenames.get(docname) for docname in docnames]

    objects = indexer.get_objects(fn2index)  # populates _objtypes
    objtypes = {v: k[0] + ":" + k[1] for (k, v) in indexer._objtypes.items()}
    objnames = indexer._objnames

    alltitles: dict[str, list[tuple[int, str | None]]] = {}
    for docname, titlelist in sorted(indexer._all_titles.items()):
        for title, titleid in titlelist:
            alltitles.setdefault(title, []).append((fn2index[docname], titleid))

    index_entries: dict[str, list[tuple[int, str, bool]]] = {}
    for docname, entries in indexer._index_entries.items():
        for entry, entry_id, main_entry in entries:
            index_entries.setdefault(entry.lower(), []).append((
                fn2index[docname],
                entry_id,
                main_entry == "main",
            ))

    return {
        "docnames": docnames,
        "filenames": filenames,
        "titles": titles,
        "terms": terms,
        "objects": objects,
        "objtypes": objtypes,
        "objnames": objnames,
        "titleterms": title_terms,
        "envversion": indexer._env_version,
        "alltitles": alltitles,
        "indexentries": index_entries,
    }


Pages = int | list[int]


def _terms(
    frozen: Mapping[str, Pages], fed: Mapping[int, tuple[str, ...]]
) -> tuple[Mapping[str, Pages], Collection[str]] | None:
    """*frozen*'s terms (each with its page numbers, as ``get_terms`` writes them) after each
    page of *fed* (by number) was taken out of every term and put in its own (*frozen* itself
    if nothing changed), and the terms whose pages changed; ``None`` if a term is not in
    ``get_terms``'s form."""
    numbers = set(fed)
    before: dict[int, set[str]] = {number: set() for number in numbers}
    if not numbers:  # only the form of each term to see to
        if any(not isinstance(value, int) and len(value) == 1 for value in frozen.values()):
            return None
        return frozen, ()
    for term, value in frozen.items():
        if isinstance(value, int):
            if value in numbers:
                before[value].add(term)
        elif len(value) == 1:
            return None
        elif not numbers.isdisjoint(value):
            for number in numbers.intersection(value):
                before[number].add(term)
    changes: dict[str, tuple[set[int], set[int]]] = {}
    for number, keys in fed.items():
        now = set(keys)
        for term in before[number] - now:
            changes.setdefault(term, (set(), set()))[0].add(number)
        for term in now - before[number]:
            changes.setdefault(term, (set(), set()))[1].add(number)
    if not changes:
        return frozen, ()
    terms = dict(frozen)
    for key in (key for number, keys in fed.items() for key in keys):  # new terms in feed order
        terms.setdefault(key, [])
    for term, (gone, added) in changes.items():
        value = terms[term]
        found = {value} if isinstance(value, int) else set(value)
        found = (found - gone) | added
        terms[term] = next(iter(found)) if len(found) == 1 else sorted(found)
    return terms, changes.keys()
