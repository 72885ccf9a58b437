"""Fuzzy translations shown to readers, marked "possibly outdated".

A message whose source text changed since it was translated is marked fuzzy by
``make update-po``. Sphinx then shows the source text instead (a Chinese paragraph in the
English edition, unexplained). With ``seriesbook_outdated_translations = True`` (the default)
the edition shows the old translation, and every such passage gets the class
``seriesbook-outdated`` and a visible mark ("possibly outdated", in the edition's language)
whose tooltip names the source language and which links to the same § in the source edition
(``seriesbook_edition_url``). A section title keeps its text: its mark follows it. Outside a
web site (PDF, EPUB) the mark is plain text.

A fuzzy translation is shown only when it keeps its (new) message's § numbers, chapter mentions
and citations (:func:`~._mismatch.differences`): one that would link elsewhere than the source,
or to a section that is gone, is not shown (the source text is). So the edition's links never
depend on work not checked yet, and ``seriesbook check`` has nothing to say about fuzzy entries.
The ``.mo`` of a catalog with fuzzy entries is compiled with those shown (:func:`compile_mo`,
after Sphinx's own compile); Sphinx compiles a ``.mo`` only when its ``.po`` is newer, so one
compiled with the other setting is removed at ``builder-inited`` and compiled again.
An outdated translation is text in the edition's language: it keeps the edition's ``lang``.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import CatalogInfo, CatalogRepository

from seriesbook.core.config import get_config, is_translated_edition, source_language
from seriesbook.editions._catalogs import catalog_path, load_catalog
from seriesbook.editions._facts import catalog_facts
from seriesbook.editions._messages import page_messages_of
from seriesbook.editions._ui import language_name, outdated_mark, outdated_tooltip

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

OUTDATED = "seriesbook_outdated"  # node attribute: the node shows a fuzzy translation
OUTDATED_CLASS = "seriesbook-outdated"
MARK_CLASS = "seriesbook-outdated-mark"


def shows_fuzzy(config: Config) -> bool:
    """Whether this build shows fuzzy translations (``seriesbook_outdated_translations``)."""
    return is_translated_edition(config) and get_config(config).outdated_translations


class NoteOutdated(SphinxTransform):
    """Before ``Locale`` (priority 20): note the nodes it will give a fuzzy translation."""

    default_priority = 19

    def apply(self, **kwargs: Any) -> None:
        if not shows_fuzzy(self.config):
            return
        language = str(self.config.language)
        path = catalog_path(self.env, language, self.env.current_document.docname)
        facts = catalog_facts(self.config, path, language) if path is not None else None
        if facts is None or not facts.usable:
            return
        shown = facts.shown_fuzzy
        if not shown:  # most catalogs: no page node to note, no walk of the page
            return
        noted = False
        for node, msgid in page_messages_of(self.document, self.config):
            if msgid in shown:
                node[OUTDATED] = noted = True
        if noted and (pages := noted_pages(self.env)) is not None:
            pages.add(self.env.current_document.docname)


#: Environment attribute: the pages :class:`NoteOutdated` noted a node of (no other page has
#: one: the walks looking for them skip the others, where ``seriesbook_speedups`` is on). It
#: is made before a build reads every page, so an environment of an earlier seriesbook, which
#: lacks it, has the walks everywhere until then.
PAGES_ATTR = "seriesbook_outdated_pages"


def noted_pages(env: BuildEnvironment) -> set[str] | None:
    """The pages noted, or None if not known (an environment that lacks the record)."""
    pages: set[str] | None = getattr(env, PAGES_ATTR, None)
    return pages


def start_pages(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: a build that reads every page notes them from nothing."""
    if noted_pages(env) is None and set(env.found_docs) <= set(docnames):
        setattr(env, PAGES_ATTR, set())


def may_have_outdated(env: BuildEnvironment, docname: str | None = None) -> bool:
    """Whether page *docname* (any page, if None: a doctree may hold several) may hold a
    noted node; always, with ``seriesbook_speedups = False`` or where not known."""
    pages = noted_pages(env)
    if pages is None or not get_config(env.config).speedups:
        return True
    return bool(pages) if docname is None else docname in pages


def purge_pages(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    if (pages := noted_pages(env)) is not None:
        pages.discard(docname)


def merge_pages(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    pages, theirs = noted_pages(env), noted_pages(other)
    if pages is not None and theirs is not None:
        pages.update(set(docnames) & theirs)


class KeepOutdated(SphinxTransform):
    """After ``Locale``: the noted nodes it translated get the class; the others lose the note."""

    default_priority = 25

    def apply(self, **kwargs: Any) -> None:
        if not shows_fuzzy(self.config):
            return
        if not may_have_outdated(self.env, self.env.current_document.docname):
            return
        for node in list(self.document.findall(nodes.Element)):
            if OUTDATED not in node:
                continue
            if node.get("translated"):
                node["classes"].append(OUTDATED_CLASS)
            else:
                del node[OUTDATED]


def count_outdated(document: nodes.document) -> int:
    """How many passages of the page show a possibly outdated translation (after
    :class:`KeepOutdated`)."""
    return sum(1 for node in document.findall(nodes.Element) if OUTDATED in node)


def add_marks(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: a mark after each outdated passage, linked on a web site."""
    from seriesbook.core.builders import is_website

    if not shows_fuzzy(app.config) or not may_have_outdated(app.env):
        return
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


def compile_mo(info: CatalogInfo, config: Config) -> None:
    """Compile *info*'s ``.mo`` again with its shown fuzzy translations (a catalog without fuzzy
    entries keeps Sphinx's ``.mo``)."""
    facts = catalog_facts(config, Path(info.po_path), str(config.language))
    catalog = load_catalog(Path(info.po_path), config.source_encoding).catalog if (
        facts.has_fuzzy) else None
    if catalog is None:
        return
    shown = facts.shown_fuzzy
    compiled = Catalog(charset="utf-8")  # lookups only: no plural forms in the book
    for message in catalog:
        if message.id and (not message.fuzzy or message.id in shown):
            compiled.add(message.id, message.string, context=message.context)
    stream = io.BytesIO()
    write_mo(stream, compiled)
    mo_path = Path(info.mo_path)
    partial = mo_path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(stream.getvalue())
    partial.replace(mo_path)


def compile_shown_fuzzy(app: Sphinx, catalogs: set[CatalogInfo]) -> None:
    """After Sphinx compiled *catalogs*: their ``.mo`` again with the fuzzy translations shown."""
    if shows_fuzzy(app.config):
        for info in catalogs:
            compile_mo(info, app.config)


def recompile_stale_mo(app: Sphinx) -> None:
    """``builder-inited``: remove each ``.mo`` compiled with the other setting, so Sphinx
    compiles it again (it compiles only a ``.mo`` older than its ``.po``)."""
    config = app.config
    if not is_translated_edition(config):
        return
    wanted = shows_fuzzy(config)
    repository = CatalogRepository(
        app.srcdir, config.locale_dirs, config.language, config.source_encoding
    )
    for info in repository.catalogs:
        mo_path = Path(info.mo_path)
        if not mo_path.is_file():
            continue
        facts = catalog_facts(config, Path(info.po_path), str(config.language))
        fuzzy = min(facts.shown_fuzzy, default=None)
        if fuzzy is None:
            continue
        try:
            with mo_path.open("rb") as stream:
                compiled = fuzzy in read_mo(stream)
        except (OSError, ValueError, LookupError):
            compiled = not wanted  # unreadable: compile it again
        if compiled != wanted:
            mo_path.unlink(missing_ok=True)
