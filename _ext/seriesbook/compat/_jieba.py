"""Doors to jieba's tokenizer state (its frequency table and total), which jieba documents
only by example: the search builds a tokenizer from a stored table instead of its text file."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jieba


def frequencies(tokenizer: jieba.Tokenizer) -> dict[str, int]:
    """The tokenizer's word → frequency table (live: updating it updates the tokenizer)."""
    table: dict[str, int] = tokenizer.FREQ
    return table


def total(tokenizer: jieba.Tokenizer) -> int:
    """The sum of the frequencies, which shapes every segmentation."""
    value: int = tokenizer.total
    return value


def double_total(tokenizer: jieba.Tokenizer) -> None:
    """What loading jieba's own dictionary again as a user dictionary does to *tokenizer*."""
    tokenizer.total *= 2


def empty_tokenizer(total: int) -> jieba.Tokenizer:
    """A tokenizer ready to cut with an empty table and *total*; fill :func:`frequencies`."""
    import jieba

    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ = {}
    tokenizer.total = total
    tokenizer.initialized = True
    return tokenizer
