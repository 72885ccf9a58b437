"""Find a cited block, byte for byte, in another place of the new release.

Used when following the file's diff does not give the lines back: code moved inside its file,
or to another file (renamed, split into a package). Candidates are searched in tiers, most
credible first — the file itself or its rename, then files sharing the path's stem, then files
git saw added, then every file with the same suffix (one search over all of them, joined once per
suffix and only when needed). A tier answers only when the block occurs exactly once in it;
several occurrences are ambiguous and never guessed.
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from seriesbook.commands.repin._trees import Lines, TreePair

#: A block needs one line with this many non-blank characters to be searched for at all.
MIN_DISTINCT = 10


@dataclass(frozen=True)
class Found:
    path: str
    start: int  #: 1-based
    places: int  #: how many occurrences the tier had (1 when credible)


def occurrences(block: Sequence[bytes], lines: Lines) -> list[int]:
    """0-based starts of every occurrence of *block* in *lines*."""
    n, first = len(block), block[0]
    return [
        i for i, line in enumerate(lines)
        if line == first and tuple(lines[i : i + n]) == tuple(block)
    ]


def distinctive(block: Sequence[bytes]) -> bytes | None:
    """The block's most telling line (the longest), or None for a block too plain to search."""
    best = max((line.strip() for line in block), key=len, default=b"")
    return best if len(best) >= MIN_DISTINCT else None


def stem(path: str) -> str:
    name = posixpath.basename(path)
    return name.split(".", 1)[0] if not name.startswith(".") else name


def shares_stem(old_path: str, candidate: str) -> bool:
    """``a/_debug_mode.py`` and ``a/_debug_mode/__init__.py`` or ``a/_debug_mode_utils.py``."""
    wanted = stem(old_path)
    if not wanted or candidate == old_path:
        return False
    parts = candidate.split("/")
    return wanted in parts[:-1] or stem(candidate).startswith(wanted)


@dataclass
class BlockFinder:
    """Searches one release pair's new tree; the line-hash index is kept across citations."""

    pair: TreePair
    _corpus: dict[str, tuple[list[str], list[int], bytes]] = field(default_factory=dict)
    _by_stem: dict[str, list[str]] | None = None

    def in_file(self, block: Sequence[bytes], path: str, near: int) -> Found | None:
        """The occurrence in *path* (moved code inside its file); several are ambiguous and
        returned as such (``places`` > 1, the nearest to *near*, 1-based), never a guess."""
        lines = self.pair.new.lines(path)
        if lines is None or distinctive(block) is None:
            return None
        starts = occurrences(block, lines)
        if not starts:
            return None
        best = min(starts, key=lambda i: (abs(i + 1 - near), i))
        return Found(path, best + 1, len(starts))

    def elsewhere(self, block: Sequence[bytes], old_path: str, *, wide: bool) -> Found | None:
        """A unique occurrence in the most credible tier of other files, else the ambiguity.

        *wide* also searches every file of the same suffix: only for a block that left its file.
        """
        key = distinctive(block)
        if key is None:
            return None
        tiers: list[Iterable[str]] = [self._sharing_stem(old_path)]
        if wide:
            suffix = posixpath.splitext(old_path)[1]
            tiers.append(sorted(self.pair.added or ()))
            tiers.append(self._containing(suffix, key))
        for tier in tiers:
            found = self._unique(block, key, [p for p in tier if p != old_path])
            if found is not None:
                return found
        return None

    def _unique(self, block: Sequence[bytes], key: bytes, paths: list[str]) -> Found | None:
        self.pair.new.prefetch(paths)
        hits: list[tuple[str, int]] = []
        for path in paths:
            lines = self.pair.new.lines(path)
            if lines is None or not any(key in line for line in lines):
                continue
            hits.extend((path, i) for i in occurrences(block, lines))
        if not hits:
            return None
        path, start = hits[0]
        return Found(path, start + 1, len(hits))

    def _sharing_stem(self, old_path: str) -> list[str]:
        """Files of the new release under a directory named like the stem, or stem-prefixed."""
        if self._by_stem is None:
            self._by_stem = {}
            for path in self.pair.new.listing():
                *folders, _ = path.split("/")
                for key in {stem(path), *folders}:
                    self._by_stem.setdefault(key, []).append(path)
        wanted = stem(old_path)
        names = [k for k in self._by_stem if k.startswith(wanted)] if wanted else []
        found = {p for k in names for p in self._by_stem[k] if shares_stem(old_path, p)}
        return sorted(found)

    def _containing(self, suffix: str, key: bytes) -> list[str]:
        """Files of that suffix holding *key*: one ``bytes.find`` pass over all of them.

        The files are joined once per suffix (a NUL between two files) with their offsets; this
        measured faster than an index of line hashes for the few blocks that need a wide search.
        """
        if suffix not in self._corpus:
            paths = [p for p in self.pair.new.listing() if posixpath.splitext(p)[1] == suffix]
            self.pair.new.prefetch(paths)
            texts = [b"\n".join(self.pair.new.lines(p) or ()) for p in paths]
            offsets = list(itertools.accumulate((len(t) + 1 for t in texts), initial=0))
            self._corpus[suffix] = (paths, offsets, b"\0".join(texts))
        paths, offsets, corpus = self._corpus[suffix]
        found: list[str] = []
        at = corpus.find(key)
        while at >= 0:
            n = bisect.bisect_right(offsets, at) - 1
            found.append(paths[n])
            at = corpus.find(key, offsets[n + 1])
        return found
