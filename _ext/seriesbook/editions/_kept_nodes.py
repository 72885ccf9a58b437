"""A kept message that is one paragraph of text, as its strings: made into nodes without pickle.

Most messages of a translated book are one paragraph of plain text. Unpickling each one's nodes
(the classes looked up, the attribute names and the text read again, ``Text.__new__`` called
from the pickle) was the largest part of what ``Locale`` costs with every parse kept (figures in
``benchmarks/RESULTS.md``). :func:`as_plain` gives such a parse's strings and numbers,
:func:`paragraph` makes the same nodes from them (:func:`seriesbook.compat.text_paragraph`): each
node of the same class with the same attributes, in the same order, as unpickling the kept copy
gives. :func:`as_plain` makes the nodes once from what it found and compares them with the parse,
attribute for attribute (:func:`seriesbook.compat.same_state`), so a parse of any other shape, or
a docutils whose nodes hold something else, is kept pickled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docutils import nodes

from seriesbook.compat import same_state, text_paragraph

#: (rawsource, text, line, source, the text's source, the text's line)
Plain = tuple[str, str, Any, Any, Any, Any]


def paragraph(plain: Plain) -> nodes.paragraph:
    """The paragraph :func:`as_plain` found, as unpickled."""
    return text_paragraph(*plain)


def is_plain(value: object) -> bool:
    """Whether *value* has the shape of :data:`Plain` (for a store's check of its entries)."""
    return (isinstance(value, tuple) and len(value) == 6
            and isinstance(value[0], str) and isinstance(value[1], str))


def as_plain(top: Sequence[nodes.Node]) -> Plain | None:
    """The strings of *top* (a parse's detached top-level nodes) if it is one paragraph of one
    text that :func:`paragraph` makes again exactly; else None."""
    if len(top) != 1 or type(top[0]) is not nodes.paragraph:
        return None
    node = top[0]
    if len(node.children) != 1 or type(node.children[0]) is not nodes.Text:
        return None
    text = node.children[0]
    plain: Plain = (node.rawsource, str(text), node.line, node.source, text.source, text.line)
    if not all(isinstance(value, str | int | None) for value in plain[2:]):
        return None
    return plain if same_state(paragraph(plain), node) else None
