"""The numbering rule: chapters, then every chapter's § headings, old number → new number.

Chapter pages (a title ``第N章 …`` by the book's chapter pattern) are numbered 1, 2, … in
toctree order; a chapter is identified by its page, so an inserted, moved or deleted page
renumbers the pages after it, and every mention of a chapter number follows the page that has
it now (two pages with one number: a usage error, as for § numbers).

Within each chapter page, numbered headings (and new ones written ``§ 标题``) are numbered in
document order, consecutively under their parent, with as many parts as their heading level:
exactly what ``sec-order``, ``sec-nesting`` and ``sec-chapter`` check. A heading is identified by
the number it has now, so a number used twice is a usage error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

from seriesbook.commands.reading import UsageError
from seriesbook.sections import SEC_NUMBER, get_domain, heading_levels, is_new_heading

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment


@dataclass(frozen=True)
class Heading:
    """A numbered (``old`` set) or new (``old`` None) § heading, with the number it gets."""

    docname: str
    path: Path
    line: int
    old: str | None
    new: str | None


@dataclass(frozen=True)
class ChapterPage:
    """A chapter page: the number its title has and the number it gets."""

    docname: str
    path: Path
    line: int
    old: str
    new: str


#: Chapter numbers share the keys of mentions to place with § numbers: ``ch:12``.
CHAPTER_KEY = "ch:"


@dataclass
class Outline:
    headings: list[Heading]
    map: dict[str, str]  # old number → new number, every numbered heading of the book
    chapters: list[ChapterPage] = field(default_factory=list)

    def changed(self) -> dict[str, str]:
        return {old: new for old, new in self.map.items() if old != new}

    def chapter_map(self) -> dict[str, str]:
        """Old chapter number → new, every chapter page of the book."""
        return {page.old: page.new for page in self.chapters}

    def chapters_changed(self) -> dict[str, str]:
        return {page.old: page.new for page in self.chapters if page.old != page.new}

    def stale(self) -> set[str]:
        """Numbers no heading has now but one will have: a mention of one (a deleted section's
        number) would silently name another section after renumbering."""
        after = {h.new for h in self.headings if h.new is not None}
        chapters = {CHAPTER_KEY + p.new for p in self.chapters} - {
            CHAPTER_KEY + p.old for p in self.chapters}
        return (after - set(self.map)) | chapters


def _title_text(section: nodes.section) -> str:
    first = section.children[0] if section.children else None
    return first.astext() if isinstance(first, nodes.title) else ""


def _path(env: BuildEnvironment, section: nodes.Node, docname: str) -> Path:
    source = getattr(section, "source", None)
    return Path(source) if source else Path(env.doc2path(docname))


def _number_page(
    env: BuildEnvironment, docname: str, doctree: nodes.document, chapter: str | None
) -> list[Heading]:
    headings: list[Heading] = []
    last_child: dict[str, int] = {}
    at_level: dict[int, str] = {}  # level → the new number of the last heading at that level
    for section, level in heading_levels(doctree):
        old = section.get(SEC_NUMBER)
        if old is None and not is_new_heading(_title_text(section)):
            continue
        parent = chapter if level == 2 else at_level.get(level - 1)
        new: str | None = None
        if chapter is not None and parent is not None:
            count = last_child[parent] = last_child.get(parent, 0) + 1
            new = f"{parent}.{count}"
            at_level[level] = new
            for deeper in [k for k in at_level if k > level]:
                del at_level[deeper]
        elif old is not None:
            new = old  # not in a chapter, or no parent to number under: left as it is
        title = section.children[0]
        line = section.line or title.line or 0
        headings.append(
            Heading(docname, _path(env, section, docname), line, old, new)
        )
    return headings


def number_chapters(env: BuildEnvironment, docnames: list[str]) -> list[ChapterPage]:
    """The chapter pages in document order, numbered 1, 2, …; refuse a number two pages have."""
    domain = get_domain(env)
    pages: list[ChapterPage] = []
    first: dict[str, ChapterPage] = {}
    for docname in docnames:
        chapter = domain.chapters.get(docname)
        if chapter is None:
            continue
        page = ChapterPage(docname, Path(env.doc2path(docname)), chapter.line or 1,
                           chapter.number, str(len(pages) + 1))
        if chapter.number in first:
            other = first[chapter.number]
            raise UsageError(
                f"chapter {chapter.number} is the title of two pages, {other.path}:{other.line} "
                f"and {page.path}:{page.line}: give the new page a number no other page has "
                "(say 第99章; renumber gives it its place), so each mention says which one it "
                "means"
            )
        first[chapter.number] = page
        pages.append(page)
    return pages


def number_book(env: BuildEnvironment, doctrees: dict[str, nodes.document]) -> Outline:
    """Number every chapter page of *docnames* (doctrees as read) and the § headings under
    each by its new number; refuse duplicate numbers."""
    chapters = {page.docname: page for page in number_chapters(env, list(doctrees))}
    headings: list[Heading] = []
    for docname, doctree in doctrees.items():
        chapter = chapters.get(docname)
        headings.extend(_number_page(env, docname, doctree, chapter.new if chapter else None))
    first: dict[str, Heading] = {}
    mapping: dict[str, str] = {}
    for heading in headings:
        if heading.old is None or heading.new is None:
            continue
        if heading.old in first:
            other = first[heading.old]
            raise UsageError(
                f"§{heading.old} is the number of two headings, {other.path}:{other.line} and "
                f"{heading.path}:{heading.line}: renumber one of them by hand first, so each "
                "mention says which one it means"
            )
        first[heading.old] = heading
        mapping[heading.old] = heading.new
    return Outline(headings, mapping, list(chapters.values()))
