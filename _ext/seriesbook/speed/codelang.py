"""Code blocks given their language without a visitor's walk over every node of the page.

Sphinx's ``HighlightLanguageTransform`` (a post-transform: every page written) walks the whole
page with a ``NodeVisitor``, docutils logging a debug message for each node it visits, to give
each literal block the language of the ``highlight`` directive in force (a ``highlightlang``
node) or the project's default; a ``start_of_file`` node (a document merged into another)
starts afresh. A page holding neither gives every literal block the default.
:class:`QuickHighlightLanguage` finds such a page's literal blocks (by the class name the visitor
dispatches on) and has Sphinx's own visitor set each one; any other page takes Sphinx's walk.
The transform replaces Sphinx's (``compat.replace_post_transform``, which pins both classes'
code); ``seriesbook_speedups = False`` leaves Sphinx's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms.code import (
    HighlightLanguageTransform,
    HighlightLanguageVisitor,
)

from seriesbook import __version__, compat
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: The nodes whose visit changes the language in force (under the names the visitor sees).
_STATEFUL = frozenset({"document", "highlightlang", "start_of_file"})


class QuickHighlightLanguage(HighlightLanguageTransform):
    """Sphinx's transform, finding the literal blocks of a page that changes no language."""

    def apply(self, **kwargs: Any) -> None:
        document = self.document
        blocks: list[nodes.literal_block] = []
        for node in document.findall(nodes.Element):
            name = type(node).__name__
            if name == "literal_block":
                blocks.append(node)  # type: ignore[arg-type]
            elif name in _STATEFUL and node is not document:
                super().apply(**kwargs)
                return
        if type(document).__name__ != "document":
            super().apply(**kwargs)
            return
        visitor = HighlightLanguageVisitor(document, self.config.highlight_language)
        visitor.visit_document(document)
        for block in blocks:
            visitor.visit_literal_block(block)


def _replace(app: Sphinx) -> None:
    if get_config(app.config).speedups:
        compat.replace_post_transform(app, HighlightLanguageTransform, QuickHighlightLanguage)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    app.connect("builder-inited", _replace)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
