"""Where the book's citations are written: spans in the ``.md`` sources and in catalog strings.

Sources: the build's own doctrees say what a citation is (the literals, ``{src}`` roles and
excerpt captions that :mod:`seriesbook.citations` linked); :func:`..rewrite.locate_inline`
finds each in the ``.md`` text. A ``{src}`` role's span is its target (``path:LINES`` inside
``<…>``), never its symbol. Catalogs: a message's citations are found the way ``i18n-mismatch``
finds them (:data:`seriesbook.citations._parse` recognizers), in the msgid and the msgstr alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.nodes import extract_messages

from seriesbook.citations import (
    CITATION,
    EXPLICIT,
    IN_TEXT,
    ROLE_ATTRIBUTE,
    Citation,
    parse_citation,
)
from seriesbook.commands.rewrite import line_start, locate_inline, text_blocks

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment


@dataclass(frozen=True)
class Written:
    """One citation as written: ``text[start:end]`` is ``[source:]path:START[-END]``."""

    citation: Citation
    start: int
    end: int
    kind: str  #: ``literal``, ``role`` or ``excerpt``


def written_at(text: str, start: int, end: int, kind: str, suffixes: tuple[str, ...],
               symbol: str = "") -> Written | None:
    """The citation filling ``text[start:end]`` (surrounding blanks allowed), or None."""
    match = CITATION.fullmatch(text[start:end].strip())
    if match is None:
        return None
    lead = len(text[start:end]) - len(text[start:end].lstrip())
    citation = parse_citation(match[0], suffixes, symbol)
    if citation is None:
        return None
    return Written(citation, start + lead, start + lead + len(match[0]), kind)


def in_role(content: str, offset: int, suffixes: tuple[str, ...]) -> Written | None:
    """The target of a ``{src}`` role's *content* (which starts at *offset* in its text)."""
    explicit = EXPLICIT.match(content.strip())
    if explicit is None:
        return _shift(written_at(content, 0, len(content), "role", suffixes), offset)
    lead = len(content) - len(content.lstrip())
    target_start = lead + explicit.start("target")
    found = written_at(content, target_start, lead + explicit.end("target"), "role", suffixes,
                       explicit["symbol"].strip())
    return _shift(found, offset)


def _shift(found: Written | None, offset: int) -> Written | None:
    if found is None:
        return None
    return Written(found.citation, found.start + offset, found.end + offset, found.kind)


def in_message(value: str, suffixes: tuple[str, ...]) -> list[Written]:
    """Citations of a catalog string: the whole string (a caption), literals and roles."""
    whole = written_at(value, 0, len(value), "excerpt", suffixes)
    if whole is not None:
        return [whole]
    found: list[Written] = []
    for match in IN_TEXT.finditer(value):
        if match["role"] is not None:
            item = in_role(match["role"], match.start("role"), suffixes)
        else:
            item = written_at(value, match.start("literal"), match.end("literal"), "literal",
                              suffixes)
        if item is not None:
            found.append(item)
    return found


def _citation_literal(node: nodes.Node) -> nodes.literal | None:
    """The linked citation literal a located leaf is (or wraps)."""
    if isinstance(node, nodes.literal):
        return node
    if isinstance(node, nodes.reference) and len(node.children) == 1:
        child = node.children[0]
        return child if isinstance(child, nodes.literal) else None
    return None


def in_source(env: BuildEnvironment, docname: str, text: str,
              suffixes: tuple[str, ...]) -> Iterator[Written]:
    """Every citation the build read in *docname*, located in its ``.md`` *text*.

    The blocks the build links in (paragraphs, list items, table cells, captions) and section
    titles; a citation found nowhere is caught by comparing with the build's records.
    """
    for _, item in in_blocks(env.get_doctree(docname), text, suffixes):
        yield item


def read_in_messages(env: BuildEnvironment, suffixes: tuple[str, ...], texts: dict[str, str]
                     ) -> dict[str, tuple[set[str], set[str]]]:
    """Each message the book's texts give (Sphinx's own extraction) → the citations the build
    read in every one of those texts, and in any of them (normalized). A catalog message is
    rewritten only for the first: a diagram label, or any text the build reads no citation
    in, is never rewritten behind its back."""
    uses: dict[str, list[set[str]]] = {}
    for docname, text in texts.items():
        doctree = env.get_doctree(docname)
        by_block: dict[int, set[str]] = {}
        for block, item in in_blocks(doctree, text, suffixes):
            by_block.setdefault(id(block), set()).add(item.citation.normalized())
        for node, message in extract_messages(doctree):
            uses.setdefault(message, []).append(by_block.get(id(node), set()))
    # a message several texts give (a paragraph and a diagram label with the same words) is
    # rewritten only for the citations every one of them reads: else one would lose its text
    return {message: (set.intersection(*found), set.union(*found))
            for message, found in uses.items()}


def in_blocks(doctree: nodes.document, text: str,
              suffixes: tuple[str, ...]) -> Iterator[tuple[nodes.Element, Written]]:
    """:func:`in_source`, each citation with the block the build read it in."""
    titles = [t for t in doctree.findall(nodes.title) if isinstance(t.parent, nodes.section)]
    for block in [*text_blocks(doctree), *titles]:
        if block.line is None:
            continue
        block_start = line_start(text, block.line)
        if isinstance(block, nodes.caption):
            for caption in _caption(block, text, block_start, suffixes):
                yield block, caption
            continue
        cursor = block_start
        for leaf in locate_inline(block, text, block_start):
            literal = _citation_literal(leaf.node)
            if literal is None:
                cursor = max(cursor, leaf.end)
                continue
            if ROLE_ATTRIBUTE in literal:
                content = literal[ROLE_ATTRIBUTE]
                at = text.find("`" + content + "`", cursor)
                if at < 0 or at > leaf.end:
                    continue
                item: Written | None = in_role(content, at + 1, suffixes)
                cursor = at + len(content) + 2
            else:
                item = written_at(text, leaf.start, leaf.end, "literal", suffixes)
                cursor = leaf.end
            if item is not None:
                yield block, item


_CAPTION = re.compile(r"^[ \t]*:caption:[ \t]*(?P<text>.*?)[ \t]*$", re.MULTILINE)


def _caption(block: nodes.caption, text: str, start: int,
             suffixes: tuple[str, ...]) -> Iterator[Written]:
    """An excerpt's caption: the directive's ``:caption:`` option at or after the block's line."""
    if not (isinstance(block.parent, nodes.container) and block.parent.get("literal_block")):
        return
    match = _CAPTION.search(text, start)
    if match is not None and match["text"] == block.astext().strip():
        item = written_at(text, match.start("text"), match.end("text"), "excerpt", suffixes)
        if item is not None:
            yield item

