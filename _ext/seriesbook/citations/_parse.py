"""Recognize citations: ``[source:]path:LINE[-END]``, with or without a symbol.

A citation is recognized by its shape alone, so that an unsafe path (``../x.py:1``) is still a
citation and gets reported instead of silently staying plain text. A path needs a ``/`` or a
source suffix (``.py``, ``.h`` …): ``torch.add``, ``x:1`` and ``a/b`` are not citations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from seriesbook.core.config import DEFAULT_SOURCE_SUFFIXES
from seriesbook.core.numbers import canonical

#: The largest line number a citation may name; a longer one is a ``cite-line-range`` problem
#: (and is kept as ``MAX_LINE + 1``: no file has that many lines, and no ``int()`` of 5,000
#: digits is attempted).
MAX_LINE = 999_999_999

CITATION = re.compile(
    r"(?:(?P<source>[A-Za-z][\w-]*):)?(?P<path>[^:\s`]+)"
    r":(?P<start>\d+)(?:-(?P<end>\d+))?"
)
#: ``Symbol <citation>`` as written in the ``{src}`` role.
EXPLICIT = re.compile(r"^(?P<symbol>.+?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
#: In a message's text: a whole-literal citation or a ``{src}`` role.
_IN_TEXT = re.compile(
    r"\{src\}`(?P<role>[^`]+)`|(?<!`)(?P<ticks>`+)(?!`)(?P<literal>.+?)(?<!`)(?P=ticks)(?!`)"
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, order=True)
class Citation:
    """One cited line range; ``source`` is empty when the default source is meant."""

    source: str
    path: str
    start: int
    end: int
    symbol: str = ""

    @property
    def lines(self) -> str:
        return f"{self.start}" if self.end == self.start else f"{self.start}-{self.end}"

    def normalized(self) -> str:
        """The citation without its symbol, as ``[source:]path:START[-END]``."""
        prefix = f"{self.source}:" if self.source else ""
        return f"{prefix}{self.path}:{self.lines}"


def parse_citation(
    text: str, suffixes: Iterable[str] = DEFAULT_SOURCE_SUFFIXES, symbol: str = ""
) -> Citation | None:
    """The citation that *text* is as a whole, or None."""
    match = CITATION.fullmatch(text.strip())
    if match is None:
        return None
    path = match["path"]
    if "/" not in path and "\\" not in path and not path.endswith(tuple(suffixes)):
        return None
    start = line_number(match["start"])
    end = line_number(match["end"]) if match["end"] is not None else start
    return Citation(match["source"] or "", path, start, end, symbol)


def line_number(digits: str) -> int:
    """A written line number (ASCII or full-width digits); past :data:`MAX_LINE` → MAX_LINE + 1."""
    value = canonical(digits)
    return int(value) if len(value) <= len(str(MAX_LINE)) else MAX_LINE + 1


def parse_role(text: str, suffixes: Iterable[str] = DEFAULT_SOURCE_SUFFIXES) -> Citation | None:
    """The ``{src}`` role's content: ``path:LINE`` or ``Symbol <path:LINE>``."""
    explicit = EXPLICIT.match(text.strip())
    if explicit is None:
        return parse_citation(text, suffixes)
    return parse_citation(explicit["target"], suffixes, explicit["symbol"].strip())


def role_problem(text: str) -> str:
    """Why a ``{src}`` role's *text* is not a citation, told with the fix."""
    text = text.strip()
    target = re.fullmatch(r"\s*<(?P<target>[^<>]*)>", text)
    if target is not None:
        return (f"nothing before <{target['target']}>: write {{src}}`{target['target']}`, "
                f"or name the symbol, {{src}}`Symbol <{target['target']}>`")
    explicit = EXPLICIT.match(text)
    written = explicit["target"] if explicit else text
    return f"{written!r} is not a citation: expected [source:]path:LINE[-END]"


def find_citations(text: str, suffixes: Iterable[str] = DEFAULT_SOURCE_SUFFIXES) -> list[str]:
    """Normalized citations in a message's text (Markdown), in order of appearance.

    Used to compare a source message with its translation: inline literals that are a whole
    citation, ``{src}`` roles, and a message that is itself a citation (a code block caption).
    """
    if ":" not in text and "`" not in text:  # a citation has a colon, a literal or role backticks
        return []
    suffixes = tuple(suffixes)
    whole = parse_citation(text, suffixes)
    if whole is not None:
        return [whole.normalized()]
    found: list[str] = []
    for match in _IN_TEXT.finditer(text):
        if match["role"] is not None:
            citation = parse_role(match["role"], suffixes)
        else:
            citation = parse_citation(match["literal"], suffixes)
        if citation is not None:
            found.append(citation.normalized())
    return found


def unsafe_path(path: str) -> str:
    """Why *path* may not be read inside a source root ('' when it is safe)."""
    if not path:
        return "empty path"
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        return "absolute path"
    if "\\" in path:
        return "backslash in path"
    if _CONTROL.search(path):
        return "control character in path"
    parts = path.split("/")
    if ".." in parts:
        return "'..' in path"
    if any(part in ("", ".") for part in parts):
        return "empty part in path"
    return ""
