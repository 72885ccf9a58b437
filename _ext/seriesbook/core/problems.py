"""The table of every problem seriesbook reports, and the one way to report it.

Each problem is a Sphinx warning of type ``seriesbook`` whose subtype is the code below, so
``-W``, ``--keep-going`` and ``suppress_warnings = ["seriesbook.sec-order"]`` work as usual, and
``seriesbook check`` prints the same codes (text and JSON).
"""

from __future__ import annotations

import re
from enum import Enum

from docutils import nodes
from docutils.utils import get_source_line
from sphinx.util import logging

WARNING_TYPE = "seriesbook"

logger = logging.getLogger(__name__)

# Sphinx parses a translated message as a small document whose source is
# "<path>:<line>:<translated>", and whose nodes count lines from 1 again.
_TRANSLATED_SOURCE = re.compile(r"(?P<path>.*):(?P<line>\d+):<translated>")


class Problem(Enum):
    """A problem code: the warning subtype, with the meaning as its docstring."""

    def __new__(cls, code: str, doc: str) -> Problem:
        member = object.__new__(cls)
        member._value_ = code
        member.__doc__ = doc
        return member

    # § sections
    SEC_UNRESOLVED = "sec-unresolved", "A § mention or {sec} role names no section."
    CHAPTER_UNRESOLVED = "chapter-unresolved", "A chapter mention names no chapter."
    SEC_DUPLICATE = "sec-duplicate", "A § number is used by two headings."
    SEC_CHAPTER = (
        "sec-chapter",
        "A § number's first part is not its chapter's number, or a chapter title is not first.",
    )
    SEC_NESTING = (
        "sec-nesting",
        "A § number does not fit the heading tree: depth or parent number (enclosing section).",
    )
    SEC_ORDER = "sec-order", "A § number is out of sequence under its parent (gap or backwards)."
    SEC_RENUMBERED = (
        "sec-renumbered",
        "A {sec} link into a sibling volume names a number that volume has renumbered.",
    )
    SEC_HISTORY_UNREADABLE = (
        "sec-history-unreadable",
        "A sibling volume's renumbering history could not be fetched or read (not a 404).",
    )
    SEC_STALE = (
        "sec-stale",
        "A mention of a deleted section that renumbering left naming another section.",
    )
    SEC_SECTION_REF = "sec-section-ref", "MyST's section_ref extension is enabled alongside."
    # source citations
    CITE_UNKNOWN_SOURCE = "cite-unknown-source", "A citation names a source not configured."
    CITE_SOURCE = "cite-source", "A configured source is unusable (bad ref, commit mismatch)."
    CITE_SYNTAX = (
        "cite-syntax",
        "A {src} role's text is not a citation: [source:]path:LINE[-END] or Symbol <…>.",
    )
    CITE_PATH = "cite-path", "A citation path is unsafe (absolute, '..', backslash, empty part)."
    CITE_MISSING_FILE = "cite-missing-file", "The cited file does not exist at the pinned ref."
    CITE_GENERATED = (
        "cite-generated",
        "A citation points into a file the source generates at build time (not in its repository).",
    )
    CITE_LINE_RANGE = (
        "cite-line-range",
        "Line 0, past the end of the file (or above 999,999,999), or END before START.",
    )
    CITE_SYMBOL = "cite-symbol", "The cited symbol does not occur in the cited lines."
    CITE_EXCERPT = "cite-excerpt", "A code excerpt differs from the cited lines."
    CITE_UNVERIFIED = "cite-unverified", "Neither a local copy nor the lock vouches for it."
    CITE_LOCK = "cite-lock", "The citation lock is unreadable or malformed; it is ignored."
    CITE_LOCK_STALE = "cite-lock-stale", "The lock disagrees with the local copy of a source."
    # translated editions
    I18N_MISMATCH = (
        "i18n-mismatch",
        "A translation's § numbers or citations differ from its source message's.",
    )
    I18N_DIAGRAM = (
        "i18n-diagram",
        "A Mermaid diagram could not be parsed for translation, or a label's translation "
        "cannot be shown as written.",
    )
    I18N_CATALOG = (
        "i18n-catalog",
        "A catalog (.po) cannot be read or parsed, repeats a msgid, or belongs to no page.",
    )
    CONVERT_FALSE_FRIEND = (
        "convert-false-friend",
        "A machine-converted message holds OpenCC's word for a term the glossary lists as a "
        "false friend and does not decide.",
    )
    # chapter gates
    GATE_HAN = "gate-han", "A finished chapter has fewer Chinese characters than the gate."
    GATE_MERMAID = "gate-mermaid", "A finished chapter has fewer Mermaid diagrams than the gate."
    GATE_EXCERPTS = "gate-excerpts", "A finished chapter has fewer source excerpts than the gate."
    # PDF and EPUB editions
    DIAGRAM_RENDER = (
        "diagram-render",
        "A Mermaid diagram could not be drawn for the PDF or EPUB (its source is printed).",
    )
    OFFLINE_TOOL = (
        "offline-tool",
        "The PDF or EPUB of a book with diagrams lacks what draws them: one line names what to "
        "install (the diagrams' sources are printed instead).",
    )
    # diagrams drawn at build time
    DIAGRAM_DRAW = (
        "diagram-draw",
        "A Mermaid diagram could not be drawn when the book was built (its source is shown), "
        "and the author did not let the reader's browser draw it.",
    )
    PDF_GLYPH = (
        "pdf-glyph",
        "A character no font of the PDF has (nor a fallback): it would print as nothing.",
    )
    # the site
    THEME_MISSING = (
        "theme-missing",
        "conf.py's html_theme is sphinx-book-theme, which is not installed: one line names the "
        "extra to install (seriesbook[theme]); the build goes on with Sphinx's default theme.",
    )
    # search index
    SEARCH_CACHE = "search-cache", "Search cache not writable; the index is still built."
    # previews
    PREVIEW_SIBLING = (
        "preview-sibling",
        "A sibling volume's published previews are not readable; its links are not previewed.",
    )
    # the site's page weight
    ICON_UNKNOWN = (
        "icon-unknown",
        "An icon class names no icon of the theme's Font Awesome: it would be drawn blank.",
    )

    @property
    def code(self) -> str:
        return str(self.value)


def warn(
    problem: Problem,
    message: str,
    location: str | tuple[str | None, int | None] | nodes.Node | None,
) -> None:
    """Report *problem* as a ``seriesbook.<code>`` warning at *location* (node or docname/line).

    A node from translated text is reported at the source line of the message it came from.
    """
    if isinstance(location, nodes.Node):
        location = _source_location(location)
    logger.warning(message, type=WARNING_TYPE, subtype=problem.code, location=location)


def translated_from(source: str | None) -> tuple[str, int] | None:
    """The author's file and line behind Sphinx's source of a translated message, if it is one."""
    translated = _TRANSLATED_SOURCE.fullmatch(source or "")
    return (translated["path"], int(translated["line"])) if translated else None


def _source_location(node: nodes.Node) -> str | nodes.Node:
    origin = translated_from(get_source_line(node)[0])
    return node if origin is None else f"{origin[0]}:{origin[1]}"


def source_line(node: nodes.Node | None) -> int | None:
    """The line of the author's source file where *node* was written, translated text included."""
    while node is not None:
        origin = translated_from(getattr(node, "source", None))
        if origin is not None:
            return origin[1]
        if node.line:
            return int(node.line)
        node = node.parent
    return None
