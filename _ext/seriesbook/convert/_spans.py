"""The prose of a message: what conversion may touch, and what it must leave byte for byte.

A message is MyST inline text (a paragraph, a title, a Mermaid label). Only CJK text changes
under OpenCC, so ASCII code, URLs, ``file:line`` citations and ``#sec-`` anchors would survive
anyway; what needs protecting is CJK inside them (a code span's Chinese comment, a role's
target, a link's destination). markdown-it's inline tokens carry no source offsets, so the
protected spans are found by one small tokenisation, defined here and nowhere else:

* a code span: a run of backticks up to the next run of the same length (CommonMark), with a
  role name right before it (``{src}`…```) kept with it;
* a link or image destination: ``](`` up to its closing ``)`` (the link text is prose);
* an angle-bracket span without spaces inside ``<…>`` (autolink) or an HTML tag;
* a bare URL (``http://``, ``https://``), up to white space, a CJK character or a closing bracket;
* a ``{{ substitution }}`` and a ``(target)=`` label.

Everything else is prose. Joined back, the pieces are the message unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PROTECTED = re.compile(
    r"""
      (?:\{[A-Za-z0-9_:+.-]+\})?(?P<ticks>`+).+?(?<!`)(?P=ticks)(?!`)   # {role}`code`, ``code``
    | \]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"[^"]*")?\)          # ](destination "title")
    | <[^<>\s]+(?:\s[^<>]*)?>                                          # <autolink>, <tag …>
    | https?://[^\s\u3000-\u9fff\uff00-\uffef)\]>]+                   # a bare URL
    | \{\{.*?\}\}                                                      # {{ substitution }}
    | ^\([^()\s]+\)=                                                   # (target)=
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)


@dataclass(frozen=True)
class Piece:
    """A part of a message: prose (converted) or protected (kept as written)."""

    text: str
    prose: bool


def pieces(message: str) -> list[Piece]:
    """*message* cut into prose and protected pieces, in order; their texts join to it."""
    found: list[Piece] = []
    at = 0
    for match in _PROTECTED.finditer(message):
        if match.start() > at:
            found.append(Piece(message[at : match.start()], True))
        found.append(Piece(match.group(), False))
        at = match.end()
    if at < len(message):
        found.append(Piece(message[at:], True))
    return found


def protected(message: str) -> list[str]:
    """The protected pieces of *message*, in order (what a conversion must keep)."""
    return [piece.text for piece in pieces(message) if not piece.prose]
