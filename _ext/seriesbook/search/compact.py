"""``searchindex.js`` with its two-character Chinese terms packed, so the bigrams fit.

Sphinx writes every term as a JSON key in ``\\uXXXX`` escapes, then its pages: about 16 bytes
for a two-character term. Indexing every Han bigram of the book would triple the file, so
:data:`PACKED` writes the ``terms`` whose key is two Chinese characters as one ASCII string
under ``seriesbook_bigrams`` instead (about 6 bytes each), and reads them back into ``terms``
(an incremental build reloads the index it wrote). The search page unpacks them the same way
(``search/seriesbook-search.js``) before Sphinx's search sees the index.

The string: groups separated by a space, one per first character; a group is that character
and then, for each second character, ``.``, the character and the pages. A character is its
code point in three base-64 digits; a page is its number in ``width`` base-64 digits.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sphinx.search import js_index

from seriesbook.core.text import HAN

KEY = "seriesbook_bigrams"
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


def page_width(pages: int) -> int:
    """Base-64 digits needed to write any page number of a book with *pages* pages."""
    width = 1
    while 64**width < pages:
        width += 1
    return width


def _is_bigram(term: str) -> bool:
    return len(term) == 2 and all(HAN.match(char) for char in term)


def pack(data: dict[str, Any]) -> dict[str, Any]:
    """*data* (Sphinx's frozen index) with its two-character Chinese terms packed."""
    width = page_width(len(data["docnames"]))
    terms: dict[str, int | list[int]] = {}
    groups: dict[str, list[str]] = {}
    for term, pages in sorted(data["terms"].items()):
        if not _is_bigram(term):
            terms[term] = pages
            continue
        numbers = [pages] if isinstance(pages, int) else pages
        code = _encode(ord(term[1]), CHAR_WIDTH) + "".join(_encode(n, width) for n in numbers)
        groups.setdefault(term[0], []).append(code)
    packed = " ".join(
        _encode(ord(first), CHAR_WIDTH) + "".join("." + code for code in codes)
        for first, codes in groups.items()
    )
    return {**data, "terms": terms, KEY: {"width": width, "pairs": packed}}


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
            rest = code[CHAR_WIDTH:]
            numbers = [_decode(rest[i : i + width]) for i in range(0, len(rest), width)]
            terms[term] = numbers[0] if len(numbers) == 1 else numbers
    unpacked = {key: value for key, value in data.items() if key != KEY}
    unpacked["terms"] = terms
    return unpacked


class PackedJavaScriptIndex:
    """Sphinx's ``searchindex.js`` format (``js_index``) with :func:`pack` and :func:`unpack`."""

    PREFIX, SUFFIX = js_index.PREFIX, js_index.SUFFIX

    def dumps(self, data: dict[str, Any]) -> str:
        return js_index.dumps(pack(data))

    def loads(self, text: str) -> Any:
        return unpack(js_index.loads(text))

    def dump(self, data: dict[str, Any], stream: Any) -> None:
        stream.write(self.dumps(data))

    def load(self, stream: Any) -> Any:
        return self.loads(stream.read())


PACKED = PackedJavaScriptIndex()
