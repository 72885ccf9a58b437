"""The translation status page of a translated edition, generated at build time.

``translation-status.html`` at the edition's root has the table of
:func:`~seriesbook.editions._report.translation_report` (per chapter, and per § section under
it: translated, possibly outdated, not translated, characters to do), each row linking to its
chapter or section, in the edition's language. The coverage notice of every page not fully
translated links to it. Only a web site has the page (not EPUB or PDF), so elsewhere the
notice has no link.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from seriesbook.core.config import is_translated_edition, language_tag, source_language
from seriesbook.core.escape import html_attribute, html_text
from seriesbook.core.percent import floor_percent, percent_text
from seriesbook.editions._facts import catalog_facts
from seriesbook.editions._report import translation_report
from seriesbook.editions._ui import (
    status_converted_header,
    status_headers,
    status_reviewed_header,
    status_summary,
    status_title,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

STATUS_PAGE = "translation-status"
STATUS_LINK = "seriesbook_status_link"  # reference attribute: the notice's link, made at write time
TABLE_CLASS = "seriesbook-translation-status"


def has_status_page(app: Sphinx) -> bool:
    """A translated edition's web site, unless the book has a page of that name itself."""
    from seriesbook.core.builders import is_website

    return (
        is_translated_edition(app.config)
        and is_website(app)
        and STATUS_PAGE not in app.env.all_docs
    )


def status_link() -> nodes.paragraph:
    """The notice's link to the status page (its address is set at write time)."""
    title = status_title()
    reference = nodes.reference("", title, refuri="", internal=True, **{STATUS_LINK: True})
    return nodes.paragraph("", "", reference)


def resolve_status_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: the notice's link points at the status page, or goes."""
    references = status_references(doctree)
    if not references:
        return
    uri = app.builder.get_relative_uri(docname, STATUS_PAGE) if has_status_page(app) else None
    for reference in references:
        if uri is not None:
            reference["refuri"] = uri
        elif isinstance(reference.parent, nodes.paragraph):
            reference.parent.parent.remove(reference.parent)


def status_references(doctree: nodes.Element) -> list[nodes.reference]:
    """The links :func:`status_link` made in *doctree* (a page, or pages assembled into one).

    Each is the first child of a paragraph, itself a child of a block (the notice); a block is
    never inside a text element, so only blocks are walked, not the text that is most of a
    page's nodes (``findall`` on every page cost a few times more).
    """
    found: list[nodes.reference] = []
    blocks: list[nodes.Element] = [doctree]
    while blocks:
        for child in blocks.pop().children:
            if isinstance(child, nodes.TextElement):
                if (isinstance(child, nodes.paragraph) and child.children
                        and isinstance(first := child.children[0], nodes.reference)
                        and first.get(STATUS_LINK)):
                    found.append(first)
            elif isinstance(child, nodes.Element):
                blocks.append(child)
    return found


def collect_status_page(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """``html-collect-pages``: the status page of a translated edition's web site."""
    if not has_status_page(app):
        return
    report = translation_report(app.env, str(app.config.language))
    title = status_title()
    yield STATUS_PAGE, {"title": title, "body": status_html(app, report, title)}, "page.html"


def _cells(counts: dict[str, Any], converted: bool = False) -> str:
    figures = [counts["translated"], counts["fuzzy"], counts["untranslated"], counts["todo_chars"]]
    if converted:  # an edition made by conversion: reviewed, then machine-converted apart
        machine = counts.get("machine_converted", 0)
        figures[0:1] = [counts["translated"] - machine, machine]
    return "".join(f"<td>{figure:,}</td>" for figure in figures)


class _Titles:
    """A title of the table as HTML, marked with the source language when the edition shows it
    untranslated (its page has no catalog, or no translation of it the edition shows)."""

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        self.language = str(app.config.language)
        self.source = html_attribute(language_tag(source_language(app.config)))
        self.shown: dict[str, set[str]] = {}

    def _translations(self, chapter: dict[str, Any]) -> set[str]:
        """The page's translations the edition shows, as their text reads (once per page: a
        chapter has a row per §), from the catalog the report read (its ``file``)."""
        docname = chapter["docname"]
        if docname not in self.shown:
            path = chapter["file"]
            facts = catalog_facts(self.app.config, Path(path), self.language) if path else None
            strings = facts.shown_strings if facts is not None else ()
            self.shown[docname] = {_plain(string) for string in strings}
        return self.shown[docname]

    def html(self, chapter: dict[str, Any], text: str) -> str:
        if text in self._translations(chapter):
            return html_text(text)
        return f'<span lang="{self.source}">{html_text(text)}</span>'


def _plain(markdown: str) -> str:
    """A title's translation as its text reads (without MyST's inline code and emphasis marks)."""
    if "`" not in markdown and "*" not in markdown:  # most translations: made plain for every
        return markdown  # title of the table, a page's hundreds at half the cost
    return markdown.replace("`", "").replace("*", "")


def status_html(app: Sphinx, report: dict[str, Any], title: str) -> str:
    """The page's body: the title, the edition's percentage and the table."""
    from seriesbook.sections import section_id

    total = report["translated"] + report["fuzzy"] + report["untranslated"]
    percent = percent_text(floor_percent(report["translated"], total))
    converted = bool(report.get("machine_converted"))
    headers = status_headers()
    if converted:
        headers[1:2] = [status_reviewed_header(), status_converted_header()]
    head = "".join(f'<th scope="col">{html_text(header)}</th>' for header in headers)
    titles = _Titles(app)
    rows = []
    for chapter in report["chapters"]:
        uri = app.builder.get_relative_uri(STATUS_PAGE, chapter["docname"])
        rows.append(
            f'<tr class="{TABLE_CLASS}-chapter"><th scope="row"><a href="{html_attribute(uri)}">'
            f"{titles.html(chapter, chapter['title'])}</a></th>"
            f"{_cells(chapter, converted)}</tr>"
        )
        for section in chapter["sections"]:
            if section["number"] is None:
                continue
            anchor = f"{uri}#{section_id(section['number'])}"
            rows.append(
                f'<tr class="{TABLE_CLASS}-section"><td><a href="{html_attribute(anchor)}">'
                f"{titles.html(chapter, section['title'])}</a></td>"
                f"{_cells(section, converted)}</tr>"
            )
    summary = status_summary(percent, report["translated"], total)
    return (
        f'<section id="{STATUS_PAGE}">\n<h1>{html_text(title)}</h1>\n<p>{html_text(summary)}</p>\n'
        f'<table class="{TABLE_CLASS} docutils">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>\n</section>\n"
    )
