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
  scanned (a part whose texts did not change kept) and segmented, each text taken from the
  page's kept split texts if it has one;
* when it is fed, the index gets the terms, titles and index entries the page gave
  (:mod:`~seriesbook.search.index` notes them); else it is fed alone and noted
  (:func:`seriesbook.compat.feed_alone`).

The HTML builder resolves and feeds each page in turn in the main process (also under ``-j N``),
so the Latin terms a page sees are those of the pages before it, as without the records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from seriesbook import compat
from seriesbook.search.sections import PageTexts, SectionText, section_part
from seriesbook.search.store import PageRecord, SearchStore, Split
from seriesbook.search.view import Digest, page_digest

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.search import IndexBuilder

    from seriesbook.search.zh import SearchChinese


class Scanned(NamedTuple):
    """A page's parts, and the Latin words whose stems depended on the build's Latin terms
    (each with whether it was one); and each part's input (a digest of its texts) and its own
    such words, so a part whose texts are the same is not scanned again."""

    depends: tuple[tuple[str, bool], ...]
    parts: tuple[SectionText, ...]
    inputs: tuple[str, ...] = ()
    part_depends: tuple[tuple[tuple[str, bool], ...], ...] = ()


NOT_SCANNED = Scanned((), ())


def scan(texts: PageTexts, lang: SearchChinese, before: Scanned | None = None) -> Scanned:
    """The parts of *texts*, stemmed by *lang*, noting the stems that depended on its terms;
    a part of *before* (the page's scan in an earlier build) where its input is the same and
    its stems would come out alike."""
    kept: dict[str, tuple[SectionText, tuple[tuple[str, bool], ...]]] = {}
    if before is not None and len(before.inputs) == len(before.parts) == len(before.part_depends):
        for given, part, own in zip(
            before.inputs, before.parts, before.part_depends, strict=True
        ):
            kept.setdefault(given, (part, own))
    noted: dict[str, bool] = {}

    def latin(text: str) -> list[str]:
        keys = []
        for found in lang.latin1_letters.findall(text):
            word = found.strip()
            keys.append(lang.stem(word))
            if lang.stem_depends_on_terms(word):
                noted[word] = word in lang.latin_terms
        return keys

    depends: dict[str, bool] = {}
    parts, inputs, part_depends = [], [], []
    for anchor, blocks, source in texts:
        written = repr((anchor, blocks, source)).encode("utf-8", "surrogatepass")
        made = hashlib.sha256(written).hexdigest()[:40]
        found = kept.get(made)
        if found is not None and _hold(found[1], lang.latin_terms):
            part, own = found
        else:
            noted.clear()
            part, own = section_part(anchor, blocks, source, latin), tuple(noted.items())
        for word, was in own:
            depends.setdefault(word, was)
        parts.append(part)
        inputs.append(made)
        part_depends.append(own)
    return Scanned(tuple(depends.items()), tuple(parts), tuple(inputs), tuple(part_depends))


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
    scanned: Scanned = NOT_SCANNED
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
        before = None
        if record is not None:  # the page changed: its parts whose texts did not are kept
            before = Scanned(
                record.parts_depend, store.parts(docname), record.part_inputs,
                record.part_depends,
            )  # fmt: skip
        scanned = scan(texts(), lang, before)
        splits: dict[str, Split] = {}
        lang.page_latin = set()
        assert lang.splits is not None
        lang.splits.begin_page(store.splits(docname), splits)
        lang.begin_page(doctree)
        self.resolved[docname] = _Resolved(
            None, seen, scanned, tuple(sorted(lang.page_latin)), lang.extras,
            tuple(sorted(lang.titles)), splits,
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
            scanned = Scanned(
                record.parts_depend, store.parts(docname), record.part_inputs,
                record.part_depends,
            )  # fmt: skip
            resolved = _Resolved(
                None, resolved.seen, scanned, record.resolved_latin, record.extras,
                record.titles, dict(store.splits(docname)),  # its diagrams' texts among them
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
        record, scanned = None, resolved.scanned
        if resolved.seen.digest is not None:
            record = PageRecord(
                resolved.seen.digest, scanned.depends, resolved.latin, resolved.extras,
                resolved.titles, digest, fed_depend, fed_latin, entry, terms, scanned.inputs,
                scanned.part_depends,
            )  # fmt: skip
        self.store.put(docname, scanned.parts, record, resolved.splits)

    def finish(self) -> None:
        """The pages resolved but not fed (no title): their parts and what they gave when
        resolved are kept (a kept record as it was)."""
        for docname, resolved in self.resolved.items():
            if resolved.record is not None:
                self.store.keep(docname)
            else:
                self._put(docname, resolved)
        self.resolved = {}
