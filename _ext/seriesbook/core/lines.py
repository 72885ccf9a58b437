"""Source lines as the build counts them: where lines end, and MyST pipe-table cells' rows.

``LINE_END``: a line of a Markdown source ends at ``\\r\\n``, ``\\r`` or ``\\n``, as MyST's
markdown-it ends it (the lines docutils nodes carry), never at ``\\x0c``, ``\\x85`` or U+2028,
where ``str.splitlines`` would split. Every line number the build gives is counted this way.

MyST gives every row, cell and cell paragraph of a pipe table the table's first line. A pipe
table is one source line per row (the header, the delimiter row, then one line per body row),
so each row's line follows from its position. Fixed before anything reads lines: the § and
citation warnings, the i18n ``Locale`` transform (a translated cell is reported at its row)
and gettext's ``#:`` locations.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: Where a line of a Markdown source ends (markdown-it's rule).
LINE_END = re.compile(r"\r\n|\r|\n")


def _row_lines(table: nodes.table) -> list[tuple[nodes.row, int]] | None:
    """Each row of a MyST pipe table with its source line; None for any other table."""
    if "colwidths-auto" not in table["classes"] or table.line is None:
        return None
    rows = list(table.findall(nodes.row))
    lines = [table.line + index + (1 if index else 0) for index in range(len(rows))]
    for row, line in zip(rows, lines, strict=True):
        for entry in row.children:
            content = entry.children
            if len(content) > 1 or (content and not isinstance(content[0], nodes.paragraph)):
                return None  # a list-table (directive): its cells have their own lines
            if content and not table.line <= (content[0].line or line) <= line:
                return None  # not one line per row (a list-table with `:widths: auto`)
    return list(zip(rows, lines, strict=True))


class TableCellLines(SphinxTransform):
    """Give each row of a pipe table its own source line (header, delimiter, body rows).

    MyST leaves a cell's nodes at the table's line, or at the line of the last inline node it
    placed (an earlier row's): never after the row's own line, which is what they get.
    """

    default_priority = 5  # before Sphinx's Locale (20) and seriesbook's own transforms

    def apply(self, **kwargs: Any) -> None:
        for table in list(self.document.findall(nodes.table)):
            for row, line in _row_lines(table) or ():
                for node in row.findall(nodes.Element):
                    if node.line is None or node.line < line:
                        node.line = line


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    app.add_transform(TableCellLines)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
