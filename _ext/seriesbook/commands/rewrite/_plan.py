"""Edits as data: plan them all, check them, then write every file at once or none.

A :class:`Plan` holds :class:`Edit` records (a span of a file's text and what replaces it).
Nothing touches the disk until :meth:`Plan.apply`, which first checks every edit against the
file as it is (the file is the text the plan read, no two edits overlap), builds every new file
text in memory and writes them all in one step with :mod:`._write` (symbolic links followed,
temporary files beside the targets, each target read again just before it is replaced, every
file put back if any move fails).
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from seriesbook.commands.rewrite._files import PlanError as PlanError
from seriesbook.commands.rewrite._files import read_text as read_text
from seriesbook.commands.rewrite._write import Transaction, write_all
from seriesbook.core.lines import LINE_END


def line_end(text: str, start: int) -> int:
    """Where the line starting at *start* ends (before its line break; the end of *text*)."""
    match = LINE_END.search(text, start)
    return match.start() if match else len(text)


def line_of(text: str, offset: int) -> int:
    """The 1-based line of character *offset* in *text*."""
    return bisect.bisect_right(_line_starts(text), offset)


@lru_cache(maxsize=32)
def _line_starts(text: str) -> list[int]:
    """Where each line starts, lines ended as MyST's markdown-it (and Python) end them:
    ``\r\n``, ``\r`` or ``\n`` (never ``\x0c``, ``\x85`` or U+2028, which docutils' own
    ``splitlines`` would also split at), so a block's line is the line markdown-it gave it."""
    return [0] + [match.end() for match in LINE_END.finditer(text)]


def line_start(text: str, line: int) -> int:
    """The offset where 1-based *line* starts (the end of *text* past its last line)."""
    starts = _line_starts(text)
    return starts[line - 1] if 0 < line <= len(starts) else len(text)


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``text[start:end]`` (which must read *old*) of *path* by *new*.

    Offsets count characters of the decoded file text; *line* is where *start* is (1-based).
    """

    path: Path
    start: int
    end: int
    old: str
    new: str
    line: int

    def as_json(self, root: Path | None = None) -> dict[str, Any]:
        return {"file": shown(self.path, root), "line": self.line, "old": self.old,
                "new": self.new}

    def as_text(self, root: Path | None = None) -> str:
        return f"{shown(self.path, root)}:{self.line}: {self.old} → {self.new}"


def shown(path: Path, root: Path | None) -> str:
    """*path* as reports show it: relative to *root* where it is inside."""
    if root is not None:
        try:
            return str(path.relative_to(root))
        except ValueError:
            pass
    return str(path)


@dataclass
class Plan:
    """Every edit to make, across files; texts are read once and cached."""

    edits: list[Edit] = field(default_factory=list)
    texts: dict[Path, str] = field(default_factory=dict)
    _planned: set[Edit] = field(default_factory=set, repr=False)
    _on_disk: dict[Path, str] = field(default_factory=dict, repr=False)

    def text(self, path: Path) -> str:
        """The current text of *path* (read once)."""
        path = Path(path)
        if path not in self.texts:
            self.texts[path] = read_text(path)
        return self.texts[path]

    def replace(self, path: Path, start: int, end: int, new: str) -> Edit | None:
        """Plan replacing ``[start, end)`` of *path* by *new*; None when it already reads *new*."""
        path = Path(path)
        text = self.text(path)
        if not 0 <= start <= end <= len(text):
            raise PlanError(f"{path}: span {start}-{end} is outside the file")
        old = text[start:end]
        if old == new:
            return None
        edit = Edit(path, start, end, old, new, line_of(text, start))
        if edit not in self._planned:
            self._planned.add(edit)
            self.edits.append(edit)
        return edit

    def files(self) -> list[Path]:
        return sorted({edit.path for edit in self.edits})

    def sorted_edits(self) -> list[Edit]:
        return sorted(self.edits)

    def _aliases(self) -> dict[Path, Path]:
        """Each edited path → the path naming its file in reports and new texts: the first of
        the paths (symbolic links followed) that name the same file."""
        first: dict[Path, Path] = {}
        alias: dict[Path, Path] = {}
        for path in self.files():
            alias[path] = first.setdefault(Path(os.path.realpath(path)), path)
        return alias

    def check(self) -> dict[Path, str]:
        """Every edit still matches its file and no two edits of a file overlap; the edited
        files' texts as they are now, each read once (keyed by the path naming the file: one
        file reached through a symbolic link and its target gets both paths' edits once)."""
        alias = self._aliases()
        previous: Edit | None = None
        on_disk: dict[Path, str] = {}
        for edit in self._merged(alias):
            if edit.path not in on_disk:
                on_disk[edit.path] = read_text(edit.path)
            text = on_disk[edit.path]
            read = self.texts.get(edit.path)
            if read is not None and text != read and text[edit.start:edit.end] == edit.old:
                raise PlanError(f"{edit.path}: the file changed since it was read")
            if text[edit.start:edit.end] != edit.old:
                raise PlanError(
                    f"{edit.path}:{edit.line}: expected {edit.old!r}, found "
                    f"{text[edit.start:edit.end]!r} (the file changed since it was read)"
                )
            if previous is not None and previous.path == edit.path and edit.start < previous.end:
                raise PlanError(
                    f"{edit.path}:{edit.line}: overlapping edits {previous.old!r} → "
                    f"{previous.new!r} and {edit.old!r} → {edit.new!r}"
                )
            previous = edit
        self._on_disk = on_disk
        return on_disk

    def _merged(self, alias: dict[Path, Path]) -> list[Edit]:
        """The edits by the path naming their file, the same edit made through two paths once."""
        return sorted({
            Edit(alias[e.path], e.start, e.end, e.old, e.new, e.line) for e in self.edits
        })

    def new_texts(self) -> dict[Path, str]:
        """The text every edited file will have, built in memory (after :meth:`check`)."""
        on_disk = self.check()
        pieces: dict[Path, list[str]] = {path: [] for path in on_disk}
        position: dict[Path, int] = dict.fromkeys(on_disk, 0)
        for edit in self._merged(self._aliases()):  # in order within each file
            pieces[edit.path] += [on_disk[edit.path][position[edit.path]:edit.start], edit.new]
            position[edit.path] = edit.end
        return {
            path: "".join(pieces[path]) + on_disk[path][position[path]:]
            for path in sorted(on_disk)
        }

    def apply(
        self,
        whole: dict[Path, str] | None = None,
        new: dict[Path, str] | None = None,
        then: Callable[[Transaction], None] | None = None,
    ) -> list[Path]:
        """Write every edited file in one all-or-nothing step; return the files written.

        *whole* are files (new or not) written entirely, in the same step; *new* are the edited
        files' texts when the caller has built (and verified) them already. *then*, if given,
        runs once the files are in place and may write more through the transaction (the
        citation lock, read from the rewritten book); if it fails, every file is put back.
        The rules (symbolic links, checks, roll back, one-line errors) are :mod:`._write`'s.
        """
        texts = self.new_texts() if new is None else new
        expected: dict[Path, str | None] = {
            path: text for path, text in self._on_disk.items() if path in texts
        }
        transaction = write_all(texts | dict(whole or {}), expected)
        if then is not None:
            transaction.run(lambda: then(transaction))
        written = list(texts) + [p for p in whole or {} if p not in texts]
        self.texts = {p: t for p, t in self.texts.items() if p not in texts}
        return written
