"""Doors to jieba's tokenizer state (its frequency table and total), which jieba documents
only by example: the search builds a tokenizer from a stored table instead of its text file;
and to how jieba is imported."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from types import ModuleType
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


class _WithoutPkgResources(importlib.abc.MetaPathFinder):
    """Makes ``import pkg_resources`` fail (while jieba is imported)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        if fullname == "pkg_resources":
            raise ImportError("pkg_resources is not needed to read jieba's own files")


def import_jieba() -> None:
    """Import jieba without setuptools' ``pkg_resources`` unless something imported it.

    ``jieba._compat`` reads jieba's bundled files with ``pkg_resources.resource_stream`` if it
    can import it, else (its own ``except ImportError``) with ``open`` on the same path beside
    its ``__file__``: the same bytes. Importing ``pkg_resources`` scans every installed
    distribution (most of what importing jieba costs, in every build that writes a Chinese
    index) and, with newer setuptools, warns that it is deprecated (fxsjy/jieba#1026; the
    open fxsjy/jieba#1044 moves jieba to ``importlib.resources``).
    """
    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        return
    blocker = _WithoutPkgResources()
    sys.meta_path.insert(0, blocker)
    try:
        import jieba  # noqa: F401
    finally:
        sys.meta_path.remove(blocker)
