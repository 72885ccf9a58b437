"""Each page's part of the search index kept, so an unchanged page is neither walked, split nor
stemmed again.

What a page gives the search is a function of the page as resolved (its § parts, the words its
inline markup and diagrams add, its titles), of the page as the HTML builder feeds it to
Sphinx's index (other ``doctree-resolved`` listeners may still change it), of the build's code
and jieba (:func:`seriesbook.search.store.cache_key`), and of one thing beyond the page: a Latin
word's stem is the word itself if the build has seen it as a Latin term (``ops``: ``op``
unless seen, :meth:`seriesbook.search.zh.SearchChinese.stem`), and the Latin terms grow page by
page. So :class:`KeptPages` keeps each page's :class:`~seriesbook.search.store.PageRecord`
under the digests of both forms of the page (:func:`~seriesbook.search.view.page_digest`),
with the words whose stems depended on the Latin terms and what each was; a record is used only
if both digests are the same and each of those words is (or is not) a Latin term as it was
then, and then it gives what indexing the page would:

* when the page is resolved, its parts and the Latin words of its diagrams (as
  :meth:`~seriesbook.search.zh.SearchChinese.begin_page` would add them); else the page is
  scanned and segmented, each text taken from the page's kept split texts if it has one;
* when it is fed, Sphinx's index gets the terms, titles and index entries the page gave
  (:func:`seriesbook.compat.restore_page`); else it is fed and noted
  (:func:`seriesbook.compat.feed_page`).

The HTML builder resolves and feeds each page in turn in the main process (also under ``-j N``),
so the Latin terms a page sees are those of the pages before it, as without the records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from seriesbook import compat
from seriesbook.search.sections import PageTexts, SectionText, parts_of
from seriesbook.search.store import PageRecord, SearchStore, Split
from seriesbook.search.view import Digest, page_digest

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.search import IndexBuilder

    from seriesbook.search.zh import SearchChinese


class Scanned(NamedTuple):
    """A page's parts, and the Latin words whose stems depended on the build's Latin terms
    (each with whether it was one)."""

    depends: tuple[tuple[str, bool], ...]
    parts: tuple[SectionText, ...]


def scan(texts: PageTexts, lang: SearchChinese) -> Scanned:
    """The parts of *texts*, stemmed by *lang*, noting the stems that depended on its terms."""
    depends: dict[str, bool] = {}

    def latin(text: str) -> list[str]:
        keys = []
        for found in lang.latin1_letters.findall(text):
            word = found.strip()
            keys.append(lang.stem(word))
            if lang.stem_depends_on_terms(word):
                depends[word] = word in lang.latin_terms
        return keys

    parts = parts_of(texts, latin)
    return Scanned(tuple(depends.items()), tuple(parts))


def terms_digest(page: compat.FedPage) -> str:
    """What a fed page's terms are known by (the index's pages of each term follow from
    them)."""
    keys = repr((page.title_keys, page.word_keys)).encode("utf-8", "surrogatepass")
    return hashlib.sha256(keys).hexdigest()[:40]


def _hold(depends: tuple[tuple[str, bool], ...], *seen: set[str] | frozenset[str]) -> bool:
    """Whether each word is (or is not) in one of *seen* as it was."""
    return all(any(word in terms for terms in seen) == was for word, was in depends)


@dataclass
class _Resolved:
    """A page between ``doctree-resolved`` and its feeding."""

    record: PageRecord | None  # its kept record, if it held when the page was resolved
    seen: Digest  # of the page as resolved
    parts: tuple[SectionText, ...] = ()
    parts_depend: tuple[tuple[str, bool], ...] = ()
    latin: tuple[str, ...] = ()
    extras: dict[str, list[str]] = field(default_factory=dict)
    titles: tuple[str, ...] = ()
    splits: dict[str, Split] = field(default_factory=dict)


class KeptPages:
    """This build's pages: each given its kept record where it holds, else indexed and noted."""

    def __init__(self, store: SearchStore, lang: SearchChinese, indexer: IndexBuilder) -> None:
        self.store = store
        self.lang = lang
        self.indexer = indexer
        self.resolved: dict[str, _Resolved] = {}
        self.kept = self.indexed = 0

    def resolve(
        self,
        doctree: nodes.document,
        docname: str,
        texts: Callable[[], PageTexts],
        seen: Digest,
    ) -> None:
        """``doctree-resolved``: *docname* (*texts*: gives its § parts' texts, *seen*: the
        digest of the page as resolved with its § anchors) gets its kept parts and Latin
        words, or is scanned."""
        lang, store = self.lang, self.store
        record = store.record(docname) if seen.digest is not None else None
        if (
            record is not None
            and record.resolved == seen.digest
            and _hold(record.parts_depend, lang.latin_terms)
        ):
            lang.latin_terms.update(record.resolved_latin)
            self.resolved[docname] = _Resolved(record, seen)
            return
        scanned = scan(texts(), lang)
        splits: dict[str, Split] = {}
        lang.page_latin = set()
        assert lang.splits is not None
        lang.splits.begin_page(store.splits(docname), splits)
        lang.begin_page(doctree)
        self.resolved[docname] = _Resolved(
            None, seen, scanned.parts, scanned.depends, tuple(sorted(lang.page_latin)),
            lang.extras, tuple(sorted(lang.titles)), splits,
        )  # fmt: skip
        lang.page_latin = None

    def feed(
        self, docname: str, filename: str, title: str, doctree: nodes.document
    ) -> tuple[compat.FedPage, str]:
        """What feeding the page adds to the index (and its :func:`terms_digest`): its kept
        entry if its record holds, else fed and noted (a page not resolved through
        :meth:`resolve`: fed as it is)."""
        resolved = self.resolved.pop(docname, None)
        if resolved is None:
            page = compat.feed_alone(self.indexer, docname, filename, title, doctree)
            return page, terms_digest(page)
        lang, store, record = self.lang, self.store, resolved.record
        digest = None
        if resolved.seen.digest is not None:
            digest = page_digest(doctree, before=resolved.seen).digest
        if (
            record is not None
            and record.entry is not None
            and digest is not None
            and record.fed == digest
            and _hold(record.fed_depend, lang.latin_terms, frozenset(record.fed_latin))
        ):
            lang.latin_terms.update(record.fed_latin)
            store.keep(docname)
            self.kept += 1
            return record.entry, record.terms
        self.indexed += 1
        if record is not None:  # resolved from the record: the language as it would be
            lang.extras, lang.titles, lang.given = record.extras, set(record.titles), set()
            resolved = _Resolved(
                None, resolved.seen, store.parts(docname), record.parts_depend,
                record.resolved_latin, record.extras, record.titles, store.splits(docname),
            )  # fmt: skip
        assert lang.splits is not None
        lang.splits.begin_page(store.splits(docname), resolved.splits)
        lang.page_latin, lang.noted = set(), {}
        entry = compat.feed_alone(self.indexer, docname, filename, title, doctree)
        fed_latin, noted = tuple(sorted(lang.page_latin)), tuple(lang.noted.items())
        lang.page_latin = lang.noted = None
        terms = terms_digest(entry)
        self._put(docname, resolved, digest, noted, fed_latin, entry, terms)
        return entry, terms

    def _put(
        self,
        docname: str,
        resolved: _Resolved,
        digest: str | None = None,
        fed_depend: tuple[tuple[str, bool], ...] = (),
        fed_latin: tuple[str, ...] = (),
        entry: compat.FedPage | None = None,
        terms: str = "",
    ) -> None:
        record = None
        if resolved.seen.digest is not None:
            record = PageRecord(
                resolved.seen.digest, resolved.parts_depend, resolved.latin, resolved.extras,
                resolved.titles, digest, fed_depend, fed_latin, entry, terms,
            )  # fmt: skip
        self.store.put(docname, resolved.parts, record, resolved.splits)

    def finish(self) -> None:
        """The pages resolved but not fed (no title): their parts and what they gave when
        resolved are kept (a kept record as it was)."""
        for docname, resolved in self.resolved.items():
            if resolved.record is not None:
                self.store.keep(docname)
            else:
                self._put(docname, resolved)
        self.resolved = {}
