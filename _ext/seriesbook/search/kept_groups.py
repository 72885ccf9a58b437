"""The packed groups of ``searchindex.js`` and its variants table, kept across builds by input.

An incremental build writes the whole index again for one changed page, and most first
characters' groups (:mod:`~seriesbook.search.compact`) come out as they were. Each group's
packed string is a function of its input alone (the page-number width, the first character,
and each second character's pages and § numbers), so it is kept under a digest of that input
and packed again only when the input changed. The variants table is a function of the book's
characters, the edition's direction, OpenCC's versions, and the answers to the
questions it asked of the index ("is this pair a term?"): it is kept with those and made again
when any of them differs.

Kept in ``<doctreedir>/seriesbook-search-packed.pickle``, by :mod:`seriesbook.core.pagestore`'s
rules: another format, a damaged or missing file is an empty store (everything packed from
scratch, never an error); a build keeps exactly what it used, and writes the file only when
that changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from seriesbook.core.pagestore import digest, dump_atomically, read_stored

STORE_NAME = "seriesbook-search-packed.pickle"
STORE_KEY = ("seriesbook-search-packed", 1)

#: The variants table's input (the book's characters; the edition's direction and OpenCC's
#: versions; the questions asked and their answers) and the table.
Variants = tuple[frozenset[str], tuple[object, ...], tuple[tuple[str, bool], ...], dict[str, Any]]


class KeptGroups:
    """Packed group strings by the digest of their input, and the last variants table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.groups: dict[str, str] = {}
        self.variants: Variants | None = None
        self.used: dict[str, str] = {}
        self.used_variants: Variants | None = None
        self.hits = self.misses = 0

    @classmethod
    def open(cls, doctreedir: Path) -> KeptGroups:
        kept = cls(doctreedir / STORE_NAME)
        kept.load()
        return kept

    def load(self) -> None:
        stored = read_stored(self.path, STORE_KEY)
        if stored is None:
            return
        groups, variants = stored.get("groups"), stored.get("variants")
        if not isinstance(groups, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in groups.items()
        ):
            return
        if variants is not None and not (
            isinstance(variants, tuple)
            and len(variants) == 4
            and isinstance(variants[0], frozenset)
            and isinstance(variants[1], tuple)
            and isinstance(variants[2], tuple)
            and isinstance(variants[3], dict)
        ):
            return
        self.groups, self.variants = groups, variants

    def group(self, key: object, pack: Callable[[], str]) -> str:
        """The packed string of the group whose input is *key*: kept, or ``pack()``."""
        name = digest(key)
        packed = self.groups.get(name)
        if packed is None:
            self.misses += 1
            packed = pack()
        else:
            self.hits += 1
        self.used[name] = packed
        return packed

    def table(
        self,
        characters: frozenset[str],
        source: tuple[object, ...],
        is_term: Callable[[str], bool],
        make: Callable[[Callable[[str], bool]], dict[str, Any]],
    ) -> dict[str, Any]:
        """The variants table of *characters* from *source* (the direction and OpenCC's
        versions): the kept one if its input is the same, else ``make`` with an *is_term*
        that notes each question and answer."""
        kept = self.variants
        if (
            kept is not None
            and kept[0] == characters
            and kept[1] == source
            and all(is_term(pair) == answer for pair, answer in kept[2])
        ):
            self.used_variants = kept
            return kept[3]
        asked: dict[str, bool] = {}

        def noted(pair: str) -> bool:
            answer = asked[pair] = is_term(pair)
            return answer

        table = make(noted)
        self.used_variants = (characters, source, tuple(asked.items()), table)
        return table

    def save(self) -> None:
        """Keep what this build used; write the file if that changed it."""
        unchanged = self.used == self.groups and self.used_variants == self.variants
        if not (unchanged and self.path.is_file()):
            stored = {"key": STORE_KEY, "groups": self.used, "variants": self.used_variants}
            dump_atomically(self.path, stored)
        self.groups, self.variants = self.used, self.used_variants
        self.used, self.used_variants = {}, None
