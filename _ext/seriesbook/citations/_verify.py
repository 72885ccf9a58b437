"""Verify citations once everything is read: against a local copy, else against the lock.

Runs in the main process at ``env-updated`` (after ``-j`` workers merged their records), so each
source gets exactly one reader per build: every cited path of that source is requested in one
batch and each file is split into lines once. Both ways end in the same :func:`judge`, so a
citation gets the same warning text whether the lock or the local copy vouches for it.
"""

from __future__ import annotations

import hashlib
import os
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.citations import lockfile
from seriesbook.citations._data import (
    PENDING,
    SHOWN_LINES,
    VERIFIED,
    CitationRecord,
    Facts,
    FileFact,
    SourceId,
    citations_domain,
)
from seriesbook.citations._generated import generated_instead
from seriesbook.citations._parse import MAX_LINE, Citation, role_problem, unsafe_path
from seriesbook.citations._sources import Refusal, SourceCopy, SourceError, open_copy
from seriesbook.core.config import SeriesbookConfig, get_config
from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

_ELISION = re.compile(r"^(?:\.\.\.|…|//\s*(?:\.\.\.|…)|#\s*(?:\.\.\.|…))$")
Located = tuple[str, CitationRecord]


def short_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


# --- the checks -------------------------------------------------------------------------------


def symbol_occurs(symbol: str, text: str) -> bool:
    """The symbol as a whole word, or its last component (``Engine::execute`` → ``execute``)."""
    symbol = symbol.strip().removesuffix("()")
    last = re.split(r"::|\.|#|->", symbol)[-1]
    return any(_word(s).search(text) for s in (symbol, last) if s)


def _word(s: str) -> re.Pattern[str]:
    """*s* not glued to a longer identifier (``bump`` does not occur in ``bump_version``)."""
    before = r"(?<!\w)" if re.match(r"\w", s) else ""
    after = r"(?!\w)" if re.search(r"\w$", s) else ""
    return re.compile(before + re.escape(s) + after)


def _is_elision(line: str) -> bool:
    return _ELISION.match(line.strip()) is not None


def excerpt_lines(excerpt: str) -> list[str | None]:
    """The excerpt without trailing space and common indentation; None marks an elision."""
    stripped = [line.rstrip() for line in excerpt.strip("\n").split("\n")]
    dedented = textwrap.dedent("\n".join(stripped)).split("\n")
    return [None if _is_elision(line) else line for line in dedented]


def excerpt_hash(excerpt: str) -> str:
    lines = excerpt_lines(excerpt)
    return short_hash("\n".join("\0" if line is None else line for line in lines).encode())


def excerpt_matches(excerpt: str, cited: Sequence[str]) -> bool:
    """Whether the excerpt is the cited lines, up to a common indentation and elisions.

    The cited lines may carry one extra indentation prefix (the excerpt was dedented); an
    elision line matches any run of lines, so the excerpt's pieces must appear in order.
    """
    pattern = excerpt_lines(excerpt)
    lines = [line.rstrip() for line in cited]
    indents = {line[: len(line) - len(line.lstrip())] for line in lines if line.strip()}
    return any(_glob_lines(pattern, lines, indent) for indent in sorted(indents | {""}))


def _glob_lines(pattern: list[str | None], lines: list[str], indent: str) -> bool:
    def same(want: str, got: str) -> bool:
        return got == (indent + want if want else "")

    def at(piece: list[str], i: int) -> bool:
        return i + len(piece) <= len(lines) and all(
            same(w, g) for w, g in zip(piece, lines[i:], strict=False)
        )

    pieces: list[list[str]] = [[]]
    for line in pattern:
        if line is None:
            pieces.append([])
        else:
            pieces[-1].append(line)
    if len(pieces) == 1:
        return len(pieces[0]) == len(lines) and at(pieces[0], 0)
    first, *middle, last = pieces
    if not at(first, 0):
        return False
    i, end = len(first), len(lines) - len(last)
    for piece in middle:
        while i <= end - len(piece) and not at(piece, i):
            i += 1
        if i > end - len(piece):
            return False
        i += len(piece)
    return i <= end and at(last, end)


def static_problem(record: CitationRecord) -> tuple[Problem, str] | None:
    """Problems visible in the citation itself, before any source is read."""
    citation = record.citation
    if citation is None:
        return Problem.CITE_SYNTAX, role_problem(record.text)
    reason = unsafe_path(citation.path)
    if reason:
        return Problem.CITE_PATH, f"{reason}: nothing outside the source root is read"
    if max(citation.start, citation.end) > MAX_LINE:
        return Problem.CITE_LINE_RANGE, f"line numbers stop at {MAX_LINE:,}"
    if citation.start == 0:
        return Problem.CITE_LINE_RANGE, "lines are numbered from 1"
    if citation.end < citation.start:
        return Problem.CITE_LINE_RANGE, f"END {citation.end} is before START {citation.start}"
    return None


def generated_problem(
    record: CitationRecord, spec: dict[str, Any]
) -> tuple[Problem, str] | None:
    """A citation into a file the source declares generated at build time."""
    assert record.citation is not None
    instead = generated_instead(spec, record.citation.path)
    if instead is None:
        return None
    return Problem.CITE_GENERATED, (
        f"{record.citation.path} is generated at build time, not in the repository at "
        f"{spec.get('ref', '')}: cite {instead} instead"
    )


def judge(record: CitationRecord, facts: Facts) -> tuple[Problem, str] | None:
    """The citation's problem given the facts (from a local copy or the lock), or None."""
    citation = record.citation
    assert citation is not None
    where = f"{record.source} {facts.source.ref}"
    unknown = Problem.CITE_UNVERIFIED, f"the lock does not cover {citation.path} at {where}"
    if facts.file is None:
        return unknown
    if facts.file.problem == Problem.CITE_MISSING_FILE.code:
        return Problem.CITE_MISSING_FILE, f"no file {citation.path} in {where}"
    if facts.file.problem:
        return Problem.CITE_PATH, f"{citation.path} leads outside the source root (symlink)"
    if citation.end > facts.file.lines:
        return Problem.CITE_LINE_RANGE, (
            f"{citation.path} has {facts.file.lines} lines in {where}; cited {citation.lines}"
        )
    if not facts.range_hash:
        return unknown
    if citation.symbol:
        if facts.symbol_ok is None:
            return unknown
        if not facts.symbol_ok:
            return Problem.CITE_SYMBOL, (
                f"{citation.symbol!r} does not occur in {citation.path}:{citation.lines} at {where}"
            )
    if record.excerpt is not None:
        if facts.excerpt_ok is None:
            return unknown
        if not facts.excerpt_ok:
            return Problem.CITE_EXCERPT, (
                f"the excerpt differs from {citation.path}:{citation.lines} at {where}"
            )
    return None


# --- facts from a local copy or from the lock -------------------------------------------------


def split_lines(content: bytes) -> tuple[bytes, ...]:
    """A file's lines as citations count them (a final newline ends the last line)."""
    lines = content.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return tuple(lines)


@dataclass
class _FileLines:
    """A cited file split into lines once, however many citations point into it."""

    fact: FileFact
    lines: tuple[bytes, ...]

    @classmethod
    def of(cls, content: bytes) -> _FileLines:
        lines = split_lines(content)
        return cls(FileFact(len(lines), hashlib.sha256(content).hexdigest()), lines)


def facts_from_copy(
    record: CitationRecord, source: SourceId, file: _FileLines | Refusal
) -> Facts:
    citation = record.citation
    assert citation is not None
    if isinstance(file, Refusal):
        return Facts(source, FileFact(problem=file.problem.code))
    if citation.end > file.fact.lines:
        return Facts(source, file.fact)
    cited = b"\n".join(file.lines[citation.start - 1 : citation.end])
    text = cited.decode(errors="replace")
    symbol_ok = symbol_occurs(citation.symbol, text) if citation.symbol else None
    excerpt_ok = None
    if record.excerpt is not None:
        excerpt_ok = excerpt_matches(record.excerpt, text.split("\n"))
    return Facts(
        source,
        file.fact,
        short_hash(cited),
        symbol_ok,
        excerpt_hash(record.excerpt) if record.excerpt is not None else "",
        excerpt_ok,
        shown_text(file.lines[citation.start - 1 : citation.end]),
    )


def shown_text(cited: Sequence[bytes]) -> str:
    """The cited lines a preview shows (the first :data:`SHOWN_LINES`), as text."""
    return b"\n".join(cited[:SHOWN_LINES]).decode(errors="replace")


def facts_from_lock(
    record: CitationRecord, source: SourceId, locked: lockfile.LockedSource | None
) -> Facts:
    citation = record.citation
    assert citation is not None
    if locked is None or not locked.covers(source):
        return Facts(source, None)
    source = locked.identity
    file = locked.files.get(citation.path)
    range_hash = locked.ranges.get(lockfile.range_key(citation), "")
    symbol_ok = None
    if citation.symbol and range_hash:
        symbol_ok = locked.symbols.get(f"{range_hash} {citation.symbol}")
    xhash = excerpt_hash(record.excerpt) if record.excerpt is not None else ""
    excerpt_ok = locked.excerpts.get(f"{range_hash} {xhash}") if xhash and range_hash else None
    text = locked.text.get(lockfile.range_key(citation)) if range_hash else None
    return Facts(source, file, range_hash, symbol_ok, xhash, excerpt_ok, text)


def stale_reason(facts: Facts, locked: lockfile.LockedSource, citation: Citation) -> str:
    """How the lock disagrees with what the local copy says ('' when it agrees or is silent)."""
    if not locked.covers(facts.source):
        return f"the lock is for {locked.identity.ref} ({locked.identity.commit or 'no commit'})"
    file = locked.files.get(citation.path)
    if file is not None and facts.file is not None and file != facts.file:
        return f"{citation.path} changed since the lock was written"
    key = lockfile.range_key(citation)
    if key in locked.ranges and facts.range_hash and locked.ranges[key] != facts.range_hash:
        return f"{citation.path}:{citation.lines} changed since the lock was written"
    symbol = locked.symbols.get(f"{facts.range_hash} {citation.symbol}")
    excerpt = locked.excerpts.get(f"{facts.range_hash} {facts.excerpt_hash}")
    if (symbol is not None and symbol != facts.symbol_ok) or (
        excerpt is not None and excerpt != facts.excerpt_ok
    ):
        return f"the lock's result for {citation.path}:{citation.lines} differs"
    if key in locked.ranges and facts.text is not None and locked.text.get(key) != facts.text:
        if not locked.text:
            return "it keeps no cited text (written before previews)"
        return f"its text of {citation.path}:{citation.lines} differs"
    return ""


# --- one build's verification -----------------------------------------------------------------


def local_copy_path(
    name: str, spec: dict[str, str], config: SeriesbookConfig, confdir: Path
) -> Path | None:
    """``--source NAME=PATH``, else $SERIESBOOK_SOURCE_<NAME>, else the source's ``path``."""
    given = config.source_paths.get(name)
    if given:
        return Path(os.path.abspath(given))
    variable = "SERIESBOOK_SOURCE_" + re.sub(r"\W", "_", name).upper()
    if os.environ.get(variable):
        return Path(os.path.abspath(os.environ[variable]))
    if spec.get("path"):
        return confdir / spec["path"]
    return None


class Verification:
    """One build's verification: the lock read once, one reader per source, then closed."""

    def __init__(self, config: SeriesbookConfig, confdir: Path) -> None:
        self.config = config
        self.confdir = confdir
        self.conf_py = str(confdir / "conf.py")
        self.lock_file = confdir / config.lock_file
        self.lock = lockfile.read_lock(self.lock_file)

    def run(self, pending: list[Located]) -> None:
        by_source: dict[str, list[Located]] = {}
        for docname, record in pending:
            problem = static_problem(record)
            if problem is None:
                by_source.setdefault(record.source, []).append((docname, record))
            else:
                _report(docname, record, *problem)
        for name in sorted(set(self.config.source_paths) - set(self.config.sources)):
            warn(Problem.CITE_SOURCE, f"--source {name}=…: no source {name!r} in conf.py", None)
        for name in sorted(by_source):
            self._verify_source(name, by_source[name])

    def _verify_source(self, name: str, located: list[Located]) -> None:
        spec = self.config.sources.get(name)
        if spec is None:
            known = ", ".join(sorted(self.config.sources)) or "none"
            for docname, record in located:
                _report(docname, record, Problem.CITE_UNKNOWN_SOURCE,
                        f"no source named {name!r} (configured: {known})")
            return
        checkable = []
        for docname, record in located:
            problem = generated_problem(record, spec)
            if problem is None:
                checkable.append((docname, record))
            else:
                _report(docname, record, *problem)
        if not checkable:
            return
        located = checkable
        source = SourceId(spec.get("repo", ""), spec.get("ref", ""), spec.get("commit", ""))
        if not source.repo or not source.ref:
            warn(Problem.CITE_SOURCE, f"source {name!r} needs a 'repo' and a 'ref'",
                 self._conf_location(name))
        locked = self.lock.sources.get(name)
        paths = sorted({r.citation.path for _, r in located if r.citation is not None})
        files = self._read_copy(name, spec, source, paths)
        if files is None:
            for docname, record in located:
                _settle(docname, record, facts_from_lock(record, source, locked))
            return
        commit, contents = files
        source = SourceId(source.repo, source.ref, commit or source.commit)
        stale: set[str] = set()
        for docname, record in located:
            assert record.citation is not None
            facts = facts_from_copy(record, source, contents[record.citation.path])
            _settle(docname, record, facts)
            reason = stale_reason(facts, locked, record.citation) if locked else ""
            if reason and reason not in stale:
                stale.add(reason)
                warn(Problem.CITE_LOCK_STALE,
                     f"{self.config.lock_file} is stale for {name}: {reason}; "
                     "run `seriesbook lock` with the local copy",
                     (docname, record.line))

    def _conf_location(self, name: str) -> str | None:
        """The line of conf.py that names the source, if there is one."""
        try:
            lines = Path(self.conf_py).read_text(encoding="utf-8").splitlines()
        except OSError:
            return None
        quoted = (f'"{name}"', f"'{name}'")
        found = (n for n, line in enumerate(lines, 1) if any(q in line for q in quoted))
        line = next(found, None)
        return f"{self.conf_py}:{line}" if line else None

    def _read_copy(
        self, name: str, spec: dict[str, str], source: SourceId, paths: list[str]
    ) -> tuple[str, dict[str, _FileLines | Refusal]] | None:
        """The cited files from the local copy, each split once; None without a usable copy."""
        root = local_copy_path(name, spec, self.config, self.confdir)
        if root is None:
            return None
        copy: SourceCopy | None = None
        try:
            copy = open_copy(root, source.ref, source.commit)
            raw = copy.read_all(paths)
        except SourceError as error:
            warn(Problem.CITE_SOURCE, f"source {name!r}: {error}", self._conf_location(name))
            return None
        finally:
            if copy is not None:
                copy.close()
        files = {
            path: content if isinstance(content, Refusal) else _FileLines.of(content)
            for path, content in raw.items()
        }
        return copy.commit, files


def _settle(docname: str, record: CitationRecord, facts: Facts) -> None:
    record.facts = facts
    problem = judge(record, facts)
    if problem is None:
        record.status = VERIFIED
    else:
        _report(docname, record, *problem)


def _report(docname: str, record: CitationRecord, problem: Problem, reason: str) -> None:
    record.status = problem.code
    warn(problem, f"`{record.text}`: {reason}", (docname, record.line))


def verify_pending(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: verify the citations read in this build (earlier ones keep results)."""
    pending = [(d, r) for d, r in citations_domain(env).all_records() if r.status == PENDING]
    if not pending:
        return
    verification = Verification(get_config(app.config), Path(app.confdir))
    verification.run(pending)
    if verification.lock_file.is_file():  # a new lock re-verifies; a missing one would re-read
        for docname in {docname for docname, _ in pending}:
            env.note_dependency(verification.lock_file, docname=docname)
