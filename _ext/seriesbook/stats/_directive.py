"""``{book-stats}``: the book table (and, with ``:chapters:``, the chapter table) in the book.

At read time the directive leaves a placeholder and records its page; at ``doctree-resolved``,
when every document has been counted, the placeholder becomes the tables. Labels are Chinese in
a ``zh`` build and English otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from seriesbook.core.config import get_config, language_key
from seriesbook.stats._collect import stats_pages
from seriesbook.stats.report import book_report, book_table, chapter_table

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx


class book_stats(nodes.General, nodes.Element):
    """Placeholder for the tables, replaced once all documents are known."""


class BookStats(SphinxDirective):
    """``{book-stats}`` with the optional flag ``:chapters:``."""

    option_spec: ClassVar[dict[str, Callable[[str], object]]] = {"chapters": directives.flag}

    def run(self) -> list[nodes.Node]:
        stats_pages(self.env).add(self.env.docname)
        node = book_stats(chapters="chapters" in self.options)
        self.set_source_info(node)
        return [node]


def _row(cells: list[str], uri: str | None = None) -> nodes.row:
    """A table row; with *uri* the first cell links there."""
    row = nodes.row()
    for index, cell in enumerate(cells):
        paragraph = nodes.paragraph()
        if index == 0 and uri is not None:
            paragraph += nodes.reference(cell, cell, internal=True, refuri=uri)
        else:
            paragraph += nodes.Text(cell)
        row += nodes.entry("", paragraph)
    return row


def _table(
    headers: list[str], rows: list[list[str]], kind: str, uris: list[str | None] | None = None
) -> nodes.table:
    table = nodes.table(classes=["seriesbook-stats", f"seriesbook-stats-{kind}"])
    tgroup = nodes.tgroup(cols=len(headers))
    table += tgroup
    tgroup += [nodes.colspec(colwidth=1) for _ in headers]
    tgroup += nodes.thead("", _row(headers))
    links = uris or [None] * len(rows)
    tgroup += nodes.tbody("", *(_row(row, uri) for row, uri in zip(rows, links, strict=True)))
    return table


def render_book_stats(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace each placeholder with the tables of the whole book."""
    placeholders = list(doctree.findall(book_stats))
    if not placeholders:
        return
    report = book_report(app)
    zh = language_key(app.config.language, ["zh"]) is not None
    patterns = get_config(app.config).chapter_patterns.values()
    book = book_table(report, zh=zh, patterns=patterns)
    uris: list[str | None] = [
        app.builder.get_relative_uri(docname, chapter["docname"]) for chapter in report["chapters"]
    ]
    for placeholder in placeholders:
        tables: list[nodes.Node] = [_table(*book, "book")]
        if placeholder["chapters"]:
            tables.append(_table(*chapter_table(report, zh=zh), "chapters", uris))
        placeholder.replace_self(tables)
