"""What the search keeps in the doctree directory between builds, in one file (and a folder).

``<doctreedir>/seriesbook-search.pickle`` holds, for each page, its § parts
(:mod:`~seriesbook.search.sections`: an incremental build writes only the changed pages, and
the index needs every page's §; a page whose parts the file lacks is read and written again)
and, with ``seriesbook_search_cache`` (the default):

* what the page gave the index (:class:`PageRecord`), under the digests of the page as it was
  resolved and as it was fed (:mod:`~seriesbook.search.view`), so an unchanged page is neither
  walked, split nor stemmed again (:mod:`~seriesbook.search.pages`);
* what jieba, the bigrams and the Latin scan made of each of its texts, so a changed page
  segments only its changed texts (in a file of the page's own in ``seriesbook-search-splits/``:
  read only when the page changed, written only when they did);
* the index as last written (``searchindex.js``'s digest and what Sphinx reads of it), so the
  next build need not parse the file it wrote (:mod:`~seriesbook.search.compact`);
* every key's § list (:mod:`~seriesbook.search.postings`), updated where pages changed;
* what packing the index last made (:class:`~seriesbook.search.compact.PackState`), so a build
  that changed a few terms writes again only their part of the packed index;
* the variants table (:mod:`~seriesbook.search.variants`) with the input it was made from.

Each page's entries are kept pickled apart and unpickled only when the build asks for them; a
build writes the file only when something in it changed. The records and split texts are
valid for one :func:`cache_key` (seriesbook's, Sphinx's, docutils', jieba's versions and the
user dictionary); under another key the file gives the § parts only. The rules are
:mod:`seriesbook.core.pagestore`'s: a missing, damaged or foreign file is an empty store,
never an error; a page no longer in the book loses its entries.
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from seriesbook.compat import FedPage
from seriesbook.core.pagestore import dump_atomically, read_stored
from seriesbook.search.postings import Postings, book_postings, packed, unpacked
from seriesbook.search.sections import SectionText

STORE_NAME = "seriesbook-search.pickle"
STORE_KEY = ("seriesbook-search", 4)
#: The directory of each page's split texts, beside the file (a page's are read only when it
#: changed, and written only when they did).
SPLITS_NAME = "seriesbook-search-splits"
#: The files earlier versions kept (removed when this one is written).
FORMER_NAMES = (
    "seriesbook-search-zh.pickle",
    "seriesbook-search-parts.pickle",
    "seriesbook-search-sections.pickle",
    "seriesbook-search-packed.pickle",
)

Split = tuple[str, str]
#: The variants table's input (the book's characters; the edition's direction and OpenCC's
#: versions; the questions asked and their answers) and the table.
Variants = tuple[frozenset[str], tuple[object, ...], tuple[tuple[str, bool], ...], dict[str, Any]]


def cache_key(segmenter: tuple[object, ...]) -> tuple[object, ...]:
    """What a kept record depends on besides the page: the code that made it (seriesbook,
    Sphinx, docutils, snowball, Python's Unicode tables) and jieba with its dictionary
    (*segmenter*, :func:`seriesbook.search.cache.signature`)."""
    import docutils
    import snowballstemmer  # type: ignore[import-untyped]
    import sphinx

    from seriesbook import __version__

    stemmer = getattr(snowballstemmer, "__version__", None)
    return (__version__, sphinx.__version__, docutils.__version__, stemmer,
            sys.version_info[:2], segmenter)  # fmt: skip


class PageRecord(NamedTuple):
    """What a page gave the search when it was last written.

    When resolved (``doctree-resolved``): its § parts (kept apart), the Latin words of its
    diagrams (the search language's ``latin_terms`` grow by them), the words its inline markup
    and diagrams add (``extras``) and its titles. When fed: what Sphinx's index took
    (:class:`~seriesbook.compat.FedPage`) and the Latin words of its texts. Each stage
    notes the words whose stems depended on the Latin terms seen before it, and their answer.
    """

    resolved: str
    parts_depend: tuple[tuple[str, bool], ...]
    resolved_latin: tuple[str, ...]
    extras: dict[str, list[str]]
    titles: tuple[str, ...]
    fed: str | None = None
    fed_depend: tuple[tuple[str, bool], ...] = ()
    fed_latin: tuple[str, ...] = ()
    entry: FedPage | None = None
    terms: str = ""  # :func:`seriesbook.search.pages.terms_digest` of ``entry``
    part_inputs: tuple[str, ...] = ()  # each part's, and its own words of ``parts_depend``
    part_depends: tuple[tuple[tuple[str, bool], ...], ...] = ()


class _Page(NamedTuple):
    """A page's entries in the file, each pickled apart (``b""``: none)."""

    parts: bytes
    record: bytes = b""


def _pickled(value: object) -> bytes:
    return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def _unpickled(blob: bytes, kind: type | tuple[type, ...]) -> Any:
    """*blob*'s value if it is a *kind*, else ``None`` (a damaged entry is no entry)."""
    if not blob:
        return None
    try:
        value = pickle.loads(blob)
    except Exception:  # any damaged entry (even one naming a class now gone) is none
        return None
    return value if isinstance(value, kind) else None


class SearchStore:
    """The file's entries, read when first asked for; this build's, written by :meth:`save`.

    *key* gives :func:`cache_key` (asked when the file is first read), or is ``None`` when the
    cache is off (then only § parts are read and kept)."""

    def __init__(self, path: Path, key: Callable[[], tuple[object, ...]] | None) -> None:
        self.path = path
        self._key = key
        self.key: tuple[object, ...] | None = None
        self._pages: dict[str, _Page] | None = None
        self._stored: dict[str, Any] | None = None  # read, not yet checked against the key
        self._read = False
        self._index: tuple[str, bytes, dict[str, str], tuple[object, ...]] | None = None
        self._variants: Variants | None = None
        self._postings: bytes = b""
        self._pack: tuple[str, bytes] | None = None  # the written index's digest, the state
        self._changed = False  # the file holds what this build would not keep
        #: This build's entries of the pages it resolved.
        self.written: dict[str, _Page] = {}
        self._parts: dict[str, tuple[SectionText, ...]] = {}
        self._tokens: dict[str, str] = {}
        self._splits: dict[str, dict[str, Split]] = {}  # read in this build
        self._new_splits: dict[str, dict[str, Split]] = {}
        #: The index this build loaded or wrote: its digest, what Sphinx reads of it, the
        #: digest of the terms of each page whose terms in it are known, and the options it
        #: was written with.
        self.index: tuple[str, dict[str, Any], dict[str, str], tuple[object, ...]] | None = None
        self.variants: Variants | None = None
        self._kept_postings: Postings | None = None
        self.book_postings: Postings | None = None
        #: What packing the index this build wrote made, and the index's digest.
        self.pack: tuple[str, tuple[Any, ...]] | None = None

    @classmethod
    def open(
        cls, doctreedir: Path, key: Callable[[], tuple[object, ...]] | None
    ) -> SearchStore:
        return cls(doctreedir / STORE_NAME, key)

    @property
    def caching(self) -> bool:
        return self._key is not None

    def _load(self) -> dict[str, _Page]:
        """The file's pages (read once; their records checked against the key only when one
        is first asked for, :meth:`_cached`)."""
        if self._pages is not None:
            return self._pages
        self._pages, self._stored, self._read = {}, None, False
        stored = read_stored(self.path, STORE_KEY)
        pages = stored.get("pages") if stored is not None else None
        if stored is None or not isinstance(pages, dict) or not all(
            isinstance(page, _Page) and all(isinstance(blob, bytes) for blob in page)
            for page in pages.values()
        ):
            self._changed = self.path.exists()  # a damaged or foreign file: written again
            return self._pages
        self._pages, self._stored, self._read = pages, stored, True
        return pages

    def _cached(self) -> dict[str, _Page]:
        """:meth:`_load`'s pages, their records and the kept index, variants and postings taken
        if the file was written for this build's key, else dropped (the parts hold)."""
        pages = self._load()
        if self.key is None and self._key is not None:
            self.key = self._key()
        stored, self._stored = self._stored, None
        if stored is None:
            return pages
        if stored.get("cache") != self.key or self.key is None:
            self._changed = self._changed or any(page.record for page in pages.values()) or any(
                stored.get(name) for name in ("index", "variants", "postings", "pack")
            )
            self._pages = {name: _Page(page.parts) for name, page in pages.items()}
            return self._pages
        index, variants = stored.get("index"), stored.get("variants")
        if (
            isinstance(index, tuple)
            and len(index) == 4
            and isinstance(index[1], bytes)
            and isinstance(index[2], dict)
            and isinstance(index[3], tuple)
        ):
            self._index = index
        if isinstance(variants, tuple) and len(variants) == 4:
            self._variants = variants
        postings = stored.get("postings")
        self._postings = postings if isinstance(postings, bytes) else b""
        pack = stored.get("pack")
        if (isinstance(pack, tuple) and len(pack) == 2 and isinstance(pack[0], str)
                and isinstance(pack[1], bytes)):
            self._pack = pack
        return pages

    # § parts

    def intact(self) -> bool:
        """Whether the file was there and of this format (it then holds the § parts of every
        page the HTML builder wrote)."""
        self._load()
        return self._read

    def parts(self, docname: str) -> tuple[SectionText, ...]:
        """*docname*'s § parts: noted in this build, else kept (none: page results)."""
        parts = self._parts.get(docname)
        if parts is None:
            page = self.written.get(docname) or self._load().get(docname)
            parts = _unpickled(page.parts, tuple) if page is not None else None
            parts = self._parts[docname] = parts or ()
        return parts

    def _token(self, docname: str) -> str:
        """What *docname*'s parts are known by (the digest of their pickle)."""
        token = self._tokens.get(docname)
        if token is None:
            page = self.written.get(docname) or self._load().get(docname)
            blob = page.parts if page is not None else b""
            token = self._tokens[docname] = hashlib.blake2b(blob, digest_size=16).hexdigest()
        return token

    def _former(self, docname: str, token: str) -> tuple[SectionText, ...] | None:
        """*docname*'s parts as the file holds them, if they are known by *token*."""
        page = self._load().get(docname)
        if page is None or hashlib.blake2b(page.parts, digest_size=16).hexdigest() != token:
            return None
        parts: tuple[SectionText, ...] | None = _unpickled(page.parts, tuple)
        return parts

    def postings(self, docnames: Sequence[str]) -> Postings:
        """The § postings of the pages *docnames*: with the cache, the last build's updated
        for the pages whose parts changed (:mod:`~seriesbook.search.postings`)."""
        if not self.caching:
            return book_postings(docnames, [""] * len(docnames), self.parts)
        tokens = [self._token(docname) for docname in docnames]
        self._cached()
        state = _unpickled(self._postings, tuple)
        kept = unpacked(state) if state is not None else None
        made = book_postings(docnames, tokens, self.parts, kept, self._former)
        self._kept_postings, self.book_postings = kept, made
        return made

    # a page's record and split texts, kept from the last build that wrote it

    def record(self, docname: str) -> PageRecord | None:
        page = self._cached().get(docname) if self.caching else None
        return _unpickled(page.record, PageRecord) if page is not None else None

    def _splits_path(self, docname: str) -> Path:
        name = hashlib.blake2b(docname.encode("utf-8", "surrogatepass"), digest_size=16)
        return self.path.parent / SPLITS_NAME / f"{name.hexdigest()}.pickle"

    def _splits_key(self, docname: str) -> tuple[object, ...]:
        return (*STORE_KEY, self.key, docname)

    def splits(self, docname: str) -> dict[str, Split]:
        """The split texts of *docname* when it was last written (read once a build)."""
        if not self.caching:
            return {}
        splits = self._splits.get(docname)
        if splits is None:
            self._cached()  # the key checked
            stored = read_stored(self._splits_path(docname), self._splits_key(docname))
            found = stored.get("splits") if stored is not None else None
            splits = self._splits[docname] = found if isinstance(found, dict) else {}
        return splits

    def keep(self, docname: str) -> None:
        """*docname* was resolved and its kept entries still hold."""
        page = self._cached().get(docname)
        if page is not None:
            self.written[docname] = page

    def put(
        self,
        docname: str,
        parts: tuple[SectionText, ...],
        record: PageRecord | None = None,
        splits: dict[str, Split] | None = None,
    ) -> None:
        """*docname*'s entries made in this build."""
        self._parts[docname] = parts
        caching = self.caching
        page = _Page(_pickled(parts), _pickled(record) if caching and record is not None else b"")
        if caching and splits is not None:
            self._new_splits[docname] = splits
        self.written[docname] = page
        self._tokens.pop(docname, None)
        if self._cached().get(docname) != page:
            self._changed = True

    # the index as last written, and the variants table

    def kept_index(
        self, digest: str
    ) -> tuple[dict[str, Any], dict[str, str], tuple[object, ...]] | None:
        """What Sphinx reads of the index written with *digest*, if that is the one kept, the
        digests of its pages' terms, and the options it was written with."""
        self._cached()
        if self._index is None or self._index[0] != digest:
            return None
        data: dict[str, Any] | None = _unpickled(self._index[1], dict)
        if data is None:
            return None
        self.index = (digest, data, self._index[2], self._index[3])
        return data, self._index[2], self._index[3]

    def keep_index(
        self,
        digest: str,
        data: dict[str, Any],
        members: dict[str, str],
        options: tuple[object, ...],
    ) -> None:
        """The index this build wrote (*digest*), what Sphinx reads of it (*data*), the digests
        of the terms of its pages whose terms are known (*members*), and its *options*."""
        self.index = (digest, data, members, options)

    @property
    def last_postings(self) -> Postings | None:
        """The last build's § postings (read by :meth:`postings`)."""
        return self._kept_postings

    @property
    def postings_kept(self) -> bool:
        """Whether this build's § postings are the last build's."""
        return self.book_postings is not None and self.book_postings is self._kept_postings

    def kept_pack(self, digest: str) -> tuple[Any, ...] | None:
        """What packing the index written with *digest* made, if that is the one kept."""
        self._cached()
        if self._pack is None or self._pack[0] != digest:
            return None
        state: tuple[Any, ...] | None = _unpickled(self._pack[1], tuple)
        return state

    def keep_pack(self, digest: str, state: tuple[Any, ...]) -> None:
        """What packing the index this build wrote (*digest*) made."""
        self.pack = (digest, state)

    def kept_variants(self) -> Variants | None:
        self._cached()
        return self._variants

    def save(self, docnames: set[str]) -> None:
        """Keep the pages in *docnames* (this build's entries, else the kept ones) and, with the
        cache on, the index and variants table this build wrote; write the file if that
        changed it."""
        kept = self._cached()
        pages = {name: page for name, page in kept.items() if name in docnames}
        pages.update({name: page for name, page in self.written.items() if name in docnames})
        changed = self._changed or len(pages) != len(kept) or not self.path.is_file()
        index, variants, postings, pack = None, None, b"", None
        if self.caching:
            postings = self._postings
            made = self.book_postings
            if made is not None and made is not self._kept_postings:
                postings, changed = _pickled(packed(made)), True
            index, now = self._index, self.index
            if now is not None and (index is None or index[0] != now[0]):
                index, changed = (now[0], _pickled(now[1]), now[2], now[3]), True
            elif now is not None and index is not None and index[2:] != now[2:]:
                index, changed = (index[0], index[1], now[2], now[3]), True
            variants = self.variants if self.variants is not None else self._variants
            changed = changed or variants != self._variants
            pack = self._pack
            if self.pack is not None and (pack is None or pack[0] != self.pack[0]):
                pack, changed = (self.pack[0], _pickled(self.pack[1])), True
        if changed:
            dump_atomically(self.path, {
                "key": STORE_KEY, "cache": self.key, "pages": pages, "index": index,
                "variants": variants, "postings": postings, "pack": pack,
            })  # fmt: skip
            for name in FORMER_NAMES:
                (self.path.parent / name).unlink(missing_ok=True)
        self._save_splits(docnames)
        self._pages, self._index, self._variants = pages, index, variants
        self._postings, self._pack, self._changed = postings, pack, False
        # the file now holds this format and, when every page has its entry, every page's §
        # parts: the next build of the process (``serve``) reads only what changed
        self._read = docnames <= pages.keys()
        self.forget()

    def forget(self, read_again: bool = False) -> None:
        """Drop this build's entries (and, *read_again*, what was read of the file)."""
        self.written, self._parts, self._tokens, self._splits, self._new_splits = {}, {}, {}, {}, {}
        self.index = self.variants = self._kept_postings = self.book_postings = None
        self.pack = None
        if read_again:
            self._pages, self._index, self._variants, self._postings = None, None, None, b""
            self._pack = None
            self._stored = None
            self._changed = False

    def _save_splits(self, docnames: set[str]) -> None:
        """Each page's split texts that changed written; those of pages gone removed (all of
        them with the cache off)."""
        folder = self.path.parent / SPLITS_NAME
        if not self.caching:
            if folder.is_dir():
                shutil.rmtree(folder)
            return
        for docname, splits in self._new_splits.items():
            if docname in docnames and splits != self.splits(docname):
                stored = {"key": self._splits_key(docname), "splits": splits}
                dump_atomically(self._splits_path(docname), stored)
        if folder.is_dir():
            wanted = {self._splits_path(docname).name for docname in docnames}
            for path in folder.iterdir():
                if path.name not in wanted:
                    path.unlink(missing_ok=True)
