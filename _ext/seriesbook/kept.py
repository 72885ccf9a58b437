"""``seriesbook check``'s own kept environment: re-read only what changed, report everything.

A check reads the book as the build does; reading every page every time made it half a full
build. Like an incremental build, it keeps Sphinx's environment between runs, in
``_build/check/<edition>/`` next to conf.py, and Sphinx re-reads only the documents that changed
(and those the extensions' ``env-get-outdated`` name); every document is still resolved, so the
problems found while resolving are found again each time.

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
import shutil
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util.build_phase import BuildPhase

from seriesbook import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from seriesbook.reading import Reported

KEPT_ROOT = Path("_build")
STAMP = "seriesbook-check.json"
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
    """What, if changed, makes the kept environment unusable: conf.py, version, lock, options."""
    from seriesbook.citations.lockfile import lock_path

    digest = hashlib.sha256()
    lock = lock_path(app)
    for part in (
        __version__,
        json.dumps(overrides, sort_keys=True, default=str),
        str(app.config.language),
        (Path(app.confdir) / "conf.py").read_bytes(),
        lock.read_bytes() if lock.is_file() else b"",
    ):
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


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
        read in this run. Consistency checks and resolving run every time and are not kept."""
        if self.app.phase != BuildPhase.READING:
            return
        env = self.app.env
        docname: str | None = env.current_document.docname
        if not docname and reported.file:
            located = env.path2doc(reported.file)
            docname = located if located in self.read_now else None
        if docname:
            self._store(env).setdefault(docname, []).append(reported)

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
