"""``searchindex.js`` with its two-character Chinese terms packed, so the bigrams fit.

Sphinx writes every term as a JSON key in ``\\uXXXX`` escapes, then its pages: about 16 bytes
for a two-character term. Indexing every Han bigram of the book would triple the file, so
:data:`PACKED` writes the ``terms`` whose key is two Chinese characters as one ASCII string
under ``seriesbook_bigrams`` instead (about 6 bytes each), and reads them back into ``terms``
(an incremental build reloads the index it wrote). The search page unpacks them the same way
(``search/seriesbook-search.js``) before Sphinx's search sees the index.

The string: groups separated by a space, one per first character; a group is that character
and then, for each second character, ``.``, the character and the pages, and, if the term is
located per §, ``~`` and its § numbers. A character is its code point in three base-64 digits; a
page is its number in ``width`` base-64 digits; § numbers are written as gaps from the previous
one, each a base-64 number of 5 bits a digit (a digit of 32 or more says another digit follows),
or, when shorter, as ``!``, the first number, and a bitmap from it (:func:`section_list`).

**§ sections** (:mod:`~seriesbook.search.sections`): ``seriesbook_sections`` lists each page's §
anchors and lengths (the §s numbered through the book in page order), and ``other`` holds the
§ postings of keys that are not packed bigrams (Latin stems, title-only bigrams), and
``untranslated`` the § whose titles a translated edition left in the book's language. Postings
are written for the keys found in the fewest § first, up to :data:`SECTION_SHARE` of the rest
of the index (at least :data:`SECTION_FLOOR` bytes); a key written without them counts as
present in every § of its pages (the commonest keys, which say least about where a reader
should land).

**Traditional characters** (:mod:`~seriesbook.search.variants`): ``seriesbook_variants`` holds
the part of OpenCC's table that leads to the book's text, characters packed as pairs of code
points, phrases as a mapping.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sphinx.search import js_index

from seriesbook.core.text import HAN
from seriesbook.search.digits import (
    CHAR_WIDTH,
    DIGITS,
    _decode,
    _encode,
    is_bigram,
    page_width,
    varints,
)
from seriesbook.search.digits import bitmap as bitmap
from seriesbook.search.digits import read_bitmap as read_bitmap
from seriesbook.search.digits import read_section_list as read_section_list
from seriesbook.search.digits import read_varints as read_varints
from seriesbook.search.digits import section_list as section_list
from seriesbook.search.digits import section_list_length as section_list_length
from seriesbook.search.postings import Postings, book_postings, located
from seriesbook.search.sections import SectionText
from seriesbook.search.store import SearchStore
from seriesbook.search.variants import source, table_for

if TYPE_CHECKING:
    from seriesbook.search.index import KeptIndex
    from seriesbook.search.pages import KeptPages

KEY = "seriesbook_bigrams"
SECTIONS = "seriesbook_sections"
VARIANTS = "seriesbook_variants"
#: The § postings may take up to this share of the size of the rest of the index (in bytes), or
#: :data:`SECTION_FLOOR` bytes if that is more (a small book locates every key).
SECTION_SHARE = 0.45
SECTION_FLOOR = 96_000
#: The form of :class:`PackState` (a state kept by another is not taken).
PACK_FORMAT = 1
def _book_characters(data: dict[str, Any]) -> set[str]:
    keys = "".join("".join(data.get(table, {})) for table in ("terms", "titleterms", "alltitles"))
    # one character a match: the Chinese characters of every key (each looked at once)
    return set(HAN.findall("".join(set(keys))))


def _variants(
    data: dict[str, Any], traditional: bool = False, store: SearchStore | None = None
) -> dict[str, Any]:
    """The variants table of the book's characters: the kept one (*store*) if its input (the
    characters, the edition's direction, OpenCC's versions, and the answers to the questions
    it asked of the index, "is this pair a term?") is the same, else made again."""
    terms, titles = data["terms"], data["titleterms"]
    book = frozenset(_book_characters(data))

    def is_term(pair: str) -> bool:
        return pair in terms or pair in titles

    def make(is_term: Callable[[str], bool]) -> dict[str, Any]:
        characters, phrases = table_for(book, is_term, traditional)
        pairs = "".join(
            _encode(ord(trad), CHAR_WIDTH) + _encode(ord(simp), CHAR_WIDTH)
            for trad, simp in sorted(characters.items())
            if max(ord(trad), ord(simp)) < 64**CHAR_WIDTH
        )
        return {"characters": pairs, "phrases": phrases}

    if store is None or not store.caching:
        return make(is_term)
    origin = (traditional, *source(traditional))
    kept = store.kept_variants()
    if (
        kept is not None
        and kept[0] == book
        and kept[1] == origin
        and all(is_term(pair) == answer for pair, answer in kept[2])
    ):
        store.variants = kept
        return kept[3]
    asked: dict[str, bool] = {}

    def noted(pair: str) -> bool:
        answer = asked[pair] = is_term(pair)
        return answer

    table = make(noted)
    store.variants = (book, origin, tuple(asked.items()), table)
    return table


def pack(
    data: dict[str, Any],
    sections: Mapping[str, Sequence[SectionText]] | None = None,
    source_lang: str | None = None,
    traditional: bool = False,
    store: SearchStore | None = None,
) -> dict[str, Any]:
    """*data* (Sphinx's frozen index) with its two-character Chinese terms packed, the §
    postings of *sections* (each page's § parts) and the traditional-character table.

    *source_lang* (a translated edition: the book's language, ``zh-CN``) is what the search
    page marks titles and snippets that are still in it with; *traditional*: the edition is
    Traditional Chinese, so the table turns simplified queries into its characters. *store*:
    the variants table of earlier builds, reused where its input is the same."""
    docnames, found = data["docnames"], sections or {}
    postings = book_postings(docnames, [""] * len(docnames), lambda name: found.get(name, ()))
    return _pack(data, postings, source_lang, traditional, store)[0]


class PackState(NamedTuple):
    """What packing an index made that packing it again with a few terms changed can take: for
    each first character of the packed terms (in order), the second characters of its terms
    (in order) and its group as written; how many packed terms there are and how many page
    numbers they hold (the budget counts them); the budget of the § postings; each value of
    the index but the packed ones as JSON (the other terms' under ``terms``)."""

    format: int
    width: int
    groups: dict[str, tuple[str, str]]
    terms: int
    pages: int
    budget: float
    written: dict[str, str]


def _well_formed(state: PackState) -> bool:
    """Whether a kept state is of this form (a store written by another version is not)."""
    return (
        state.format == PACK_FORMAT
        and type(state.width) is int
        and type(state.groups) is dict
        and type(state.terms) is int
        and type(state.pages) is int
        and type(state.budget) in (int, float)
        and type(state.written) is dict
    )


#: A pack's state, the index it packed and its § postings, and the terms whose pages changed
#: since.
Before = tuple[PackState, dict[str, Any], Postings, Collection[str]]


def _pack(
    data: dict[str, Any],
    postings: Postings,
    source_lang: str | None,
    traditional: bool,
    store: SearchStore | None,
) -> tuple[dict[str, Any], dict[str, str], PackState]:
    """:func:`pack`'s index (the § of *postings*), each of its values as JSON, and what
    :func:`_repack` needs to pack it again."""
    width = page_width(len(data["docnames"]))
    every_term = data["terms"]
    bigrams = _bigrams(list(every_term))
    # JSON writes every mapping with its keys sorted: the others need no order of their own
    terms = {term: pages for term, pages in every_term.items() if term not in bigrams}
    members: dict[str, list[str]] = {}
    for term in sorted(bigrams):  # grouped by first character, then by the second
        members.setdefault(term[0], []).append(term)
    variants = _variants(data, traditional, store)
    packed: dict[str, Any] = {**data, "terms": terms, VARIANTS: variants}
    written = {key: _json(value) for key, value in packed.items()}
    pages = _page_count(every_term, bigrams)
    budget = _budget(written, len(members), len(bigrams), pages, width)
    located = _located(postings, budget)
    groups = {
        first: (
            "".join(term[1] for term in group),
            _group(first, group, every_term, located, width),
        )
        for first, group in members.items()
    }
    state = PackState(PACK_FORMAT, width, groups, len(bigrams), pages, budget, dict(written))
    packed[KEY] = {"width": width, "pairs": " ".join(group for _, group in groups.values())}
    written[KEY] = _json(packed[KEY])
    sections = _sections(postings, located, bigrams.__contains__, source_lang)
    if sections is not None:
        packed[SECTIONS] = sections
        written[SECTIONS] = _json(sections)
    return packed, written, state


def _repack(
    data: dict[str, Any],
    postings: Postings,
    source_lang: str | None,
    traditional: bool,
    store: SearchStore | None,
    before: Before,
) -> tuple[dict[str, str], PackState] | None:
    """:func:`_pack`'s JSON and state, made from the last pack's (*before*: its state, the
    index and § postings it packed, and the terms whose pages changed since, every other term
    as it was): only the groups whose terms or § lists changed are written again, and only the
    values that changed; ``None`` if the pages are numbered in digits of another width."""
    state, last, last_postings, changed = before
    width = page_width(len(data["docnames"]))
    if width != state.width:
        return None
    every_term, last_terms = data["terms"], last["terms"]
    groups = dict(state.groups)
    count, pages = state.terms, state.pages
    new: dict[str, list[str]] = {}  # packed terms not packed before, by first character
    others_changed = False
    for term in changed:
        if not is_bigram(term):
            others_changed = True
            continue
        was = last_terms.get(term)
        if was is None:
            count += 1
            new.setdefault(term[0], []).append(term)
        else:
            pages -= 1 if isinstance(was, int) else len(was)
        now = every_term[term]
        pages += 1 if isinstance(now, int) else len(now)

    packed = {first + second for first, (seconds, _) in groups.items() for second in seconds}
    packed.update(term for terms in new.values() for term in terms)
    written: dict[str, str] = {}
    for key, value in data.items():
        kept = state.written.get(key)
        if key == "terms":
            if kept is None or others_changed:
                kept = _json({term: found for term, found in value.items() if term not in packed})
        elif kept is None or key not in last or value != last[key]:
            kept = _json(value)
        written[key] = kept
    written[VARIANTS] = _json(_variants(data, traditional, store))
    firsts = set(groups) | set(new)
    budget = _budget(written, len(firsts), count, pages, width)
    located = _located(postings, budget)
    was_located = _located(last_postings, state.budget)
    redo = {term[0] for term in changed if is_bigram(term)}
    redo.update(key[0] for key, _ in located.items() ^ was_located.items() if key in packed)
    for first in sorted(firsts):
        if first not in redo:
            continue
        seconds = groups[first][0] if first in groups else ""
        group = sorted({first + second for second in seconds} | set(new.get(first, ())))
        groups[first] = (
            "".join(term[1] for term in group),
            _group(first, group, every_term, located, width),
        )
    groups = {first: groups[first] for first in sorted(groups)}
    state = PackState(PACK_FORMAT, width, groups, count, pages, budget, dict(written))
    written[KEY] = _json({"width": width, "pairs": " ".join(group for _, group in groups.values())})
    sections = _sections(postings, located, packed.__contains__, source_lang)
    if sections is not None:
        written[SECTIONS] = _json(sections)
    return written, state


def _sections(
    postings: Postings,
    located: Mapping[str, str],
    is_packed: Callable[[str], bool],
    source_lang: str | None,
) -> dict[str, Any] | None:
    """The § part of the index (each page's § and the § lists of the keys located that are not
    packed terms), if any page has a §."""
    if not any(postings.anchors):
        return None
    other = {key: listed for key, listed in located.items() if not is_packed(key)}
    sections: dict[str, Any] = {
        "anchors": postings.anchors,
        "lengths": postings.lengths,
        "other": other,
        "untranslated": varints(postings.untranslated),
    }
    if source_lang:
        sections["lang"] = source_lang
    return sections


#: Two Chinese characters between the starts and ends of :func:`_bigrams`' joined terms.
_JOINED_BIGRAM = re.compile(f"(?<![^\x00])(?:{HAN.pattern}){{2}}(?![^\x00])")


def _bigrams(terms: list[str]) -> set[str]:
    """The terms of *terms* that are two Chinese characters (:func:`is_bigram`), found in one
    pass over them joined."""
    joined = "\x00".join(terms)
    if joined.count("\x00") != max(len(terms) - 1, 0):  # a term holding the separator
        return {term for term in terms if is_bigram(term)}
    return set(_JOINED_BIGRAM.findall(joined))


def _json(data: Any) -> str:
    """The index (or a value of it) as JSON, as :class:`PackedJavaScriptIndex` writes it
    (UTF-8, unescaped)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _joined(written: Mapping[str, str]) -> str:
    """The JSON of a dictionary whose values' JSON is *written* (``_json`` of it, a piece at a
    time: its keys in order, each with its value)."""
    return "{" + ",".join(f"{_json(key)}:{written[key]}" for key in sorted(written)) + "}"


Pages = int | list[int]


def _group(
    first: str, group: Sequence[str], terms: Mapping[str, Pages], located: Mapping[str, str],
    width: int,
) -> str:
    """The packed terms of *group* (sorted), whose first character is *first*: that
    character, then each term's second character, its pages and its § list if it is located
    (*located*)."""
    page: Callable[[int], str] = (
        DIGITS.__getitem__ if width == 1 else lambda number: _encode(number, width)
    )
    out = [_encode(ord(first), CHAR_WIDTH)]
    for term in group:
        pages = terms[term]
        written = _encode(ord(term[1]), CHAR_WIDTH) + (
            page(pages) if isinstance(pages, int) else "".join(map(page, pages))
        )
        sections = located.get(term)
        out.append(written if sections is None else f"{written}~{sections}")
    return ".".join(out)


def _page_count(terms: Mapping[str, Pages], bigrams: Collection[str]) -> int:
    """How many page numbers the packed terms *bigrams* hold."""
    return sum(1 if isinstance(found, int) else len(found) for found in map(terms.__getitem__,
                                                                           bigrams))


def _budget(written: Mapping[str, str], groups: int, count: int, pages: int, width: int) -> float:
    """What the § postings may take: a share of the rest of the index (*written*: its JSON
    but the packed terms'; *groups* first characters, *count* packed terms holding *pages*
    page numbers, each written in *width* digits)."""
    # the pairs without § postings are ASCII, JSON writes them as they are: their length is
    # counted (a group's first character, and for each pair a dot, the second character, the
    # pages), not written out
    pairs = CHAR_WIDTH * groups + (1 + CHAR_WIDTH) * count + width * pages
    rest = len(_joined({**written, KEY: '{"pairs":""}'}).encode())
    return max(SECTION_SHARE * (rest + pairs + max(groups - 1, 0)), SECTION_FLOOR)


def _located(postings: Postings, budget: float) -> dict[str, str]:
    """The keys whose § postings are written within *budget*, each with its
    :func:`section_list`: the rarest first."""
    return located(postings, budget) if postings.lists else {}


def unpack(data: dict[str, Any]) -> dict[str, Any]:
    """The index as Sphinx froze it: the packed terms back in ``terms``."""
    packed = data.get(KEY)
    if packed is None:
        return data
    width, terms = packed["width"], dict(data["terms"])
    for group in filter(None, packed["pairs"].split(" ")):
        first, *codes = group.split(".")
        for code in codes:
            term = chr(_decode(first)) + chr(_decode(code[:CHAR_WIDTH]))
            rest = code[CHAR_WIDTH:].partition("~")[0]
            numbers = [_decode(rest[i : i + width]) for i in range(0, len(rest), width)]
            terms[term] = numbers[0] if len(numbers) == 1 else numbers
    unpacked = {key: value for key, value in data.items() if key not in {KEY, SECTIONS, VARIANTS}}
    unpacked["terms"] = terms
    return unpacked


def _digest(text: str) -> str:
    """What a written index is known by (its kept copy is valid for this text alone)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class PackedJavaScriptIndex:
    """``searchindex.js`` with :func:`pack` and :func:`unpack`, written for a fast first search.

    Sphinx writes the index as a JavaScript object literal (``Search.setIndex({...})``, its
    ``js_index``) with every non-ASCII character escaped; this writes the same JSON unescaped
    (UTF-8, a Chinese character 3 bytes instead of 6) inside one string literal that the page
    hands to ``JSON.parse`` (``Search.setIndex(JSON.parse('...'))``), which browsers read much
    faster than an object literal of that size. :meth:`loads` reads both forms.

    Its :attr:`store` gives each page's § parts when the index is written (those noted in this
    build, else those kept from the last build that wrote the page), and, with the cache, the
    variants table, and what Sphinx reads of the index it wrote last: :meth:`load` hands that
    back instead of parsing the file when the file is the one written (Sphinx reloads it in
    every build, and an incremental build keeps the unchanged pages' terms).
    """

    PREFIX, SUFFIX = "Search.setIndex(JSON.parse('", "'))"

    def __init__(
        self,
        store: SearchStore | None = None,
        source_lang: str | None = None,
        traditional: bool = False,
    ) -> None:
        self.store = store if store is not None else SearchStore(Path(os.devnull), None)
        #: This build's pages kept and noted (with the cache, from the first page resolved).
        self.pages: KeptPages | None = None
        #: With the cache: the index loaded in this build, whole (Sphinx got it without its
        #: terms, :mod:`~seriesbook.search.index`), the digests of its pages' terms where
        #: known, and this build's index.
        self.loaded: dict[str, Any] | None = None
        self.members: dict[str, str] = {}
        self.index: KeptIndex | None = None
        #: The text loaded, when it is the index kept (written with these options).
        self.loaded_text: str | None = None
        self.loaded_options: tuple[object, ...] = ()
        #: The digest of the index text loaded, and what packing this build's index made.
        self.loaded_digest: str | None = None
        self.state: PackState | None = None
        self.source_lang = source_lang
        self.traditional = traditional

    def dumps(self, data: dict[str, Any]) -> str:
        postings = self.store.postings(data["docnames"])
        self.state = None
        if self.loaded_text is not None and self._as_loaded(data):
            return self.loaded_text
        before = self._before(data)
        made = None
        if before is not None:
            made = _repack(data, postings, self.source_lang, self.traditional, self.store, before)
        if made is None:
            _, written, self.state = _pack(
                data, postings, self.source_lang, self.traditional, self.store
            )
        else:
            written, self.state = made
        text = _joined(written)
        return self.PREFIX + text.replace("\\", "\\\\").replace("'", "\\'") + self.SUFFIX

    def loads(self, text: str) -> Any:
        if not (text.startswith(self.PREFIX) and text.endswith(self.SUFFIX)):
            return unpack(js_index.loads(text))  # Sphinx's own form
        literal = text[len(self.PREFIX) : -len(self.SUFFIX)]
        return unpack(json.loads(_ESCAPED.sub(r"\1", literal)))

    def _before(self, data: dict[str, Any]) -> Before | None:
        """What packing the index loaded made, that index, and the terms whose pages changed
        since, if *data* was frozen from it (the terms changed known), with the same pages and
        options, and that pack's state is kept."""
        loaded, index = self.loaded, self.index
        changed = index.changed_terms if index is not None else None
        last_postings = self.store.last_postings
        if (
            loaded is None
            or changed is None
            or last_postings is None
            or self.loaded_digest is None
            or self.options != self.loaded_options
            or tuple(data["docnames"]) != tuple(loaded["docnames"])
        ):
            return None
        state = self.store.kept_pack(self.loaded_digest)
        if not isinstance(state, PackState) or not _well_formed(state):
            return None
        return state, loaded, last_postings, changed

    def _as_loaded(self, data: dict[str, Any]) -> bool:
        """Whether the index to write is the one loaded (kept): the same index (its terms the
        very ones loaded), § postings, variants table and options make the same text."""
        loaded, variants = self.loaded, self.store.kept_variants()
        return (
            loaded is not None
            and self.store.postings_kept
            and self.options == self.loaded_options
            and variants is not None
            and variants[1] == (self.traditional, *source(self.traditional))
            and data.keys() == loaded.keys()
            and data["terms"] is loaded["terms"]
            and data["titleterms"] is loaded["titleterms"]
            and all(data[key] == loaded[key] for key in data if key not in TERMS)
        )

    def finish_build(self) -> None:
        """Drop this build's state (the next build loads, routes and keeps its own)."""
        self.pages = self.index = self.loaded = self.loaded_text = None
        self.loaded_digest = self.state = None
        self.members, self.loaded_options = {}, ()
        self.store.forget()

    @property
    def options(self) -> tuple[object, ...]:
        return (self.source_lang, self.traditional)

    def dump(self, data: dict[str, Any], stream: Any) -> None:
        text = self.dumps(data)
        stream.write(text)
        if self.store.caching:  # as the file reads back: its titles in JSON's order
            alltitles = dict(sorted(data["alltitles"].items()))
            members = self.index.members if self.index is not None else {}
            kept = {**data, "alltitles": alltitles}
            digest = _digest(text)
            self.store.keep_index(digest, kept, members, self.options)
            if self.state is not None:
                self.store.keep_pack(digest, self.state)

    def load(self, stream: Any) -> Any:
        text = stream.read()
        if not self.store.caching:
            return self.loads(text)
        self.loaded_digest = _digest(text)
        kept = self.store.kept_index(self.loaded_digest)
        if kept is None:
            loaded = self.loads(text)
        else:
            loaded, self.members, self.loaded_options = kept
            self.loaded_text = text
        if not isinstance(loaded, dict):
            return loaded
        self.loaded = loaded
        return {**loaded, "terms": {}, "titleterms": {}}


#: The index's terms (Sphinx's, by their pages).
TERMS = ("terms", "titleterms")

#: The escapes :meth:`PackedJavaScriptIndex.dumps` writes: a backslash and the character.
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


PACKED = PackedJavaScriptIndex()
