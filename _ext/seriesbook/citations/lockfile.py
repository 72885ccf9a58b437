"""The citation lock: what a local copy said about every citation, so builds can verify offline.

``seriesbook lock --source pytorch=PATH`` writes it (``seriesbook_lock_file``, default
``citations.lock.json`` next to conf.py). It is JSON with sorted keys, byte-identical for the
same book and sources, and small: per source the release it describes (repo, ref, commit), and

* ``files``: each cited path → ``{"lines": N, "sha256": …}`` or ``{"problem": code}``;
* ``ranges``: ``path:START-END`` → hash of the cited lines;
* ``symbols``: ``"<range hash> <symbol>"`` → whether the symbol occurs in those lines;
* ``excerpts``: ``"<range hash> <excerpt hash>"`` → whether the excerpt matches them.

No source text is stored. A lock only vouches for the release it names.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.citations._data import CitationRecord, FileFact, SourceId, citations_domain
from seriesbook.config import get_config
from seriesbook.problems import Problem, warn

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
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LockedSource:
        return cls(
            SourceId(str(data["repo"]), str(data["ref"]), str(data["commit"])),
            {path: FileFact(**fact) for path, fact in data["files"].items()},
            {str(k): str(v) for k, v in data["ranges"].items()},
            {str(k): bool(v) for k, v in data["symbols"].items()},
            {str(k): bool(v) for k, v in data["excerpts"].items()},
        )


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
    """The lock at *path*; empty when there is none, and reported when it is unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT}")
        return Lock({n: LockedSource.from_json(s) for n, s in data["sources"].items()})
    except FileNotFoundError:
        return Lock()
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        line = error.lineno if isinstance(error, json.JSONDecodeError) else 1
        message = f"unreadable citation lock ({error}); ignored"
        warn(Problem.CITE_LOCK_STALE, message, f"{path}:{line}")
        return Lock()


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


def write_lock(app: Sphinx) -> Path:
    """Write the lock of a finished read (``seriesbook lock``); untouched when unchanged."""
    path = lock_path(app)
    text = build_lock(app).dumps()
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
