"""One pass of the warm book: Sphinx's incremental build on an application kept between saves,
and every problem ``seriesbook check`` would report for the edition.

The application, its environment and the collector of :mod:`..reading` stay alive; a pass is
``app.build()`` again, so Sphinx re-reads only the pages that changed (and those the extensions'
``env-get-outdated`` and Sphinx's dependents name) and writes only the pages whose output can
have changed. An incremental build repeats neither the reading problems of the pages it did not
read nor the resolving problems of the pages it did not write; a pass must report them all:
reading problems are kept per page by :class:`..kept.ReadProblems` (as ``check`` keeps them),
resolving and writing problems here, per page, replaced when the page is written again.
Consistency checks run on every pass.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sphinx.util.build_phase import BuildPhase

from seriesbook.commands import kept
from seriesbook.commands.reading import UsageError, problem_order, reading_step

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from sphinx.application import Sphinx

    from seriesbook.commands.reading import Collector, Reported

#: resolving and writing problems at no page (the search index, ``build-finished``)
_BOOK = ""
_RESOLVING = frozenset({BuildPhase.RESOLVING, BuildPhase.WRITING})


@dataclass
class Pass:
    """What one pass did: the pages written, every problem of the edition, how long it took."""

    written: list[str]
    problems: list[Reported]
    seconds: float
    stopped: str | None = None  # an error that stopped reading, as one line


@dataclass
class WarmBook:
    """A Sphinx application kept warm, built again on every save."""

    app: Sphinx
    collector: Collector
    succeeded: Callable[[], None]
    read_problems: kept.ReadProblems = field(init=False)
    resolved: dict[str, list[Reported]] = field(default_factory=dict)
    written_now: list[str] = field(default_factory=list)
    noted: list[tuple[Reported, bool]] = field(default_factory=list)  # (problem, when resolving)
    passes: int = 0
    started: float = 0.0  # when the current pass began (perf_counter)

    def __post_init__(self) -> None:
        self.read_problems = kept.ReadProblems(self.app)
        self.collector.notify = self._note
        self.app.connect("doctree-resolved", self._resolved)

    def _note(self, reported: Reported) -> None:
        self.read_problems.note(reported)
        self.noted.append((reported, self.app.phase in _RESOLVING))

    def _resolved(self, app: Sphinx, doctree: object, docname: str) -> None:
        self.written_now.append(docname)

    def saved(self, paths: set[Path]) -> None:
        """Pages saved since the last pass are read again, even one saved while it was being
        read (Sphinx compares a file's time with the time it finished reading it)."""
        env = self.app.env
        for path in paths:
            docname = env.path2doc(str(path))
            if docname is not None and docname in env.all_docs:
                env.all_docs[docname] = 0

    def build(self) -> Pass:
        """Build what changed since the last pass (the first pass writes every page, so every
        page's resolving problems are known)."""
        start = self.started = time.perf_counter()
        self.collector.reported.clear()
        self.noted.clear()
        self.read_problems.read_now.clear()
        self.read_problems.consistency_checked = False
        self.written_now = []
        stopped = None
        try:
            reading_step(self.app, lambda: self.app.build(force_all=self.passes == 0))
            self.read_problems.check_consistency()
        except UsageError as error:
            stopped = str(error)
        else:
            self.succeeded()
            self.passes += 1
        problems = self._problems()
        return Pass(sorted(set(self.written_now)), problems, time.perf_counter() - start, stopped)

    def _problems(self) -> list[Reported]:
        env = self.app.env
        now = list(self.collector.reported)
        reading = [r for r, resolving in self.noted if not resolving]
        resolving = [r for r, resolving in self.noted if resolving]
        written = set(self.written_now)
        if written:
            for docname in written:
                self.resolved[docname] = []
            self.resolved[_BOOK] = []
            for reported in resolving:
                page = env.path2doc(reported.file) if reported.file else None
                where = page if page in written else _BOOK
                self.resolved.setdefault(where or _BOOK, []).append(reported)
        else:
            self.resolved[_BOOK] = resolving
        for docname in list(self.resolved):
            if docname and docname not in env.found_docs:
                del self.resolved[docname]
        problems = [*reading, *self.read_problems.unchanged(now)]
        problems += [r for found in self.resolved.values() for r in found]
        return sorted(set(problems), key=problem_order)
