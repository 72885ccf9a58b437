"""The notice at the top of a page that a translated edition has not fully translated yet.

It sits right under the page title, in the edition's language, with the page's percentage
(:func:`seriesbook.core.percent.floor_percent`: the number ``seriesbook stats`` shows). The node has
no source, so it is never a catalog message itself.
"""

from __future__ import annotations

from docutils import nodes

from seriesbook.core.percent import percent_text
from seriesbook.editions._coverage import Coverage
from seriesbook.editions._ui import language_name, notice_text, notice_title

NOTICE_CLASS = "seriesbook-translation-notice"


def notice(coverage: Coverage, source: str) -> nodes.admonition:
    percent = percent_text(coverage.percent)
    node = nodes.admonition("", classes=[NOTICE_CLASS, "warning"])
    node += nodes.title("", notice_title())
    node += nodes.paragraph("", notice_text(percent, language_name(source)))
    return node


def add_notice(document: nodes.document, coverage: Coverage, source: str) -> None:
    """Insert the notice under the page title (or first, on a page without one)."""
    if coverage.percent >= 100.0:
        return
    section = next(iter(document.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, notice(coverage, source))
    else:
        document.insert(0, notice(coverage, source))
