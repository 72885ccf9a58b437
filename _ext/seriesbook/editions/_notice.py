"""The notice at the top of a page that a translated edition has not fully translated yet.

It sits right under the page title, in the edition's language, with the page's percentage
(:func:`seriesbook.core.percent.floor_percent`: the number ``seriesbook stats`` shows), the number
of passages shown in a possibly outdated translation (:mod:`._outdated`) and a link to the
edition's translation status page (:mod:`._status`). The node has no source, so it is never a
catalog message itself.
"""

from __future__ import annotations

from docutils import nodes

from seriesbook.core.percent import percent_text
from seriesbook.editions._coverage import Coverage
from seriesbook.editions._marks import language_class
from seriesbook.editions._status import status_link
from seriesbook.editions._ui import language_name, notice_outdated, notice_text, notice_title

NOTICE_CLASS = "seriesbook-translation-notice"


def notice(coverage: Coverage, source: str, outdated: int = 0) -> nodes.admonition:
    """The notice; *outdated* passages show a possibly outdated translation, marked."""
    percent = percent_text(coverage.percent)
    node = nodes.admonition("", classes=[NOTICE_CLASS, "warning"])
    node += nodes.title("", notice_title())
    text = notice_text(percent, SOURCE_NAME)
    if outdated:
        text += " " + notice_outdated(outdated)
    node += notice_paragraph(text, source)
    node += status_link()
    return node


SOURCE_NAME = "\x00"  # where the notice names the book's language


def notice_paragraph(text: str, source: str) -> nodes.paragraph:
    """The notice's words in the edition's language; the book's language named in its own
    (``简体中文``), marked as such."""
    before, named, after = text.partition(SOURCE_NAME)
    if not named:  # a translation of the notice that does not name the language
        return nodes.paragraph("", before)
    name = nodes.inline("", language_name(source), classes=[language_class(source)])
    return nodes.paragraph("", "", nodes.Text(before), name, nodes.Text(after))


def add_notice(
    document: nodes.document, coverage: Coverage, source: str, outdated: int = 0
) -> None:
    """Insert the notice under the page title (or first, on a page without one)."""
    if coverage.percent >= 100.0:
        return
    section = next(iter(document.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, notice(coverage, source, outdated))
    else:
        document.insert(0, notice(coverage, source, outdated))
