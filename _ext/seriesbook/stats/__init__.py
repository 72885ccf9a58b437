"""The book's scale table and chapter gates, computed during the build.

Each document is counted at ``doctree-read`` (see :mod:`seriesbook.stats._count` for the rules)
into the build environment. From those figures, and from ``seriesbook.sections`` (§ sections and
references), ``seriesbook.citations`` (citations, excerpts) and ``seriesbook.editions``
(translation coverage) when they are loaded, come:

* the ``{book-stats}`` directive: the book table (``:chapters:`` adds the chapter table);
* the chapter gates, none by default; a book sets its own, e.g. ``seriesbook_gates =
  {"min_han": 6500, "min_mermaid": 4, "min_excerpts": 2}`` (this repository's ``conf.py``),
  for chapters not marked ``status: draft``: warnings ``gate-han``, ``gate-mermaid``,
  ``gate-excerpts`` at the chapter's file, once per build after reading;
* ``seriesbook stats [--format markdown|json]`` (:mod:`seriesbook.stats.report`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.core.config import is_translated_edition
from seriesbook.stats import _kept
from seriesbook.stats._collect import StatsCollector
from seriesbook.stats._directive import BookStats, render_book_stats
from seriesbook.stats._gates import gate_minimums, warn_failed_gates
from seriesbook.stats.report import chapter_reports

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata


def _check_gates(app: Sphinx, env: BuildEnvironment) -> None:
    """Gate the author's text: a translated edition (fewer Chinese characters) is not gated."""
    if is_translated_edition(app.config):
        return
    minimums = gate_minimums(app.config)
    for chapter in chapter_reports(app):
        warn_failed_gates(chapter, minimums)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.add_env_collector(StatsCollector)
    app.connect("env-before-read-docs", _kept.load)
    app.connect("env-merge-info", _kept.merge)
    app.connect("env-updated", _kept.save)
    app.add_directive("book-stats", BookStats)
    app.connect("env-check-consistency", _check_gates)
    app.connect("doctree-resolved", render_book_stats)
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
