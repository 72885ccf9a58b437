"""Anchors, auto-links and the ``{sec}`` role: the two passes over each doctree.

1. :class:`NoteNumbers` (before Sphinx's i18n ``Locale`` transform, priority 20) reads the §
   number and chapter number from the *source* headings, so a translated edition keeps the same
   anchors even where a translator reworded (or mangled) a heading.
2. :class:`LinkSections` (after translation, before MyST's ``ResolveSectionRefs`` at 300) sets
   the ids, registers the std labels, records the document in the ``sec`` domain and, in the
   same single walk, turns every § and chapter mention of the prose into a ``pending_xref``
   that the domain resolves at write time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import clean_astext, split_explicit_title

from seriesbook.core.config import get_config
from seriesbook.core.problems import Problem, warn
from seriesbook.sections._domain import DOMAIN, get_domain, register_label
from seriesbook.sections._parse import (
    Recognizer,
    chapter_id,
    chapter_title_number,
    edition_chapter_patterns,
    heading_number,
    is_new_heading,
    recognizer,
    section_id,
    section_number,
)
from seriesbook.sections._records import ChapterRecord, MentionRecord, SectionRecord

if TYPE_CHECKING:
    from collections.abc import Iterator

    from docutils.nodes import Node, system_message
    from sphinx.application import Sphinx
    from sphinx.domains import Domain
    from sphinx.environment import BuildEnvironment

# Node attributes: numbers noted from the source headings, and the mark of our own references.
SEC_NUMBER, SEC_LEVEL, CH_NUMBER = "sec_number", "sec_level", "ch_number"
SEC_PARENT, CH_OTHER = "sec_parent", "ch_other"
MENTION, MENTION_NUMBER, MENTION_INVENTORY = "sec_mention", "sec_number", "sec_inventory"

# Never linked: code, diagrams, headings and captions of admonitions, existing links, markup.
NO_LINKS: tuple[type[nodes.Node], ...] = (
    nodes.literal,
    nodes.FixedTextElement,  # literal_block, doctest_block, math_block, comment
    nodes.title,
    nodes.subtitle,
    nodes.reference,
    addnodes.pending_xref,
    nodes.raw,
    nodes.comment,
    nodes.target,
    nodes.math,
    nodes.system_message,
    nodes.substitution_definition,
    nodes.footnote_reference,
    nodes.citation_reference,
    nodes.label,
    nodes.option_string,
    addnodes.toctree,
    addnodes.desc_signature,
)
NO_LINK_TAGNAMES = frozenset({"mermaid", "graphviz"})


def _sections(parent: nodes.Element, depth: int) -> Iterator[tuple[nodes.section, int]]:
    for child in parent.children:
        if isinstance(child, nodes.section):
            yield child, depth
            yield from _sections(child, depth + 1)


def heading_levels(document: nodes.Element) -> Iterator[tuple[nodes.section, int]]:
    """Every section of a page with its heading level, as MyST nests them.

    The page's first heading is its title (level 1); a later ``#`` heading (``# 附录``) is
    another top heading beside it, not a subsection. A page whose first heading is a § heading
    (numbered or new) has no title: its top headings are taken as ``##``.
    """
    first = _first_heading(document)
    if first is None:
        return
    title = _title(first)
    text = title.astext() if title is not None else ""
    untitled = heading_number(text) is not None or is_new_heading(text)
    yield from _sections(document, 2 if untitled else 1)


def _first_heading(document: nodes.Element) -> nodes.section | None:
    return next((c for c in document.children if isinstance(c, nodes.section)), None)


def _title(section: nodes.section) -> nodes.title | None:
    first = section.children[0] if section.children else None
    return first if isinstance(first, nodes.title) else None


class NoteNumbers(SphinxTransform):
    """Note each heading's § number and the page's chapter number, before translation.

    Levels are :func:`heading_levels`'; only the page's first heading can be the chapter (a
    later chapter title is noted to be reported).
    """

    default_priority = 15

    def apply(self, **kwargs: Any) -> None:
        patterns = get_config(self.config).chapter_patterns
        first = _first_heading(self.document)
        for section, depth in heading_levels(self.document):
            title = _title(section)
            if title is None:
                continue
            text = title.astext()
            number = heading_number(text)
            if number is not None:
                section[SEC_NUMBER] = number
                section[SEC_LEVEL] = depth
                parent = section.parent
                if depth > 2 and isinstance(parent, nodes.section) and SEC_NUMBER in parent:
                    section[SEC_PARENT] = parent[SEC_NUMBER]
            elif depth == 1 and (chapter := chapter_title_number(text, patterns)):
                section[CH_NUMBER if section is first else CH_OTHER] = chapter


def section_number_of(node: nodes.Node) -> str | None:
    """The § number of the innermost numbered section holding *node*, as :class:`NoteNumbers`
    read it from the source heading (so the same in every edition); None outside any."""
    parent: nodes.Node | None = node
    while parent is not None:
        if isinstance(parent, nodes.section) and SEC_NUMBER in parent:
            return str(parent[SEC_NUMBER])
        parent = parent.parent
    return None


class _Line:
    """Line numbers inside one paragraph: its first line plus the line breaks seen so far."""

    __slots__ = ("breaks", "first")

    def __init__(self, first: int | None) -> None:
        self.first = first
        self.breaks = 0

    def at(self, offset_breaks: int = 0) -> int | None:
        return None if self.first is None else self.first + self.breaks + offset_breaks


class _DocumentWalk:
    """One walk over a translated doctree: anchors, mentions and the links to make."""

    def __init__(self, document: nodes.document, docname: str, find: Recognizer) -> None:
        self.document = document
        self.docname = docname
        self.find = find
        self.sections: list[SectionRecord] = []
        self.chapter: ChapterRecord | None = None
        self.other_titles: list[ChapterRecord] = []
        self.mentions: list[MentionRecord] = []
        self.replacements: list[tuple[nodes.Text, list[Node]]] = []

    def run(self) -> None:
        self._visit(self.document, _Line(None))
        for text, pieces in self.replacements:
            text.parent.replace(text, pieces)

    def _visit(self, element: nodes.Element, where: _Line) -> None:
        if isinstance(element, nodes.section):
            self._section(element)
        if element.line is not None and (
            where.first is None
            or (isinstance(element, nodes.TextElement) and not isinstance(element, nodes.Inline))
        ):
            where = _Line(element.line)
        if "section_numbers" in element.attributes:  # MyST section_ref marker: ours to link
            del element["section_numbers"]
            element["classes"] = [c for c in element["classes"] if c != "section-ref"]
        for child in element.children:
            if isinstance(child, nodes.Text):
                self._text(child, element, where)
            elif isinstance(child, addnodes.pending_xref) and MENTION in child:
                self.mentions.append(
                    MentionRecord(child[MENTION], child[MENTION_NUMBER], child.line,
                                  child.get(MENTION_INVENTORY))
                )
            elif isinstance(child, NO_LINKS) or getattr(child, "tagname", "") in NO_LINK_TAGNAMES:
                where.breaks += child.astext().count("\n")
            elif isinstance(child, nodes.Element):
                self._visit(child, where)

    def _text(self, text: nodes.Text, parent: nodes.Element, where: _Line) -> None:
        value = str(text)
        found = self.find.find(value)
        if found:
            pieces: list[Node] = []
            position = 0
            for mention in found:
                if mention.start > position:
                    pieces.append(nodes.Text(value[position:mention.start]))
                line = where.at(value.count("\n", 0, mention.start))
                written = value[mention.start:mention.end]
                pieces.append(self._xref(mention.kind, mention.number, written, parent, line))
                self.mentions.append(MentionRecord(mention.kind, mention.number, line))
                position = mention.end
            if position < len(value):
                pieces.append(nodes.Text(value[position:]))
            self.replacements.append((text, pieces))
        where.breaks += value.count("\n")

    def _xref(
        self, kind: str, number: str, written: str, parent: nodes.Element, line: int | None
    ) -> addnodes.pending_xref:
        xref = addnodes.pending_xref(
            written,
            nodes.inline(written, written, classes=[f"{kind}-ref"]),
            refdomain=DOMAIN,
            reftype=kind,
            reftarget=number,
            refexplicit=True,
            refwarn=True,
        )
        xref[MENTION], xref[MENTION_NUMBER] = kind, number
        xref.source, xref.line = parent.source or self.document.get("source"), line
        return xref

    def _anchor(self, section: nodes.section, anchor: str) -> str:
        """Make *anchor* the section's first id (the toc and permalink use it)."""
        if anchor not in self.document.ids:
            section["ids"].insert(0, anchor)
            self.document.ids[anchor] = section
        return anchor

    def _section(self, section: nodes.section) -> None:
        title = _title(section)
        if title is None:
            return
        text = _title_text(title)
        line = section.line or title.line
        if (number := section.get(SEC_NUMBER)) is not None:
            anchor = self._anchor(section, section_id(number))
            # the display name keeps the number even where a translation dropped it
            display = text if heading_number(text) == number else f"§{number} {text}"
            parent = section.get(SEC_PARENT)
            parent_line = section.parent.line if parent is not None else None
            self.sections.append(SectionRecord(
                number, self.docname, anchor, display, line, section[SEC_LEVEL],
                parent, parent_line,
            ))
        elif (chapter := section.get(CH_NUMBER)) is not None:
            anchor = self._anchor(section, chapter_id(chapter))
            self.chapter = ChapterRecord(chapter, self.docname, anchor, text, line)
        elif (chapter := section.get(CH_OTHER)) is not None:
            self.other_titles.append(ChapterRecord(chapter, self.docname, "", text, line))


def _holds_image_or_raw(node: nodes.Node) -> bool:
    if isinstance(node, (nodes.image, nodes.raw)):
        return True
    return any(_holds_image_or_raw(child) for child in node.children
               if isinstance(child, nodes.Element))


def _title_text(title: nodes.title) -> str:
    """``clean_astext(title)``: without its copy of the title where there is nothing to clean
    (no image, no raw node: the copy's text is the title's own)."""
    return clean_astext(title) if _holds_image_or_raw(title) else title.astext()


class LinkSections(SphinxTransform):
    """After translation: anchors, std labels, the document's record and its auto-links."""

    default_priority = 290

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.current_document.docname
        patterns = edition_chapter_patterns(self.config, self.config.language)
        walk = _DocumentWalk(self.document, docname, recognizer(*patterns))
        walk.run()
        domain = get_domain(self.env)
        domain.note_document(
            docname, walk.sections, walk.chapter, walk.mentions, walk.other_titles
        )
        registered: set[str] = set()
        for record in walk.sections:
            if record.id not in registered:  # a duplicate in the page keeps the first
                registered.add(record.id)
                register_label(self.env, record)
        if walk.chapter is not None:
            register_label(self.env, walk.chapter)


def sec_role_target(text: str) -> tuple[bool, str, str, str]:
    """A ``{sec}`` role's text as the build reads it: (explicit title?, title, inventory, §
    number); the inventory is empty for this volume."""
    explicit, title, target = split_explicit_title(text)
    inventory, _, number = target.strip().rpartition(":")
    return explicit, title, inventory, section_number(number.strip().removeprefix("§").strip())


class SecRole(SphinxRole):
    """``{sec}`12.3.4``, ``{sec}`text <12.3>``, ``{sec}`vllm:3.2``` (a sibling volume)."""

    def run(self) -> tuple[list[Node], list[system_message]]:
        explicit, title, inventory, number = sec_role_target(self.text)
        shown = title if explicit else f"§{number}"
        content = nodes.inline(shown, shown, classes=["sec-ref"])
        if inventory:
            xref = addnodes.pending_xref(
                self.rawtext, content, refdomain="std", reftype="ref",
                reftarget=f"{inventory}:{section_id(number)}",
            )
            xref[MENTION_INVENTORY] = inventory
        else:
            xref = addnodes.pending_xref(
                self.rawtext, content, refdomain=DOMAIN, reftype="sec", reftarget=number
            )
        xref["refexplicit"], xref["refwarn"] = True, True
        xref[MENTION], xref[MENTION_NUMBER] = "sec", number
        self.set_source_info(xref)
        return [xref], []


def resolve_sibling(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    """``{sec}`vllm:3.2```: intersphinx makes the link; the tooltip is the target's § title.

    When it cannot, this is the one warning: the node stops asking for Sphinx's own
    (``undefined label``, from the std domain, which every ``warn-missing-reference`` listener
    would add whatever ours returns).
    """
    inventory = node.get(MENTION_INVENTORY)
    if inventory is None:
        return None
    number = node[MENTION_NUMBER]
    if "sphinx.ext.intersphinx" not in app.extensions:
        reference = None
        why = f"is in the inventory {inventory!r}, which needs sphinx.ext.intersphinx"
    else:
        from sphinx.ext.intersphinx import InventoryAdapter, resolve_reference_detect_inventory

        reference = resolve_reference_detect_inventory(env, node, contnode)
        named = InventoryAdapter(env).named_inventory
        item = named.get(inventory, {}).get("std:label", {}).get(section_id(number))
        if reference is not None and item is not None:
            reference["reftitle"] = item.display_name
        why = (f"is not in the inventory {inventory!r} (intersphinx_mapping)" if inventory in named
               else f"names the inventory {inventory!r}, which intersphinx_mapping lacks")
    if reference is None:
        node["refwarn"] = False
        warn(Problem.SEC_UNRESOLVED, f"§{number} {why}", node)
    return reference


def warn_unresolved(app: Sphinx, domain: Domain | None, node: addnodes.pending_xref) -> bool:
    """One ``sec-unresolved`` / ``chapter-unresolved`` warning per unresolved mention."""
    kind = node.get(MENTION)
    if kind is None:
        return False
    number = node[MENTION_NUMBER]
    if kind == "chapter":
        warn(Problem.CHAPTER_UNRESOLVED, f"no chapter {number} in this book", node)
    elif node.get(MENTION_INVENTORY) is None:  # a sibling's was reported by resolve_sibling
        warn(Problem.SEC_UNRESOLVED, f"no section §{number} in this book", node)
    return True


def warn_section_ref(app: Sphinx) -> None:
    """MyST's section_ref numbers sections by structure; ours wins, and the author is told."""
    if "section_ref" in (getattr(app.config, "myst_enable_extensions", None) or ()):
        warn(
            Problem.SEC_SECTION_REF,
            "myst_enable_extensions has 'section_ref', which links § numbers by document "
            "structure within one page; seriesbook.sections links them by the numbers written "
            "in the headings across the book and takes precedence. Remove 'section_ref'.",
            None,
        )
