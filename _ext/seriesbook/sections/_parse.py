"""Recognizers for the § authoring syntax: numbered headings, chapter titles, mentions in prose.

Everything here is pure text → data, so the linker, the checks and the editions capability
(which compares the § numbers of a message and its translation) share one definition of what a
§ number is. Patterns are compiled once per chapter pattern (``functools.cache`` on an immutable
key, which is safe under ``-j``).

Numbers are normalised where they are read (:func:`section_number`, :func:`chapter_number`):
full-width digits and the full-width full stop (``§１．２``, ``第１２章``) mean ``§1.2`` and
chapter 12, so ids and links are ASCII (``sec-1-2``) while the text keeps what was written.
A :class:`Mention`'s ``number`` is the normalised number; its span is the written text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal

from seriesbook.core.config import get_config, language_key, source_language
from seriesbook.core.numbers import ascii_digits, canonical

if TYPE_CHECKING:
    from sphinx.config import Config

# Digits are any decimal digits (`\d`: ASCII, full-width …); parts are separated by `.` or `．`.
NUMBER = r"\d+(?:[.．]\d+)+"
# A heading that starts with a whole § number (`§12.3 Guard`, also `§12.3：Guard`) is numbered.
HEADING = re.compile(rf"§\s?(?P<number>{NUMBER})(?!\d|[.．]\d)")
# A heading written `§ 标题` (a § and a space, no number): a new section for renumber to number.
NEW_HEADING = re.compile(r"§[ \u00a0\u2009\t]+(?![\d\s])")
# A § mention; optionally a range whose second end is a full number without § (`§4.2-4.5`).
SECTION_MENTION = (
    rf"§[ \u00a0\u2009]?(?P<sec>{NUMBER})"
    rf"(?:[-‐‑–—~～](?P<sec_end>{NUMBER}))?"
)

MentionKind = Literal["sec", "chapter"]


@dataclass(frozen=True)
class Mention:
    """One § or chapter number written in a text, with its span in that text."""

    kind: MentionKind
    number: str
    start: int
    end: int


def section_number(written: str) -> str:
    """The § number as the book knows it: ASCII digits and dots (``１．２`` → ``1.2``)."""
    return ascii_digits(written).replace("．", ".")


def chapter_number(written: str) -> str:
    """The chapter number as the book knows it: ASCII, no leading zeros (``０１`` → ``1``)."""
    return canonical(written)


def section_id(number: str) -> str:
    """The HTML id and std label of a numbered section: ``12.3.4`` → ``sec-12-3-4``."""
    return "sec-" + number.replace(".", "-")


def chapter_id(number: str) -> str:
    return f"ch-{chapter_number(number)}"


def heading_number(title: str) -> str | None:
    """The § number a heading starts with (``§12.3 Guard`` → ``12.3``), if any."""
    match = HEADING.match(title.strip())
    return section_number(match["number"]) if match else None


def is_new_heading(title: str) -> bool:
    """A heading written ``§ 标题``: a section still to be numbered (``seriesbook renumber``)."""
    return NEW_HEADING.match(title.strip()) is not None


def chapter_title_number(title: str, patterns: dict[str, str]) -> str | None:
    """The chapter number a page title starts with, trying every configured pattern."""
    for pattern in patterns.values():
        match = re.match(pattern, title.strip())
        if match and match.groupdict().get("chapter"):
            return chapter_number(match["chapter"])
    return None


def edition_chapter_patterns(config: Config, language: str | None) -> list[str]:
    """The chapter patterns of the *language* edition: its own (``zh_CN`` first, then ``zh``)
    and the book's language's, which text not translated yet is written in."""
    patterns = get_config(config).chapter_patterns
    keys = (language_key(lang, patterns) for lang in (language, source_language(config)))
    return [patterns[key] for key in dict.fromkeys(keys) if key is not None]


@dataclass(frozen=True)
class Recognizer:
    """Finds § and chapter mentions in a text with one compiled alternation."""

    regex: re.Pattern[str]
    #: the regular expression's chapter groups (``chapter0``, ``chapter1``…), in order
    chapter_groups: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        groups = tuple(g for g in self.regex.groupindex if g.startswith("chapter"))
        object.__setattr__(self, "chapter_groups", groups)

    def find(self, text: str) -> list[Mention]:
        chapter_groups = self.chapter_groups
        if not chapter_groups and "§" not in text:
            return []
        found: list[Mention] = []
        for match in self.regex.finditer(text):
            if match["sec"] is not None:
                number = section_number(match["sec"])
                found.append(Mention("sec", number, match.start(), match.end("sec")))
                if match["sec_end"] is not None:
                    end = section_number(match["sec_end"])
                    found.append(Mention("sec", end, match.start("sec_end"), match.end()))
                continue
            written = next((match[g] for g in chapter_groups if match[g] is not None), None)
            if written is not None:
                chapter = chapter_number(written)
                found.append(Mention("chapter", chapter, match.start(), match.end()))
        return found


@cache
def recognizer(*chapter_patterns: str | None) -> Recognizer:
    """The recognizer for § mentions plus chapter mentions written with any *chapter_patterns*.

    A translated edition passes its own pattern and the source language's, so a paragraph the
    translator has not reached yet (shown in the source language) is linked too.
    """
    alternatives = [SECTION_MENTION]
    usable = [p for p in dict.fromkeys(chapter_patterns) if p and "(?P<chapter>" in p]
    for index, pattern in enumerate(usable):
        alternatives.append(f"(?:{pattern.replace('(?P<chapter>', f'(?P<chapter{index}>')})")
    return Recognizer(re.compile("|".join(alternatives)))


def find_mentions(text: str, *chapter_patterns: str | None) -> list[Mention]:
    """Every § mention (and chapter mention, given patterns) in *text*, in order."""
    return recognizer(*chapter_patterns).find(text)


def section_numbers(text: str) -> list[str]:
    """The § numbers mentioned in *text*, in order: what a translation must keep."""
    return [m.number for m in find_mentions(text) if m.kind == "sec"]
