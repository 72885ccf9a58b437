"""Counting rules: what a document's rendered text contributes to the book's figures.

The text is gathered from the doctree as the reader sees it (titles, paragraphs, lists, tables,
admonitions, inline code, code blocks), leaving out what is not prose: Mermaid diagram source,
link URLs (an autolink's text is its URL), comments, raw markup, substitution definitions,
system messages, front matter (docinfo) and the translated edition's "not fully translated"
notice. Block elements are separated by a line break, so
inline markup never splits a word (``**foo**bar`` is one word) and blocks never join two.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docutils import nodes
from sphinxcontrib.mermaid import mermaid

from seriesbook.core.text import HAN

#: A maximal run of ``[A-Za-z0-9_]`` holding a letter, matched from its start only (the
#: lookbehind) and without backtracking: one match per English word.
ENGLISH_WORD = re.compile(r"(?<![A-Za-z0-9_])[0-9_]*+[A-Za-z][A-Za-z0-9_]*+")
HAN_RUN = re.compile(f"{HAN.pattern}+")

#: Elements whose text is not rendered prose; nothing inside them counts.
EXCLUDED: tuple[type[nodes.Node], ...] = (
    mermaid,
    nodes.comment,
    nodes.raw,
    nodes.substitution_definition,
    nodes.system_message,
    nodes.docinfo,
)
#: Classes of generated elements that are not the book's text (seriesbook.editions' notice).
EXCLUDED_CLASSES = frozenset({"seriesbook-translation-notice"})


@dataclass(frozen=True)
class TextCounts:
    """Chinese characters and English words of a text; ``words`` is their sum."""

    han: int
    english: int

    @property
    def words(self) -> int:
        return self.han + self.english


@dataclass(frozen=True)
class DocCounts:
    """What one document contributes, as counted at ``doctree-read``."""

    han: int
    english: int
    mermaid: int

    @property
    def words(self) -> int:
        return self.han + self.english


def count_text(text: str) -> TextCounts:
    """Han code points, and maximal ``[A-Za-z0-9_]`` runs holding at least one letter."""
    han = sum(map(len, HAN_RUN.findall(text)))
    return TextCounts(han=han, english=len(ENGLISH_WORD.findall(text)))


def _is_excluded(node: nodes.Element) -> bool:
    if isinstance(node, nodes.reference) and node.astext() == node.get("refuri"):
        return True  # an autolink: its text is the URL
    return not EXCLUDED_CLASSES.isdisjoint(node.get("classes", ()))


def _gather(node: nodes.Node, parts: list[str], diagrams: list[nodes.Node]) -> None:
    """*node*'s countable text onto *parts*, and every diagram in it (counted ones or not)
    onto *diagrams*: one walk for both."""
    if isinstance(node, nodes.Text):
        parts.append(str(node))
        return
    if isinstance(node, EXCLUDED) or (isinstance(node, nodes.Element) and _is_excluded(node)):
        diagrams.extend(node.findall(mermaid))
        return
    block = not isinstance(node, nodes.Inline)
    if block:
        parts.append("\n")
    for child in node.children:
        _gather(child, parts, diagrams)
    if block:
        parts.append("\n")


def gathered(doctree: nodes.Node) -> tuple[str, int]:
    """The document's countable text (blocks separated by line breaks) and its diagrams."""
    parts: list[str] = []
    diagrams: list[nodes.Node] = []
    _gather(doctree, parts, diagrams)
    return "".join(parts), len(diagrams)


def rendered_text(doctree: nodes.Node) -> str:
    """The document's countable text, blocks separated by line breaks."""
    return gathered(doctree)[0]


def count_doctree(doctree: nodes.Node) -> DocCounts:
    """Count one document's doctree by the rules above."""
    text, diagrams = gathered(doctree)
    counts = count_text(text)
    return DocCounts(han=counts.han, english=counts.english, mermaid=diagrams)
