"""Doors to docutils internals."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docutils import nodes


def detach_document(node: nodes.Node) -> None:
    """Forget the document *node* was copied from (``Node._document``, which docutils sets on
    copies and which drags the whole settings and environment into a pickle of the node)."""
    node.__dict__.pop("_document", None)
