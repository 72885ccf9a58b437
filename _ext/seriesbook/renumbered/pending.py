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

What a renumbering could not rewrite and left for the author is kept the same way, with the
reason ``hand``: a mention not written as the build reads it (``§3\\.1``), a catalog message
shared by texts that renumber differently, a link to a § whose anchor is written otherwise. Its
text is the whole paragraph or catalog entry (up to the next blank line), so editing any of it
ends it, and until then renumber exits 1 and the build and ``check`` report it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.core.lines import LINE_END
from seriesbook.core.problems import Problem, warn
from seriesbook.renumbered.history import HISTORY_FILE, history_path

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


@dataclass(frozen=True)
class Pending:
    """A mention recorded by a renumbering: where, which number, and its line as written."""

    file: str  #: POSIX path relative to conf.py's directory
    line: int
    number: str
    text: str  #: the whole line (lines, for a paragraph or entry), without line endings
    since: str = ""  #: the release or date of the renumbering that left it
    reason: str = ""  #: ``hand``: left for a hand edit; else it names a deleted section

    def as_json(self) -> dict[str, Any]:
        data = {"file": self.file, "line": self.line, "number": self.number, "text": self.text}
        return data | ({"reason": self.reason} if self.reason else {})


#: The reason of what a renumbering could not rewrite and left for the author.
BY_HAND = "hand"
#: What is recorded of a mention: (file, first line, number, how many lines, reason).
Left = tuple[Path, int, str, int, str]


def read_history(path: Path) -> dict[str, Any]:
    """The history file as written (every key and entry, known or not); {} when absent.

    Raises ``ValueError`` (not UTF-8, not JSON, not ``{"renumberings": [...]}``) or ``OSError``.
    """
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if not isinstance(data, dict) or not isinstance(data.get("renumberings", []), list):
        raise ValueError('expected {"renumberings": [...]}')
    return data


def label(key: str) -> str:
    """A mention's key as the reports say it: ``§1.2``, or ``chapter 3`` for ``ch:3``."""
    return f"chapter {key[3:]}" if key.startswith("ch:") else f"§{key}"


def _read(path: Path) -> str | None:
    """A file's text as stored (line endings kept); None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError):
        return None


def lines_of(text: str) -> list[str]:
    """A file's lines as Markdown reads them (``\\r\\n``, ``\\r``, ``\\n``), endings dropped."""
    return LINE_END.split(text)


def recorded(data: Mapping[str, Any]) -> list[Pending]:
    """Every pending mention the history records (malformed items are skipped), once each.

    A ``--write`` records again the earlier mentions still pending, at their lines as rewritten,
    so one mention can stand in several entries: per (file, number, line text), the entry that
    records the most of them (the latest on a tie) is the one read. Two mentions on lines that
    read the same are two mentions.
    """
    best: dict[tuple[str, str, str], list[Pending]] = {}
    for entry in data.get("renumberings", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("pending"), list):
            continue
        since = str(entry.get("release") or entry.get("date") or "")
        group: dict[tuple[str, str, str], list[Pending]] = {}
        for item in entry["pending"]:
            try:
                pending = Pending(str(item["file"]), int(item["line"]), str(item["number"]),
                                  str(item["text"]), since, str(item.get("reason") or ""))
            except (KeyError, TypeError, ValueError):
                continue
            group.setdefault((pending.file, pending.number, pending.text), []).append(pending)
        for key, items in group.items():
            if len(items) >= len(best.get(key, [])):
                best[key] = items
    return [item for items in best.values() for item in items]


def still_there(root: Path, items: Iterable[Pending]) -> list[tuple[Pending, Path, int]]:
    """The recorded mentions whose line is still in their file: ``(item, path, line now)``,
    the recorded line when it still reads the same, else the nearest line that does."""
    texts: dict[Path, list[str] | None] = {}
    taken: dict[Path, set[int]] = {}  # a line answers for one recorded mention only
    found: list[tuple[Pending, Path, int]] = []
    for item in sorted(items, key=lambda item: (item.file, item.line)):
        path = root / PurePosixPath(item.file)
        if path not in texts:
            text = _read(path) if path.is_file() else None
            texts[path] = None if text is None else lines_of(text)
        lines = texts[path]
        if lines is None:
            continue
        used = taken.setdefault(path, set())
        block = item.text.split("\n")
        at = [n for n in range(1, len(lines) - len(block) + 2)
              if lines[n - 1:n - 1 + len(block)] == block and n not in used]
        if at:
            nearest = min(at, key=lambda n: (abs(n - item.line), n))
            used.add(nearest)
            found.append((item, path, nearest))
    return sorted(found, key=lambda f: (str(f[1]), f[2]))


def paragraph_lines(text: str, line: int) -> int:
    """How many lines the paragraph (or catalog entry) starting at *line* has: up to the next
    blank line."""
    lines = lines_of(text)
    end = line
    while end < len(lines) and lines[end].strip():
        end += 1
    return max(end - line + 1, 1)


def carried(
    root: Path,
    items: Iterable[Left],
    new_texts: Mapping[Path, str],
    mapping: Mapping[str, str],
) -> list[dict[str, Any]]:
    """The entries to record for mentions ``(path, line, number, lines, reason)`` after the
    rewrite: their lines as the new texts have them (renumbering keeps every line where it
    was) and, for one naming a deleted section, its number as renumbered (a pending mention of
    a number that moves follows it; one left for a hand edit was not rewritten)."""
    out: dict[tuple[str, int, str], dict[str, Any]] = {}
    for path, line, number, count, reason in items:
        text = new_texts[path] if path in new_texts else _read(path)
        if text is None:
            continue
        lines = lines_of(text)
        if not 0 < line <= len(lines):
            continue
        try:
            shown = PurePosixPath(path.relative_to(root)).as_posix()
        except ValueError:
            shown = path.as_posix()
        number = number if reason else mapping.get(number, number)
        entry = {"file": shown, "line": line, "number": number,
                 "text": "\n".join(lines[line - 1:line - 1 + count])}
        out[(shown, line, number)] = entry | ({"reason": reason} if reason else {})
    return list(out.values())


def pending_message(item: Pending) -> str:
    """What the build, ``check`` and renumber say of a recorded mention."""
    if item.reason == BY_HAND:
        return (f"renumbering the book ({item.since}) left this for a hand edit: a § number "
                f"here could not be rewritten as written; check it against the sections' new "
                f"numbers and edit it ({HISTORY_FILE} keeps this until these lines are edited)")
    return (f"{label(item.number)} here named a section or chapter that was deleted when the "
            f"book was renumbered ({item.since}); {label(item.number)} is now another one: "
            f"name the one meant, or remove the mention ({HISTORY_FILE} keeps this until the "
            "line is edited)")


def _recorded_pending(app: Sphinx) -> list[Pending]:
    """The history's pending mentions; none when the file is absent or broken (renumber says
    what is wrong with it)."""
    try:
        return recorded(read_history(history_path(app)))
    except (ValueError, OSError):  # broken: renumber says what is wrong with it
        return []


def warn_pending(app: Sphinx, doctree: nodes.document) -> None:
    """``sec-stale`` at each mention of this page a renumbering left naming another section."""
    items = _recorded_pending(app)
    if not items:
        return
    docname = app.env.docname
    source = Path(app.env.doc2path(docname)).resolve()
    confdir = Path(app.confdir)
    mine = [i for i in items if (confdir / i.file).resolve() == source]
    for item, _, line in still_there(confdir, mine):
        warn(Problem.SEC_STALE, pending_message(item), (docname, line))


def warn_pending_catalogs(app: Sphinx, env: BuildEnvironment) -> None:
    """``sec-stale`` at each pending mention of a catalog (no page is read from a ``.po``, so
    they are checked with the book's consistency, on every build and check)."""
    confdir = Path(app.confdir)
    pages = {Path(env.doc2path(d)).resolve() for d in env.found_docs}
    items = [i for i in _recorded_pending(app) if (confdir / i.file).resolve() not in pages]
    for item, path, line in still_there(confdir, items):
        warn(Problem.SEC_STALE, pending_message(item), f"{path}:{line}")


def _outdated_pending(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages to read again because the pending mentions changed (a renumbering was written)."""
    items = _recorded_pending(app)
    confdir = Path(app.confdir)
    now = sorted({i.file for i in items})
    stamp = (sorted(str(i) for i in items), now)
    before = getattr(env, "seriesbook_pending", None)
    env.seriesbook_pending = stamp  # type: ignore[attr-defined]
    if before is None or before == stamp:
        return []
    files = {(confdir / f).resolve() for f in set(now) | set(before[1])}
    return [d for d in env.found_docs if Path(env.doc2path(d)).resolve() in files]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("doctree-read", warn_pending)
    app.connect("env-get-outdated", _outdated_pending)
    app.connect("env-check-consistency", warn_pending_catalogs)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
