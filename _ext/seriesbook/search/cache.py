"""The segmentation cache: each text's jieba tokens, per page, in the doctree directory.

The file (``seriesbook-search-zh.pickle``) maps each page to the texts the index took from it
and their tokens. It is valid for one jieba version and one dictionary file (path, size and
modification time); anything else starts an empty cache. When a build ends, a page that was
indexed keeps exactly the texts it used in this build, an unchanged page keeps its entries from
before, and a page no longer in the book loses them: the cache holds the book's current text,
never its history (the rules of :mod:`seriesbook.core.pagestore`, shared with the kept message
parses of translated editions).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from seriesbook.core.pagestore import PageStore

CACHE_NAME = "seriesbook-search-zh.pickle"
FORMAT = 2

Tokens = tuple[str, ...]


def signature(userdict: str | None) -> tuple[Any, ...]:
    """What a cached segmentation depends on: cache format, jieba, and the user dictionary."""
    import jieba

    stat: tuple[int, int] | None = None
    if userdict is not None:
        st = os.stat(userdict)
        stat = (st.st_size, st.st_mtime_ns)
    return (FORMAT, jieba.__version__, userdict, stat)


class SegmentCache(PageStore[str, Tokens]):
    """Tokens by text (:class:`~seriesbook.core.PageStore`), tracking which page used what."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        super().__init__(path, key)
        self.used: dict[str, dict[str, Tokens]] = {}
        self.page = ""
        self.hits = self.misses = 0

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, tuple)

    def begin_page(self, docname: str) -> None:
        """Texts split from now on belong to *docname* (until the next page begins)."""
        self.page = docname
        self.used[docname] = {}

    def get(self, text: str) -> Tokens | None:
        tokens = self.lookup.get(text)
        if tokens is None:
            self.misses += 1
            return None
        self.hits += 1
        self.used.setdefault(self.page, {})[text] = tokens
        return tokens

    def put(self, text: str, tokens: list[str]) -> None:
        stored = self.lookup[text] = tuple(tokens)
        self.used.setdefault(self.page, {})[text] = stored
