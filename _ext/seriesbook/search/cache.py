"""What each text gives the index, split once: kept per page, so a changed page splits only
its changed texts.

:meth:`~seriesbook.search.zh.SearchChinese.split` makes of a text its words (jieba's tokens,
the Han bigrams, the Latin words, each once) and its Latin words alone (the stemmer needs
them). :class:`Splits` hands them out: those made earlier in this build (for any page), then
those the current page's texts had when it was last written (kept in the search's store,
:mod:`~seriesbook.search.store`, and valid for one jieba version and one dictionary file:
:func:`signature`); it notes what each page used, which is what the store keeps of it.
"""

from __future__ import annotations

import os
from typing import Any

#: A text's words for the index, and its Latin words, each list joined by :data:`SEPARATOR`
#: (two strings instead of tuples of words: the store loads faster, and the garbage collector
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
    """What a split depends on besides its text: jieba, and the user dictionary."""
    import jieba

    stat: tuple[int, int] | None = None
    if userdict is not None:
        st = os.stat(userdict)
        stat = (st.st_size, st.st_mtime_ns)
    return (jieba.__version__, userdict, stat)


class Splits:
    """Split texts by text: this build's, then the current page's kept ones."""

    def __init__(self) -> None:
        self.made: dict[str, Split] = {}
        self.kept: dict[str, Split] = {}
        self.used: dict[str, Split] = {}
        self.hits = self.misses = 0

    def begin_page(self, kept: dict[str, Split], used: dict[str, Split] | None = None) -> None:
        """Texts split from now on belong to a page whose texts had *kept* (until the next
        page begins); *used*: what the page used already (its split texts go there)."""
        self.kept = kept
        self.used = {} if used is None else used

    def get(self, text: str) -> Split | None:
        split = self.made.get(text) or self.kept.get(text)
        if split is None:
            self.misses += 1
            return None
        self.hits += 1
        self.used[text] = split
        return split

    def put(self, text: str, words: list[str], latin: list[str]) -> None:
        own, letters = joined(words), joined(latin)
        if own is None or letters is None:
            return
        self.made[text] = self.used[text] = (own, letters)
