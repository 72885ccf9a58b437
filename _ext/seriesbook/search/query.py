"""A built ``searchindex.js`` read back, and queried the way Sphinx's own ``searchtools.js`` does.

Used to show that seriesbook's index keeps every hit of Sphinx's (the benchmark and the tests):
:func:`missing_stock_terms` compares the terms, and :func:`search` answers a query as stock
Sphinx would — split on non-word characters, each word lower-cased and stemmed with the
English stemmer (Sphinx's Chinese search ships that stemmer to the browser), a page matching
when every word is one of its terms or title terms, titles containing the query listed too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_SPLIT = re.compile(r"[^\w]+")


def load_index(path: Path) -> dict[str, Any]:
    """The index in *path* as Sphinx froze it (packed bigrams unpacked)."""
    from seriesbook.search.compact import PACKED

    data: dict[str, Any] = PACKED.loads(path.read_text(encoding="utf-8"))
    return data


def _page_names(index: dict[str, Any], table: str) -> dict[str, set[str]]:
    names = index["docnames"]
    return {
        term: {names[page] for page in _pages(entry)} for term, entry in index[table].items()
    }


def missing_stock_terms(stock: dict[str, Any], ours: dict[str, Any]) -> dict[str, set[str]]:
    """Terms and title terms of *stock* whose pages *ours* does not all give (none, if kept)."""
    missing: dict[str, set[str]] = {}
    for table in ("terms", "titleterms"):
        mine = _page_names(ours, table)
        for term, pages in _page_names(stock, table).items():
            if lost := pages - mine.get(term, set()):
                missing[f"{table}:{term}"] = lost
    return missing


def _pages(entry: int | list[int] | None) -> set[int]:
    if entry is None:
        return set()
    return {entry} if isinstance(entry, int) else set(entry)


def search(index: dict[str, Any], query: str) -> dict[str, list[str]]:
    """Pages matching every word of *query*, and pages with a title containing it."""
    import snowballstemmer  # type: ignore[import-untyped]

    stemmer = snowballstemmer.stemmer("english")
    words = [w for w in _SPLIT.split(query) if w]
    docnames: list[str] = index["docnames"]
    matched: set[int] | None = None
    for word in words:
        term = stemmer.stemWord(word.lower())
        pages = _pages(index["terms"].get(term)) | _pages(index["titleterms"].get(term))
        matched = pages if matched is None else matched & pages
    titles = sorted(
        f"{docnames[doc]}#{anchor or ''}"
        for title, hits in index["alltitles"].items()
        if query.lower() in title.lower()
        for doc, anchor in hits
    )
    return {"pages": sorted(docnames[i] for i in matched or ()), "titles": titles}
