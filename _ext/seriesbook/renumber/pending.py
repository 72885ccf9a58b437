"""Mentions a renumbering left naming another section, kept until the author edits them.

Deleting §1.1 and renumbering makes the old §1.2 the new §1.1: a mention of the deleted §1.1 is
left as written (only the author knows what it should say), and would from then on link, without
a word, to the section that is now §1.1. So ``seriesbook renumber --write`` records each such
mention in the entry it appends to ``seriesbook-renumbered.json`` — its file (relative to
``conf.py``'s directory), line, number and the whole line as written after the rewrite — and the
mention stays *pending* as long as its file still has that line, wherever it moved:

* every later ``seriesbook renumber`` reports it (``pending``) and exits 1;
* the build and ``seriesbook check`` report it as ``sec-stale`` at its line;
* a later ``--write`` carries the pending mentions still there into its own entry (their lines
  as rewritten), so renumbering again never forgets one.

Editing the line (naming the section meant, or removing the mention) ends it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from seriesbook.rewrite import LINE_END, PlanError, read_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


@dataclass(frozen=True)
class Pending:
    """A mention recorded by a renumbering: where, which number, and its line as written."""

    file: str  #: POSIX path relative to conf.py's directory
    line: int
    number: str
    text: str  #: the whole line, without its line ending
    since: str = ""  #: the release or date of the renumbering that left it

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "number": self.number, "text": self.text}


def label(key: str) -> str:
    """A mention's key as the reports say it: ``§1.2``, or ``chapter 3`` for ``ch:3``."""
    return f"chapter {key[3:]}" if key.startswith("ch:") else f"§{key}"


def lines_of(text: str) -> list[str]:
    """A file's lines as Markdown reads them (``\\r\\n``, ``\\r``, ``\\n``), endings dropped."""
    return LINE_END.split(text)


def recorded(data: Mapping[str, Any]) -> list[Pending]:
    """Every pending mention the history records (malformed items are skipped), once each."""
    found: dict[tuple[str, str, str], Pending] = {}
    for entry in data.get("renumberings", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("pending"), list):
            continue
        since = str(entry.get("release") or entry.get("date") or "")
        for item in entry["pending"]:
            try:
                pending = Pending(str(item["file"]), int(item["line"]), str(item["number"]),
                                  str(item["text"]), since)
            except (KeyError, TypeError, ValueError):
                continue
            found[(pending.file, pending.number, pending.text)] = pending
    return list(found.values())


def still_there(root: Path, items: Iterable[Pending]) -> list[tuple[Pending, Path, int]]:
    """The recorded mentions whose line is still in their file: ``(item, path, line now)``,
    the recorded line when it still reads the same, else the nearest line that does."""
    texts: dict[Path, list[str] | None] = {}
    found: list[tuple[Pending, Path, int]] = []
    for item in items:
        path = root / PurePosixPath(item.file)
        if path not in texts:
            try:
                texts[path] = lines_of(read_text(path)) if path.is_file() else None
            except PlanError:
                texts[path] = None
        lines = texts[path]
        if lines is None:
            continue
        at = [n for n, line in enumerate(lines, 1) if line == item.text]
        if at:
            found.append((item, path, min(at, key=lambda n: (abs(n - item.line), n))))
    return sorted(found, key=lambda f: (str(f[1]), f[2]))


def digest(root: Path, data: Mapping[str, Any]) -> str:
    """What the pending mentions are, for noticing in an incremental build that they changed."""
    return hashlib.sha256(json.dumps(
        sorted(p.as_json() | {"since": p.since} for p in recorded(data)),
        sort_keys=True, default=str).encode()).hexdigest() if data else ""


def carried(
    root: Path,
    items: Iterable[tuple[Path, int, str]],
    new_texts: Mapping[Path, str],
    mapping: Mapping[str, str],
) -> list[dict[str, Any]]:
    """The entries to record for mentions ``(path, line, number)`` after the rewrite: their
    line as the new texts have it (renumbering keeps every line where it was) and their number
    as renumbered (a pending mention of a number that moves follows it)."""
    out: dict[tuple[str, int, str], dict[str, Any]] = {}
    for path, line, number in items:
        try:
            text = new_texts[path] if path in new_texts else read_text(path)
        except PlanError:
            continue
        lines = lines_of(text)
        if not 0 < line <= len(lines):
            continue
        try:
            shown = PurePosixPath(path.relative_to(root)).as_posix()
        except ValueError:
            shown = path.as_posix()
        number = mapping.get(number, number)
        out[(shown, line, number)] = {"file": shown, "line": line, "number": number,
                                      "text": lines[line - 1]}
    return list(out.values())
