"""The worker: one fresh process that keeps one edition warm and builds it again on every save.

Started by the supervisor (:mod:`._supervisor`) as ``python -m seriesbook.commands.serve``,
it opens the edition (:func:`..reading.open_warm`), builds it, then watches the sources, the
translations' catalogs and the citation lock. A save is one pass of :class:`._warm.WarmBook`;
what a pass did goes to the supervisor as one JSON line on the events pipe (``written`` as soon as
the pages browsers show are written, then ``pass``). The supervisor tells it which pages browsers
show, one JSON line on stdin. A changed lock makes a fresh environment (:func:`..kept.stamp`): the
worker then exits with :data:`RESTART` and the supervisor starts a fresh one, as after an error
that stopped reading once the author saves again (no state of a half-read book is kept), and
after a changed catalog in a translated edition (Python's gettext keeps every ``.mo`` it read).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import watchfiles
from sphinx.config import Config
from sphinx.util.tags import Tags

from seriesbook.commands import kept
from seriesbook.commands.checker import NAME as CHECK_BUILDER
from seriesbook.commands.checker import CheckBuilder
from seriesbook.commands.reading import UsageError, open_warm
from seriesbook.commands.serve._builder import ServeApplication, ServeHTMLBuilder
from seriesbook.commands.serve._warm import WarmBook
from seriesbook.core.config import book_editions

#: the worker's exit status asking the supervisor for a fresh worker
RESTART = 3
HTML = "html"
#: how long (ms) watchfiles waits for more changes before a pass: an editor's save is one pass
STEP_MS = 20


def serve_dirs(confdir: Path, language: str) -> tuple[Path, Path]:
    """Where ``serve`` writes *language*'s pages and keeps its environment, never a normal
    build's directories: ``_build/serve/<language>/`` and ``_build/serve-env/<language>/``."""
    pages = confdir / kept.KEPT_ROOT / "serve" / language
    return pages, kept.kept_dir(confdir, "serve-env", language)


def configured_language(confdir: Path) -> str:
    """conf.py's language, read as Sphinx reads it (an error there is reported when Sphinx
    starts on the book, right after)."""
    try:
        return str(Config.read(confdir, overrides={}, tags=Tags()).language or "en")
    except Exception:
        return "default"


class SourceFilter(watchfiles.DefaultFilter):
    """What the worker rebuilds for: not the build's output, not compiled catalogs (the build
    writes them), not editors' and tools' droppings (watchfiles' default filter)."""

    def __init__(self) -> None:
        super().__init__(ignore_dirs=(*self.ignore_dirs, str(kept.KEPT_ROOT)))

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return not path.endswith(".mo") and super().__call__(change, path)


def watched(app: Any) -> tuple[list[Path], Path | None]:
    """The source directory, the catalogs' directories, and the citation lock (if citations)."""
    srcdir = Path(app.srcdir)
    paths = [srcdir]
    for directory in app.config.locale_dirs:
        catalogs = (srcdir / directory).resolve()
        if catalogs.is_dir() and not catalogs.is_relative_to(srcdir):
            paths.append(catalogs)
    lock = None
    if "seriesbook.citations" in app.extensions:
        from seriesbook.citations.lockfile import lock_path

        lock = lock_path(app).resolve()
        if lock.parent.is_dir() and not lock.parent.is_relative_to(srcdir):
            paths.append(lock.parent)
    return paths, lock


def _shown_pages(builder: ServeHTMLBuilder) -> None:
    """Read the supervisor's lines: the pages browsers show now, written first on every pass."""
    for line in sys.stdin:
        try:
            shown = json.loads(line).get("shown", [])
        except (ValueError, AttributeError):
            continue
        builder.first = frozenset(str(docname) for docname in shown)


def run(args: argparse.Namespace, send: Callable[..., None]) -> int:
    srcdir, confdir = Path(args.srcdir), Path(args.confdir)
    language: str | None = args.language
    options: dict[str, Any] = {"builder": CHECK_BUILDER}
    if args.builder == HTML:
        outdir, directory = serve_dirs(confdir, language or configured_language(confdir))
        options = {"builder": HTML, "outdir": outdir, "application": ServeApplication}
    else:
        directory = kept.kept_dir(confdir, "check-watch", language or "default")
    directory.mkdir(parents=True, exist_ok=True)
    with open_warm(srcdir, confdir, directory, language=language, **options) as opened:
        app, collector, succeeded = opened
        # the terminal is the author's: problems and a line per pass, not jieba's start-up notes
        # (a filter, since jieba sets its logger's level when it is imported, lazily)
        logging.getLogger("jieba").addFilter(lambda record: record.levelno >= logging.WARNING)
        send("editions", language=app.config.language, editions=book_editions(app.config))
        book = WarmBook(app, collector, succeeded)
        early: list[str] = []  # written first, the browsers told already
        if isinstance(app.builder, ServeHTMLBuilder):

            def written(pages: list[str]) -> None:
                early.extend(pages)
                send("written", pages=pages, seconds=round(time.perf_counter() - book.started, 3))

            app.builder.on_written = written
            threading.Thread(target=_shown_pages, args=(app.builder,), daemon=True).start()
        elif isinstance(app.builder, CheckBuilder):
            app.builder.resolution = _Rewritten(app)
        paths, lock = watched(app)
        # Python keeps every .mo it has read for the process (gettext's cache, no public way
        # to drop one): a translated edition whose catalog changed is read by a fresh worker
        translated = app.config.language != book_editions(app.config)[0]
        saved = _Saves(paths)  # watching from before the first pass: no save is missed
        first = True
        while True:
            early.clear()
            done = book.build()
            rest = [docname for docname in done.written if docname not in early]
            send(
                "pass", written=rest, pages=len(done.written), shown=early,
                problems=[r.as_json() for r in done.problems],
                seconds=round(done.seconds, 3), stopped=done.stopped, first=first,
            )
            first = False
            changed = saved.next()
            if done.stopped or lock in changed or (translated and _catalogs(changed)):
                return RESTART
            book.saved(changed)


def _catalogs(changed: set[Path]) -> bool:
    return any(path.suffix == ".po" for path in changed)


class _Saves:
    """The files saved since the last call, watched all along by a thread of their own."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.saves: queue.Queue[set[Path]] = queue.Queue()
        self.thread = threading.Thread(target=self._watch, args=(paths,), daemon=True)
        self.thread.start()

    def _watch(self, paths: Sequence[Path]) -> None:
        for changes in watchfiles.watch(*paths, watch_filter=SourceFilter(), step=STEP_MS):
            self.saves.put({Path(path) for _, path in changes})

    def next(self) -> set[Path]:
        """Wait for a save; then every file saved since, in one set."""
        changed = self.saves.get()
        while True:
            try:
                changed |= self.saves.get_nowait()
            except queue.Empty:
                return changed


class _Rewritten:
    """For ``check --watch``: resolve every page on the first pass, then the pages Sphinx would
    write again (the re-read ones, their dependents and the referrers the extensions name); the
    others keep their problems (:class:`._warm.WarmBook`)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.passes = 0

    def choose(self, sphinx_choice: Any) -> set[str]:
        self.passes += 1
        return set(self.app.env.found_docs) if self.passes == 1 else set(sphinx_choice)

    def resolve(self, docname: str, resolve: Callable[[], None]) -> None:
        resolve()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="seriesbook-serve-worker")
    parser.add_argument("--srcdir", required=True)
    parser.add_argument("--confdir", required=True)
    parser.add_argument("--language")
    parser.add_argument("--builder", choices=(HTML, "check"), default=HTML)
    parser.add_argument("--events-fd", type=int, required=True)
    args = parser.parse_args(argv)
    events: IO[str] = os.fdopen(args.events_fd, "w", encoding="utf-8", buffering=1)

    def send(kind: str, **data: Any) -> None:
        events.write(json.dumps({"kind": kind, **data}, ensure_ascii=False) + "\n")
        events.flush()

    try:
        return run(args, send)
    except UsageError as error:
        send("stopped", message=str(error))
        return 2
    except KeyboardInterrupt:
        return 0
