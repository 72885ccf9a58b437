"""The records the ``sec`` domain keeps per document, and the view of them the checks read.

Kept apart from the domain so that the checks (:mod:`._checks`), which the domain runs, read
the registry without importing the domain.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple, Protocol

from seriesbook.sections._parse import MentionKind


class SectionRecord(NamedTuple):
    """A numbered heading: ``level`` counts the page title as 1, so ``##`` is 2.

    ``parent`` is the number of the § heading it is nested in, at ``parent_line`` (``None`` at
    level 2 and under an unnumbered heading).
    """

    number: str
    docname: str
    id: str
    title: str
    line: int | None
    level: int
    parent: str | None = None
    parent_line: int | None = None


class ChapterRecord(NamedTuple):
    number: str
    docname: str
    id: str
    title: str
    line: int | None


class MentionRecord(NamedTuple):
    """A § or chapter mention (auto-link or ``{sec}``); ``inventory`` names a sibling volume."""

    kind: MentionKind
    number: str
    line: int | None
    inventory: str | None = None


Target = SectionRecord | ChapterRecord


class Registry(Protocol):
    """What the book-wide checks read of the ``sec`` domain."""

    @property
    def sections(self) -> dict[str, list[SectionRecord]]: ...

    @property
    def chapters(self) -> dict[str, ChapterRecord]: ...

    @property
    def other_titles(self) -> dict[str, list[ChapterRecord]]: ...

    @property
    def section_index(self) -> dict[str, SectionRecord]: ...

    @property
    def chapter_index(self) -> dict[str, ChapterRecord]: ...

    def all_sections(self) -> Iterator[SectionRecord]: ...

    def all_chapters(self) -> Iterator[ChapterRecord]: ...
