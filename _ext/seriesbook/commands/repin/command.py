"""The ``seriesbook repin`` command: map every citation of a source to a new release, report,
and with ``--write`` rewrite sources, catalogs, ``conf.py`` and the lock in one step.

Exit status: 0 nothing to do (or everything written, nothing to review), 1 citations would move
or need review, 2 usage error (one line).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.citations import SourceError, citations_domain, is_git_repository, local_copy_path
from seriesbook.citations.lockfile import build_lock, lock_path
from seriesbook.commands.reading import UsageError, read_book, read_pages
from seriesbook.commands.repin._book import Written, in_source, read_in_messages
from seriesbook.commands.repin._map import Mapper, Status
from seriesbook.commands.repin._rewrites import BookRepin, Key, key_of
from seriesbook.commands.repin._trees import TreePair, open_pair
from seriesbook.commands.rewrite import (
    Plan,
    Transaction,
    apply_checked,
    catalog_files,
    entry_span,
    line_of,
    literal_span,
    plan_catalog,
    python_lines,
    read_text,
    shown,
)
from seriesbook.core.config import default_source, get_config

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

EXIT_CLEAN, EXIT_CHANGES = 0, 1
SOURCES = "seriesbook_sources"


@dataclass(frozen=True)
class Target:
    """``--to NAME=REF[@COMMIT]`` and the copies to read."""

    name: str
    ref: str
    commit: str
    old_copy: Path
    new_copy: Path


def parse_to(value: str) -> tuple[str, str, str]:
    name, sep, ref_spec = value.partition("=")
    ref, _, commit = ref_spec.partition("@")
    if not sep or not name or not ref:
        raise UsageError(f"--to expects NAME=REF or NAME=REF@COMMIT, got {value!r}")
    return name, ref, commit


@dataclass
class ConfEdit:
    """A change of ``conf.py``: planned when the value is a plain literal, else for the author."""

    line: int
    what: str
    planned: bool


@dataclass
class Outcome:
    source: str
    old_ref: str
    new_ref: str
    repin: BookRepin
    conf: list[ConfEdit] = field(default_factory=list)
    planned: int = 0  #: edits planned
    written: list[str] = field(default_factory=list)

    def needs_review(self) -> bool:
        return any(r.status in (Status.CHANGED, Status.LOST) or r.by_hand
                   for r in self.repin.reported)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "source": self.source,
            "from": self.old_ref,
            "to": self.new_ref,
            "citations": [r.as_json() for r in self.repin.reported],
            "summary": self.repin.summary(),
        }
        if self.conf:
            data["conf"] = [{"line": c.line, "edit": c.what, "written": c.planned and
                             bool(self.written)} for c in self.conf]
        if self.written:
            data["written"] = self.written
        return data

    def as_text(self) -> str:
        lines = [r.as_text() for r in self.repin.reported if r.status is not Status.UNCHANGED]
        for edit in self.conf:
            lead = "" if edit.planned else "edit by hand: "
            lines.append(f"conf.py:{edit.line}: {lead}{edit.what}")
        summary = ", ".join(f"{n} {status}" for status, n in self.repin.summary().items())
        lines.append(f"{self.source} {self.old_ref} → {self.new_ref}: {summary}")
        review = sum(r.status in (Status.CHANGED, Status.LOST) or r.by_hand
                     for r in self.repin.reported)
        if self.written:
            lines.append(f"wrote {len(self.written)} files and refreshed the citation lock")
        elif self.planned:
            lines.append("dry run: nothing written (run again with --write)")
        elif review:
            lines.append(f"nothing to rewrite; {review} citations to review")
        else:
            lines.append("nothing to do")
        return "\n".join(lines)

    def nothing_to_do(self) -> bool:
        return not self.repin.needs_work() and not self.conf


def resolve_target(config_sources: dict[str, Any], name: str, ref: str, commit: str,
                   sources: dict[str, str], to_sources: dict[str, str],
                   spec_copy: Path | None) -> Target:
    if name not in config_sources:
        known = ", ".join(sorted(config_sources)) or "none"
        raise UsageError(f"no source {name!r} in conf.py (configured: {known})")
    old = Path(sources[name]).resolve() if name in sources else spec_copy
    if old is None:
        raise UsageError(f"no local copy of {name!r}: give --source {name}=PATH")
    if not old.is_dir():
        raise UsageError(f"local copy not found: {old}")
    new = Path(to_sources[name]).resolve() if name in to_sources else None
    if new is None and not is_git_repository(old):
        raise UsageError(f"{old} is not a git repository: give the new release's copy "
                         f"with --to-source {name}=PATH")
    if new is not None and not new.is_dir():
        raise UsageError(f"local copy not found: {new}")
    return Target(name, ref, commit, old, new or old)


def run_repin(srcdir: Path, confdir: Path, *, sources: dict[str, str], to: str,
              to_sources: dict[str, str], write: bool = False, fmt: str = "text") -> int:
    name, ref, commit = parse_to(to)
    for extra in set(to_sources) - {name}:
        raise UsageError(f"--to-source {extra}=…: only {name!r} is re-pinned")
    root = confdir if srcdir.is_relative_to(confdir) else srcdir
    with read_pages(srcdir, confdir) as run:  # the read doctrees and citations suffice
        config = get_config(run.app.config)
        spec = config.sources.get(name) or {}
        copy = local_copy_path(name, spec, config, confdir) if name not in sources else None
        target = resolve_target(config.sources, name, ref, commit, sources, to_sources, copy)
        old_ref, old_commit = str(spec.get("ref", "")), str(spec.get("commit", ""))
        already = ref == old_ref and (not commit or commit == old_commit)
        pair = _open(target, old_ref, old_commit, already)
        try:
            repin = BookRepin(Mapper(pair), name, default_source(config),
                              root)
            plan = Plan()
            suffixes = tuple(config.source_suffixes)
            env = run.app.env
            documents: list[tuple[Path, list[Written]]] = []
            texts: dict[str, str] = {}
            for docname in sorted(env.found_docs):
                path = Path(env.doc2path(docname))
                texts[docname] = plan.text(path)
                documents.append((path, list(in_source(env, docname, plan.text(path), suffixes))))
                _unlocated(repin, env, docname, path, plan.text(path), documents[-1][1])
            read = read_in_messages(env, suffixes, texts)
            catalogs = catalog_files(run.app)
            repin.prefetch([w for _, found in documents for w in found] + [
                w for path in catalogs for w in repin.catalog_citations(plan, path, suffixes)
            ])
            for path, found in documents:
                repin.plan_source(plan, path, found)
            expected = {path: plan_catalog(plan, path,
                                           repin.catalog_rewrite(path, suffixes, read))
                        for path in catalogs}
        finally:
            pair.close()
        outcome = Outcome(name, old_ref, ref, repin)
        if not already:
            outcome.conf = plan_conf(plan, confdir / "conf.py", name, ref, commit, old_commit)
        outcome.planned = len(plan.edits)
    if write and plan.edits:
        _refuse_by_hand(outcome.conf)
        refreshed: list[Path] = []

        def lock(transaction: Transaction) -> None:
            refreshed.extend(_refresh_lock(srcdir, confdir, target, sources, config.sources,
                                           ref, commit, transaction))

        outcome.written = _write(plan, expected, root, lock)
        for path in refreshed:
            print(f"refreshed {path}", file=sys.stderr)
    if fmt == "json":
        print(json.dumps(outcome.as_json(), ensure_ascii=False, indent=2))
    else:
        print(outcome.as_text())
    if outcome.written:
        manual = any(not c.planned for c in outcome.conf)
        return EXIT_CHANGES if outcome.needs_review() or manual else EXIT_CLEAN
    return EXIT_CLEAN if outcome.nothing_to_do() else EXIT_CHANGES


def _unlocated(repin: BookRepin, env: BuildEnvironment, docname: str, path: Path,
               text: str, found: list[Written]) -> None:
    """Compare the citations found in the text with those the build read: any not found is
    never rewritten (anywhere, so sources and catalogs stay in step) and is reported.

    Records and found citations are paired by citation and kind, same line first (a record's
    line is its block's), then the nearest.
    """
    lines: dict[tuple[Key, str], list[int]] = {}
    for item in found:
        if repin.ours(item.citation):
            lines.setdefault((key_of(item.citation), item.kind), []).append(
                line_of(text, item.start))
    records = [r for r in citations_domain(env).records.get(docname, [])
               if r.citation is not None and r.source == repin.name]
    records.sort(key=lambda r: r.line or 0)
    pending = []
    for record in records:  # same line
        assert record.citation is not None
        candidates = lines.get((key_of(record.citation), record.kind), [])
        if record.line in candidates:
            candidates.remove(record.line)
        else:
            pending.append(record)
    for record in pending:  # nearest line
        assert record.citation is not None
        candidates = lines.get((key_of(record.citation), record.kind), [])
        if candidates:
            candidates.remove(min(candidates, key=lambda n: abs(n - (record.line or 0))))
            continue
        where = f"{repin.shown(path)}:{record.line or 0}"
        repin.unlocated.setdefault(key_of(record.citation), []).append(where)
        repin.report_unlocated(path, record.line or 0, record.citation, record.kind)


def _open(target: Target, old_ref: str, old_commit: str, already: bool) -> TreePair:
    """Both releases; a book already at the new ref is compared with the new copy only."""
    new_commit = target.commit or (old_commit if already else "")
    try:
        if already:
            return open_pair(target.new_copy, target.ref, new_commit,
                             target.new_copy, target.ref, new_commit)
        return open_pair(target.old_copy, old_ref, old_commit,
                         target.new_copy, target.ref, new_commit)
    except SourceError as error:
        raise UsageError(f"source {target.name!r}: {error}") from None


def plan_conf(plan: Plan, conf_py: Path, name: str, ref: str, commit: str, old_commit: str
              ) -> list[ConfEdit]:
    """The ``ref`` (and ``commit``) of the source in ``conf.py``: planned where plain literals."""
    text = plan.text(conf_py)
    edits: list[ConfEdit] = []
    fallback = _line_naming(text, name)
    ref_span = literal_span(text, SOURCES, name, "ref")
    if commit and ref_span and entry_span(text, SOURCES, name, "commit") is None:
        # no commit yet in a plain source dict: added right after its ref
        quote = text[ref_span[0]]
        new = f"{_quoted(quote, ref)}, {_quoted(quote, 'commit')}: {_quoted(quote, commit)}"
        plan.replace(conf_py, ref_span[0], ref_span[1], new)
        line = line_of(text, ref_span[0])
        return [ConfEdit(line, f"ref {text[ref_span[0]:ref_span[1]]} → {_quoted(quote, ref)}",
                         True), ConfEdit(line, f"commit {commit!r} added", True)]
    edits.append(_plan_literal(plan, conf_py, name, "ref", ref, fallback))
    if commit:
        edits.append(_plan_literal(plan, conf_py, name, "commit", commit, fallback))
    elif old_commit:
        span = entry_span(text, SOURCES, name, "commit")
        if span is None:
            edits.append(ConfEdit(fallback, f'del {SOURCES}["{name}"]["commit"]', False))
        else:
            edits.append(ConfEdit(line_of(text, span[0]),
                                  f"commit {old_commit!r} removed (no @COMMIT given)", True))
            plan.replace(conf_py, span[0], span[1], "")
    return edits


def _plan_literal(plan: Plan, conf_py: Path, name: str, key: str, value: str, fallback: int
                  ) -> ConfEdit:
    """Set the source's *key* to *value* where it is a plain literal, else say the edit to make."""
    text = plan.text(conf_py)
    span = literal_span(text, SOURCES, name, key)
    if span is None:
        return ConfEdit(fallback, f'{SOURCES}["{name}"]["{key}"] = {value!r}', False)
    new = _quoted(text[span[0]], value)
    plan.replace(conf_py, span[0], span[1], new)
    return ConfEdit(line_of(text, span[0]), f"{key} {text[span[0]:span[1]]} → {new}", True)


def _quoted(quote: str, value: str) -> str:
    if quote in "'\"" and quote not in value and "\\" not in value:
        return f"{quote}{value}{quote}"
    return repr(value)


def _line_naming(text: str, name: str) -> int:
    for number, line in enumerate(python_lines(text), 1):  # lines as Python counts them
        if f'"{name}"' in line or f"'{name}'" in line:
            return number
    return 1


def _refuse_by_hand(conf: list[ConfEdit]) -> None:
    """A ``conf.py`` value this command cannot edit safely stops ``--write`` before anything
    is written: the book's citations and its ref must move together."""
    manual = [edit for edit in conf if not edit.planned]
    if manual:
        first = manual[0]
        raise UsageError(
            f"nothing written: conf.py:{first.line}: {first.what} cannot be edited here (not a "
            "plain literal that takes effect: assigned more than once, computed, changed "
            "later); make the source's ref a plain string literal in one "
            f"{SOURCES} = {{…}} assignment and run again"
        )


def _write(plan: Plan, expected: dict[Path, Any], root: Path,
           then: Callable[[Transaction], None]) -> list[str]:
    try:
        written = apply_checked(plan, expected, then=then)
    except UsageError as error:  # the lock's read included: every file was put back
        message = str(error)
        raise UsageError(message if message.startswith("nothing written")
                         else f"nothing written: {message}") from None
    return sorted(shown(p, root) for p in written)


def _refresh_lock(srcdir: Path, confdir: Path, target: Target, sources: dict[str, str],
                  configured: dict[str, Any], ref: str, commit: str,
                  transaction: Transaction) -> list[Path]:
    """Write the lock from the new release (other sources keep what the old lock said), in the
    same step as the book's files: read from the rewritten book, undone with it on failure."""
    spec = {k: v for k, v in configured[target.name].items() if k != "commit"}
    spec["ref"] = ref
    if commit:
        spec["commit"] = commit
    overrides = {
        "seriesbook_sources": {**configured, target.name: spec},
        "seriesbook_source_paths": {**sources, target.name: str(target.new_copy)},
    }
    with read_book(srcdir, confdir, overrides) as run:
        path, text = lock_path(run.app), build_lock(run.app).dumps()
    if path.is_file() and read_text(path) == text:
        return []
    transaction.write({path: text}, {})
    return [path]
