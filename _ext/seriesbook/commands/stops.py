"""Errors that stop reading a book, as one line naming the file (and line) the author must fix.

``seriesbook`` exits 2 with that line instead of a traceback: a syntax error or an exception in
``conf.py``, an extension that cannot be imported, an option that fails validation, a chapter that
cannot be read. An exception raised by seriesbook's own code is a bug and is not translated here:
it keeps its traceback.
"""

from __future__ import annotations

import ast
import traceback
from pathlib import Path

import sphinx
from sphinx.errors import ExtensionError, SphinxError

from seriesbook.core.config import PREFIX

PACKAGE = Path(__file__).resolve().parents[1]
SPHINX = Path(sphinx.__file__).resolve().parent


class UsageError(Exception):
    """A command-line mistake or an error that stops reading: one line, exit status 2."""


def stopped_reading(
    error: BaseException, conf_py: Path, document: Path | None = None
) -> UsageError | None:
    """*error* as the one-line message for the author, or None if seriesbook's own code raised.

    *document* is the file Sphinx was reading when it stopped, if any.
    """
    if isinstance(error, UnicodeDecodeError) and document is not None:
        if raised_by_seriesbook(error):
            return None
        return UsageError(f"{document}:{_line_at(document, error.start)}: not UTF-8: {error}")
    cause = _cause(error)
    if cause is not None and raised_by_seriesbook(cause):
        return None
    if isinstance(cause, SyntaxError) and cause.filename and Path(cause.filename) == conf_py:
        return UsageError(f"{conf_py}:{cause.lineno}: syntax error: {cause.msg}")
    if isinstance(error, SphinxError):
        line = _line_in(cause, conf_py) if cause is not None else None
        # conf.py's own exception says why; else Sphinx's message says what
        message = _describe(cause) if cause is not None and line is not None else str(error)
        if line is None:
            line = _assignment_line(conf_py, _option_named(error))
        where = f"{conf_py}:{line}" if line is not None else str(conf_py)
        return UsageError(f"{where}: {_one_line(message)}")
    if isinstance(error, OSError) and error.filename and not raised_by_seriesbook(error):
        return UsageError(f"{error.filename}: {error.strerror or _describe(error)}")
    return None


def _cause(error: BaseException) -> BaseException | None:
    if isinstance(error, ExtensionError) and error.orig_exc is not None:
        return error.orig_exc
    return error.__cause__ if isinstance(error, SphinxError) else None


def _option_named(error: SphinxError) -> str:
    """The conf.py name an error is about: a ``seriesbook_*`` option, or ``extensions``."""
    message = str(error)
    if message.startswith(PREFIX):
        return message.partition(":")[0]
    if isinstance(error, ExtensionError) and isinstance(error.orig_exc, ImportError):
        return "extensions"
    return ""


def raised_by_seriesbook(error: BaseException) -> bool:
    """Whether seriesbook's code raised *error*: it is nearer the raise than any Sphinx code.

    Sphinx reading a file, importing an extension or running conf.py is the author's input;
    seriesbook called by Sphinx (a transform, an event handler) that raised, even inside a library
    it called, is seriesbook's bug.
    """
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename)
        if path.is_relative_to(PACKAGE):
            return True
        if path.is_relative_to(SPHINX):
            return False
    return False


def _line_at(path: Path, offset: int) -> int:
    try:
        return path.read_bytes()[:offset].count(b"\n") + 1
    except OSError:
        return 1


def _describe(error: BaseException) -> str:
    return _one_line(f"{type(error).__name__}: {error}")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _line_in(error: BaseException, conf_py: Path) -> int | None:
    """The innermost line of conf.py in *error*'s traceback."""
    frames = traceback.extract_tb(error.__traceback__)
    lines = [f.lineno for f in frames if Path(f.filename) == conf_py and f.lineno]
    return lines[-1] if lines else None


def _assignment_line(conf_py: Path, name: str) -> int | None:
    """The line of conf.py's last top-level assignment to *name*, if it has one."""
    if not name:
        return None
    try:
        tree = ast.parse(conf_py.read_bytes(), str(conf_py))
    except (OSError, SyntaxError, ValueError):
        return None
    found = None
    for statement in tree.body:
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets = [statement.target]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found = statement.lineno
    return found
