"""Edits as data: plan them all, check them, then write every file at once or none.

A :class:`Plan` holds :class:`Edit` records (a span of a file's text and what replaces it).
Nothing touches the disk until :meth:`Plan.apply`, which first checks every edit against the
file as it is (the old text is there, no two edits overlap), builds every new file text in
memory, writes each to a temporary file beside it and only then moves them all into place with
``os.replace``; a failure before the moves leaves every file as it was.
"""

from __future__ import annotations

import bisect
import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from seriesbook.commands.stops import UsageError


class PlanError(UsageError):
    """An edit that cannot be made as planned (stale old text, overlap, a file that cannot be
    read): nothing is written, and the command stops with one line (exit status 2)."""


def read_text(path: Path) -> str:
    """A file's text exactly as stored: UTF-8, line endings kept (no newline translation)."""
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError) as error:
        raise PlanError(f"{path}: cannot be read as UTF-8 text ({error})") from None


def line_of(text: str, offset: int) -> int:
    """The 1-based line of character *offset* in *text*."""
    return bisect.bisect_right(_line_starts(text), offset)


@lru_cache(maxsize=32)
def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in re.finditer("\n", text)]


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

    def check(self) -> dict[Path, str]:
        """Every edit still matches its file and no two edits of a file overlap; the edited
        files' texts as they are now, each read once."""
        previous: Edit | None = None
        on_disk: dict[Path, str] = {}
        for edit in self.sorted_edits():
            if edit.path not in on_disk:
                on_disk[edit.path] = read_text(edit.path)
            text = on_disk[edit.path]
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
        return on_disk

    def new_texts(self) -> dict[Path, str]:
        """The text every edited file will have, built in memory (after :meth:`check`)."""
        on_disk = self.check()
        pieces: dict[Path, list[str]] = {path: [] for path in on_disk}
        position: dict[Path, int] = dict.fromkeys(on_disk, 0)
        for edit in self.sorted_edits():  # in order within each file
            pieces[edit.path] += [on_disk[edit.path][position[edit.path]:edit.start], edit.new]
            position[edit.path] = edit.end
        return {
            path: "".join(pieces[path]) + on_disk[path][position[path]:]
            for path in sorted(on_disk)
        }

    def apply(
        self, whole: dict[Path, str] | None = None, new: dict[Path, str] | None = None
    ) -> list[Path]:
        """Write every edited file atomically, all or nothing; return the files written.

        *whole* are files (new or not) written entirely, in the same all-or-nothing step; *new*
        are the edited files' texts when the caller has built (and verified) them already.
        """
        new = (self.new_texts() if new is None else new) | dict(whole or {})
        staged: list[tuple[Path, str]] = []
        try:
            for path, text in new.items():
                handle, temporary = tempfile.mkstemp(
                    prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
                )
                staged.append((path, temporary))
                with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                    stream.write(text)
                if path.exists():
                    os.chmod(temporary, path.stat().st_mode & 0o7777)
        except BaseException:
            for _, temporary in staged:
                Path(temporary).unlink(missing_ok=True)
            raise
        for path, temporary in staged:
            os.replace(temporary, path)
        self.texts = {p: t for p, t in self.texts.items() if p not in new}
        return list(new)
