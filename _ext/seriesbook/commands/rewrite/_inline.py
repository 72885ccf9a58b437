"""Where the build's inline nodes are in the author's text, found by walking the doctree.

Docutils nodes carry a line, not character offsets. The inline children of a block (a
paragraph, a list item's paragraph, a caption …) appear in the source in document order, and a
text node's text is the source text (MyST keeps it verbatim), so the block's leaves are found one
after another from the block's first line on: a text piece, an inline literal, a link's text, a
§ mention the build linked, a role by its ``{name}`content``` form. Each leaf is searched from
where the previous one ended, so ``§4.2`` inside `` `§4.2` `` is the literal's and a later
``§4.2`` in prose is the mention's. The same walk aligns a block with its catalog message (a
message is the block's source with line breaks as spaces). A backslash escape (``\\*``, which
the reader turns into ``*``) is allowed before any ASCII punctuation, so a leaf next to or
containing one is still found where it is written; a leaf that is still not found (an HTML
entity, say) is skipped, and the search goes on from the previous leaf: callers report what they
needed and did not get (:func:`locate_inline` returns only what it found).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from dataclasses import dataclass

from docutils import nodes
from sphinx import addnodes

from seriesbook.sections import MENTION, NO_LINK_TAGNAMES, NO_LINKS


@dataclass(frozen=True)
class Located:
    """A leaf node of a block and its span ``[start, end)`` in the text it was aligned with."""

    node: nodes.Node
    start: int
    end: int


def is_role(node: nodes.Node) -> bool:
    """A role's node (MyST gives it the rawsource ``:name:`content```)."""
    raw = getattr(node, "rawsource", "")
    return isinstance(raw, str) and raw.startswith(":") and raw.endswith("`") and ":`" in raw


def role_name(node: nodes.Node) -> str:
    """The ``name`` of a role node's ``:name:`content```."""
    raw: str = getattr(node, "rawsource", "")
    return raw[1:raw.index(":`")]


def role_content(node: nodes.Node) -> str:
    """The ``content`` of a role node's ``:name:`content```."""
    raw: str = getattr(node, "rawsource", "")
    return raw[raw.index(":`") + 2:-1]


def _needle(node: nodes.Node) -> str:
    if is_role(node):
        return f"`{role_content(node)}`"
    return node.astext()


def _is_leaf(element: nodes.Element) -> bool:
    """A node located as a whole: a mention or role, or what the build never links inside."""
    if isinstance(element, addnodes.pending_xref) and MENTION in element:
        return True
    return (is_role(element) or isinstance(element, NO_LINKS)
            or getattr(element, "tagname", "") in NO_LINK_TAGNAMES)


def _leaves(element: nodes.Element) -> Iterator[nodes.Node]:
    for child in element.children:
        if isinstance(child, nodes.Element) and not _is_leaf(child):
            yield from _leaves(child)
        else:
            yield child


_ESCAPABLE = frozenset(string.punctuation)


def find_written(text: str, wanted: str, start: int, stop: int) -> tuple[int, int] | None:
    """Where *wanted* (text as read) is written in ``text[start:stop]``: verbatim, or with a
    backslash before some of its ASCII punctuation (the escapes the reader removed)."""
    at = text.find(wanted, start, stop)
    if text.find("\\", start, stop if at < 0 else at) < 0 or not _ESCAPABLE.intersection(wanted):
        return (at, at + len(wanted)) if at >= 0 else None
    # an escaped form may come first: the earliest of either, in one search
    pattern = "".join(("\\\\?" + re.escape(c)) if c in _ESCAPABLE else re.escape(c)
                      for c in wanted)
    match = re.compile(pattern).search(text, start, stop)
    return match.span() if match else None


def locate_inline(block: nodes.Element, text: str, start: int = 0,
                  stop: int | None = None) -> list[Located]:
    """The leaves of *block* found in ``text[start:stop]``, in order (see the module doc)."""
    stop = len(text) if stop is None else stop
    cursor = start
    found: list[Located] = []
    for leaf in _leaves(block):
        if isinstance(leaf, nodes.Text):
            for piece in str(leaf).split("\n"):
                piece = piece.strip()
                if piece and (span := find_written(text, piece, cursor, stop)):
                    found.append(Located(leaf, *span))
                    cursor = span[1]
            continue
        needle = _needle(leaf)
        if not needle or not (span := find_written(text, needle, cursor, stop)):
            continue
        at, end = span
        if is_role(leaf):  # the span covers the whole {name}`content`
            prefix = "{" + role_name(leaf) + "}"
            if text.startswith(prefix, at - len(prefix)):
                at -= len(prefix)
        found.append(Located(leaf, at, end))
        cursor = found[-1].end
        uri = leaf.get("refuri") if isinstance(leaf, nodes.Element) else None
        if uri and (at := text.find(uri, cursor, stop)) >= 0 and at - cursor <= 3:
            cursor = at + len(uri)  # a link's URL follows its text: never a mention
    return found


def text_blocks(doctree: nodes.Node) -> Iterator[nodes.TextElement]:
    """The blocks whose inline content the build links: paragraphs, list text, captions …"""
    for node in doctree.findall(nodes.TextElement):
        if isinstance(node, nodes.Inline | nodes.FixedTextElement | nodes.title):
            continue
        parent = node.parent
        if any(isinstance(a, NO_LINKS) for a in _ancestors(parent)):
            continue
        yield node


def _ancestors(node: nodes.Node | None) -> Iterator[nodes.Node]:
    while node is not None:
        yield node
        node = node.parent
