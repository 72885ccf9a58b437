"""What the Chinese index adds to jieba's words, and how a reader's query is cut into its terms.

A page is indexed with jieba's ``cut_for_search`` words (as Sphinx does) *and* every pair of
adjacent Chinese characters of its text (Han bigrams, as Lucene's CJK analyzer does). Any
phrase of two or more Chinese characters that occurs in a page then has all its bigrams among
that page's terms, whatever jieba made of the sentence around it.

The browser cuts a query the same way :func:`split_query` does (its JavaScript twin is
``search/seriesbook-search.js``, tested to give the same parts): Latin words and identifiers as
Sphinx cuts them, and each run of Chinese characters segmented against the index's own terms by
forward and backward maximum matching, keeping the cut with fewer parts (backward on a tie).
Where no term starts, a bigram stands in; a run never leaves a single character behind.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from operator import add

from docutils import nodes

from seriesbook.core.text import HAN

#: A run of Chinese characters (the book's definition of one, from ``seriesbook.stats``).
HAN_RUN = re.compile(f"{HAN.pattern}+")
#: What Sphinx's ``splitQuery`` keeps: letters, numbers and the underscore.
WORD = re.compile(r"\w+")
#: Longest index term tried when matching a run (jieba's search words are shorter).
LONGEST_TERM = 8


def han_bigrams(text: str) -> list[str]:
    """Each pair of adjacent Chinese characters of *text*, once, in order of first occurrence."""
    pairs: dict[str, None] = {}
    for run in HAN_RUN.findall(text):
        pairs.update(dict.fromkeys(map(add, run, run[1:])))
    return list(pairs)


def inline_junctions(doctree: nodes.Node) -> dict[str, list[str]]:
    """Bigrams that span inline markup (``它把[第14章](…)``), by the text that precedes them.

    Sphinx splits each text node alone, so a bigram whose characters sit in two nodes of one
    paragraph (an auto-linked ``第14章``, ``**缓存**分配器``) would not be indexed.
    """
    junctions: dict[str, dict[str, None]] = {}
    for block in doctree.findall(nodes.TextElement):
        if isinstance(block, nodes.Inline) or isinstance(block.parent, nodes.TextElement):
            continue
        texts = [str(text) for text in block.findall(nodes.Text)]
        for before, after in pairwise(texts):
            if before and after and HAN.match(before[-1]) and HAN.match(after[0]):
                junctions.setdefault(before, {})[before[-1] + after[0]] = None
    return {text: list(pairs) for text, pairs in junctions.items()}


def diagram_texts(doctree: nodes.Node) -> tuple[dict[str, list[str]], set[str]]:
    """The source of each Mermaid diagram (whose labels readers see), by the text before it;
    and, from the same walk of the page, the text of its titles.

    Sphinx indexes text nodes only, and a diagram has none; its words are indexed with the
    nearest body text before it (after it, for a diagram that opens the page).
    """
    from sphinxcontrib.mermaid import mermaid

    found: dict[str, list[str]] = {}
    titles: set[str] = set()
    last: str | None = None
    waiting: list[str] = []
    for node in doctree.findall():
        if isinstance(node, mermaid):
            code = str(node.get("code", ""))
            if last is None:
                waiting.append(code)
            else:
                found.setdefault(last, []).append(code)
        elif isinstance(node, nodes.title):
            titles.add(node.astext())
        elif (
            isinstance(node, nodes.Text)
            and str(node).strip()
            and not isinstance(node.parent, nodes.title)
        ):
            last = str(node)
            if waiting:
                found.setdefault(last, []).extend(waiting)
                waiting = []
    return found, titles


def _forward(run: str, is_term: Callable[[str], bool]) -> list[str]:
    parts, start = [], 0
    while start < len(run):
        if start == len(run) - 1:  # one character left: the bigram ending with it
            parts.append(run[start - 1 :])
            break
        length = min(LONGEST_TERM, len(run) - start)
        while length > 2 and not is_term(run[start : start + length]):
            length -= 1
        parts.append(run[start : start + length])
        start += length
    return parts


def _backward(run: str, is_term: Callable[[str], bool]) -> list[str]:
    parts, end = [], len(run)
    while end > 0:
        if end == 1:  # one character left: the bigram starting with it
            parts.append(run[:2])
            break
        length = min(LONGEST_TERM, end)
        while length > 2 and not is_term(run[end - length : end]):
            length -= 1
        parts.append(run[end - length : end])
        end -= length
    return parts[::-1]


def segment_run(run: str, is_term: Callable[[str], bool]) -> list[str]:
    """Terms for one run of Chinese characters: the maximum-matching cut with fewer parts."""
    if len(run) < 2:
        return [run]
    forward, backward = _forward(run, is_term), _backward(run, is_term)
    return forward if len(forward) < len(backward) else backward


def split_query(query: str, is_term: Callable[[str], bool]) -> list[str]:
    """The parts of *query* a page must all match, each once, in order."""
    parts: dict[str, None] = {}
    for word in WORD.findall(query):
        position = 0
        for match in HAN_RUN.finditer(word):
            if match.start() > position:
                parts[word[position : match.start()]] = None
            parts.update(dict.fromkeys(segment_run(match.group(), is_term)))
            position = match.end()
        if position < len(word):
            parts[word[position:]] = None
    return list(parts)
