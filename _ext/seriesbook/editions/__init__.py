"""Translated editions from gettext catalogs, with the same anchors, links and diagrams.

Workflow (the book's Makefile): ``make gettext`` extracts one catalog template per page,
``make update-po LANGUAGES=en`` creates or updates ``locale/en/LC_MESSAGES/<page>.po`` with
sphinx-intl (translations kept, changed messages fuzzy), ``make html`` builds every edition in
``seriesbook_editions`` into ``_build/html/<language>/``. The first edition is the book's own
language; every other one is a *translated edition*.

* Diagrams (:mod:`._diagrams`): every text label of a Mermaid diagram is its own message; the
  translated edition renders the diagram with translated labels, structure untouched, each
  shown by mermaid exactly as written. A diagram that cannot be split, or a translation mermaid
  cannot show as written (then that label stays untranslated), is ``i18n-diagram``.
* Anchors: the sections capability reads § numbers before translation, so ids are the same.
* ``i18n-mismatch`` (:mod:`._mismatch`): a translation that changed or dropped a § number, a
  chapter mention or a citation, reported at the ``.po`` file and line.
* ``i18n-catalog`` (:mod:`._catalogs`): a catalog that cannot be read or parsed (not used, the
  other catalogs and editions untouched), a duplicate msgid, a catalog of no page. Sphinx compiles
  only the catalogs seriesbook has read without error.
* Coverage (:mod:`._coverage`): :func:`catalog_coverage` per page; a translated page below
  100% shows a notice with its percentage (:mod:`._notice`).
* Language marks (:mod:`._marks`): in a translated edition, text still in the book's language
  (untranslated messages, pages without a catalog, diagrams, toctree captions) carries
  ``lang`` (and ``xml:lang`` in EPUB) of the source language.
* Language switcher (:mod:`._switcher`): links to the same page, same anchor, in every other
  edition; ``seriesbook_edition_url`` is the link pattern.
* Translators (``seriesbook update-po``, :mod:`._update`): the previous text of every fuzzy
  entry kept as ``#|`` lines (:mod:`._previous`), translations of moved text reused across the
  language's catalogs. ``seriesbook translations`` (:mod:`._report`): per chapter and § what
  is left, each fuzzy message with its change; the same table is each translated edition's
  status page (:mod:`._status`). Fuzzy translations are shown, marked possibly outdated
  (:mod:`._outdated`, ``seriesbook_outdated_translations``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from sphinx.transforms import SphinxTransform
from sphinx.transforms.i18n import Locale

from seriesbook import __version__, compat
from seriesbook.compat import PreviousParser
from seriesbook.core.config import (
    book_editions,
    is_translated_edition,
    source_language,
)
from seriesbook.editions import _diagrams, _facts, _kept_messages, _marks, _titles, _walked
from seriesbook.editions._catalogs import (
    CatalogProblem,
    catalog_path,
    parse_catalog,
    report_orphans,
)
from seriesbook.editions._coverage import (
    Coverage,
    NoteMessages,
    catalog_coverage,
    count_messages,
    merge_messages,
    page_messages,
    purge_messages,
)
from seriesbook.editions._diagrams import diagram_label
from seriesbook.editions._facts import (
    CatalogFacts,
    catalog_facts,
    check_before_compiling,
    report_mismatches,
)
from seriesbook.editions._locale import QuickLocale
from seriesbook.editions._machine import MARK as MACHINE_MARK
from seriesbook.editions._machine import fingerprint, is_machine_converted
from seriesbook.editions._machine import mark_of as machine_mark
from seriesbook.editions._marks import mark_toctree_captions
from seriesbook.editions._mismatch import differences, recognizers
from seriesbook.editions._notice import NOTICE_CLASS, add_notice
from seriesbook.editions._outdated import (
    KeepOutdated,
    NoteOutdated,
    add_marks,
    compile_shown_fuzzy,
    count_outdated,
    may_have_outdated,
    merge_pages,
    purge_pages,
    recompile_stale_mo,
    start_pages,
)
from seriesbook.editions._parsing import MystParser
from seriesbook.editions._previous import (
    COMMENT_PREFIX,
    SUGGESTION_PREFIX,
    previous_text,
    write_catalog,
)
from seriesbook.editions._report import (
    fuzzy_entries,
    marked_change,
    report_text,
    translation_report,
    unusable_catalog,
)
from seriesbook.editions._status import collect_status_page, resolve_status_links
from seriesbook.editions._switcher import add_static, add_switcher, edition_link
from seriesbook.editions._ui import (
    CATALOG,
    diagram_words,
    download_tooltip,
    html_lang,
    theme_words,
)

if TYPE_CHECKING:
    from pathlib import Path

    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "CATALOG",
    "COMMENT_PREFIX",
    "MACHINE_MARK",
    "NOTICE_CLASS",
    "SUGGESTION_PREFIX",
    "CatalogProblem",
    "Coverage",
    "PreviousParser",
    "catalog_coverage",
    "diagram_label",
    "diagram_words",
    "differences",
    "download_tooltip",
    "edition_link",
    "fingerprint",
    "fuzzy_entries",
    "html_lang",
    "is_machine_converted",
    "machine_mark",
    "mark_toctree_captions",
    "marked_change",
    "parse_catalog",
    "previous_text",
    "recognizers",
    "report_text",
    "theme_words",
    "translation_report",
    "unusable_catalog",
    "write_catalog",
]


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
                    if (facts := catalog_facts(self.config, path, language)).usable:
                        self._check(facts, path)  # else its edition says why
            return
        language = str(self.config.language)
        path = catalog_path(self.env, language, docname)
        usable = None
        if path is not None and (facts := catalog_facts(self.config, path, language)).usable:
            usable = facts
        if path is not None and usable is not None:
            self._check(usable, path)
        coverage = count_messages(page_messages(self.env).get(docname, ()), usable)
        # shown, marked (seriesbook_outdated_…); none where none was noted
        outdated = count_outdated(self.document) if may_have_outdated(self.env, docname) else 0
        add_notice(self.document, coverage, source_language(self.config), outdated)

    def _check(self, facts: CatalogFacts, path: Path) -> None:
        labels = _walked.found(self.document, diagram_label)  # NoteMessages' walk found them
        if labels is None:
            labels = list(self.document.findall(diagram_label))
        report_mismatches(facts.mismatches, path, (str(node["message"]) for node in labels))
        _diagrams.check_labels(labels, facts, path)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.setup_extension("myst_parser")
    app.add_source_parser(MystParser, override=True)  # translated messages parse cheaply
    # ... and once: the parses are kept across builds in the doctree directory
    app.connect("env-before-read-docs", _kept_messages.load)
    app.connect("env-merge-info", _kept_messages.merge)
    app.connect("env-updated", _kept_messages.save)
    # ... and Locale does not publish again what it would throw away
    compat.replace_transform(app, Locale, QuickLocale)
    # diagrams: their labels are messages of the catalog, translated before Locale
    app.setup_extension("sphinxcontrib.mermaid")
    skip = (_diagrams.skip_node, None)
    app.add_node(diagram_label, html=skip, latex=skip, texinfo=skip, text=skip, man=skip)
    app.add_directive("mermaid", _diagrams.TranslatableMermaid, override=True)
    app.add_transform(_diagrams.TranslateLabels)
    app.setup_extension("seriesbook.editions._ui")  # the switcher's and notice's words
    if _titles.sphinx_method_is_pinned():  # else another Sphinx: its own walk of the page
        # Locale's title mapping without a walk of the page per translated title
        compat.replace_node_updater(_titles.IndexedNodeUpdater)
        app.add_transform(_titles.OpenTitleIndex)
        app.add_transform(_titles.CloseTitleIndex)
    # untranslated text says its language (lang="zh-CN"; xml:lang too in EPUB)
    app.add_transform(_marks.MarkSourceText)
    app.connect("html-page-context", _marks.mark_page, priority=600)  # after the theme's
    app.connect("html-page-context", _marks.mark_epub_root)
    app.connect("html-page-context", _marks.tag_page_language)
    app.set_translator("epub", _marks.XmlLangTranslator, override=True)
    app.add_transform(NoteMessages)
    app.add_transform(NoteOutdated)  # fuzzy translations shown, marked (seriesbook_outdated_…)
    app.add_transform(KeepOutdated)
    app.add_transform(CheckCatalogs)
    app.connect("env-purge-doc", purge_messages)
    app.connect("env-merge-info", merge_messages)
    app.connect("env-before-read-docs", start_pages)
    app.connect("env-purge-doc", purge_pages)
    app.connect("env-merge-info", merge_pages)
    app.connect("config-inited", add_static)
    # what a build reads of each catalog, kept across builds while its file is unchanged
    app.connect("builder-inited", _facts.load, priority=100)  # before any catalog is read
    app.connect("env-before-read-docs", _facts.prepare)
    app.connect("build-finished", _facts.save)
    # Sphinx compiles only usable catalogs, then the fuzzy translations shown go into the .mo
    app.connect("builder-inited", partial(check_before_compiling, then=compile_shown_fuzzy))
    app.connect("builder-inited", recompile_stale_mo)
    app.connect("env-before-read-docs", report_orphans)
    app.connect("html-page-context", add_switcher)
    app.connect("doctree-resolved", add_marks)
    app.connect("doctree-resolved", resolve_status_links)
    app.connect("html-collect-pages", collect_status_page)
    return {
        "version": __version__,
        "env_version": 2,  # 2: each message's § (seriesbook translations, the status page)
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
