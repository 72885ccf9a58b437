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

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from sphinx.search import js_index

from seriesbook.core.text import HAN
from seriesbook.search.kept_groups import KeptGroups
from seriesbook.search.kept_parts import PartsCache
from seriesbook.search.sections import SectionStore, SectionText
from seriesbook.search.variants import source, table_for

KEY = "seriesbook_bigrams"
SECTIONS = "seriesbook_sections"
VARIANTS = "seriesbook_variants"
#: The § postings may take up to this share of the size of the rest of the index (in bytes), or
#: :data:`SECTION_FLOOR` bytes if that is more (a small book locates every key).
SECTION_SHARE = 0.45
SECTION_FLOOR = 96_000
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
CHAR_WIDTH = 3  # 18 bits: every code point up to U+3FFFF, all of the Han blocks


_VALUES = {digit: value for value, digit in enumerate(DIGITS)}


# Memoised: a book has a few thousand distinct characters and page numbers, written and read
# tens of thousands of times whenever an incremental build reloads and rewrites the index.
@cache
def _encode(number: int, width: int) -> str:
    return "".join(DIGITS[(number >> (6 * (width - 1 - i))) & 63] for i in range(width))


@cache
def _decode(digits: str) -> int:
    number = 0
    for digit in digits:
        value = _VALUES.get(digit)
        if value is None:  # a damaged index: Sphinx then builds a new one
            raise ValueError(f"not a base-64 digit: {digit!r}")
        number = number * 64 + value
    return number


def varints(numbers: Iterable[int]) -> str:
    """Ascending *numbers* as gaps, 5 bits a base-64 digit (32 added where a digit follows)."""
    out: list[str] = []
    previous = 0
    for number in numbers:
        gap, previous = number - previous, number
        if 0 <= gap < 32:  # one digit: most gaps of a book's postings
            out.append(DIGITS[gap])
            continue
        groups = [gap & 31]
        while gap > 31:
            gap >>= 5
            groups.append(gap & 31)
        last = len(groups) - 1
        out.extend(DIGITS[g + (32 if i < last else 0)] for i, g in enumerate(reversed(groups)))
    return "".join(out)


def _varint_digits(gap: int) -> int:
    """How many digits :func:`varints` writes for *gap*."""
    digits = 1
    while gap > 31:
        gap >>= 5
        digits += 1
    return digits


def read_varints(text: str) -> list[int]:
    """The numbers :func:`varints` wrote."""
    numbers: list[int] = []
    value = previous = 0
    for digit in text:
        code = _VALUES[digit]
        value = value * 32 + (code & 31)
        if code < 32:
            previous += value
            numbers.append(previous)
            value = 0
    return numbers


def bitmap(numbers: Sequence[int]) -> str:
    """Ascending *numbers* as ``!``, the first in :func:`varints`, then a bit for each number
    from it to the last, 6 a base-64 digit (the first number the highest bit of the first)."""
    if not numbers:
        return "!"
    start = numbers[0]
    bits = [0] * ((numbers[-1] - start) // 6 + 1)
    for number in numbers:
        offset = number - start
        bits[offset // 6] |= 32 >> (offset % 6)
    return "!" + varints([start]) + "".join(DIGITS[b] for b in bits)


def read_bitmap(text: str) -> list[int]:
    """The numbers :func:`bitmap` wrote."""
    body = text[1:]
    if not body:
        return []
    end = next(i for i, digit in enumerate(body) if _VALUES[digit] < 32) + 1
    start = read_varints(body[:end])[0]
    return [
        start + 6 * i + bit
        for i, digit in enumerate(body[end:])
        for bit in range(6)
        if _VALUES[digit] & (32 >> bit)
    ]


def section_list(numbers: Sequence[int]) -> str:
    """§ numbers written the shorter way: gaps (:func:`varints`) or a :func:`bitmap`."""
    return varints(numbers) if _gaps_shorter(numbers) else bitmap(numbers)


def section_list_length(numbers: Sequence[int]) -> int:
    """``len(section_list(numbers))``, without writing either form (the index's budget asks it
    of every key, and writes few of them)."""
    gaps = _gaps_length(numbers)
    return gaps if not numbers else min(gaps, _bitmap_length(numbers))


def _gaps_length(numbers: Sequence[int]) -> int:
    length, previous = 0, 0
    for number in numbers:
        gap, previous = number - previous, number
        length += 1 if gap < 32 else _varint_digits(gap)
    return length


def _bitmap_length(numbers: Sequence[int]) -> int:
    if not numbers:
        return 1
    return 1 + _varint_digits(numbers[0]) + (numbers[-1] - numbers[0]) // 6 + 1


def _gaps_shorter(numbers: Sequence[int]) -> bool:
    return _gaps_length(numbers) <= _bitmap_length(numbers)


def read_section_list(text: str) -> list[int]:
    return read_bitmap(text) if text.startswith("!") else read_varints(text)


def page_width(pages: int) -> int:
    """Base-64 digits needed to write any page number of a book with *pages* pages."""
    width = 1
    while 64**width < pages:
        width += 1
    return width


def _is_bigram(term: str) -> bool:
    return len(term) == 2 and _BIGRAM.fullmatch(term) is not None


#: Two Chinese characters (:data:`~seriesbook.core.text.HAN` is one character's class).
_BIGRAM = re.compile(f"(?:{HAN.pattern}){{2}}")


def _postings(
    docnames: Sequence[str], sections: Mapping[str, Sequence[SectionText]]
) -> tuple[list[list[str]], list[list[int]], list[int], dict[str, list[int]]]:
    """Each page's § anchors and lengths, the § whose titles are not translated, and each
    key's § numbers (§ numbered through the book)."""
    anchors: list[list[str]] = []
    lengths: list[list[int]] = []
    untranslated: list[int] = []
    postings: defaultdict[str, list[int]] = defaultdict(list)
    number = 0
    for docname in docnames:
        parts = sections.get(docname, ())
        anchors.append([part.anchor for part in parts])
        lengths.append([part.length for part in parts])
        for part in parts:
            for key in part.keys:
                postings[key].append(number)
            if part.source_title:
                untranslated.append(number)
            number += 1
    return anchors, lengths, untranslated, postings


def _book_characters(data: dict[str, Any]) -> set[str]:
    keys = "".join("".join(data.get(table, {})) for table in ("terms", "titleterms", "alltitles"))
    return set(HAN.findall(keys))  # one character a match: the Chinese characters of every key


def _variants(
    data: dict[str, Any], traditional: bool = False, kept: KeptGroups | None = None
) -> dict[str, Any]:
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

    if kept is None:
        return make(is_term)
    return kept.table(book, (traditional, *source(traditional)), is_term, make)


def pack(
    data: dict[str, Any],
    sections: Mapping[str, Sequence[SectionText]] | None = None,
    source_lang: str | None = None,
    traditional: bool = False,
    kept: KeptGroups | None = None,
) -> dict[str, Any]:
    """*data* (Sphinx's frozen index) with its two-character Chinese terms packed, the §
    postings of *sections* (each page's § parts) and the traditional-character table.

    *source_lang* (a translated edition: the book's language, ``zh-CN``) is what the search
    page marks titles and snippets that are still in it with; *traditional*: the edition is
    Traditional Chinese, so the table turns simplified queries into its characters. *kept*:
    the groups and table packed by earlier builds, reused where their input is the same."""
    width = page_width(len(data["docnames"]))
    anchors, lengths, untranslated, postings = _postings(data["docnames"], sections or {})
    terms: dict[str, int | list[int]] = {}
    groups: dict[str, list[tuple[str, int | list[int]]]] = {}
    for term, pages in sorted(data["terms"].items()):
        if not _is_bigram(term):
            terms[term] = pages
        else:
            groups.setdefault(term[0], []).append((term[1], pages))
    variants = _variants(data, traditional, kept)
    packed: dict[str, Any] = {**data, "terms": terms, VARIANTS: variants}
    located = _choose_located(packed, groups, postings, width)
    packed[KEY] = {"width": width, "pairs": _pairs(groups, located, width, kept)}
    if any(anchors):
        bigrams = {first + second for first, codes in groups.items() for second, _ in codes}
        other = {key: section_list(located[key]) for key in sorted(located) if key not in bigrams}
        packed[SECTIONS] = {
            "anchors": anchors,
            "lengths": lengths,
            "other": other,
            "untranslated": varints(untranslated),
        }
        if source_lang:
            packed[SECTIONS]["lang"] = source_lang
    return packed


def _json(data: dict[str, Any]) -> str:
    """The index as JSON, as :class:`PackedJavaScriptIndex` writes it (UTF-8, unescaped)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


Pages = int | list[int]


def _pairs(
    groups: dict[str, list[tuple[str, Pages]]],
    located: Mapping[str, list[int]],
    width: int,
    kept: KeptGroups | None = None,
) -> str:
    def pack(first: str, seconds: list[tuple[str, Pages]]) -> str:
        out = [_encode(ord(first), CHAR_WIDTH)]
        for second, pages in seconds:
            numbers = [pages] if isinstance(pages, int) else pages
            code = _encode(ord(second), CHAR_WIDTH) + "".join(_encode(n, width) for n in numbers)
            sections = located.get(first + second)
            out.append("." + (code if sections is None else code + "~" + section_list(sections)))
        return "".join(out)

    if kept is None:
        return " ".join(pack(first, seconds) for first, seconds in groups.items())
    return " ".join(
        kept.group(
            (width, first, [(s, p, located.get(first + s)) for s, p in seconds]),
            partial(pack, first, seconds),
        )
        for first, seconds in groups.items()
    )


def _choose_located(
    packed: dict[str, Any],
    groups: dict[str, list[tuple[str, Pages]]],
    postings: dict[str, list[int]],
    width: int,
) -> dict[str, list[int]]:
    """The keys whose § postings are written: the rarest first, within the budget."""
    if not postings:
        return {}
    # the pairs without § postings are ASCII, JSON writes them as they are: their length is
    # counted (a dot, the second character, the pages), not written out
    pairs = sum(
        CHAR_WIDTH
        + sum(1 + CHAR_WIDTH + width * (1 if isinstance(p, int) else len(p)) for _, p in codes)
        for codes in groups.values()
    )
    rest = len(_json({**packed, KEY: {"pairs": ""}}).encode()) + pairs + max(len(groups) - 1, 0)
    budget = max(SECTION_SHARE * rest, SECTION_FLOOR)
    located: dict[str, list[int]] = {}
    spent = 0
    for key, numbers in sorted(postings.items(), key=lambda item: (len(item[1]), item[0])):
        cost = section_list_length(numbers) + (1 if _is_bigram(key) else len(json.dumps(key)) + 3)
        if spent + cost > budget:
            break
        spent += cost
        located[key] = numbers
    return located


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


class PackedJavaScriptIndex:
    """``searchindex.js`` with :func:`pack` and :func:`unpack`, written for a fast first search.

    Sphinx writes the index as a JavaScript object literal (``Search.setIndex({...})``, its
    ``js_index``) with every non-ASCII character escaped; this writes the same JSON unescaped
    (UTF-8, a Chinese character 3 bytes instead of 6) inside one string literal that the page
    hands to ``JSON.parse`` (``Search.setIndex(JSON.parse('...'))``), which browsers read much
    faster than an object literal of that size. :meth:`loads` reads both forms.

    Its :attr:`store` gives each page's § parts when the index is written: those noted in this
    build (``store.used``), else those kept from the previous one (none: page results).
    """

    PREFIX, SUFFIX = "Search.setIndex(JSON.parse('", "'))"

    def __init__(
        self,
        store: SectionStore | None = None,
        source_lang: str | None = None,
        traditional: bool = False,
    ) -> None:
        self.store = store if store is not None else SectionStore(Path(), ())
        #: Each page's parts by their text (opened with the first page, if the cache is on).
        self.kept: PartsCache | None = None
        #: The groups and variants table of earlier builds (if the cache is on).
        self.groups: KeptGroups | None = None
        self.source_lang = source_lang
        self.traditional = traditional

    def sections(self) -> dict[str, list[SectionText]]:
        pages = {**self.store.pages, **self.store.used}
        return {docname: list(parts.values()) for docname, parts in pages.items()}

    def dumps(self, data: dict[str, Any]) -> str:
        packed = pack(data, self.sections(), self.source_lang, self.traditional, self.groups)
        text = _json(packed)
        return self.PREFIX + text.replace("\\", "\\\\").replace("'", "\\'") + self.SUFFIX

    def loads(self, text: str) -> Any:
        if not (text.startswith(self.PREFIX) and text.endswith(self.SUFFIX)):
            return unpack(js_index.loads(text))  # Sphinx's own form
        literal = text[len(self.PREFIX) : -len(self.SUFFIX)]
        return unpack(json.loads(_ESCAPED.sub(r"\1", literal)))

    def dump(self, data: dict[str, Any], stream: Any) -> None:
        stream.write(self.dumps(data))

    def load(self, stream: Any) -> Any:
        return self.loads(stream.read())


#: The escapes :meth:`PackedJavaScriptIndex.dumps` writes: a backslash and the character.
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


PACKED = PackedJavaScriptIndex()
