"""Fuzzy translations shown to readers, marked "possibly outdated".

A message whose source text changed since it was translated is marked fuzzy by
``make update-po``. Sphinx then shows the source text instead (a Chinese paragraph in the
English edition, unexplained). With ``seriesbook_outdated_translations = True`` (the default)
Sphinx's ``gettext_allow_fuzzy_translations`` is set, the edition shows the old translation,
and every such passage gets the class ``seriesbook-outdated`` and a visible mark ("possibly
outdated", in the edition's language) whose tooltip names the source language and which links
to the same § in the source edition (``seriesbook_edition_url``). A section title keeps its
text: its mark follows it. Outside a web site (PDF, EPUB) the mark is plain text.

An outdated translation is text in the edition's language: it keeps the edition's ``lang``.
Sphinx compiles a ``.mo`` only when its ``.po`` is newer, so a ``.mo`` compiled with the other
setting is removed at ``builder-inited`` and compiled again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.mofile import read_mo
from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import CatalogRepository
from sphinx.util.nodes import extract_messages

from seriesbook.config import get_config, is_translated_edition, source_language
from seriesbook.editions._catalogs import load_catalog, read_catalog
from seriesbook.editions._coverage import catalog_path
from seriesbook.editions._ui import language_name, outdated_mark, outdated_tooltip

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog
    from sphinx.application import Sphinx
    from sphinx.config import Config

OUTDATED = "seriesbook_outdated"  # node attribute: the node shows a fuzzy translation
OUTDATED_CLASS = "seriesbook-outdated"
MARK_CLASS = "seriesbook-outdated-mark"


def allow_fuzzy(app: Sphinx, config: Config) -> None:
    """``config-inited``: the option sets Sphinx's ``gettext_allow_fuzzy_translations``."""
    if get_config(config).outdated_translations:
        config.gettext_allow_fuzzy_translations = True


def shows_fuzzy(config: Config) -> bool:
    """Whether this build shows fuzzy translations (whoever set Sphinx's option)."""
    return is_translated_edition(config) and bool(config.gettext_allow_fuzzy_translations)


def _fuzzy_translation(catalog: Catalog, msgid: str) -> bool:
    entry = catalog.get(msgid)
    return bool(entry is not None and entry.fuzzy and entry.string and entry.string != msgid)


class NoteOutdated(SphinxTransform):
    """Before ``Locale`` (priority 20): note the nodes it will give a fuzzy translation."""

    default_priority = 19

    def apply(self, **kwargs: Any) -> None:
        if not shows_fuzzy(self.config):
            return
        path = catalog_path(self.env, str(self.config.language), self.env.current_document.docname)
        catalog = read_catalog(path, self.config.source_encoding) if path is not None else None
        if catalog is None:
            return
        for node, msgid in extract_messages(self.document):
            if _fuzzy_translation(catalog, msgid):
                node[OUTDATED] = True


class KeepOutdated(SphinxTransform):
    """After ``Locale``: the noted nodes it translated get the class; the others lose the note."""

    default_priority = 25

    def apply(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.Element)):
            if OUTDATED not in node:
                continue
            if node.get("translated"):
                node["classes"].append(OUTDATED_CLASS)
            else:
                del node[OUTDATED]


def add_marks(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: a mark after each outdated passage, linked on a web site."""
    from seriesbook.site import is_website

    outdated = [node for node in doctree.findall(nodes.Element) if OUTDATED in node]
    if not outdated:
        return
    source = source_language(app.config)
    page = None
    if is_website(app):
        from seriesbook.editions._switcher import edition_link

        page = edition_link(app, docname, source)
    for node in outdated:
        mark = _mark(node, page, language_name(source))
        if isinstance(node, nodes.title) and isinstance(node.parent, nodes.Element):
            node.parent.insert(node.parent.index(node) + 1, nodes.paragraph("", "", mark))
        elif isinstance(node, nodes.TextElement):
            node += [nodes.Text(" "), mark]


def _mark(node: nodes.Element, page: str | None, source: str) -> nodes.Element:
    text = nodes.Text(outdated_mark())
    if page is None:
        return nodes.inline("", "", nodes.Text("("), text, nodes.Text(")"), classes=[MARK_CLASS])
    from seriesbook.sections import section_id, section_number_of

    number = section_number_of(node)
    anchor = f"#{section_id(number)}" if number is not None else ""
    return nodes.reference(
        "", "", text, refuri=page + anchor, reftitle=outdated_tooltip(source), classes=[MARK_CLASS]
    )


def recompile_stale_mo(app: Sphinx) -> None:
    """``builder-inited``: remove each ``.mo`` compiled with the other fuzzy setting, so Sphinx
    compiles it again (it compiles only a ``.mo`` older than its ``.po``)."""
    config = app.config
    if not is_translated_edition(config):
        return
    wanted = bool(config.gettext_allow_fuzzy_translations)
    repository = CatalogRepository(
        app.srcdir, config.locale_dirs, config.language, config.source_encoding
    )
    for info in repository.catalogs:
        mo_path = Path(info.mo_path)
        if not mo_path.is_file():
            continue
        catalog = load_catalog(Path(info.po_path), config.source_encoding).catalog
        fuzzy = next((m.id for m in catalog or () if m.id and m.fuzzy and m.string), None)
        if fuzzy is None:
            continue
        try:
            with mo_path.open("rb") as stream:
                compiled = fuzzy in read_mo(stream)
        except (OSError, ValueError, LookupError):
            compiled = not wanted  # unreadable: compile it again
        if compiled != wanted:
            mo_path.unlink(missing_ok=True)
