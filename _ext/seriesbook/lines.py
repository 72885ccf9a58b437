"""Source lines of MyST pipe-table cells, so a problem in a cell is reported at its row.

MyST gives every row, cell and cell paragraph of a pipe table the table's first line. A pipe
table is one source line per row (the header, the delimiter row, then one line per body row),
so each row's line follows from its position. Fixed before anything reads lines: the § and
citation warnings, the i18n ``Locale`` transform (a translated cell is reported at its row)
and gettext's ``#:`` locations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def _rows_without_lines(table: nodes.table) -> list[nodes.row] | None:
    """The rows of a MyST pipe table whose cells all sit at the table's line, else None."""
    if "colwidths-auto" not in table["classes"] or table.line is None:
        return None
    rows = list(table.findall(nodes.row))
    for row in rows:
        for entry in row.children:
            content = entry.children
            if len(content) > 1 or (content and not isinstance(content[0], nodes.paragraph)):
                return None  # a list-table (directive): its cells have their own lines
            if content and content[0].line not in (None, table.line):
                return None
    return rows


class TableCellLines(SphinxTransform):
    """Give each row of a pipe table its own source line (header, delimiter, body rows)."""

    default_priority = 5  # before Sphinx's Locale (20) and seriesbook's own transforms

    def apply(self, **kwargs: Any) -> None:
        for table in list(self.document.findall(nodes.table)):
            rows = _rows_without_lines(table)
            if not rows or table.line is None:
                continue
            for index, row in enumerate(rows):
                line = table.line + index + (1 if index else 0)  # skip the delimiter row
                for node in row.findall(nodes.Element):
                    if node.line in (None, table.line):
                        node.line = line


def setup(app: Sphinx) -> dict[str, Any] | ExtensionMetadata:
    app.add_transform(TableCellLines)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
