"""The segmentation cache: what each text gives the index, per page, in the doctree directory.

The file (``seriesbook-search-zh.pickle``) maps each page to the texts the index took from it
and what :meth:`~seriesbook.search.zh.SearchChinese.split` made of each: its words (jieba's
tokens, the Han bigrams, the Latin words, each once) and its Latin words alone (the stemmer
needs them), so a kept text costs neither jieba nor the bigram and Latin scans. It is valid for
one jieba version and one dictionary file (path, size and modification time); anything else
starts an empty cache. When a build ends, a page that was indexed keeps exactly the texts it
used in this build, an unchanged page keeps its entries from before, and a page no longer in the
book loses them: the cache holds the book's current text, never its history (the rules of
:mod:`seriesbook.core.pagestore`, shared with the kept message parses of translated editions).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from seriesbook.core.pagestore import PageStore

CACHE_NAME = "seriesbook-search-zh.pickle"
FORMAT = 3

Tokens = tuple[str, ...]
#: A text's words for the index, and its Latin words, each list joined by :data:`SEPARATOR`
#: (two strings instead of tuples of words: the file loads faster, and the garbage collector
#: has far fewer objects to walk during the build).
Split = tuple[str, str]
SEPARATOR = "\x00"


def joined(words: list[str]) -> str | None:
    """*words* as one string, or ``None`` if one of them holds the separator (not kept)."""
    text = SEPARATOR.join(words)
    return None if text.count(SEPARATOR) != max(len(words) - 1, 0) else text


def words_of(text: str) -> list[str]:
    """The words :func:`joined` joined."""
    return text.split(SEPARATOR) if text else []


def signature(userdict: str | None) -> tuple[Any, ...]:
    """What a cached segmentation depends on: cache format, jieba, and the user dictionary."""
    import jieba

    stat: tuple[int, int] | None = None
    if userdict is not None:
        st = os.stat(userdict)
        stat = (st.st_size, st.st_mtime_ns)
    return (FORMAT, jieba.__version__, userdict, stat)


class SegmentCache(PageStore[str, Split]):
    """Split words by text (:class:`~seriesbook.core.PageStore`), tracking which page used what."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        super().__init__(path, key)
        self.used: dict[str, dict[str, Split]] = {}
        self.page = ""
        self.hits = self.misses = 0

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return (
            isinstance(entry, tuple)
            and len(entry) == 2
            and all(isinstance(part, str) for part in entry)
        )

    def begin_page(self, docname: str) -> None:
        """Texts split from now on belong to *docname* (until the next page begins)."""
        self.page = docname
        self.used[docname] = {}

    def get(self, text: str) -> Split | None:
        split = self.lookup.get(text)
        if split is None:
            self.misses += 1
            return None
        self.hits += 1
        self.used.setdefault(self.page, {})[text] = split
        return split

    def put(self, text: str, words: list[str], latin: list[str]) -> None:
        own, letters = joined(words), joined(latin)
        if own is None or letters is None:
            return
        stored = self.lookup[text] = (own, letters)
        self.used.setdefault(self.page, {})[text] = stored
