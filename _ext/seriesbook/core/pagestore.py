"""Entries kept per page in one pickle file of the doctree directory, across builds.

The search's segmentation cache and the translated messages' parses keep work from one build
for the next, beside Sphinx's pickles (so they survive ``-E``, and ``make clean`` clears them).
Both have the same rules, which live here: the file is valid for one *key* (a fingerprint of
everything its entries depend on), and anything else — a missing, unreadable or malformed file,
another key — is an empty store, never an error; when a build ends, each page the build used
keeps exactly the entries it used, an untouched page keeps its own, and a page no longer in the
book loses them, so the file holds the current book, not its history. It is written atomically,
and only when it changed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, Generic, Self, TypeVar


def dump_atomically(path: Path, value: object) -> None:
    """Pickle *value* to *path* so that a reader (another process, a build stopped half-way)
    sees the old file or the new one, never part of one: every pickle seriesbook keeps goes
    through here."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with partial.open("wb") as stream:
            pickle.dump(value, stream, pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def digest(value: object) -> str:
    """A digest of *value*'s ``repr``, to keep an entry under (tuples, lists, strings and
    numbers: their repr is exact)."""
    return hashlib.blake2b(repr(value).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


def installed_packages() -> tuple[tuple[str, int], ...]:
    """The package directories on the path with their modification times: installing or
    removing a distribution (a plugin among them) changes one (for a key)."""
    found: list[tuple[str, int]] = []
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")):
            try:
                found.append((entry, os.stat(entry).st_mtime_ns))
            except OSError:
                continue
    return tuple(found)


def read_stored(path: Path, key: tuple[Any, ...]) -> dict[str, Any] | None:
    """The dictionary pickled in *path* if it is readable and holds *key* under ``"key"``."""
    try:
        with path.open("rb") as stream:
            stored = pickle.load(stream)
    except Exception:  # any unreadable file (even one naming a class now gone) is empty
        return None
    return stored if isinstance(stored, dict) and stored.get("key") == key else None


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PageStore(Generic[K, V]):
    """The entries of each page, and all of them in one ``lookup``."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        self.path = path
        self.key = key
        self.pages: dict[str, dict[K, V]] = {}
        self.lookup: dict[K, V] = {}

    @staticmethod
    def entry_ok(entry: object) -> bool:
        """Whether *entry* has the shape of this store's values (each store says)."""
        raise NotImplementedError

    @classmethod
    def read(cls, path: Path, key: tuple[Any, ...]) -> Self:
        """The store of *path*: its pages, or none if the file is not a good one of *key*."""
        store = cls(path, key)
        store.load()
        return store

    def load(self) -> None:
        """Take the file's pages if it is readable, of this key, and every entry is ok."""
        stored = read_stored(self.path, self.key)
        if stored is None:
            return
        pages = stored.get("pages")
        if not isinstance(pages, dict) or not all(
            isinstance(entries, dict) and all(map(self.entry_ok, entries.values()))
            for entries in pages.values()
        ):
            return
        self.pages = pages
        for entries in pages.values():
            self.lookup.update(entries)

    def save(self, used: Mapping[str, dict[K, V]], docnames: set[str]) -> None:
        """Keep the pages in *docnames*: *used*'s entries for the pages this build used, the
        stored ones for the others; write the file if that changed it."""
        pages = {name: entries for name, entries in self.pages.items() if name in docnames}
        pages.update({name: entries for name, entries in used.items() if name in docnames})
        if pages == self.pages and self.path.is_file():
            return
        dump_atomically(self.path, {"key": self.key, "pages": pages})
        self.pages = pages
