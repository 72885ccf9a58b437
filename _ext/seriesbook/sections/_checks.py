"""The book-wide checks of § numbering, run once after all documents are read.

They run in the main process on the merged registry (``Domain.check_consistency``), so ``-j``
cannot split them, and each problem is reported at the heading's file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from seriesbook.core.numbers import canonical, number_key, successor
from seriesbook.core.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Iterator

    from seriesbook.sections._records import Registry, SectionRecord, Target


@dataclass(frozen=True)
class Finding:
    docname: str
    line: int
    problem: Problem
    message: str


def _where(docname: str, line: int | None) -> str:
    return f"{docname}:{line}" if line else docname


def _duplicates(domain: Registry) -> Iterator[Finding]:
    """Every heading whose number an earlier heading (by document name, line) already has."""
    targets: list[tuple[Target, Target, str]] = [
        (r, domain.section_index[r.number], f"§{r.number} is already the number of the heading")
        for r in domain.all_sections()
    ] + [
        (c, domain.chapter_index[c.number], f"chapter {c.number} is already the chapter")
        for c in domain.all_chapters()
    ]
    for record, first, message in targets:
        if first is not record:
            where = _where(first.docname, first.line)
            yield Finding(record.docname, record.line or 0, Problem.SEC_DUPLICATE,
                          f"{message} at {where}")


def _document(
    docname: str, records: list[SectionRecord], chapter: str | None
) -> Iterator[Finding]:
    """Chapter prefix, place in the heading tree and sequence of one document's headings."""
    last_child: dict[str, str] = {}  # parent number -> last child part seen under it
    seen: set[str] = set()
    for record in records:
        line = record.line or 0
        for problem, message in _misplaced(record, chapter):
            yield Finding(docname, line, problem, message)
        if record.number in seen:
            continue  # reported as sec-duplicate
        seen.add(record.number)
        parent, _, last = record.number.rpartition(".")
        previous = last_child.get(parent)
        expected = successor(previous or "0")
        if canonical(last) != expected:
            owner = f"§{parent}" if "." in parent else f"chapter {parent}"
            after = f"after §{parent}.{previous}" if previous else f"first in {owner}"
            backwards = number_key(last) < number_key(expected)
            kind = "goes backwards" if backwards else "leaves a gap"
            yield Finding(
                docname, line, Problem.SEC_ORDER,
                f"§{record.number} {kind} ({after}; expected §{parent}.{expected})",
            )
        last_child[parent] = last


def _misplaced(record: SectionRecord, chapter: str | None) -> Iterator[tuple[Problem, str]]:
    """Why the heading's number does not fit where it is in the heading tree, if it does not.

    The number's parent (``1.2`` of ``1.2.1``) is the number of the section the heading is
    nested in: the chapter for a ``##`` heading, the enclosing § heading below that (under an
    unnumbered heading, the last § heading of that level, as ``seriesbook renumber`` numbers:
    ``sec-order`` checks that sequence).
    """
    parts = record.number.split(".")
    parent = ".".join(parts[:-1])
    wrong_chapter = chapter is not None and canonical(parts[0]) != chapter
    if wrong_chapter:
        yield Problem.SEC_CHAPTER, (
            f"§{record.number} is in chapter {chapter}: its number should start with {chapter}."
        )
    if len(parts) != record.level:
        yield Problem.SEC_NESTING, (
            f"§{record.number} has {len(parts)} parts but is a level-{record.level} heading "
            f"({'#' * record.level}), which takes {record.level}"
        )
        return
    if wrong_chapter or record.parent is None or record.parent == parent:
        return
    yield Problem.SEC_NESTING, (
        f"§{record.number} is nested in §{record.parent} (line {record.parent_line}): a "
        f"§{parent}.x heading belongs under §{parent}"
    )


def _other_titles(domain: Registry) -> Iterator[Finding]:
    """A chapter title that is not the page's first heading: it is no chapter, and is told so."""
    for docname, titles in domain.other_titles.items():
        chapter = domain.chapters.get(docname)
        first = f"{chapter.title} at line {chapter.line}" if chapter else "none"
        for title in titles:
            yield Finding(
                docname, title.line or 0, Problem.SEC_CHAPTER,
                f"{title.title} is not the page's first heading, so it is no chapter (no "
                f"ch-{title.number} anchor; the page's chapter: {first}); give it its own page",
            )


def find_problems(domain: Registry) -> list[Finding]:
    """Every numbering problem of the book, in document and line order."""
    findings = [*_duplicates(domain), *_other_titles(domain)]
    for docname in sorted(domain.sections):
        chapter = domain.chapters.get(docname)
        number = chapter.number if chapter else None
        findings.extend(_document(docname, domain.sections[docname], number))
    return sorted(findings, key=lambda f: (f.docname, f.line, f.problem.code, f.message))
