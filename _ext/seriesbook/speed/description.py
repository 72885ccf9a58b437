"""sphinx-book-theme's page description without the text of the whole page, nested many times.

For every page the theme's ``add_metadata_to_page`` (``html-page-context``) puts into the context
a ``page_description``: the text of every section, one after the other, cut to 160 characters.
It takes each section's whole text (``astext()``), and since sections nest, a chapter's text is
made again for each level it is inside: the work grows with the page's length times its depth,
to keep 160 characters.

Here the same characters come from the text's beginning only: :func:`page_description` walks
each section's nodes in ``astext()``'s order and stops once it has the 160 characters (a node
class with its own ``astext`` is asked for its whole text, as ``astext()`` would). The theme's
listener is given a handler that runs it without the doctree (it uses the doctree for this
alone) and then sets the description (:func:`seriesbook.compat.replace_listener`);
``tests/test_navigation.py`` pins the theme's code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes

from seriesbook import __version__
from seriesbook.speed._theme import replace_theme_listener

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

LENGTH = 160  # sphinx-book-theme's cut


def text_pieces(node: nodes.Node) -> Iterator[str]:
    """``node.astext()`` in pieces, in order, made only as far as they are taken."""
    if isinstance(node, nodes.Text) or type(node).astext is not nodes.Element.astext:
        yield node.astext()
        return
    assert isinstance(node, nodes.Element)
    separator = node.child_text_separator
    for index, child in enumerate(node.children):
        if index and separator:
            yield separator
        yield from text_pieces(child)


def page_description(doctree: nodes.Node, length: int = LENGTH) -> str:
    """The theme's description: each section's text, newlines as spaces, cut to *length*."""
    pieces: list[str] = []
    taken = 0
    for section in doctree.findall(nodes.section):
        for piece in text_pieces(section):
            pieces.append(piece)
            taken += len(piece)
            if taken >= length:
                return "".join(pieces).replace("\n", " ")[:length]
    return "".join(pieces).replace("\n", " ")[:length]


def _with_description(theme_handler: Callable[..., None]) -> Callable[..., None]:
    """The theme's ``add_metadata_to_page`` without its description, then ours."""

    def add_metadata_to_page(
        app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
    ) -> None:
        theme_handler(app, pagename, templatename, context, None)
        if doctree:  # the theme's test
            context["page_description"] = page_description(doctree)

    return add_metadata_to_page


def setup(app: Sphinx) -> ExtensionMetadata:
    replace_theme_listener(
        app, "sphinx_book_theme", "html-page-context", "add_metadata_to_page", _with_description
    )
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
