"""The manual's reference tables, made from the code so they cannot drift from it.

* ``{seriesbook-options}``: every field of :class:`seriesbook.core.config.SeriesbookConfig`,
  as ``conf.py`` names it, with its type, default and help text;
* ``{seriesbook-problems}``: every code of :class:`seriesbook.core.problems.Problem` with its
  meaning (the warning subtype ``seriesbook.<code>``).

Each directive writes a Markdown table and lets MyST parse it, so the help texts' backticks
become code as everywhere else in the manual.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.statemachine import StringList
from seriesbook.core.config import PREFIX, option_default, option_fields
from seriesbook.core.problems import Problem
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

_ROLE = re.compile(r":\w+:(`[^`]+`)")  # :func:`x` reads as `x` in Markdown


def _cell(text: str) -> str:
    return _ROLE.sub(r"\1", text).replace("|", r"\|").replace("\n", " ")


def _code(value: Any) -> str:
    text = repr(value)
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}".replace("|", r"\|")


def options_table() -> list[str]:
    rows = ["| option | type | default | meaning |", "|:---|:---|:---|:---|"]
    for f in option_fields():
        rows.append(
            f"| `{PREFIX}{f.name}` | `{f.type}` | {_code(option_default(f))} "
            f"| {_cell(f.metadata['help'])} |"
        )
    return rows


def problems_table() -> list[str]:
    rows = ["| code | meaning |", "|:---|:---|"]
    rows += [f"| `{problem.code}` | {_cell(problem.__doc__ or '')} |" for problem in Problem]
    return rows


class _Table(SphinxDirective):
    def rows(self) -> list[str]:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        container = nodes.container(classes=["seriesbook-reference"])
        self.state.nested_parse(StringList(self.rows(), source=self.get_source_info()[0]),
                                self.content_offset, container)
        return list(container.children)


class OptionsTable(_Table):
    def rows(self) -> list[str]:
        return options_table()


class ProblemsTable(_Table):
    def rows(self) -> list[str]:
        return problems_table()


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("seriesbook-options", OptionsTable)
    app.add_directive("seriesbook-problems", ProblemsTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
