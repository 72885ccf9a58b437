"""A citation's preview: the cited lines highlighted by Pygments, with the source's license.

The lines are the ones verification read (local copy or lock), so a preview shows exactly the
source's text at the pinned release. Pygments' short classes (``k``, ``s2``, …) inside a
``.highlight`` block take the theme's colours, like the book's own code blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Name, Punctuation, Text, Whitespace
from pygments.util import ClassNotFound

if TYPE_CHECKING:
    from pygments.lexer import Lexer

    from seriesbook.citations import CitationRecord

#: Licenses of the sources this series cites, by repository (a source's ``license`` wins).
KNOWN_LICENSES: dict[str, str] = {
    "github.com/pytorch/pytorch": "BSD-3-Clause",
    "github.com/vllm-project/vllm": "Apache-2.0",
}
#: Token types no theme colours: written as plain text, no ``<span>`` (previews stay small).
PLAIN = frozenset({Text, Whitespace, Name, Punctuation})
#: Pygments would read a header as C; PyTorch's are C++.
LEXER_BY_SUFFIX: dict[str, str] = {".h": "cpp", ".cuh": "cuda", ".in": "text"}


def source_license(spec: dict[str, Any]) -> str:
    """The source's ``license``, else the known license of its repository ('' when unknown)."""
    if spec.get("license"):
        return str(spec["license"])
    repo = str(spec.get("repo", "")).rstrip("/").removesuffix(".git")
    return KNOWN_LICENSES.get(repo.split("://", 1)[-1].lower(), "")


def _lexer(path: str) -> Lexer:
    """Pygments' lexer for *path*, keeping the text exactly (no stripped or added newlines)."""
    return _lexer_for_name(path.rsplit("/", 1)[-1])


# Pygments chooses a lexer by the file's name alone (without code to guess from), by matching
# it against every lexer's patterns, and its lexers keep no state between texts: one lexer per
# name, not a pattern search and a new lexer for each of a book's hundreds of citations.
@cache
def _lexer_for_name(name: str) -> Lexer:
    suffix = name[name.rfind("."):] if "." in name else ""
    try:
        if suffix in LEXER_BY_SUFFIX:
            return get_lexer_by_name(LEXER_BY_SUFFIX[suffix], stripnl=False, ensurenl=False)
        return get_lexer_for_filename(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return get_lexer_by_name("text", stripnl=False, ensurenl=False)


@cache
def _formatter() -> HtmlFormatter[str]:
    """One formatter for every preview (building one makes Pygments' whole style table)."""
    return HtmlFormatter(nowrap=True)


def highlighted_lines(path: str, text: str) -> list[str]:
    """*text*'s lines as HTML, one string per line (Pygments closes its spans at line ends)."""
    count = text.count("\n") + 1
    tokens = ((Text if kind in PLAIN else kind, value) for kind, value in
              _lexer(path).get_tokens(text))
    html = str(format_tokens(tokens, _formatter()))
    lines = html.split("\n")[:count]
    return lines + [""] * (count - len(lines))


def citation_preview(
    record: CitationRecord, spec: dict[str, Any],
    highlight: Callable[[str, str], list[str]] = highlighted_lines,
) -> dict[str, Any] | None:
    """What the preview of *record* shows, or None when no text of it is known; *highlight*
    gives :func:`highlighted_lines` (or the same lines, kept)."""
    citation, facts = record.citation, record.facts
    if citation is None or facts is None or facts.text is None:
        return None
    lines = highlight(citation.path, facts.text)
    total = citation.end - citation.start + 1
    entry: dict[str, Any] = {
        "t": f"{citation.path}:{citation.lines}",
        "r": f"{record.source} {facts.source.ref}".strip(),
        "s": citation.start,
        "l": lines,
    }
    if total > len(lines):
        entry["m"] = total - len(lines)
    license = source_license(spec)
    if license:
        entry["f"] = license
    return entry
