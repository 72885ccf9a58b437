"""The edition's catalogs, read safely: a broken ``.po`` is a problem, never a crash.

Sphinx compiles each ``.po`` of the edition's language into a ``.mo`` before reading
(``gettext_auto_build``) with Babel, which prints what it cannot parse to stdout without a file
name, and crashes on bytes that are not in ``source_encoding``. So every catalog Sphinx is
about to compile is first read with :func:`parse_catalog` (for its facts, :mod:`._facts`): one
that cannot be read, decoded or parsed is ``i18n-catalog`` at its file and line, is not compiled
(a stale ``.mo`` is removed, so its page shows the book's own text) and is skipped everywhere
else (checks, coverage); the other catalogs and editions are untouched.
A duplicate msgid (Babel keeps the first), a header declaring another charset than the one the
file is read in (Sphinx reads every catalog in ``source_encoding``, whatever it declares: an
ISO-8859-1 header over Chinese text would be compiled wrong) and a catalog whose page no longer
exists are ``i18n-catalog`` too. ``seriesbook update-po`` reads catalogs with the same
:func:`parse_catalog` and stops at any of these problems.
"""

from __future__ import annotations

import codecs
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError
from sphinx.util.i18n import CatalogRepository, docname_to_domain

from seriesbook.compat import PreviousParser
from seriesbook.core.problems import Problem, warn
from seriesbook.editions._mismatch import _short

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


@dataclass(frozen=True)
class CatalogProblem:
    """Why a catalog (or one of its entries) is not used as written."""

    path: Path
    line: int | None
    message: str

    def report(self) -> None:
        # a location without a line would be taken for a docname: the whole file is its line 1
        warn(Problem.I18N_CATALOG, self.message, f"{self.path}:{self.line or 1}")


class _CheckedCatalog(Catalog):
    """A Babel catalog that notes every msgid it is given twice (Babel keeps the first)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_lines: dict[tuple[object, object], int] = {}
        self.duplicates: list[tuple[Message, int]] = []

    def __setitem__(self, id: Any, message: Message) -> None:
        key = (id, message.context)
        if id and key in self.first_lines:
            self.duplicates.append((message, self.first_lines[key]))
        elif id and message.lineno is not None:
            self.first_lines[key] = message.lineno
        super().__setitem__(id, message)


@dataclass
class LoadedCatalog:
    catalog: Catalog | None
    problems: list[CatalogProblem] = field(default_factory=list)


# Catalogs read in this process, by file state: a build reads each catalog at least twice
# (before compiling it, and for its page's coverage and checks), and Babel's parser is slow.
_LOADED: dict[tuple[str, str, int, int, int, int], LoadedCatalog] = {}
_LOADED_LIMIT = 512


#: A file's state as the kept catalogs key it: size, modification and change times, inode (a
#: write changes the change time whatever the clock says).
FileState = tuple[int, int, int, int]


def file_state(path: Path) -> FileState:
    """The state of the file at *path* (``OSError`` if there is none)."""
    state = path.stat()
    return (state.st_size, state.st_mtime_ns, state.st_ctime_ns, state.st_ino)


def load_catalog(path: Path, encoding: str = "utf-8-sig") -> LoadedCatalog:
    """Read *path* as Sphinx would (*encoding* is ``source_encoding``), collecting problems.

    A file read before and not changed since (same size, inode, modification and change times)
    is not parsed again: its :class:`LoadedCatalog` is shared and must not be changed by users.
    """
    try:
        key = (str(path), encoding, *file_state(path))
    except OSError:
        return parse_catalog(path, encoding)  # reports why
    loaded = _LOADED.get(key)
    if loaded is None:
        if len(_LOADED) >= _LOADED_LIMIT:
            _LOADED.clear()
        loaded = _LOADED[key] = parse_catalog(path, encoding)
    return loaded


def parse_catalog(path: Path, encoding: str = "utf-8-sig") -> LoadedCatalog:
    """Read *path* afresh (never shared: the caller may change it), collecting its problems."""
    try:
        data = path.read_bytes()
    except OSError as error:
        message = f"cannot read the catalog: {error.strerror or error}; it is not used"
        return LoadedCatalog(None, [CatalogProblem(path, None, message)])
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        byte = data[error.start : error.start + 1].hex()
        message = f"not {encoding.removesuffix('-sig')}: byte 0x{byte}; the catalog is not used"
        return LoadedCatalog(None, [CatalogProblem(path, line, message)])
    catalog = _CheckedCatalog()
    try:
        PreviousParser(catalog, abort_invalid=True).parse(io.StringIO(text))  # with its #| lines
    except PoFileError as error:
        message = f"not a valid .po file: {error.args[0]}; the catalog is not used"
        return LoadedCatalog(None, [CatalogProblem(path, error.lineno + 1, message)])
    except (ValueError, LookupError, TypeError) as error:  # Babel on a bad header, plural forms
        message = f"not a valid .po file: {error}; the catalog is not used"
        return LoadedCatalog(None, [CatalogProblem(path, None, message)])
    declared = _charset_problem(path, catalog, encoding, text)
    if declared is not None:
        return LoadedCatalog(None, [declared])
    problems = [
        CatalogProblem(
            path,
            message.lineno,
            f"duplicate msgid {_short(str(message.id))!r} (first at line {first}); "
            "the first translation is used",
        )
        for message, first in catalog.duplicates
    ]
    return LoadedCatalog(catalog, problems)


def _charset_problem(
    path: Path, catalog: Catalog, encoding: str, text: str
) -> CatalogProblem | None:
    """A header declaring a charset the file is not read in (Babel keeps what it declares)."""
    declared = str(catalog.charset or "utf-8")
    if declared.upper() == "CHARSET":  # a template's placeholder (xgettext)
        return None
    line = next(
        (number for number, content in enumerate(text.split("\n"), 1)
         if "charset=" in content.lower()),
        1,
    )
    try:
        known = codecs.lookup(declared).name
    except LookupError:
        return CatalogProblem(path, line, f"declares charset {declared!r}, which is not a "
                              f"known encoding; declare charset=UTF-8: the catalog is not used")
    if known != codecs.lookup(encoding.removesuffix("-sig")).name:
        read_as = encoding.removesuffix("-sig").upper()
        return CatalogProblem(path, line, f"declares charset {declared!r}, but catalogs are "
                              f"read as {read_as} (source_encoding); declare charset={read_as}: "
                              "the catalog is not used")
    return None


def read_catalog(path: Path, encoding: str = "utf-8-sig") -> Catalog | None:
    """The catalog at *path*, or None if it cannot be used (its problems are reported at start)."""
    return load_catalog(path, encoding).catalog


def catalog_path(env: BuildEnvironment, language: str, docname: str) -> Path | None:
    """The first existing ``.po`` of *docname* for *language* in ``locale_dirs``."""
    domain = docname_to_domain(docname, env.config.gettext_compact)
    for directory in env.config.locale_dirs:
        path = Path(env.srcdir, directory, language, "LC_MESSAGES", f"{domain}.po")
        if path.is_file():
            return path
    return None


def report_orphans(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """At ``env-before-read-docs``: catalogs of the edition whose page does not exist."""
    config = app.config
    domains = {docname_to_domain(docname, config.gettext_compact) for docname in env.found_docs}
    repository = CatalogRepository(
        app.srcdir, config.locale_dirs, config.language, config.source_encoding
    )
    for info in repository.catalogs:
        if info.domain not in domains and info.domain != "sphinx":  # sphinx.po: Sphinx's own
            CatalogProblem(
                Path(info.po_path),
                None,
                f"no page {info.domain!r} in the book: the catalog is not used (remove it, or "
                "restore the page)",
            ).report()
