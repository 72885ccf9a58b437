"""Reading the author's files, and the one error every rewrite stops with.

Shared by the plan (:mod:`._plan`) and the write step (:mod:`._write`), which must not import
each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook.commands.stops import UsageError

if TYPE_CHECKING:
    from pathlib import Path


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
