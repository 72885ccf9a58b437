"""Read a book with Sphinx itself and collect its problems, for the ``seriesbook`` commands.

``seriesbook check``, ``lock`` and ``stats`` must see exactly what the build sees, so they run
Sphinx's own reading and resolving with the non-writing ``seriesbook-check`` builder (Sphinx's
``dummy`` builder, :mod:`.checker`) into a temporary
directory, and collect every warning as a :class:`Reported` record instead of parsing text.
The collector is attached the moment Sphinx sets up its logging, so warnings Sphinx and the
extensions emit while starting (conf.py, option types, ``builder-inited``) are problems too.
``seriesbook check`` reads every edition (:func:`check_editions`): a ``-W`` build of any of them
fails exactly when ``check`` reports a problem. An error that stops reading (conf.py, an
extension, an option, an unreadable file) is a :class:`UsageError` naming the file (:mod:`.stops`).
"""

from __future__ import annotations

import dataclasses
import io
import logging
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from docutils import nodes
from sphinx.application import ENV_PICKLE_FILENAME, Sphinx
from sphinx.util import logging as sphinx_logging
from sphinx.util.docutils import docutils_namespace, patch_docutils

from seriesbook import compat
from seriesbook.commands import kept
from seriesbook.commands.checker import NAME as CHECK_BUILDER
from seriesbook.commands.checker import CheckApplication
from seriesbook.commands.reported import Reported
from seriesbook.commands.stops import UsageError, stopped_reading
from seriesbook.core import dump_atomically
from seriesbook.core.config import book_editions
from seriesbook.core.problems import WARNING_TYPE, translated_from
from seriesbook.speed import heap

T = TypeVar("T")

__all__ = [
    "BookRun",
    "Collector",
    "Reported",
    "UsageError",
    "check_editions",
    "merge_editions",
    "open_book",
    "open_warm",
    "problem_order",
    "read_book",
    "read_pages",
    "reading_step",
]


def default_dirs(srcdir: str | None, confdir: str | None) -> tuple[Path, Path]:
    """SRCDIR and CONFDIR as ``seriesbook check`` documents them."""
    cwd = Path.cwd()
    if srcdir is None:
        src = cwd / "source" if (cwd / "conf.py").is_file() and (cwd / "source").is_dir() else cwd
    else:
        src = Path(srcdir)
    if not src.is_dir():
        raise UsageError(f"source directory not found: {src}")
    conf = Path(confdir) if confdir else (src if (src / "conf.py").is_file() else cwd)
    if not (conf / "conf.py").is_file():
        raise UsageError(f"no conf.py in {conf}")
    return src.resolve(), conf.resolve()


class _Collector(sphinx_logging.WarningStreamHandler):
    """Keeps warnings as records; a WarningStreamHandler so Sphinx's pending_warnings works."""

    app: Sphinx

    def __init__(self) -> None:
        super().__init__(io.StringIO())  # type: ignore[arg-type]
        self.reported: list[Reported] = []
        self.notify: Callable[[Reported], None] | None = None
        self.setLevel(logging.WARNING)

    def attach(self, app: Sphinx) -> None:
        """Join Sphinx's logger, filtered as Sphinx filters its own warning stream."""
        self.app = app
        self.addFilter(sphinx_logging.WarningSuppressor(app))
        self.addFilter(sphinx_logging.OnceFilter())
        compat.sphinx_logger().addHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        file, line = self._where(getattr(record, "location", None))
        kind = getattr(record, "type", None) or "sphinx"
        subtype = getattr(record, "subtype", None)
        if kind == WARNING_TYPE and subtype:
            code = subtype
        else:
            code = ".".join(filter(None, [kind, subtype]))
        # Sphinx's own handler ran first: its record class puts the location before
        # getMessage() and show_warning_types appended " [type.subtype]"; keep the bare message.
        message = logging.LogRecord.getMessage(record)
        message = message.removesuffix(f" [{'.'.join(filter(None, [kind, subtype]))}]")
        reported = Reported(file, line, code, message)
        self.reported.append(reported)
        if self.notify is not None:
            self.notify(reported)

    def _where(self, location: object) -> tuple[str | None, int | None]:
        if isinstance(location, nodes.Node):
            location = sphinx_logging.get_node_location(location)
        if isinstance(location, tuple):
            docname, lineno = location
            return (str(self.app.env.doc2path(docname)) if docname else None), lineno
        if not isinstance(location, str) or not location:
            return None, None
        path, sep, line = location.rpartition(":")
        if sep and line.isdigit():
            # another extension's warning in translated text: the author's line, not Sphinx's
            return translated_from(path) or (path or None, int(line))
        env = getattr(getattr(self, "app", None), "env", None)  # none while Sphinx starts
        if ":" not in location and env is not None and location in env.all_docs:
            return str(env.doc2path(location)), None
        return location, None


Collector = _Collector


@dataclass
class BookRun:
    app: Sphinx
    reported: list[Reported]


@contextmanager
def open_book(
    srcdir: Path,
    confdir: Path,
    overrides: dict[str, Any] | None = None,
    *,
    language: str | None = None,
    collector: _Collector | None = None,
    kept: Path | None = None,
    builder: str = CHECK_BUILDER,
    outdir: Path | None = None,
    application: type[CheckApplication] = CheckApplication,
) -> Iterator[Sphinx]:
    """Start Sphinx on the book (non-writing builder, temporary output); read nothing yet.

    *language* builds that edition (``-D language=…``). *kept* is a directory whose environment
    is loaded and kept (:mod:`seriesbook.commands.kept`); without it the environment is fresh and
    temporary. *builder*, *outdir* and *application* are for a command that writes (``serve``:
    its ``html`` builder into ``_build/serve/<language>/``). An error that stops Sphinx from
    starting is a :class:`UsageError` naming the file.
    """
    confoverrides = dict(overrides or {})
    if language:
        confoverrides["language"] = language
    collector = collector or _Collector()
    with (
        tempfile.TemporaryDirectory(prefix="seriesbook-") as tmp,
        _fresh_docutils(confdir),
        _collecting(collector),
    ):
        work = kept or Path(tmp)
        app = _stopping(
            confdir,
            lambda: application(
                srcdir, confdir, str(outdir or work / "out"), str(work / "doctrees"), builder,
                confoverrides=confoverrides, status=None, warning=io.StringIO(),
                freshenv=kept is None, keep_going=True,
            ),
        )
        yield app


@contextmanager
def read_book(
    srcdir: Path,
    confdir: Path,
    overrides: dict[str, Any] | None = None,
    *,
    language: str | None = None,
    keep: bool = False,
) -> Iterator[BookRun]:
    """Read and resolve the whole book with the non-writing builder; yield app and problems.

    With *keep*, the environment is kept in ``_build/check/`` (:mod:`.kept`): only
    changed documents are re-read, and the problems are the same as a fresh read's.
    """
    kept_dir = kept.usable(kept.check_dir(confdir, language)) if keep else None
    with _open_kept(srcdir, confdir, overrides, language=language, kept_dir=kept_dir) as opened:
        app, collector, succeeded = opened
        read_problems = kept.ReadProblems(app)
        collector.notify = read_problems.note
        resolution = kept.KeptResolution(app, kept_dir, collector.reported) if kept_dir else None
        _stopping(confdir, lambda: app.build(force_all=kept_dir is None), lambda: _reading(app))
        read_problems.check_consistency()
        reported = [*collector.reported, *read_problems.unchanged(collector.reported)]
        if resolution is not None:
            reported += resolution.replayed()
        succeeded()
        yield BookRun(app, sorted(reported, key=_sort_key))


@contextmanager
def _open_kept(
    srcdir: Path,
    confdir: Path,
    overrides: dict[str, Any] | None,
    *,
    language: str | None = None,
    kept_dir: Path | None,
    **options: Any,
) -> Iterator[tuple[Sphinx, _Collector, Callable[[], None]]]:
    """:func:`open_book` on *kept_dir*'s environment while its stamp still matches
    (:func:`.kept.stamp`), else on a fresh one there; yield the app, its collector,
    and what to call once the run has succeeded (it stamps the kept environment)."""
    # a kept environment whose stamp differs is discarded before Sphinx starts on it again
    attempts = ["kept", "fresh"] if kept_dir is not None and kept.has_stamp(kept_dir) else ["fresh"]
    for attempt in attempts:
        if attempt == "fresh" and kept_dir is not None:
            kept.forget(kept_dir)
            kept_dir.mkdir(parents=True, exist_ok=True)
        collector = _Collector()
        with open_book(
            srcdir, confdir, overrides, language=language, collector=collector, kept=kept_dir,
            **options,
        ) as app:
            current = kept.stamp(app, overrides or {}) if kept_dir is not None else ""
            if attempt == "kept" and kept_dir and not kept.stamp_matches(kept_dir, current):
                continue
            def succeeded(directory: Path | None = kept_dir, current: str = current) -> None:
                if directory is not None:
                    kept.write_stamp(directory, current)

            yield app, collector, succeeded
            return


@contextmanager
def read_pages(srcdir: Path, confdir: Path, *, kept: Path | None = None) -> Iterator[BookRun]:
    """Only Sphinx's reading phase: every page parsed and transformed, the environment complete,
    nothing resolved or written; for commands that need only the read doctrees.

    With *kept* (:func:`seriesbook.commands.kept.kept_dir`) the environment stays there between runs
    and Sphinx re-reads only the pages changed since, by its own incremental rules; the
    problems reported are then those of the pages read again. A changed conf.py, seriesbook
    version or lock reads afresh, as for ``check``. Without *kept* every page is read afresh.
    """
    with _open_kept(srcdir, confdir, None, kept_dir=kept) as (app, collector, succeeded):
        try:
            updated = _stopping(confdir, app.builder.read, lambda: _reading(app))
        finally:
            heap.reading_finished()  # no build-finished follows a reading alone
        if kept is not None and updated:
            _save_environment(app)
        succeeded()
        yield BookRun(app, sorted(collector.reported, key=_sort_key))


@contextmanager
def open_warm(
    srcdir: Path, confdir: Path, directory: Path, *, language: str | None = None, **options: Any
) -> Iterator[tuple[Sphinx, Collector, Callable[[], None]]]:
    """The app a warm process keeps (``serve``, ``check --watch``) on *directory*'s kept
    environment while its stamp matches (:mod:`.kept`), else on a fresh one; yield the app,
    its collector, and what stamps the environment once a pass has succeeded. *options* are
    :func:`open_book`'s (``builder``, ``outdir``, ``application``)."""
    with _open_kept(
        srcdir, confdir, None, language=language, kept_dir=directory, **options
    ) as opened:
        yield opened


def reading_step(app: Sphinx, step: Callable[[], T]) -> T:
    """Run one step of Sphinx on *app*; an error that stops reading is a one-line UsageError."""
    return _stopping(Path(app.confdir), step, lambda: _reading(app))


def problem_order(reported: Reported) -> tuple[str, int, str, str]:
    """The order ``check`` prints problems in: file, line, code, message."""
    return _sort_key(reported)


def _save_environment(app: Sphinx) -> None:
    """Pickle the environment after reading, as Sphinx's own build does before resolving
    (atomically: a command stopped half-way leaves the last whole environment)."""
    dump_atomically(Path(app.doctreedir) / ENV_PICKLE_FILENAME, app.env)


def check_editions(
    srcdir: Path,
    confdir: Path,
    overrides: dict[str, Any] | None = None,
    *,
    keep: bool = False,
    also: Callable[[Sphinx], None] | None = None,
) -> list[Reported]:
    """Every problem a ``-W`` build of any edition would report, each once.

    The book is read as configured, then once per other edition (``seriesbook_editions``);
    a problem only a translated edition has says which edition in its message. *also* is
    called with the first reading's app, for what else a caller reads from it.
    """
    with read_book(srcdir, confdir, overrides, keep=keep) as run:
        if also is not None:
            also(run.app)
        reported = list(run.reported)
        first = run.app.config.language
        editions = book_editions(run.app.config)
    others: dict[str, list[Reported]] = {}
    for language in editions:
        if language == first:
            continue
        with read_book(srcdir, confdir, overrides, language=language, keep=keep) as run:
            others[language] = run.reported
    return merge_editions(reported, others)


def merge_editions(first: list[Reported], others: dict[str, list[Reported]]) -> list[Reported]:
    """The first edition's problems, then each other edition's not reported yet (at the same
    file, line and code), its message saying which edition; in ``check``'s order."""
    reported = list(first)
    seen = {(r.file, r.line, r.code) for r in reported}
    for language, found_there in others.items():
        for found in found_there:
            if (found.file, found.line, found.code) not in seen:
                seen.add((found.file, found.line, found.code))
                message = f"{found.message} (the {language} edition)"
                reported.append(dataclasses.replace(found, message=message))
    return sorted(reported, key=_sort_key)


def _stopping(
    confdir: Path, step: Callable[[], T], document: Callable[[], Path | None] = lambda: None
) -> T:
    """Run one step of Sphinx; an error that stops reading becomes a one-line UsageError."""
    try:
        return step()
    except Exception as error:
        usage = stopped_reading(error, confdir / "conf.py", document())
        if usage is None:
            raise
        raise usage from error


def _reading(app: Sphinx) -> Path | None:
    """The file Sphinx is reading (or was, when it stopped)."""
    docname = app.env.current_document.docname
    return Path(app.env.doc2path(docname)) if docname else None


@contextmanager
def _fresh_docutils(confdir: Path) -> Iterator[None]:
    """What sphinx-build does around one app, and Sphinx's catalogs of a fresh process.

    ``sphinx.locale`` merges the catalogs of every language it has loaded, so a second
    edition read in the same process must start from none, and whatever the process builds
    after the command (a caller's own Sphinx app) must not inherit this book's language.
    """
    compat.forget_translations()
    try:
        with patch_docutils(confdir), docutils_namespace():
            yield
    finally:
        compat.forget_translations()


@contextmanager
def _collecting(collector: _Collector) -> Iterator[None]:
    """Attach *collector* as soon as Sphinx sets up its logging, before it reads conf.py, so
    the warnings Sphinx gives while starting are problems too."""
    try:
        with compat.after_logging_setup(collector.attach):
            yield
    finally:
        compat.sphinx_logger().removeHandler(collector)


def _sort_key(r: Reported) -> tuple[str, int, str, str]:
    return (r.file or "", r.line or 0, r.code, r.message)
