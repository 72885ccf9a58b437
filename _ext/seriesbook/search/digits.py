"""The index's numbers in base-64 digits, and each key's § numbers written as a list.

:mod:`~seriesbook.search.compact` writes characters, pages and § numbers with these (the
search page reads them back, ``search/seriesbook-search.js``); :mod:`~seriesbook.search.postings`
writes each key's § list with :func:`section_list`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import chain
from operator import sub

from seriesbook.core.text import HAN

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


#: The digits :func:`varints` writes for each number below the table's length, as a number of
#: its own or as a gap (grown as a book needs it).
_DIGITS_OF: list[str] = []


def _digits_of(size: int) -> list[str]:
    """:data:`_DIGITS_OF`, long enough for every number below *size*."""
    if len(_DIGITS_OF) < size:
        start = len(_DIGITS_OF)
        _DIGITS_OF.extend(varints((n,)) for n in range(start, max(size, 2 * start, 1024)))
    return _DIGITS_OF


def section_list(numbers: Sequence[int]) -> str:
    """Ascending § *numbers* written the shorter way: gaps (:func:`varints`) or a
    :func:`bitmap`."""
    if not numbers:
        return ""
    first, last = numbers[0], numbers[-1]
    if first < 0:
        return varints(numbers) if _gaps_shorter(numbers) else bitmap(numbers)
    digits = _digits_of(last + 1)
    if len(numbers) == 1:  # the gaps: never longer than a bitmap
        return digits[first]
    written = "".join(map(digits.__getitem__, map(sub, numbers, chain((0,), numbers))))
    if len(written) <= 2 + len(digits[first]) + (last - first) // 6:  # the bitmap's length
        return written
    return bitmap(numbers)


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


def is_bigram(term: str) -> bool:
    """Whether *term* is two Chinese characters (a packed bigram, if it is a term)."""
    return len(term) == 2 and _BIGRAM.fullmatch(term) is not None


#: Two Chinese characters (:data:`~seriesbook.core.text.HAN` is one character's class).
_BIGRAM = re.compile(f"(?:{HAN.pattern}){{2}}")


