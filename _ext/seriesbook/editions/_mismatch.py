"""``i18n-mismatch``: a translation must keep its message's § numbers, chapters, citations and
raw HTML.

For every translated message of the edition's catalogs (fuzzy ones are not used by the build,
so they are not checked) the multiset of § numbers, of chapter mentions (``第2章`` and
``Chapter 2`` are the same chapter) and of citations in the msgstr must equal the msgid's. The
problem is reported at the catalog's ``.po`` file and the msgid's line there: that is where the
translator fixes it (the page's line is not in the catalog, since locations are off to keep
catalog diffs small).

A translation adding raw HTML its source does not have (MyST passes ``<b>``, ``<!--`` or
``<script>`` in a msgstr through to the page, where ``<!--`` in a title hides the rest of it) is
``i18n-mismatch`` too: the translator's text is text, never the page's structure.

Recognizers are plain functions ``text → list of keys``: the sections capability's
:func:`~seriesbook.sections.section_numbers` and :func:`~seriesbook.sections.find_mentions`, and
the citations capability's :func:`~seriesbook.citations.find_citations`, so "what is a § number
/ a chapter mention / a citation" has one definition. A catalog's mismatches are found once per
file state and reported by every build (:mod:`._facts`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.config import Config

Recognizer = Callable[[str], Iterable[str]]

#: What makes text raw HTML in MyST: a tag's start, a comment, CDATA, a processing instruction.
_MARKUP = re.compile(r"<!--|<!\[CDATA\[|<[?!]|</?[A-Za-z][\w:-]*")
#: Inline code and roles (``{src}`Engine.run <pkg/engine.py:5>```): their ``<`` is not HTML.
_BACKTICKS = re.compile(r"(`+).+?\1", re.DOTALL)


def html_markup(text: str) -> list[str]:
    """The raw HTML pieces of *text* outside inline code (``<b``, ``</b``, ``<!--``), lower
    case."""
    if "<" not in text:  # every piece starts with one
        return []
    return [match.group().lower() for match in _MARKUP.finditer(_BACKTICKS.sub("", text))]


def differences(msgid: str, msgstr: str, recognizers: Mapping[str, Recognizer]) -> list[str]:
    """What *msgstr* lost or gained against *msgid*, per recognizer, in words."""
    found: list[str] = []
    for what, recognize in recognizers.items():
        in_source, in_translation = list(recognize(msgid)), list(recognize(msgstr))
        if not in_source and not in_translation:  # most messages, for most recognizers
            continue
        source, translation = Counter(in_source), Counter(in_translation)
        if source == translation:
            continue
        parts = []
        if missing := sorted((source - translation).elements()):
            parts.append("missing " + ", ".join(missing))
        if added := sorted((translation - source).elements()):
            parts.append("added " + ", ".join(added))
        found.append(f"{what}: {'; '.join(parts)}")
    return found


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def recognizers(config: Config, language: str) -> dict[str, Recognizer]:
    """What a *language* translation must keep: § numbers and chapter mentions (sections),
    citations (citations).

    Chapter mentions are read as the *language* edition links them: written with its own
    ``seriesbook_chapter_patterns`` entry or the source language's (text not translated yet).
    """
    from seriesbook.citations import find_citations
    from seriesbook.sections import edition_chapter_patterns, find_mentions, section_numbers

    suffixes = tuple(get_config(config).source_suffixes)
    chapter_patterns = edition_chapter_patterns(config, language)

    def chapters(text: str) -> list[str]:
        found = find_mentions(text, *chapter_patterns)
        return [f"chapter {m.number}" for m in found if m.kind == "chapter"]

    return {
        "§ numbers": lambda text: ["§" + number for number in section_numbers(text)],
        "chapter mentions": chapters,
        "citations": lambda text: find_citations(text, suffixes),
        "raw HTML": html_markup,
    }
