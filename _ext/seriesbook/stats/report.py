"""The book's figures as data (``seriesbook stats --format json``) and as Markdown tables.

Every figure is a sum over the chapters: the documents the root page's toctrees include, in
order (the root page itself is not one). Figures owned by another capability (§ sections from
``seriesbook.sections``, citations from ``seriesbook.citations``, translation coverage from
``seriesbook.editions``) are ``None`` (JSON ``null``, shown as "—") when that capability is not
loaded in the build.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from seriesbook.core.config import DEFAULT_CHAPTER_PATTERNS, book_editions
from seriesbook.core.percent import floor_percent, percent_text
from seriesbook.stats._collect import doc_counts
from seriesbook.stats._count import DocCounts
from seriesbook.stats._gates import failed_gates, gate_minimums

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

BOOK_KEYS = (
    "chapters", "words", "han", "mermaid", "citations", "citations_verified",
    "sections", "sec_refs", "sec_refs_resolved",
)  # fmt: skip
SUMMED_KEYS = BOOK_KEYS[1:]

#: label key → (English, Chinese)
LABELS: dict[str, tuple[str, str]] = {
    "item": ("item", "项目"),
    "figure": ("figure", "数值"),
    "chapter": ("chapter", "章"),
    "chapters": ("chapters", "章数"),
    "chapters_unit": ("chapters", "章"),
    "words": ("words", "字数"),
    "words_note": ("Chinese characters + English words", "汉字 + 英文单词"),
    "han": ("Chinese characters", "汉字"),
    "mermaid": ("Mermaid diagrams", "Mermaid 图"),
    "citations": ("source citations", "源码引用"),
    "verified": ("verified", "已核验"),
    "excerpts": ("excerpts", "源码摘录"),
    "sections": ("numbered sections", "编号小节"),
    "sec_refs": ("§ cross-references", "§ 交叉引用"),
    "resolved": ("resolved", "已解析"),
    "hit_rate": ("hit rate", "命中率"),
    "unresolved": ("unresolved", "未解析"),
    "draft": ("draft", "草稿"),
    "yes": ("yes", "是"),
    "gates": ("failed gates", "未达标"),
    "edition": ("translation", "译本"),
    "messages": ("messages", "条"),
}
ABSENT = "—"


def _optional_api(app: Sphinx, extension: str, name: str) -> Callable[..., Any] | None:
    """*name* from a sibling capability, or None when it is not loaded in this build."""
    if extension not in app.extensions:
        return None
    function: Callable[..., Any] | None = getattr(importlib.import_module(extension), name, None)
    return function


def chapter_docnames(env: BuildEnvironment) -> list[str]:
    """The chapters: documents in the root page's toctrees, in order, each once."""
    root = env.config.root_doc
    chapters: list[str] = []
    for docname in env.toctree_includes.get(root, []):
        if docname != root and docname in env.all_docs and docname not in chapters:
            chapters.append(docname)
    return chapters


def chapter_reports(app: Sphinx) -> list[dict[str, Any]]:
    """One record per chapter, in the JSON shape of ``chapters`` (gates judged)."""
    env = app.env
    counts = doc_counts(env)
    sections = _optional_api(app, "seriesbook.sections", "section_counts")
    citations = _optional_api(app, "seriesbook.citations", "citation_counts")
    minimums = gate_minimums(app.config)
    chapters = []
    for docname in chapter_docnames(env):
        doc = counts.get(docname, DocCounts(han=0, english=0, mermaid=0))
        sec = sections(env, docname) if sections else None
        cite = citations(env, docname) if citations else None
        title = env.titles.get(docname)
        chapter: dict[str, Any] = {
            "docname": docname,
            "title": title.astext() if title is not None else docname,
            "words": doc.words,
            "han": doc.han,
            "mermaid": doc.mermaid,
            "citations": cite.citations if cite else None,
            "citations_verified": cite.verified if cite else None,
            "excerpts": cite.excerpts if cite else None,
            "sections": sec.sections if sec else None,
            "sec_refs": sec.sec_refs if sec else None,
            "sec_refs_resolved": sec.sec_refs_resolved if sec else None,
            "draft": env.metadata.get(docname, {}).get("status") == "draft",
        }
        chapter["gates"] = failed_gates(chapter, minimums)
        chapters.append(chapter)
    return chapters


def _total(chapters: list[dict[str, Any]], key: str) -> int | None:
    values = [chapter[key] for chapter in chapters]
    return None if any(value is None for value in values) else sum(values)


def edition_coverage(app: Sphinx, chapters: Iterable[str]) -> dict[str, dict[str, Any]] | None:
    """Catalog coverage in each translated edition (not the first, the book's own language), or
    None without seriesbook.editions: message totals of every page (the root page and the
    other pages too, as ``seriesbook translations`` and the status page count them),
    ``percent`` (floored to 0.1, so 100 means complete) and each chapter's percent."""
    coverage = _optional_api(app, "seriesbook.editions", "catalog_coverage")
    if coverage is None:
        return None
    names = list(chapters)
    editions: dict[str, dict[str, Any]] = {}
    for language in book_editions(app.config)[1:]:
        by_doc = coverage(app, language)
        edition: dict[str, Any] = {
            key: sum(getattr(c, key) for c in by_doc.values())
            for key in ("total", "translated", "fuzzy", "untranslated")
        }
        edition["percent"] = floor_percent(edition["translated"], edition["total"])
        edition["chapters"] = {d: by_doc[d].percent for d in names if d in by_doc}
        editions[language] = edition
    return editions


def book_report(app: Sphinx) -> dict[str, Any]:
    """The whole report: ``book`` totals, ``chapters`` and, with editions, ``editions``."""
    chapters = chapter_reports(app)
    book: dict[str, Any] = {"chapters": len(chapters)}
    book.update({key: _total(chapters, key) for key in SUMMED_KEYS})
    report: dict[str, Any] = {"book": book, "chapters": chapters}
    for chapter in chapters:
        del chapter["citations_verified"]  # the book's figure only, as the JSON shape says
    editions = edition_coverage(app, (chapter["docname"] for chapter in chapters))
    if editions is not None:
        report["editions"] = editions
    return report


# -- tables ------------------------------------------------------------------------------------


def _label(key: str, zh: bool) -> str:
    return LABELS[key][1 if zh else 0]


def _number(value: int | None) -> str:
    return ABSENT if value is None else f"{value:,}"


def hit_rate(resolved: int | None, total: int | None) -> str:
    """Resolved § references in percent (floored), or "—" when there are none."""
    if resolved is None or not total:
        return ABSENT
    return f"{percent_text(floor_percent(resolved, total))}%"


def _chapters_cell(chapters: list[dict[str, Any]], patterns: Iterable[str], zh: bool) -> str:
    compiled = [re.compile(pattern) for pattern in patterns]
    unnumbered = [c["title"] for c in chapters if not any(p.match(c["title"]) for p in compiled)]
    count = f"{len(chapters):,}"
    if not unnumbered or len(unnumbered) == len(chapters):
        return count
    numbered = f"{len(chapters) - len(unnumbered)} {_label('chapters_unit', zh)}"
    parts = " + ".join([*unnumbered, numbered])
    return f"{count}（{parts}）" if zh else f"{count} ({parts})"


Table = tuple[list[str], list[list[str]]]  # headers, rows


def book_table(report: dict[str, Any], *, zh: bool = False, patterns: Iterable[str] = ()) -> Table:
    """The book table: (item, figure) rows; *patterns* tell numbered chapters by title."""
    book = report["book"]
    open_, close = ("（", "）") if zh else (" (", ")")
    sep = "，" if zh else ", "
    citations = _number(book["citations"])
    if book["citations_verified"] is not None:
        citations += f"{open_}{_label('verified', zh)} {_number(book['citations_verified'])}{close}"
    refs = _number(book["sec_refs"])
    if book["sec_refs"] is not None:
        resolved = f"{_label('resolved', zh)} {_number(book['sec_refs_resolved'])}"
        rate = f"{_label('hit_rate', zh)} {hit_rate(book['sec_refs_resolved'], book['sec_refs'])}"
        refs += f"{open_}{resolved}{sep}{rate}{close}"
    words = f"{_number(book['words'])}{open_}{_label('words_note', zh)}{close}"
    rows = [
        [_label("chapters", zh), _chapters_cell(report["chapters"], patterns, zh)],
        [_label("words", zh), words],
        [_label("han", zh), _number(book["han"])],
        [_label("mermaid", zh), _number(book["mermaid"])],
        [_label("citations", zh), citations],
        [_label("sections", zh), _number(book["sections"])],
        [_label("sec_refs", zh), refs],
    ]
    for language, edition in report.get("editions", {}).items():
        messages = f"{edition['translated']:,} / {edition['total']:,} {_label('messages', zh)}"
        coverage = f"{percent_text(edition['percent'])}%{open_}{messages}{close}"
        rows.append([f"{_label('edition', zh)} {language}", coverage])
    return [_label("item", zh), _label("figure", zh)], rows


def chapter_table(report: dict[str, Any], *, zh: bool = False) -> Table:
    """The chapter table: headers and one row per chapter."""
    keys = ("words", "han", "mermaid", "citations", "excerpts", "sections", "sec_refs")
    headers = [_label("chapter", zh), *(_label(key, zh) for key in keys)]
    headers += [_label("unresolved", zh), _label("draft", zh), _label("gates", zh)]
    rows = []
    for chapter in report["chapters"]:
        refs, resolved = chapter["sec_refs"], chapter["sec_refs_resolved"]
        unresolved = None if refs is None or resolved is None else refs - resolved
        rows.append(
            [
                chapter["title"],
                *(_number(chapter[key]) for key in keys),
                _number(unresolved),
                _label("yes", zh) if chapter["draft"] else "",
                ", ".join(chapter["gates"]),
            ]
        )
    return headers, rows


def _markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A GitHub-flavoured Markdown table; ``|`` in a cell is escaped."""

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(headers), "|" + "---|" * len(headers), *map(line, rows)])


def to_markdown(
    report: dict[str, Any], chapter_patterns: Iterable[str] = DEFAULT_CHAPTER_PATTERNS.values()
) -> str:
    """The book table and the chapter table, ready to paste (English labels)."""
    book = book_table(report, patterns=list(chapter_patterns))
    return "\n\n".join([_markdown_table(*book), _markdown_table(*chapter_table(report))])
