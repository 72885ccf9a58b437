"""Whether something warned while a piece of work ran: work kept across builds must not be.

A result kept across builds is taken instead of doing the work again; if doing it warned (through
Sphinx's logging, or a Python warning), the next build must warn again, so such a result is not
kept. :func:`watch_warnings` tells, and changes nothing about the warnings themselves: Sphinx's
are reported as always, Python's are shown as they would have been (the filters decide inside
the watch, as without it).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from seriesbook import compat


class Warned(logging.Handler):
    """Set when a warning reaches Sphinx's logger (added for the duration of the watch)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen = False

    def emit(self, record: logging.LogRecord) -> None:
        self.seen = True


@contextmanager
def watch_warnings() -> Iterator[Warned]:
    """Whether Sphinx logged a warning or Python raised one meanwhile (``seen``)."""
    warned = Warned()
    logger = compat.sphinx_logger()
    logger.addHandler(warned)
    try:
        with warnings.catch_warnings(record=True) as caught:
            yield warned
    finally:
        logger.removeHandler(warned)
    for warning in caught:
        warned.seen = True
        warnings.showwarning(warning.message, warning.category, warning.filename,
                             warning.lineno, warning.file, warning.line)
