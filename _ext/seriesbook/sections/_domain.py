"""The ``sec`` domain: the book's registry of numbered sections, chapters and mentions.

Records are kept per document, so ``clear_doc`` and ``merge_domaindata`` (``-j``) are plain
dict operations; the number → target indexes are derived from them once per build, after
reading (``env-updated``), in document-name order, so duplicates resolve the same way under
``-j 1`` and ``-j 2``. Resolution at write time is one dict lookup per mention.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sphinx.domains import Domain
from sphinx.util.nodes import make_refnode

from seriesbook.core.problems import warn
from seriesbook.sections._checks import find_problems
from seriesbook.sections._parse import MentionKind, section_id
from seriesbook.sections._records import (
    ChapterRecord,
    MentionRecord,
    SectionRecord,
    Target,
)

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.addnodes import pending_xref
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

DOMAIN = "sec"


@dataclass(frozen=True)
class SectionCounts:
    """One document's numbered sections and § references, for the stats capability."""

    sections: int
    sec_refs: int
    sec_refs_resolved: int




def _link(target: Target | None) -> tuple[str, str, str] | None:
    """What a link to *target* is made of: a heading moved to another line links the same."""
    return None if target is None else (target.docname, target.id, target.title)


class SectionsDomain(Domain):
    name = DOMAIN
    label = "seriesbook § sections"
    initial_data: ClassVar[dict[str, Any]] = {
        "sections": {},  # docname -> [SectionRecord] in document order
        "chapters": {},  # docname -> ChapterRecord
        "other_titles": {},  # docname -> [ChapterRecord]: later `#` chapter titles (no anchor)
        "mentions": {},  # docname -> [MentionRecord] in document order
        "section_index": {},  # number -> SectionRecord (first by docname)
        "chapter_index": {},  # number -> ChapterRecord
        "published": {},  # (kind, number) -> target as of the previous build
    }
    data_version = 2

    @property
    def sections(self) -> dict[str, list[SectionRecord]]:
        return self.data["sections"]  # type: ignore[no-any-return]

    @property
    def chapters(self) -> dict[str, ChapterRecord]:
        return self.data["chapters"]  # type: ignore[no-any-return]

    @property
    def other_titles(self) -> dict[str, list[ChapterRecord]]:
        return self.data["other_titles"]  # type: ignore[no-any-return]

    @property
    def mentions(self) -> dict[str, list[MentionRecord]]:
        return self.data["mentions"]  # type: ignore[no-any-return]

    @property
    def section_index(self) -> dict[str, SectionRecord]:
        return self.data["section_index"]  # type: ignore[no-any-return]

    @property
    def chapter_index(self) -> dict[str, ChapterRecord]:
        return self.data["chapter_index"]  # type: ignore[no-any-return]

    def clear_doc(self, docname: str) -> None:
        for key in ("sections", "chapters", "other_titles", "mentions"):
            self.data[key].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key in ("sections", "chapters", "other_titles", "mentions"):
            for docname, value in otherdata[key].items():
                if docname in docnames:
                    self.data[key][docname] = value

    def note_document(
        self,
        docname: str,
        sections: list[SectionRecord],
        chapter: ChapterRecord | None,
        mentions: list[MentionRecord],
        other_titles: list[ChapterRecord] | None = None,
    ) -> None:
        """Record what one document defines and mentions (called once per read)."""
        self.sections[docname] = sections
        self.mentions[docname] = mentions
        self.other_titles[docname] = other_titles or []
        if chapter is not None:
            self.chapters[docname] = chapter
        else:
            self.chapters.pop(docname, None)

    def all_sections(self) -> Iterator[SectionRecord]:
        for docname in sorted(self.sections):
            yield from self.sections[docname]

    def all_chapters(self) -> Iterator[ChapterRecord]:
        for docname in sorted(self.chapters):
            yield self.chapters[docname]

    def rebuild_index(self) -> set[tuple[MentionKind, str]]:
        """Derive the number indexes; return the numbers whose target changed since last time."""
        section_index: dict[str, SectionRecord] = {}
        for record in self.all_sections():
            section_index.setdefault(record.number, record)
        chapter_index: dict[str, ChapterRecord] = {}
        for chapter in self.all_chapters():
            chapter_index.setdefault(chapter.number, chapter)
        self.data["section_index"] = section_index
        self.data["chapter_index"] = chapter_index

        current: dict[tuple[MentionKind, str], Target] = {}
        current.update({("sec", n): r for n, r in section_index.items()})
        current.update({("chapter", n): c for n, c in chapter_index.items()})
        previous: dict[tuple[MentionKind, str], Target] = self.data["published"]
        changed = {key for key in current.keys() | previous.keys()
                   if _link(current.get(key)) != _link(previous.get(key))}
        self.data["published"] = current
        return changed

    def referrers(self, keys: set[tuple[MentionKind, str]]) -> set[str]:
        """Documents that mention any of *keys* (kind, number) in this volume."""
        if not keys:
            return set()
        return {
            docname
            for docname, mentions in self.mentions.items()
            if any(m.inventory is None and (m.kind, m.number) in keys for m in mentions)
        }

    def target(self, kind: str, number: str) -> Target | None:
        if kind == "sec":
            return self.section_index.get(number)
        if kind == "chapter":
            return self.chapter_index.get(number)
        return None

    def check_consistency(self) -> None:
        for finding in find_problems(self):
            warn(finding.problem, finding.message, (finding.docname, finding.line or None))

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> nodes.reference | None:
        record = self.target(typ, target)
        if record is None:
            return None
        return make_refnode(builder, fromdocname, record.docname, record.id, contnode, record.title)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        return []  # the targets are std labels, which {any} already finds

    def get_objects(self) -> Iterable[tuple[str, str, str, str, str, int]]:
        return ()  # published as std:label (sec-N-M, ch-N), see register_label


def register_label(env: BuildEnvironment, record: Target) -> None:
    """Publish a section or chapter as a std label: {ref}, objects.inv, sibling volumes."""
    std = env.domains.standard_domain
    std.labels[record.id] = (record.docname, record.id, record.title)
    std.anonlabels[record.id] = (record.docname, record.id)


def publish_labels(env: BuildEnvironment, domain: SectionsDomain) -> None:
    """Point every label at its index winner, whichever duplicate was read last."""
    for record in domain.section_index.values():
        register_label(env, record)
    for chapter in domain.chapter_index.values():
        register_label(env, chapter)


def get_domain(env: BuildEnvironment) -> SectionsDomain:
    domain = env.domains[DOMAIN]
    assert isinstance(domain, SectionsDomain)
    return domain


def _external_resolved(env: BuildEnvironment, inventory: str, number: str) -> bool:
    named: dict[str, Any] | None = getattr(env, "intersphinx_named_inventory", None)
    labels = (named or {}).get(inventory, {}).get("std:label", {})
    return section_id(number) in labels


def section_counts(env: BuildEnvironment, docname: str) -> SectionCounts:
    """Numbered sections of *docname*, its § references and how many of them resolve."""
    domain = get_domain(env)
    refs = [m for m in domain.mentions.get(docname, ()) if m.kind == "sec"]
    resolved = sum(
        1
        for m in refs
        if (m.number in domain.section_index if m.inventory is None
            else _external_resolved(env, m.inventory, m.number))
    )
    return SectionCounts(len(domain.sections.get(docname, ())), len(refs), resolved)
