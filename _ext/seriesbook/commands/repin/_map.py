"""Where a cited line range is in the new release: unchanged, moved, changed or lost.

Pure: given a citation and a :class:`~seriesbook.commands.repin._trees.TreePair`, decide

* ``unchanged`` — same path, the cited lines identical at the same numbers;
* ``moved`` — the identical lines elsewhere: the file's diff carries them to other numbers
  (line tracking as git blame does it, on difflib's matching blocks), or the block is found,
  byte for byte, in the file, its rename or a file sharing its stem (:mod:`._search`);
* ``changed`` — the lines were edited: the best new range from the diff's hunks (for a ``{src}``
  role, moved to where its symbol now is), with a short old/new diff, for the author to review;
* ``lost`` — no credible new place (file deleted, block gone, or several equal candidates).

An ``unchanged`` or ``moved`` result always points at text identical to the old lines: it is
only ever produced after comparing them.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from seriesbook.citations import symbol_occurs
from seriesbook.commands.repin._search import BlockFinder, distinctive, occurrences
from seriesbook.commands.repin._trees import Lines, TreePair

#: Below this similarity (difflib's ratio) an edited range is searched for elsewhere first.
SIMILAR = 0.5
#: Diff lines shown for a ``changed`` citation before it is cut short.
DIFF_LINES = 12


class Status(StrEnum):
    UNCHANGED = "unchanged"
    MOVED = "moved"
    CHANGED = "changed"
    LOST = "lost"


@dataclass(frozen=True)
class Cited:
    """What a citation points at: path and 1-based inclusive lines; a ``{src}`` symbol."""

    path: str
    start: int
    end: int
    symbol: str = ""


@dataclass(frozen=True)
class Mapping:
    status: Status
    path: str | None = None  #: None when lost
    start: int = 0
    end: int = 0
    diff: str = ""
    reason: str = ""

    @property
    def moves(self) -> bool:
        """Whether the citation text has to be rewritten."""
        return self.status in (Status.MOVED, Status.CHANGED)


@dataclass
class Mapper:
    """Maps citations of one source between two releases; file diffs are computed once."""

    pair: TreePair
    finder: BlockFinder = field(init=False)
    _opcodes: dict[tuple[str, str], list[tuple[str, int, int, int, int]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.finder = BlockFinder(self.pair)

    def prefetch(self, paths: set[str]) -> None:
        """Read every cited file of both releases in one batch each."""
        self.pair.old.prefetch(paths)
        self.pair.new.prefetch(paths | {self.pair.renames.get(p, p) for p in paths})

    def map(self, cited: Cited) -> Mapping:
        old = self.pair.old.lines(cited.path)
        if old is None:
            return Mapping(Status.LOST, reason=f"no file {cited.path} in {self.pair.old.label}")
        if not 1 <= cited.start <= cited.end <= len(old):
            return Mapping(Status.LOST, reason=(
                f"{cited.path} has {len(old)} lines in {self.pair.old.label}"
            ))
        block = old[cited.start - 1 : cited.end]
        new_path = self.pair.renames.get(cited.path, cited.path)
        new = self.pair.new.lines(new_path)
        best: tuple[int, int] | None = None
        if new is not None:
            if new_path == cited.path and new[cited.start - 1 : cited.end] == block:
                return Mapping(Status.UNCHANGED, cited.path, cited.start, cited.end)
            ops = self._diff(cited.path, new_path, old, new)
            tracked, best = _track(ops, cited.start, cited.end)
            if tracked is not None and self._more_copies(block, old, new) > 1:
                return Mapping(Status.LOST, reason=(  # the diff's pick among copies: a guess
                    f"the lines occur {self._more_copies(block, old, new)} times in {new_path} "
                    f"in {self.pair.new.label}"
                ))
            if tracked is not None:
                return self._moved(cited, block, new_path, tracked)
            near = best[0] if best else cited.start
            found = self.finder.in_file(block, new_path, near)
            if found is not None and found.places == 1:
                return self._moved(cited, block, found.path, found.start)
            if found is not None:  # the README's promise: several places is lost, never a guess
                return Mapping(Status.LOST, reason=(
                    f"the lines occur {found.places} times in {new_path} in {self.pair.new.label}"
                ))
        # every file is searched only for a block that left its file; an edited one that barely
        # resembles its old lines is first looked for in the files sharing its stem
        elsewhere = None
        if new is None or best is None:
            elsewhere = self.finder.elsewhere(block, cited.path, wide=True)
        elif _similarity(block, new, best) < SIMILAR:
            elsewhere = self.finder.elsewhere(block, cited.path, wide=False)
        if elsewhere is not None and elsewhere.places == 1:
            return self._moved(cited, block, elsewhere.path, elsewhere.start)
        if new is not None:
            changed = self._changed(cited, block, new_path, new, best)
            if changed is not None:
                return changed
        if elsewhere is not None:
            return Mapping(Status.LOST, reason=(
                f"the lines occur {elsewhere.places} times in {self.pair.new.label}"
            ))
        if new is None:
            return Mapping(Status.LOST, reason=f"{cited.path} is gone in {self.pair.new.label}")
        return Mapping(Status.LOST, reason=(
            f"the cited lines are gone from {new_path} in {self.pair.new.label}"
        ))

    @staticmethod
    def _more_copies(block: Lines, old: Lines, new: Lines) -> int:
        """How many copies of a distinctive *block* the new file has when it has more than the
        old one (0 otherwise): then which copy is the cited one is not known, only guessed."""
        if distinctive(block) is None:
            return 0
        copies = len(occurrences(block, new))
        return copies if copies > len(occurrences(block, old)) else 0

    def _moved(self, cited: Cited, block: Lines, path: str, start: int) -> Mapping:
        end = start + len(block) - 1
        new = self.pair.new.lines(path)
        assert new is not None and new[start - 1 : end] == block, "a move keeps the text"
        return Mapping(Status.MOVED, path, start, end)

    def _diff(self, old_path: str, new_path: str, old: Lines, new: Lines
              ) -> list[tuple[str, int, int, int, int]]:
        key = (old_path, new_path)
        if key not in self._opcodes:
            self._opcodes[key] = line_diff(old, new)
        return self._opcodes[key]

    def _changed(self, cited: Cited, block: Lines, path: str, new: Lines,
                 best: tuple[int, int] | None) -> Mapping | None:
        if cited.symbol:
            best = _symbol_range(cited, block, new, best)
        if best is None:
            return None
        start, end = best
        diff = _short_diff(block, new[start - 1 : end], cited, path, start, end)
        return Mapping(Status.CHANGED, path, start, end, diff, "the cited lines were edited")


def line_diff(old: Lines, new: Lines) -> list[tuple[str, int, int, int, int]]:
    """Opcodes (difflib's shape) of a line diff anchored on lines unique to both sides.

    Like git's patience diff: the common head and tail are taken off, lines that occur once in
    each file and keep their order anchor the alignment, and difflib only matches the short gaps
    between anchors. Two releases of a file differ little, so this stays fast on large files.
    """
    head, limit = 0, min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    blocks: list[tuple[int, int, int]] = [(0, 0, head)] if head else []
    previous = (0, 0)
    for i, j in [*_anchors(old_mid, new_mid), (len(old_mid), len(new_mid))]:
        pi, pj = previous
        if i - pi == 1 and j - pj == 1:
            if old_mid[pi] == new_mid[pj]:
                blocks.append((pi + head, pj + head, 1))
        elif i > pi and j > pj:
            matcher = difflib.SequenceMatcher(None, old_mid[pi:i], new_mid[pj:j], autojunk=False)
            blocks += [(a + pi + head, b + pj + head, n)
                       for a, b, n in matcher.get_matching_blocks() if n]
        if i < len(old_mid):
            blocks.append((i + head, j + head, 1))
        previous = (i + 1, j + 1)
    if tail:
        blocks.append((len(old) - tail, len(new) - tail, tail))
    return _opcodes(_merged(blocks), len(old), len(new))


def _anchors(old: Lines, new: Lines) -> list[tuple[int, int]]:
    """Lines unique in both files, longest chain in the same order (patience sorting)."""
    old_count, new_count = Counter(old), Counter(new)
    once = [line for line, n in old_count.items() if n == 1 and new_count.get(line) == 1]
    old_at = dict(zip(old, range(len(old)), strict=True))
    new_at = dict(zip(new, range(len(new)), strict=True))
    pairs = sorted((old_at[line], new_at[line]) for line in once)
    tails: list[int] = []  # tails[k]: index in pairs of the smallest j ending a chain of k+1
    tail_js: list[int] = []
    back: list[int] = []
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tail_js, j)
        back.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tails.append(n)
            tail_js.append(j)
        else:
            tails[k] = n
            tail_js[k] = j
    chain: list[tuple[int, int]] = []
    n = tails[-1] if tails else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    return chain[::-1]


def _merged(blocks: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    merged: list[tuple[int, int, int]] = []
    for i, j, n in blocks:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


def _opcodes(blocks: list[tuple[int, int, int]], old_len: int, new_len: int
             ) -> list[tuple[str, int, int, int, int]]:
    """difflib's get_opcodes() for the given matching blocks."""
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for a, b, n in [*blocks, (old_len, new_len, 0)]:
        tag = "replace" if i < a and j < b else "delete" if i < a else "insert" if j < b else ""
        if tag:
            ops.append((tag, i, a, j, b))
        if n:
            ops.append(("equal", a, a + n, b, b + n))
        i, j = a + n, b + n
    return ops


def _track(ops: Sequence[tuple[str, int, int, int, int]], start: int, end: int
           ) -> tuple[int | None, tuple[int, int] | None]:
    """Follow old lines start..end through the diff (1-based, inclusive).

    Returns the new start when every line is carried unchanged and still consecutive, and the
    best new range covering whatever the lines became (None when they were all deleted).
    """
    lo, hi = start - 1, end  # old half-open
    carried: list[int] = []
    touched = False
    covered: list[tuple[int, int]] = []  # new half-open spans
    for tag, i1, i2, j1, j2 in ops:
        if i1 == i2:  # an insertion: inside the range it edits the cited text
            if lo < i1 < hi:
                touched = True
                covered.append((j1, j2))
            continue
        a, b = max(i1, lo), min(i2, hi)
        if a >= b:
            continue
        if tag == "equal":
            carried.extend(range(j1 + a - i1, j1 + b - i1))
            covered.append((j1 + a - i1, j1 + b - i1))
            continue
        touched = True
        if j1 < j2:  # the part of a replaced hunk that corresponds, proportionally
            scale = (j2 - j1) / (i2 - i1)
            na, nb = j1 + int((a - i1) * scale), j1 + round((b - i1) * scale)
            covered.append((na, max(nb, na + 1)))
    best = (min(a for a, _ in covered) + 1, max(b for _, b in covered)) if covered else None
    contiguous = carried == list(range(carried[0], carried[0] + hi - lo)) if carried else False
    if not touched and contiguous and len(carried) == hi - lo:
        return carried[0] + 1, best
    return None, best


def _similarity(block: Lines, new: Lines, best: tuple[int, int]) -> float:
    return difflib.SequenceMatcher(None, block, new[best[0] - 1 : best[1]]).ratio()


def _symbol_range(cited: Cited, block: Lines, new: Lines, best: tuple[int, int] | None
                  ) -> tuple[int, int] | None:
    """For a ``{src}`` role: the range where the symbol now is, nearest the diff's guess."""
    def text(lines: Sequence[bytes]) -> str:
        return b"\n".join(lines).decode(errors="replace")

    if best is not None and symbol_occurs(cited.symbol, text(new[best[0] - 1 : best[1]])):
        return best
    hits = [n for n, line in enumerate(new, 1) if symbol_occurs(cited.symbol, text([line]))]
    if not hits:
        return best
    anchor = best[0] if best else cited.start
    line = min(hits, key=lambda n: (abs(n - anchor), n))
    offset = next(
        (i for i, old in enumerate(block) if symbol_occurs(cited.symbol, text([old]))), 0
    )
    start = max(1, line - offset)
    return start, min(len(new), start + len(block) - 1)


def _short_diff(old: Lines, new: Lines, cited: Cited, path: str, start: int, end: int) -> str:
    lines = list(difflib.unified_diff(
        [line.decode(errors="replace") for line in old],
        [line.decode(errors="replace") for line in new],
        f"{cited.path}:{cited.start}-{cited.end}", f"{path}:{start}-{end}", n=0, lineterm="",
    ))
    if len(lines) > DIFF_LINES:
        lines = [*lines[:DIFF_LINES], f"… {len(lines) - DIFF_LINES} more diff lines"]
    return "\n".join(lines)
