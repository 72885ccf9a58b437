"""The HTML builder ``serve`` writes with: Sphinx's own, the pages browsers show written first.

:class:`ServeApplication` registers it under the name ``html`` (``add_builder(override=True)``,
the public API) only when ``serve`` starts Sphinx, so every extension sees the ``html`` builder
it knows and the output is a normal HTML build's. The pages in :attr:`ServeHTMLBuilder.first`
are written before the others, and :attr:`ServeHTMLBuilder.on_written` is told at once, so the
browser can reload while the rest of the book is written.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from sphinx.builders.html import StandaloneHTMLBuilder

from seriesbook import __version__
from seriesbook.commands.checker import CheckApplication

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


class ServeHTMLBuilder(StandaloneHTMLBuilder):
    """Sphinx's HTML builder, writing the pages browsers show first."""

    name = "html"

    def init(self) -> None:
        super().init()
        self.first: frozenset[str] = frozenset()
        self.on_written: Callable[[list[str]], None] | None = None

    def write_documents(self, docnames: AbstractSet[str]) -> None:
        first = set(docnames) & self.first
        if first:
            super().write_documents(first)
            if self.on_written is not None:
                self.on_written(sorted(first))
        super().write_documents(set(docnames) - first)


class ServeApplication(CheckApplication):
    """Sphinx, with ``serve``'s HTML builder in place of the standard one."""

    def preload_builder(self, name: str) -> None:
        if name == ServeHTMLBuilder.name:
            self.setup_extension(__name__)
        super().preload_builder(name)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_builder(ServeHTMLBuilder, override=True)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
