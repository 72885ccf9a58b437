"""What a build reads of each catalog: made once from its parse, kept while its file is unchanged.

A build reads the catalogs of a translated edition's language many times: before Sphinx compiles
them (is each usable; is its ``.mo`` what Sphinx would write; which fuzzy translations it shows),
for each page (which messages are translated, fuzzy or missing; which translations lost a §
number, a chapter mention or a citation; which diagram labels cannot be shown), and for the status
page. Each of those used to walk Babel's parse of the catalog, and the parse and the mismatch
checks were done again by every build although catalogs rarely change.

:class:`CatalogFacts` is everything a build reads of one catalog, made from Babel's parse by
:func:`facts_of` alone: every reader in a build reads facts, never the parse, so facts kept from
an earlier build and facts made now give the same build. Facts warn nothing themselves: their
problems and mismatches are warnings their readers report, every build, at the same ``.po`` file
and line as before.

:func:`catalog_facts` makes a catalog's facts once per process and file state (path, size,
modification and change times, inode: a write changes the change time whatever the clock says),
like :func:`~._catalogs.load_catalog`. ``seriesbook-catalogs.pickle`` in the doctree directory
keeps them across builds (loaded at ``builder-inited``, written at ``build-finished``), valid for
one :func:`fingerprint` (Python, Babel, seriesbook and the code that makes facts), each entry
under its file's state and what else its facts depend on (the catalog's language, the source
encoding, ``gettext_allow_fuzzy_translations``, the source suffixes and chapter patterns that
recognize mentions and citations); anything else is an empty store. A catalog whose file changed
is parsed again. The file keeps the entries this build used and those whose file is unchanged.
``seriesbook_speedups = False`` keeps nothing across builds.

The facts also keep what gettext reads from the ``.mo`` compiled from the catalog
(:attr:`CatalogFacts.compiled`): a page's catalog is made from them, without reading its ``.mo``
again, where the file holds exactly those bytes (:func:`compiled_catalogs`, checked by its
SHA-256 once per file state); a ``.mo`` that is anything else is read by gettext.

Under ``-j`` the main process makes the facts of the catalogs of every page to be read, before
the readers fork (``env-before-read-docs``), so the file holds what the readers used.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import sys
import weakref
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from babel.messages.mofile import write_mo
from sphinx.util import logging

from seriesbook import __version__
from seriesbook.compat import (
    Compiled,
    CompiledState,
    compiled_state,
    filter_compiled_catalogs,
    translations_of,
)
from seriesbook.core.config import book_editions, get_config, is_translated_edition
from seriesbook.core.pagestore import dump_atomically, read_stored
from seriesbook.core.problems import Problem, warn
from seriesbook.editions._catalogs import (
    CatalogProblem,
    FileState,
    LoadedCatalog,
    catalog_path,
    file_state,
    parse_catalog,
)
from seriesbook.editions._machine import is_machine_converted
from seriesbook.editions._mismatch import Recognizer, _short, differences, html_markup, recognizers
from seriesbook.editions._previous import SUGGESTION_PREFIX, previous_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from gettext import GNUTranslations

    from babel.messages.catalog import Catalog
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.i18n import CatalogInfo

logger = logging.getLogger(__name__)

CACHE_NAME = "seriesbook-catalogs.pickle"
FORMAT = 2


class KeptEntry(NamedTuple):
    """What ``Catalog.get(msgid)`` gives a build: the parts of Babel's message it reads."""

    string: Any  # the msgstr (a tuple for a plural entry)
    fuzzy: bool
    lineno: int | None
    converted: bool  # machine-converted, not reviewed (:func:`._machine.is_machine_converted`)


#: How :attr:`CatalogFacts.entries` reads a message without an entry: no translation, not
#: fuzzy, no line, not machine-converted.
NO_ENTRY: tuple[Any, bool, int | None, bool] = ("", False, None, False)

#: (msgid, line, problems, problems if the msgid is a diagram label): a translation whose §
#: numbers, chapter mentions, citations or raw HTML differ from its source's.
Mismatch = tuple[str, "int | None", tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class CatalogFacts:
    """Everything a build reads of one catalog (see the module's docstring)."""

    problems: tuple[CatalogProblem, ...]  # reported before compiling, every build
    usable: bool  # else not compiled, and read as no catalog
    #: ``Catalog.get``'s entries, by its key (the msgid; a plural's first), as plain tuples
    entries: dict[str, tuple[Any, bool, int | None, bool]]
    mismatches: tuple[Mismatch, ...]
    #: the fuzzy translations shown (:func:`shown_fuzzy`, with the catalog's language)
    shown_fuzzy: frozenset[str]
    has_fuzzy: bool
    #: the translations the edition shows, one per msgid (the status page's titles)
    shown_strings: tuple[str, ...]
    #: each fuzzy message's previous text (``#|``), if the catalog has one
    previous: dict[str, str | None]
    mo_sha256: str  # of the ``.mo`` Sphinx's compile writes from it
    #: what gettext reads from that ``.mo`` (:func:`seriesbook.compat.compiled_state`), to give
    #: the pages their catalog without reading it again (:func:`compiled_catalogs`)
    compiled: CompiledState | None = None

    def get(self, msgid: str) -> KeptEntry | None:
        """As ``Catalog.get(msgid)`` (no context)."""
        entry = self.entries.get(msgid)
        return None if entry is None else KeptEntry(*entry)


def shown_fuzzy_of(catalog: Catalog, found: Mapping[str, Recognizer]) -> set[str]:
    """The fuzzy messages of *catalog* shown: translated (from this message's own earlier text,
    not a similar message's suggested by ``update-po``), and keeping their message's § numbers,
    chapter mentions and citations (*found*: the recognizers of the catalog's language)."""
    return {
        message.id
        for message in catalog
        if isinstance(message.id, str) and message.id and message.fuzzy
        and isinstance(message.string, str) and message.string and message.string != message.id
        and not any(comment.startswith(SUGGESTION_PREFIX) for comment in message.user_comments)
        and not differences(message.id, message.string, found)
    }


def mismatches_of(catalog: Catalog, found: Mapping[str, Recognizer]) -> tuple[Mismatch, ...]:
    """Every translated (not fuzzy) message of *catalog* whose numbers differ from its source's,
    with what differs; a diagram label's translation is never MyST, so its raw HTML is text."""
    as_label = {what: recognize for what, recognize in found.items()
                if recognize is not html_markup}
    mismatches: list[Mismatch] = []
    for message in catalog:
        if not message.id or message.fuzzy or not isinstance(message.string, str):
            continue
        if not message.string or message.string == message.id:
            continue
        problems = differences(str(message.id), message.string, found)
        if problems:
            label_problems = differences(str(message.id), message.string, as_label)
            mismatches.append((str(message.id), message.lineno, tuple(problems),
                               tuple(label_problems)))
    return tuple(mismatches)


def report_mismatches(
    mismatches: Iterable[Mismatch], path: Path, labels: Iterable[str] = ()
) -> int:
    """Warn about each mismatch at *path* and its line (*labels*: the page's diagram labels);
    return the count."""
    count = 0
    labels = set(labels)
    for msgid, lineno, problems, label_problems in mismatches:
        shown = label_problems if msgid in labels else problems
        if shown:
            count += 1
            warn(
                Problem.I18N_MISMATCH,
                f"the translation of {_short(str(msgid))!r} differs from its source in "
                + "; ".join(shown),
                f"{path}:{lineno}",
            )
    return count


def facts_of(
    loaded: LoadedCatalog, found: Mapping[str, Recognizer], allow_fuzzy: bool
) -> CatalogFacts:
    """The facts of a parsed catalog (*found*: its language's recognizers; *allow_fuzzy*:
    ``gettext_allow_fuzzy_translations``, for the ``.mo`` Sphinx writes)."""
    catalog = loaded.catalog
    if catalog is None:
        return CatalogFacts(tuple(loaded.problems), False, {}, (), frozenset(), False, (), {}, "")
    entries: dict[str, tuple[Any, bool, int | None, bool]] = {}
    previous: dict[str, str | None] = {}
    for message in catalog:
        if not message.id or message.context is not None:  # the header; Catalog.get(msgid)
            continue  # finds neither
        key = message.id if isinstance(message.id, str) else message.id[0]  # as Babel keys it
        entries[key] = (message.string, message.fuzzy, message.lineno,
                        is_machine_converted(message))
        if message.fuzzy:
            previous[key] = previous_text(message)
    shown = shown_fuzzy_of(catalog, found)
    strings = {
        str(m.id): str(m.string) for m in catalog
        if isinstance(m.id, str) and m.id and m.string and (not m.fuzzy or m.id in shown)
    }
    compiled = io.BytesIO()
    write_mo(compiled, catalog, allow_fuzzy)
    return CatalogFacts(
        problems=tuple(loaded.problems),
        usable=True,
        entries=entries,
        mismatches=mismatches_of(catalog, found),
        shown_fuzzy=frozenset(shown),
        has_fuzzy=any(message.fuzzy for message in catalog if message.id),
        shown_strings=tuple(strings.values()),
        previous=previous,
        mo_sha256=hashlib.sha256(compiled.getvalue()).hexdigest(),
        compiled=_sharing(compiled_state(compiled.getvalue()), entries),
    )


def _sharing(state: CompiledState | None, entries: Mapping[str, tuple[Any, ...]]) -> (
        CompiledState | None):
    """*state* whose catalog holds the very strings *entries* holds where they are equal, so a
    kept file stores each text once (pickle writes an object it has written as a reference)."""
    if state is None or not isinstance(catalog := state.get("_catalog"), dict):
        return state
    keys = {key: key for key in entries}  # each text: the very string entries holds
    shared: dict[Any, Any] = {}
    for key, value in catalog.items():
        entry = entries.get(key) if isinstance(key, str) else None
        if entry is None:
            shared[key] = value
        else:
            shared[keys[key]] = entry[0] if entry[0] == value else value
    return {**state, "_catalog": shared}


# --- before Sphinx compiles ---------------------------------------------------------------------


def check_before_compiling(
    app: Sphinx, then: Callable[[Sphinx, set[CatalogInfo]], None] | None = None
) -> None:
    """At ``builder-inited``: Sphinx compiles only the catalogs :func:`usable` lets through;
    *then* is called with them after Sphinx's compile (a second pass over their ``.mo``).

    Sphinx calls :meth:`~sphinx.builders.Builder.compile_catalogs` with the catalogs it means to
    compile (all, the outdated ones, or a page's) at the start of every build.
    """

    def compile_usable(
        compile_catalogs: Callable[[set[CatalogInfo], str], None],
        catalogs: set[CatalogInfo],
        message: str,
    ) -> None:
        usable_ones = {info for info in catalogs if usable(info, app.config)}
        written = {info for info in usable_ones if not compiled_already(info, app.config)}
        compile_catalogs(written, message)
        if then is not None:
            then(app, usable_ones)

    filter_compiled_catalogs(app.builder, compile_usable)


def compiled_already(info: CatalogInfo, config: Config) -> bool:
    """Whether *info*'s ``.mo`` (not older than its ``.po``) holds the very bytes Sphinx's
    compile would write: then compiling it again (``-a`` compiles every catalog, parsing each
    ``.po`` once more) changes nothing. The bytes are Babel's ``write_mo`` of the catalog
    seriesbook has parsed, with Sphinx's fuzzy setting (:attr:`CatalogFacts.mo_sha256`)."""
    if not get_config(config).speedups:
        return False
    po_path, mo_path = Path(info.po_path), Path(info.mo_path)
    facts = catalog_facts(config, po_path, str(config.language))
    try:
        if not facts.usable or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            return False
    except OSError:
        return False
    return mo_digest(mo_path) == facts.mo_sha256


_DIGESTS: dict[str, tuple[FileState, str]] = {}


def mo_digest(path: Path) -> str | None:
    """The SHA-256 of the file at *path* (None if it cannot be read), once per file state (as
    :func:`catalog_facts`): the build checks each ``.mo`` before compiling and each page's."""
    try:
        state = file_state(path)
        known = _DIGESTS.get(str(path))
        if known is not None and known[0] == state:
            return known[1]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
    if len(_DIGESTS) >= _MADE_LIMIT:
        _DIGESTS.clear()
    _DIGESTS[str(path)] = (state, digest)
    return digest


def compiled_catalogs(config: Config) -> Compiled | None:
    """The pages' ``.mo`` files gettext need not read (``compat.page_catalog``): a ``.mo`` of
    the edition's language whose bytes are those its ``.po``'s facts were compiled to gives
    the translations kept with those facts; None where nothing is kept across builds."""
    if not get_config(config).speedups:
        return None
    language = str(config.language)

    def known(mo_file: str) -> GNUTranslations | None:
        mo_path = Path(mo_file)
        po_path = mo_path.with_suffix(".po")
        if mo_path.parents[1].name != language or not po_path.is_file():
            return None
        facts = catalog_facts(config, po_path, language)
        if not facts.usable or facts.compiled is None or mo_digest(mo_path) != facts.mo_sha256:
            return None
        return translations_of(facts.compiled)

    return known


def usable(info: CatalogInfo, config: Config) -> bool:
    """Whether Sphinx may compile *info*; its problems are reported, a broken one loses its .mo."""
    facts = catalog_facts(config, Path(info.po_path), str(config.language))
    for problem in facts.problems:
        problem.report()
    if not facts.usable:
        Path(info.mo_path).unlink(missing_ok=True)  # no stale translations of it
        return False
    return True


# --- made once per file state, kept across builds -----------------------------------------------

#: (path, language, the rest facts depend on, file state)
Key = tuple[str, str, tuple[Any, ...], FileState]

_MADE: dict[Key, CatalogFacts] = {}  # this process's facts, and those loaded from the file
_MADE_LIMIT = 2048
_DEPENDS: weakref.WeakKeyDictionary[Config, dict[str, tuple[Any, ...]]] = (
    weakref.WeakKeyDictionary()
)


def _depends(config: Config, language: str) -> tuple[Any, ...]:
    """What a catalog's facts depend on besides its text: the reading, the ``.mo`` setting, the
    recognizers of *language* (once per configuration and language)."""
    from seriesbook.sections import edition_chapter_patterns

    known = _DEPENDS.setdefault(config, {})
    if language not in known:
        known[language] = (
            str(config.source_encoding),
            bool(config.gettext_allow_fuzzy_translations),
            tuple(get_config(config).source_suffixes),
            tuple(edition_chapter_patterns(config, language)),
        )
    return known[language]


def catalog_facts(config: Config, path: Path, language: str) -> CatalogFacts:
    """The facts of the *language* catalog at *path*, read as ``source_encoding``."""
    try:
        state = file_state(path)
    except OSError:
        loaded = parse_catalog(path, config.source_encoding)  # says why
        return facts_of(loaded, recognizers(config, language),
                        bool(config.gettext_allow_fuzzy_translations))
    key: Key = (str(path), language, _depends(config, language), state)
    facts = _MADE.get(key)
    if facts is None:
        loaded = parse_catalog(path, config.source_encoding)
        facts = facts_of(loaded, recognizers(config, language),
                         bool(config.gettext_allow_fuzzy_translations))
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        _MADE[key] = facts
    if (stored := _FILES.get(config)) is not None:
        stored.used.add(key)  # what the build's save keeps
    return facts


@cache
def fingerprint() -> tuple[Any, ...]:
    """What every kept facts depends on: Python, Babel, seriesbook, the code that makes them
    (this module, the parser and checks it calls, the recognizers of other capabilities)."""
    import babel

    from seriesbook.citations import find_citations
    from seriesbook.compat import PreviousParser
    from seriesbook.editions import _catalogs, _machine, _mismatch, _previous
    from seriesbook.sections import find_mentions

    files = {str(module.__file__) for module in (
        sys.modules[__name__], _catalogs, _machine, _mismatch, _previous)}
    files |= {inspect.getfile(code) for code in (find_citations, find_mentions, PreviousParser)}
    code = hashlib.sha256()
    for file in sorted(files):
        code.update(Path(file).read_bytes())
    return (FORMAT, sys.version, babel.__version__, __version__, code.hexdigest())


def _entry_ok(key: object, facts: object) -> bool:
    return isinstance(key, tuple) and len(key) == 4 and isinstance(facts, CatalogFacts)


class _Stored:
    """The kept file of one build, while it builds: its entries, and those the build used."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keys: frozenset[Key] = frozenset()
        self.used: set[Key] = set()


# Each build's kept file, by its configuration (what catalog_facts is given).
_FILES: weakref.WeakKeyDictionary[Config, _Stored] = weakref.WeakKeyDictionary()


def load(app: Sphinx) -> None:
    """``builder-inited``: the kept facts join this process's, before anything reads a catalog."""
    _FILES.pop(app.config, None)
    if not get_config(app.config).speedups:
        return
    stored = _Stored(Path(app.doctreedir) / CACHE_NAME)
    found = read_stored(stored.path, fingerprint())
    entries = found.get("catalogs") if found is not None else None
    if isinstance(entries, dict) and all(_entry_ok(k, v) for k, v in entries.items()):
        for key, facts in entries.items():
            _MADE.setdefault(key, facts)
        stored.keys = frozenset(entries)
    _FILES[app.config] = stored


def prepare(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: the facts of the catalogs the pages to be read check, made in
    the main process (forked readers inherit them, and the file keeps them)."""
    if app.config not in _FILES:
        return
    config = app.config
    languages = ([str(config.language)] if is_translated_edition(config)
                 else book_editions(config)[1:])
    for language in languages:
        for docname in docnames:
            if (path := catalog_path(env, language, docname)) is not None:
                catalog_facts(config, path, language)


def _unchanged(key: Key) -> bool:
    try:
        return key[3] == file_state(Path(key[0]))
    except OSError:
        return False


def save(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: keep the facts this build used, and those of unchanged files."""
    stored = _FILES.pop(app.config, None)
    if stored is None:
        return
    keys = {key for key in stored.used if key in _MADE}
    keys |= {key for key in stored.keys - keys if key in _MADE and _unchanged(key)}
    if keys == stored.keys and stored.path.is_file():
        return
    try:
        dump_atomically(stored.path, {"key": fingerprint(),
                                      "catalogs": {key: _MADE[key] for key in keys}})
    except OSError as error:  # a file that cannot be written costs speed, nothing else
        logger.info("seriesbook.editions: cannot save the kept catalog facts: %s", error)
