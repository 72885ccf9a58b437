"""``seriesbook check``'s own kept environment: re-read only what changed, report everything.

A check reads the book as the build does; reading every page every time made it half a full
build. Like an incremental build, it keeps Sphinx's environment between runs, in
``_build/check/<edition>/`` next to conf.py, and Sphinx re-reads only the documents that changed
(and those the extensions' ``env-get-outdated`` name).

Resolving every unchanged document again was then most of a check after an edit (unpickling
and post-transforming 25 chapters to find that their § links still resolve).
:class:`KeptResolution` keeps each document's *resolving* problems beside the environment and
resolves a document again only when its problems can have changed: it was re-read, a re-read
page is in its toctree, something any reference can resolve against changed
(:func:`resolution_fingerprint`), or one of its references left the book last time.

An incremental build does not repeat the warnings it gave while *reading* an unchanged
document (or verifying its citations, right after reading), but a check must report them:
:class:`ReadProblems` keeps each document's reading problems in the environment, dropped with
the document (``env-purge-doc``) and merged under ``-j`` (``env-merge-info``). A changed conf.py,
seriesbook version, citation lock, option override or edition means a fresh environment
(:func:`stamp`). The answers equal a fresh check's (tested).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.build_phase import BuildPhase

from seriesbook import __version__, compat
from seriesbook.commands.checker import CheckBuilder
from seriesbook.core import dump_atomically

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from collections.abc import Set as AbstractSet

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from seriesbook.commands.reported import Reported

KEPT_ROOT = Path("_build")
STAMP = "seriesbook-kept.json"
#: The key of the reading problems of no page in :class:`ReadProblems`' store.
BOOK = ""
_ENV_KEY = "seriesbook_read_problems"


def kept_dir(confdir: Path, command: str, language: str | None = None) -> Path:
    """Where *command* keeps its Sphinx environment between runs: ``_build/<command>/`` beside
    conf.py, one directory per edition where the command reads several (``check``)."""
    base = confdir / KEPT_ROOT / command
    return base if language is None else base / language


def check_dir(confdir: Path, language: str | None) -> Path:
    return kept_dir(confdir, "check", language or "default")


def usable(directory: Path) -> Path | None:
    """*directory*, created, or None where it cannot be (a read-only book is read afresh)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return directory


def stamp(app: Sphinx, overrides: dict[str, Any]) -> str:
    """What, if changed, makes the kept environment unusable: conf.py, version, lock, options,
    and which local copy of each source is read (``$SERIESBOOK_SOURCE_…`` included)."""
    from seriesbook.citations.lockfile import lock_path

    digest = hashlib.sha256()
    lock = lock_path(app)
    for part in (
        __version__,
        json.dumps(overrides, sort_keys=True, default=str),
        str(app.config.language),
        (Path(app.confdir) / "conf.py").read_bytes(),
        lock.read_bytes() if lock.is_file() else b"",
        json.dumps(_local_copies(app)),
    ):
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _local_copies(app: Sphinx) -> dict[str, str]:
    """Each source's local copy as citations read it: its path, and for a git copy the commit
    its ref names now (a fetch can move a tag or a branch)."""
    from seriesbook.citations import git_environment, is_git_repository, local_copy_path
    from seriesbook.core.config import get_config

    config = get_config(app.config)
    copies: dict[str, str] = {}
    for name, spec in sorted(config.sources.items()):
        root = local_copy_path(name, spec, config, Path(app.confdir))
        if root is None:
            continue
        copies[name] = str(root)
        if is_git_repository(root) and (ref := spec.get("ref") or spec.get("commit")):
            done = subprocess.run(
                ["git", "-C", str(root), "rev-parse", "--verify", "-q", f"{ref}^{{commit}}"],
                capture_output=True, text=True, check=False, env=git_environment(),
            )
            copies[name] += "@" + done.stdout.strip()
    return copies


def has_stamp(directory: Path) -> bool:
    return (directory / STAMP).is_file()


def stamp_matches(directory: Path, current: str) -> bool:
    try:
        return (directory / STAMP).read_text(encoding="utf-8") == current
    except OSError:
        return False


def write_stamp(directory: Path, current: str) -> None:
    (directory / STAMP).write_text(current, encoding="utf-8")


def forget(directory: Path) -> None:
    shutil.rmtree(directory, ignore_errors=True)


class ReadProblems:
    """Each document's problems found while reading it, kept in the environment."""

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        self.read_now: set[str] = set()
        self.consistency_checked = False
        app.connect("env-before-read-docs", self._reading)
        app.connect("env-check-consistency", self._checked)
        app.connect("env-purge-doc", self._purge)
        app.connect("env-merge-info", self._merge)

    @staticmethod
    def _store(env: BuildEnvironment) -> dict[str, list[Reported]]:
        if not hasattr(env, _ENV_KEY):
            setattr(env, _ENV_KEY, {})
        store: dict[str, list[Reported]] = getattr(env, _ENV_KEY)
        return store

    def _reading(self, app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
        self.read_now |= set(docnames)

    def _checked(self, app: Sphinx, env: BuildEnvironment) -> None:
        self.consistency_checked = True

    def check_consistency(self) -> None:
        """The consistency checks, which Sphinx skips when no document was read: a check must
        report their problems every time."""
        if not self.consistency_checked:
            self.app.builder.phase = BuildPhase.CONSISTENCY_CHECK
            self.app.env.check_consistency()

    def _purge(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self._store(env).pop(docname, None)

    def _merge(
        self, app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: Any
    ) -> None:
        theirs = self._store(other)
        self._store(env).update({d: theirs[d] for d in docnames if d in theirs})

    def note(self, reported: Reported) -> None:
        """A problem, kept if reading found it: while reading a document, or after reading
        (``env-updated``: citations are verified at once for the documents read) at a document
        read in this run. Consistency checks and resolving run every time and are not kept.

        A reading problem of no page — a source's configuration, its local copy, the lock, all
        judged while citations are verified — is kept for the book (:data:`BOOK`): what it
        depends on is in the :func:`stamp`, so it holds until a fresh environment."""
        if self.app.phase != BuildPhase.READING:
            return
        env = self.app.env
        docname: str | None = env.current_document.docname
        if not docname and reported.file:
            located = env.path2doc(reported.file)
            docname = located if located in self.read_now else None
        if docname:
            self._store(env).setdefault(docname, []).append(reported)
        elif reported.file is None or env.path2doc(reported.file) is None:
            book = self._store(env).setdefault(BOOK, [])
            if reported not in book:  # verified again for another page: the same problem
                book.append(reported)

    def unchanged(self, reported_now: Iterable[Reported]) -> list[Reported]:
        """The kept problems of the documents this run did not re-read, less those this run
        reported again (a check run afresh would have reported each of them once)."""
        env = self.app.env
        store = self._store(env)
        again = Counter(reported_now)
        kept: list[Reported] = []
        for docname in sorted(store.keys() - self.read_now):  # removed pages were purged
            for reported in store[docname]:
                if again[reported]:
                    again[reported] -= 1
                else:
                    kept.append(reported)
        return kept


# Environment data that changes with a page's text but that no page's resolving reads for a
# problem: Sphinx's own bookkeeping (reading dates, doctree caches, the configuration — its
# changes make a fresh environment, :func:`stamp`), and seriesbook's per-page tallies, which
# resolving only renders (word counts, translated messages; the chapter gates and coverage are
# judged in the consistency checks, which run every time).
_NOT_RESOLVED_AGAINST = compat.ENVIRONMENT_BOOKKEEPING | frozenset({
    "all_docs", "config", "config_status", "config_status_extra", "current_document",
    "dependencies", "domains", "events", "included", "project", "ref_context", "reread_always",
    "settings", "version", "versioning_compare", "versioning_condition",
    _ENV_KEY, "seriesbook_page_messages", "seriesbook_stats_counts",
})
RESOLVED = "seriesbook-resolved.pickle"


def resolution_fingerprint(env: BuildEnvironment) -> str:
    """A digest of everything in the environment a page's references can resolve against.

    Dicts and sets are fed in sorted order, since an incremental read re-inserts a page's
    entries at the end; nodes and other objects by their contents (:func:`_feed`), without the
    lines records are written on. A digest that differs where nothing that
    matters changed only costs a full resolve; one that stayed the same where something
    changed would hide a problem, so everything not listed in ``_NOT_RESOLVED_AGAINST`` is in.
    """
    digest = hashlib.sha256()
    state = env.__getstate__()
    for name in sorted(state.keys() - _NOT_RESOLVED_AGAINST):
        digest.update(name.encode())
        _feed(digest, state[name])
    _feed(digest, sorted(env.found_docs))
    return digest.hexdigest()


_PLAIN = (str, int, float, bool, bytes, type(None))
# Where a record was written, not what it is: a § heading's or a citation's line in its page.
# Resolving another page never reads it (duplicates and order are judged in the consistency
# checks, which run every time), and an edit that adds a line moves every later one.
_LOCATION_FIELDS = frozenset({"line", "parent_line"})


def _feed(digest: Any, value: object, seen: set[int] | None = None) -> None:
    """Feed *value* in a form that depends on its contents only: not on dict order, set order,
    or which equal objects are shared (which a pickle records, and a round trip changes)."""
    if isinstance(value, str):  # docutils' Text too, whose repr stops after 64 characters
        digest.update(f"{type(value).__name__}:{str.__repr__(value)};".encode())
        return
    if isinstance(value, _PLAIN):
        digest.update(f"{type(value).__name__}:{value!r};".encode())
        return
    fields = getattr(value, "_fields", None)  # a NamedTuple record
    if isinstance(value, tuple) and fields is not None:
        kept = tuple(v for f, v in zip(fields, value, strict=True) if f not in _LOCATION_FIELDS)
        if all(isinstance(v, _PLAIN) for v in kept):  # the common case, fed in one go
            digest.update(f"{type(value).__qualname__}{kept!r};".encode())
            return
        value = kept
    seen = set() if seen is None else seen
    if id(value) in seen:  # a cycle (a node's parent, a symbol's parent): its shape is fed once
        digest.update(b"@")
        return
    seen.add(id(value))
    if isinstance(value, dict):
        digest.update(b"{")
        plain_keys = all(isinstance(key, str) for key in value)
        for key, item in sorted(value.items(), key=_by_key if plain_keys else _by_key_repr):
            _feed(digest, key, seen)
            _feed(digest, item, seen)
        digest.update(b"}")
    elif isinstance(value, set | frozenset):
        digest.update(b"<")
        for item in sorted(value, key=repr):
            _feed(digest, item, seen)
        digest.update(b">")
    elif isinstance(value, list | tuple):
        digest.update(b"[")
        for item in value:
            _feed(digest, item, seen)
        digest.update(b"]")
    elif isinstance(value, nodes.Element):
        attributes = sorted(value.attributes.items())
        digest.update(f"<{type(value).__qualname__} {attributes!r}>".encode())
        for child in value.children:
            _feed(digest, child, seen)
        digest.update(b"</>")
    elif hasattr(value, "__dict__"):
        state = {k: v for k, v in vars(value).items() if k not in _SKIPPED_ATTRIBUTES}
        name = f"{type(value).__module__}.{type(value).__qualname__}"
        if all(isinstance(v, _PLAIN) for v in state.values()):  # the common case, in one go
            digest.update(f"{name}{sorted(state.items())!r};".encode())
        else:
            digest.update(name.encode())
            _feed(digest, state, seen)
    else:
        digest.update(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    seen.discard(id(value))


def _by_key(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def _by_key_repr(pair: tuple[Any, Any]) -> str:
    return repr(pair[0])


# a node's links to its neighbours (the tree is fed from its root), and where a record was written
_SKIPPED_ATTRIBUTES = frozenset({"parent", "_document", "document"}) | _LOCATION_FIELDS


class KeptResolution:
    """Resolve again only the pages whose problems can have changed; replay the others'.

    A page's resolving problems depend on its doctree and on what its references can reach.
    A page neither re-read nor named by a re-read page's toctree (Sphinx resolves those) keeps
    last run's problems when :func:`resolution_fingerprint` is unchanged, unless one of its
    references left the book last time (``missing-reference``: intersphinx inventories and
    sibling volumes' histories are read from outside the environment) — that page is resolved
    every time. Anything else (no record, another fingerprint) resolves every page.
    """

    def __init__(self, app: Sphinx, directory: Path, reported: list[Reported]) -> None:
        self.app = app
        self.path = directory / RESOLVED
        self.reported = reported
        self.now: dict[str, list[Reported]] = {}
        self.outside: set[str] = set()
        self.fingerprint = ""
        self.kept = self._load()
        # a run that stops half-way must not leave answers the next run would trust
        self.path.unlink(missing_ok=True)
        if not isinstance(app.builder, CheckBuilder):
            raise TypeError(f"a kept check needs the {CheckBuilder.name!r} builder")
        app.builder.resolution = self
        app.connect("missing-reference", self._left_the_book, priority=0)

    def _load(self) -> tuple[str, dict[str, list[Reported]], set[str]] | None:
        try:
            with self.path.open("rb") as stream:
                kept = pickle.load(stream)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return None
        return kept if isinstance(kept, tuple) and len(kept) == 3 else None

    def choose(self, sphinx_choice: AbstractSet[str]) -> set[str]:
        """Sphinx's choice (re-read pages and their toctree parents), widened where needed."""
        env = self.app.env
        self.fingerprint = resolution_fingerprint(env)
        if self.kept is None or self.kept[0] != self.fingerprint:
            return set(env.found_docs)
        _, problems, outside = self.kept
        return set(sphinx_choice) | {
            d for d in env.found_docs if d not in problems or d in outside
        }

    def resolve(self, docname: str, resolve: Callable[[], None]) -> None:
        """Resolve *docname* alone, keeping the problems it reports."""
        start = len(self.reported)
        resolve()
        self.now[docname] = self.reported[start:]

    def _left_the_book(self, app: Sphinx, env: BuildEnvironment, *args: object) -> None:
        if env.current_document.docname:
            self.outside.add(env.current_document.docname)

    def replayed(self) -> list[Reported]:
        """The kept problems of the pages not resolved in this run; then keep this run's."""
        found = self.app.env.found_docs
        problems = dict(self.kept[1]) if self.kept is not None else {}
        outside = set(self.kept[2]) if self.kept is not None else set()
        again = [r for d in sorted(found - self.now.keys()) for r in problems.get(d, [])]
        problems = {d: p for d, p in problems.items() if d in found} | self.now
        outside = {d for d in outside if d in found and d not in self.now} | self.outside
        dump_atomically(self.path, (self.fingerprint, problems, outside))
        return again
