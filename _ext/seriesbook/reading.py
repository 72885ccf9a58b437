"""Read a book with Sphinx itself and collect its problems, for the ``seriesbook`` commands.

``seriesbook check``, ``lock`` and ``stats`` must see exactly what the build sees, so they run
Sphinx's own reading and resolving with the non-writing ``dummy`` builder into a temporary
directory, and collect every warning as a :class:`Reported` record instead of parsing text.
"""

from __future__ import annotations

import io
import logging
import pickle
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import ENV_PICKLE_FILENAME, Sphinx
from sphinx.util import logging as sphinx_logging

from seriesbook.problems import WARNING_TYPE, translated_from


class UsageError(Exception):
    """A command-line mistake: reported in one line, exit status 2."""


@dataclass(frozen=True, order=True)
class Reported:
    """One warning of a build, as data."""

    file: str | None
    line: int | None
    code: str
    message: str

    def as_text(self) -> str:
        where = self.file or "<book>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.code}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "code": self.code, "message": self.message}


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

    def __init__(self, app: Sphinx) -> None:
        super().__init__(io.StringIO())  # type: ignore[arg-type]
        self.app = app
        self.reported: list[Reported] = []
        self.setLevel(logging.WARNING)
        self.addFilter(sphinx_logging.WarningSuppressor(app))

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
        self.reported.append(Reported(file, line, code, message))

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
        if ":" not in location and location in self.app.env.all_docs:
            return str(self.app.env.doc2path(location)), None
        return location, None


@dataclass
class BookRun:
    app: Sphinx
    reported: list[Reported]


def kept_environment(confdir: Path, command: str) -> Path:
    """Where *command* keeps its Sphinx environment between runs (``_build/`` beside conf.py)."""
    return confdir / "_build" / command


@contextmanager
def read_book(
    srcdir: Path,
    confdir: Path,
    overrides: dict[str, Any] | None = None,
    *,
    resolve: bool = True,
    keep: Path | None = None,
) -> Iterator[BookRun]:
    """Read and resolve the whole book with the non-writing builder; yield app and problems.

    ``resolve=False`` stops after Sphinx's reading phase (every page parsed and transformed,
    the environment complete, nothing resolved): for commands that need only the read doctrees.
    ``keep`` is a directory where the environment and doctrees stay between runs: Sphinx then
    re-reads only the pages changed since (its incremental build, by the same rules), and the
    problems reported are only those of the pages read again. Without it every page is read
    afresh into a temporary directory.
    """
    with tempfile.TemporaryDirectory(prefix="seriesbook-") as tmp:
        app = Sphinx(
            srcdir,
            confdir,
            str(Path(tmp) / "out"),
            str(keep or Path(tmp) / "doctrees"),
            "dummy",
            confoverrides=dict(overrides or {}),
            status=None,
            warning=io.StringIO(),
            freshenv=keep is None,
            keep_going=True,
        )
        collector = _Collector(app)
        logging.getLogger(sphinx_logging.NAMESPACE).addHandler(collector)
        try:
            if resolve:
                app.build(force_all=True)
            elif app.builder.read() and keep is not None:
                _save_environment(app)
            yield BookRun(app, sorted(collector.reported, key=_sort_key))
        finally:
            logging.getLogger(sphinx_logging.NAMESPACE).removeHandler(collector)


def _save_environment(app: Sphinx) -> None:
    """Pickle the environment after a read-only run, as Sphinx's own build does after reading."""
    with open(Path(app.doctreedir) / ENV_PICKLE_FILENAME, "wb") as stream:
        pickle.dump(app.env, stream, pickle.HIGHEST_PROTOCOL)


def _sort_key(r: Reported) -> tuple[str, int, str, str]:
    return (r.file or "", r.line or 0, r.code, r.message)
