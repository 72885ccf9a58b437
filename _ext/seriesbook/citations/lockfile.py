"""The citation lock: what a local copy said about every citation, so builds can verify offline.

``seriesbook lock --source pytorch=PATH`` writes it (``seriesbook_lock_file``, default
``citations.lock.json`` next to conf.py). It is JSON with sorted keys, byte-identical for the
same book and sources, and small: per source the release it describes (repo, ref, commit), and

* ``files``: each cited path → ``{"lines": N, "sha256": …}`` or ``{"problem": code}``;
* ``ranges``: ``path:START-END`` → hash of the cited lines;
* ``symbols``: ``"<range hash> <symbol>"`` → whether the symbol occurs in those lines;
* ``excerpts``: ``"<range hash> <excerpt hash>"`` → whether the excerpt matches them;
* ``text``: ``path:START-END`` → the first cited lines (at most 12), the text link previews
  show, so a build without the source (CI, Read the Docs) previews exactly the same bytes.
  A lock without it (older) is read as it is: those citations verify, unpreviewed.

A lock only vouches for the release it names.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from seriesbook.citations._data import CitationRecord, FileFact, SourceId, citations_domain
from seriesbook.core.config import get_config
from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from seriesbook.citations._parse import Citation

FORMAT = 1


def range_key(citation: Citation) -> str:
    return f"{citation.path}:{citation.start}-{citation.end}"


@dataclass
class LockedSource:
    """The lock's facts about one source at one release."""

    identity: SourceId
    files: dict[str, FileFact] = field(default_factory=dict)
    ranges: dict[str, str] = field(default_factory=dict)
    symbols: dict[str, bool] = field(default_factory=dict)
    excerpts: dict[str, bool] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)

    def covers(self, source: SourceId) -> bool:
        """Same repository and ref, and commits that agree as far as both are known."""
        mine, theirs = self.identity.commit, source.commit
        return (
            (self.identity.repo, self.identity.ref) == (source.repo, source.ref)
            and (mine.startswith(theirs) or theirs.startswith(mine))
        )

    def to_json(self) -> dict[str, Any]:
        return {
            **asdict(self.identity),
            "files": {path: _file_json(fact) for path, fact in self.files.items()},
            "ranges": self.ranges,
            "symbols": self.symbols,
            "excerpts": self.excerpts,
            "text": self.text,
        }

    @classmethod
    def from_json(cls, data: object) -> LockedSource:
        """The source's entry as the lock has it; :class:`LockError` names a wrong shape."""
        entry = _mapping(data, "the source entry", "")
        return cls(
            SourceId(*(_typed(entry.get(k), str, k, k) for k in ("repo", "ref", "commit"))),
            {path: _file_fact(path, fact) for path, fact in _field(entry, "files").items()},
            {k: _typed(v, str, f"ranges[{k!r}]", k) for k, v in _field(entry, "ranges").items()},
            {k: _typed(v, bool, f"symbols[{k!r}]", k) for k, v in _field(entry, "symbols").items()},
            {k: _typed(v, bool, f"excerpts[{k!r}]", k)
             for k, v in _field(entry, "excerpts").items()},
            {k: _typed(v, str, f"text[{k!r}]", k)
             for k, v in _field(entry, "text", optional=True).items()},
        )


class LockError(ValueError):
    """A lock entry of the wrong shape; ``key`` is written on the line to report."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


_T = TypeVar("_T")


def _typed(value: object, kind: type[_T], what: str, key: str) -> _T:
    # bool is an int to Python; a line count of `true` is as wrong as one of "many"
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LockError(f"{what} is {json.dumps(value)}, not {_KIND_NAMES[kind]}", key)
    return value


_KIND_NAMES: dict[type, str] = {str: "a string", bool: "true or false", int: "a line count"}


def _mapping(value: object, what: str, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LockError(f"{what} is {json.dumps(value)}, not an object", key)
    return value


def _field(entry: dict[str, Any], name: str, *, optional: bool = False) -> dict[str, Any]:
    if optional and name not in entry:
        return {}
    return _mapping(entry.get(name), repr(name), name)


def _file_fact(path: str, fact: object) -> FileFact:
    """``{"lines": N, "sha256": …}`` or ``{"problem": code}``, as :func:`_file_json` writes."""
    what = f"files[{path!r}]"
    entry = _mapping(fact, what, path)
    if set(entry) == {"problem"}:
        problem = _typed(entry["problem"], str, f"{what}['problem']", path)
        if problem not in _FILE_PROBLEMS:
            raise LockError(f"{what}['problem'] is {problem!r}, not one of {_FILE_PROBLEMS}", path)
        return FileFact(problem=problem)
    if set(entry) != {"lines", "sha256"}:
        raise LockError(f'{what} should be {{"lines": N, "sha256": …}} or {{"problem": …}}', path)
    lines = _typed(entry["lines"], int, f"{what}['lines']", path)
    if lines < 0:
        raise LockError(f"{what}['lines'] is {lines}, not a line count", path)
    return FileFact(lines, _typed(entry["sha256"], str, f"{what}['sha256']", path))


_FILE_PROBLEMS = (Problem.CITE_MISSING_FILE.code, Problem.CITE_PATH.code)


def _file_json(fact: FileFact) -> dict[str, Any]:
    if fact.problem:
        return {"problem": fact.problem}
    return {"lines": fact.lines, "sha256": fact.sha256}


@dataclass
class Lock:
    sources: dict[str, LockedSource] = field(default_factory=dict)

    def dumps(self) -> str:
        data = {
            "format": FORMAT,
            "sources": {name: locked.to_json() for name, locked in self.sources.items()},
        }
        return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def lock_path(app: Sphinx) -> Path:
    return Path(app.confdir) / get_config(app.config).lock_file


def read_lock(path: Path) -> Lock:
    """The lock at *path*; empty when there is none.

    An unreadable lock, or a source entry of the wrong shape (a hand edit), is a ``cite-lock``
    problem at its line and is ignored: the build goes on, those citations unverified.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Lock()
    except (OSError, UnicodeDecodeError) as error:
        _ignored(path, 1, f"unreadable citation lock ({error}); ignored")
        return Lock()
    try:
        data = _mapping(json.loads(text), "the lock", "")
        if data.get("format") != FORMAT:
            raise LockError(f"format {json.dumps(data.get('format'))}, expected {FORMAT}", "format")
        sources = _field(data, "sources")
    except json.JSONDecodeError as error:
        _ignored(path, error.lineno, f"unreadable citation lock (not JSON: {error.msg}); ignored")
        return Lock()
    except LockError as error:
        _ignored(path, _line_of(text, error.key), f"unreadable citation lock ({error}); ignored")
        return Lock()
    lock = Lock()
    for name, entry in sources.items():
        try:
            lock.sources[name] = LockedSource.from_json(entry)
        except LockError as error:
            line = _line_of(text, error.key, after=_line_of(text, name))
            _ignored(path, line, f"source {name!r} of the citation lock: {error}; that source's "
                     "entry is ignored (`seriesbook lock` rewrites it)")
    return lock


def _ignored(path: Path, line: int, message: str) -> None:
    warn(Problem.CITE_LOCK, message, f"{path}:{line}")


def _line_of(text: str, key: str, after: int = 1) -> int:
    """The first line, from line *after* on, where *key* is written as a JSON key (else *after*)."""
    lines = text.splitlines()
    written = (json.dumps(key) + ":", json.dumps(key, ensure_ascii=False) + ":")
    if key:
        for number in range(after, len(lines) + 1):
            if any(w in lines[number - 1] for w in written):
                return number
    return after


def build_lock(app: Sphinx) -> Lock:
    """The lock for the citations the build verified (from a local copy or the old lock)."""
    lock = Lock()
    for _, record in citations_domain(app.env).all_records():
        add_to_lock(lock, record)
    return lock


def add_to_lock(lock: Lock, record: CitationRecord) -> None:
    """Record what verifying *record* found (nothing, when it could not be checked)."""
    facts, citation = record.facts, record.citation
    if facts is None or facts.file is None or citation is None:
        return
    locked = lock.sources.setdefault(record.source, LockedSource(facts.source))
    locked.files[citation.path] = facts.file
    if facts.range_hash:
        locked.ranges[range_key(citation)] = facts.range_hash
    if facts.symbol_ok is not None:
        locked.symbols[f"{facts.range_hash} {citation.symbol}"] = facts.symbol_ok
    if facts.excerpt_ok is not None:
        locked.excerpts[f"{facts.range_hash} {facts.excerpt_hash}"] = facts.excerpt_ok
    if facts.text is not None:
        locked.text[range_key(citation)] = facts.text


def write_lock(app: Sphinx) -> Path:
    """Write the lock of a finished read (``seriesbook lock``); untouched when unchanged."""
    path = lock_path(app)
    text = build_lock(app).dumps()
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
