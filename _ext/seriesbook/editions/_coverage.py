"""How much of each page a translated edition has: counted in its gettext catalog.

With ``gettext_compact = False`` every page ``<docname>`` has its own catalog
``<locale_dir>/<language>/LC_MESSAGES/<docname>.po``. A message is *translated* when it has a
translation and is not fuzzy (Sphinx ignores fuzzy translations), *fuzzy* when marked so
(``make update-po`` marks changed messages fuzzy), *untranslated* otherwise. Obsolete entries
(``#~``) are not counted. A page without a catalog counts its messages from the doctree, all
untranslated; in the source language every page is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.pofile import read_po
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from seriesbook.config import get_config

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment


@dataclass(frozen=True)
class Coverage:
    """The messages of one page in one language's catalog."""

    total: int
    translated: int
    fuzzy: int
    untranslated: int
    percent: float

    @classmethod
    def of(cls, total: int, translated: int, fuzzy: int) -> Coverage:
        percent = 100.0 if total == 0 else round(100.0 * translated / total, 1)
        if translated < total:  # rounding must never claim a page complete
            percent = min(percent, 99.9)
        return cls(total, translated, fuzzy, total - translated - fuzzy, percent)


def source_language(config: Config) -> str:
    """The book's own language: the first edition (``seriesbook_editions``)."""
    editions = get_config(config).editions
    return editions[0] if editions else str(config.language or "en")


def is_translated_edition(config: Config) -> bool:
    return bool(config.language) and config.language != source_language(config)


def catalog_path(env: BuildEnvironment, language: str, docname: str) -> Path | None:
    """The first existing ``.po`` of *docname* for *language* in ``locale_dirs``."""
    domain = docname_to_domain(docname, env.config.gettext_compact)
    for directory in env.config.locale_dirs:
        path = Path(env.srcdir, directory, language, "LC_MESSAGES", f"{domain}.po")
        if path.is_file():
            return path
    return None


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as stream:
        return read_po(stream, abort_invalid=False)


def count_catalog(catalog: Catalog) -> Coverage:
    total = translated = fuzzy = 0
    for message in catalog:
        if not message.id:
            continue  # the header
        total += 1
        if message.fuzzy:
            fuzzy += 1
        elif message.string:
            translated += 1
    return Coverage.of(total, translated, fuzzy)


def _doctree_messages(env: BuildEnvironment, docname: str) -> int:
    doctree = env.get_doctree(docname)
    return len({message for _, message in extract_messages(doctree)})


def page_coverage(env: BuildEnvironment, language: str, docname: str) -> Coverage:
    """*docname*'s coverage in *language* (see the module's docstring for the rules)."""
    if language == source_language(env.config):
        total = _doctree_messages(env, docname)
        return Coverage.of(total, total, 0)
    path = catalog_path(env, language, docname)
    if path is not None:
        return count_catalog(read_catalog(path))
    return Coverage.of(_doctree_messages(env, docname), 0, 0)


def catalog_coverage(app: Sphinx, language: str) -> dict[str, Coverage]:
    """Every page's coverage in *language*, by docname, from the ``locale_dirs`` catalogs."""
    env = app.env
    return {docname: page_coverage(env, language, docname) for docname in sorted(env.all_docs)}
