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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


def _pack(
    data: dict[str, Any],
    postings: Postings,
    source_lang: str | None,
    traditional: bool,
    store: SearchStore | None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """:func:`pack`'s index (the § of *postings*), and each of its values as JSON."""
    width = page_width(len(data["docnames"]))
    every_term = data["terms"]
    bigrams = _bigrams(list(every_term))
    # JSON writes every mapping with its keys sorted: the others need no order of their own
    terms = {term: pages for term, pages in every_term.items() if term not in bigrams}
    ordered = sorted(bigrams)  # grouped by first character, then by the second
    variants = _variants(data, traditional, store)
    packed: dict[str, Any] = {**data, "terms": terms, VARIANTS: variants}
    written = {key: _json(value) for key, value in packed.items()}
    located = _choose_located(written, every_term, ordered, postings, width)
    packed[KEY] = {"width": width, "pairs": _pairs(every_term, ordered, located, width)}
    written[KEY] = _json(packed[KEY])
    if any(postings.anchors):
        other = {key: listed for key, listed in located.items() if key not in bigrams}
        packed[SECTIONS] = {
            "anchors": postings.anchors,
            "lengths": postings.lengths,
            "other": other,
            "untranslated": varints(postings.untranslated),
        }
        if source_lang:
            packed[SECTIONS]["lang"] = source_lang
        written[SECTIONS] = _json(packed[SECTIONS])
    return packed, written


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


def _pairs(
    terms: Mapping[str, Pages], bigrams: list[str], located: Mapping[str, str], width: int
) -> str:
    """The packed bigrams (*bigrams*: the bigram terms, sorted): a group for each first
    character (*located*: the § list of each term written with one)."""
    codes: dict[str, str] = {}

    def code(character: str) -> str:
        found = codes[character] = _encode(ord(character), CHAR_WIDTH)
        return found

    page: Callable[[int], str] = (
        DIGITS.__getitem__ if width == 1 else lambda number: _encode(number, width)
    )
    out: list[str] = []
    group: list[str] = []
    first = ""
    for term in bigrams:
        if term[0] != first:
            if group:
                out.append(".".join(group))
            first = term[0]
            group = [codes.get(first) or code(first)]
        pages = terms[term]
        written = (codes.get(term[1]) or code(term[1])) + (
            page(pages) if isinstance(pages, int) else "".join(map(page, pages))
        )
        sections = located.get(term)
        group.append(written if sections is None else f"{written}~{sections}")
    if group:
        out.append(".".join(group))
    return " ".join(out)


def _choose_located(
    written: Mapping[str, str],
    terms: Mapping[str, Pages],
    bigrams: list[str],
    postings: Postings,
    width: int,
) -> dict[str, str]:
    """The keys whose § postings are written, each with its :func:`section_list`: the rarest
    first, within the budget (*written*: the JSON of the rest of the index; *bigrams*: the
    packed terms)."""
    if not postings.lists:
        return {}
    # the pairs without § postings are ASCII, JSON writes them as they are: their length is
    # counted (a group's first character, and for each pair a dot, the second character, the
    # pages), not written out
    groups = len({term[0] for term in bigrams})
    pages = sum(
        1 if isinstance(found, int) else len(found) for found in map(terms.__getitem__, bigrams)
    )
    pairs = CHAR_WIDTH * groups + (1 + CHAR_WIDTH) * len(bigrams) + width * pages
    rest = len(_joined({**written, KEY: '{"pairs":""}'}).encode())
    return located(postings, max(SECTION_SHARE * (rest + pairs + max(groups - 1, 0)),
                                 SECTION_FLOOR))


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
        self.source_lang = source_lang
        self.traditional = traditional

    def dumps(self, data: dict[str, Any]) -> str:
        postings = self.store.postings(data["docnames"])
        if self.loaded_text is not None and self._as_loaded(data):
            return self.loaded_text
        _, written = _pack(data, postings, self.source_lang, self.traditional, self.store)
        text = _joined(written)
        return self.PREFIX + text.replace("\\", "\\\\").replace("'", "\\'") + self.SUFFIX

    def loads(self, text: str) -> Any:
        if not (text.startswith(self.PREFIX) and text.endswith(self.SUFFIX)):
            return unpack(js_index.loads(text))  # Sphinx's own form
        literal = text[len(self.PREFIX) : -len(self.SUFFIX)]
        return unpack(json.loads(_ESCAPED.sub(r"\1", literal)))

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
            self.store.keep_index(_digest(text), kept, members, self.options)

    def load(self, stream: Any) -> Any:
        text = stream.read()
        if not self.store.caching:
            return self.loads(text)
        kept = self.store.kept_index(_digest(text))
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
