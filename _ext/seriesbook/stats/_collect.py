"""Per-document figures kept in the build environment, so ``-j`` and incremental builds agree.

Each document is counted once, at ``doctree-read`` (after every read transform, so a translated
edition counts its translated text; the counting of a text seen before is kept across builds,
:mod:`._kept`), and its figures live in the environment until the document is purged. Pages
holding ``{book-stats}`` are re-read whenever any document changed, so their table never shows
stale figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.environment.collectors import EnvironmentCollector

from seriesbook.stats._count import DocCounts, gathered
from seriesbook.stats._kept import text_counts

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

COUNTS_ATTR = "seriesbook_stats_counts"
PAGES_ATTR = "seriesbook_stats_pages"


def doc_counts(env: BuildEnvironment) -> dict[str, DocCounts]:
    """Docname → its counted figures (created empty on first use)."""
    counts: dict[str, DocCounts] | None = getattr(env, COUNTS_ATTR, None)
    if counts is None:
        counts = {}
        setattr(env, COUNTS_ATTR, counts)
    return counts


def stats_pages(env: BuildEnvironment) -> set[str]:
    """Docnames of the pages holding a ``{book-stats}`` table."""
    pages: set[str] | None = getattr(env, PAGES_ATTR, None)
    if pages is None:
        pages = set()
        setattr(env, PAGES_ATTR, pages)
    return pages


class StatsCollector(EnvironmentCollector):
    """Counts each document as it is read; purges, merges and refreshes the stats pages."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        doc_counts(env).pop(docname, None)
        stats_pages(env).discard(docname)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        counts, other_counts = doc_counts(env), doc_counts(other)
        for docname in docnames:
            if docname in other_counts:
                counts[docname] = other_counts[docname]
        stats_pages(env).update(stats_pages(other) & docnames)

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        text, diagrams = gathered(doctree)
        han, english = text_counts(app.env, text)  # count_doctree's figures, kept by text
        counts = DocCounts(han=han, english=english, mermaid=diagrams)
        doc_counts(app.env)[app.env.current_document.docname] = counts

    def get_outdated_docs(
        self,
        app: Sphinx,
        env: BuildEnvironment,
        added: Set[str],
        changed: Set[str],
        removed: Set[str],
    ) -> list[str]:
        if not (added or changed or removed):
            return []
        return sorted(stats_pages(env) - removed)
