"""Translated editions from gettext catalogs, with the same anchors, links and diagrams.

Workflow (the book's Makefile): ``make gettext`` extracts one catalog template per page,
``make update-po LANGUAGES=en`` creates or updates ``locale/en/LC_MESSAGES/<page>.po`` with
sphinx-intl (translations kept, changed messages fuzzy), ``make html`` builds every edition in
``seriesbook_editions`` into ``_build/html/<language>/``. The first edition is the book's own
language; every other one is a *translated edition*.

* Diagrams (:mod:`._diagrams`): every text label of a Mermaid diagram is its own message; the
  translated edition renders the diagram with translated labels, structure untouched. A diagram
  that cannot be split is reported as ``i18n-diagram``.
* Anchors: the sections capability reads § numbers before translation, so ids are the same.
* ``i18n-mismatch`` (:mod:`._mismatch`): a translation that changed or dropped a § number or a
  citation, reported at the ``.po`` file and line.
* Coverage (:mod:`._coverage`): :func:`catalog_coverage` per page; a translated page below
  100% shows a notice with its percentage (:mod:`._notice`).
* Language switcher (:mod:`._switcher`): links to the same page, same anchor, in every other
  edition; ``seriesbook_edition_url`` is the link pattern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.transforms import SphinxTransform

from seriesbook import __version__
from seriesbook.config import book_editions, get_config, is_translated_edition, source_language
from seriesbook.editions import _diagrams, _titles
from seriesbook.editions._coverage import (
    Coverage,
    NoteMessages,
    catalog_coverage,
    catalog_path,
    count_messages,
    merge_messages,
    page_messages,
    purge_messages,
    read_catalog,
)
from seriesbook.editions._mismatch import Recognizer, check_catalog, differences
from seriesbook.editions._notice import add_notice
from seriesbook.editions._parsing import MystParser
from seriesbook.editions._switcher import add_static, add_switcher

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["Coverage", "catalog_coverage", "differences", "recognizers"]


def recognizers(config: Config) -> dict[str, Recognizer]:
    """What a translation must keep: § numbers (sections) and citations (citations)."""
    from seriesbook.citations import find_citations
    from seriesbook.sections import section_numbers

    suffixes = tuple(get_config(config).source_suffixes)
    return {
        "§ numbers": lambda text: ["§" + number for number in section_numbers(text)],
        "citations": lambda text: find_citations(text, suffixes),
    }


class CheckCatalogs(SphinxTransform):
    """Per page: check its catalogs (``i18n-mismatch``); in a translated edition, its notice.

    The book's own edition checks every translated edition's catalog of the page, so
    ``seriesbook check`` and the first ``make html`` build report mismatches too; a translated
    edition checks its own. Each catalog is a dependency of the page: editing it re-reads it.
    """

    default_priority = 30  # after Sphinx's Locale (20): the page is translated by now

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.current_document.docname
        if not is_translated_edition(self.config):
            for language in book_editions(self.config)[1:]:
                if (path := catalog_path(self.env, language, docname)) is not None:
                    self.env.note_dependency(path)
                    check_catalog(read_catalog(path), path, recognizers(self.config))
            return
        language = str(self.config.language)
        path = catalog_path(self.env, language, docname)
        catalog = read_catalog(path) if path is not None else None
        if path is not None and catalog is not None:
            check_catalog(catalog, path, recognizers(self.config))
        coverage = count_messages(page_messages(self.env).get(docname, ()), catalog)
        add_notice(self.document, coverage, language, source_language(self.config))


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.config")
    app.setup_extension("myst_parser")
    app.add_source_parser(MystParser, override=True)  # translated messages parse cheaply
    _diagrams.register(app)
    _titles.register(app)  # Locale's title mapping without a walk of the page per title
    app.add_transform(NoteMessages)
    app.add_transform(CheckCatalogs)
    app.connect("env-purge-doc", purge_messages)
    app.connect("env-merge-info", merge_messages)
    app.connect("config-inited", add_static)
    app.connect("html-page-context", add_switcher)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
