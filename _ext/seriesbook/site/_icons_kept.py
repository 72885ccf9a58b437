"""The icons each file names, and the stylesheet they drew, kept across builds.

:func:`~._icons.write_icons` reads every written page (and the theme's scripts) for the icon
classes they name, and parses the theme's whole Font Awesome bundle for the icons' paths, after
every build, although a one-chapter rebuild rewrites a handful of pages and the bundle never
changes. ``seriesbook-icons.pickle`` (doctree directory) keeps each file's icons under its size
and modification time (the rule by which Sphinx and Jinja tell a changed file), and the last
stylesheet under the set of icons it drew and the bundle's and the theme style's own: a file
whose size or time changed is read again, a stylesheet whose icons or sources changed is drawn
again, from the same functions. Anything else in the file (another seriesbook, another format,
an unreadable file) is an empty store; it keeps only the files the site has now, and is
written only when it changed. ``seriesbook_speedups = False`` reads and draws everything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sphinx.util import logging

from seriesbook import __version__
from seriesbook.core.pagestore import dump_atomically, read_stored

logger = logging.getLogger(__name__)

CACHE_NAME = "seriesbook-icons.pickle"
FORMAT = 1

Stat = tuple[int, int]  # (size, modification time in ns)
Icons = frozenset[tuple[str, str]]
Sheet = tuple[Any, str, list[str]]  # (what it was drawn from, the CSS, the unknown classes)
Draw = Callable[[set[tuple[str, str]], Path, "Path | None"], tuple[str, list[str]]]


def _stat(path: Path | None) -> tuple[str, int, int] | None:
    if path is None:
        return None
    status = path.stat()
    return (str(path), status.st_size, status.st_mtime_ns)


def _key(code: Path) -> tuple[Any, ...]:
    """What every kept entry depends on besides its file: the *code* that scans and draws."""
    return (FORMAT, __version__, hashlib.sha256(code.read_bytes()).hexdigest())


def _load(path: Path, key: tuple[Any, ...]) -> tuple[dict[str, tuple[Stat, Icons]], Sheet | None]:
    stored = read_stored(path, key)
    if stored is None:
        return {}, None
    files, sheet = stored.get("files"), stored.get("sheet")
    if not isinstance(files, dict) or not all(
        isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], frozenset)
        for entry in files.values()
    ):
        return {}, None
    if not (isinstance(sheet, tuple) and len(sheet) == 3 and isinstance(sheet[1], str)):
        sheet = None
    return files, sheet


def kept_stylesheet(
    doctreedir: Path, pages: Sequence[Path], scripts: Sequence[Path], bundle: Path,
    style: Path | None, scanners: tuple[Callable[[str], Icons], Callable[[str], Icons]],
    draw: Draw, code: Path,
) -> tuple[str, list[str]]:
    """What *draw* (:func:`~._icons.stylesheet`) gives for the icons *pages* and *scripts*
    name (*scanners*: :func:`~._icons.page_icons`, :func:`~._icons.script_icons`, whose module
    is *code*), from the kept entries where their files are unchanged."""
    path, key = doctreedir / CACHE_NAME, _key(code)
    files, sheet = _load(path, key)
    now: dict[str, tuple[Stat, Icons]] = {}
    used: set[tuple[str, str]] = set()

    def scan(file: Path, icons_of: Callable[[str], Icons]) -> None:
        status = file.stat()
        stat = (status.st_size, status.st_mtime_ns)
        entry = files.get(str(file))
        if entry is None or entry[0] != stat:
            entry = (stat, icons_of(file.read_text("utf-8")))
        now[str(file)] = entry
        used.update(entry[1])

    for page in pages:
        scan(page, scanners[0])
    for script in scripts:
        scan(script, scanners[1])
    drawn_from = (frozenset(used), _stat(bundle), _stat(style))
    if sheet is None or sheet[0] != drawn_from:
        css, unknown = draw(used, bundle, style)
        sheet, changed = (drawn_from, css, unknown), True
    else:
        changed = now != files
    if changed:
        try:
            dump_atomically(path, {"key": key, "files": now, "sheet": sheet})
        except OSError as error:  # a file not written costs speed, nothing else
            logger.info("seriesbook.site: cannot keep the icons' scan: %s", error)
    return sheet[1], list(sheet[2])
