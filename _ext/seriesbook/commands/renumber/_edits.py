"""Plan renumber's edits: headings, § mentions and ``{sec}`` roles, in sources and catalogs.

What is a mention is what the build links: the blocks' ``pending_xref`` nodes that the sections
capability made (auto-links, local ``{sec}`` roles), located in the ``.md`` with
:func:`..rewrite.locate_inline`; inline code, code blocks, diagrams, links and URLs are
never touched. A catalog message is tied to its block by its msgid (Sphinx's own extraction);
its msgid is aligned with the block the same way, and its msgstr is read with MyST's markdown-it
parser (the one the build configures), whose text tokens outside links are searched with the
same recognizer the build uses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from markdown_it.renderer import RendererHTML
from myst_parser.parsers.mdit import create_md_parser
from sphinx.util.nodes import extract_messages

from seriesbook.commands.renumber._outline import CHAPTER_KEY, ChapterPage
from seriesbook.commands.rewrite import (
    Located,
    Plan,
    PoEntry,
    Span,
    find_written,
    is_role,
    line_end,
    line_of,
    line_start,
    locate_inline,
    text_blocks,
)
from seriesbook.sections import (
    HEADING,
    MENTION,
    MENTION_INVENTORY,
    MENTION_NUMBER,
    NEW_HEADING,
    chapter_number,
    edition_chapter_patterns,
    find_mentions,
    sec_role_target,
    section_id,
    section_number,
)

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from sphinx.environment import BuildEnvironment

    from seriesbook.commands.renumber._outline import Heading, Outline


_DIGITS = re.compile(r"[0-9０-９]+")
#: A link to a § section of this book by its anchor: ``#sec-3-1``, ``ch03.html#sec-3-1``.
_SECTION_LINK = re.compile(r"^(?![a-z][a-z0-9+.-]*:)[^#]*#sec-(?P<number>[0-9]+(?:-[0-9]+)*)$")


@dataclass(frozen=True)
class Dangling:
    """A mention of a number no heading has (a deleted section): left as written."""

    path: Path
    line: int
    mention: str
    number: str = ""  #: the § number it names, as the build reads it


def _number_span(written: str, number: str, role: bool) -> tuple[int, int] | None:
    """Where *number* is in a mention as written (a role's target is its last part)."""
    at = section_number(written).rfind(number)  # `§１．３` is 1.3, the same length
    if at < 0 or (not role and at + len(number) != len(written)):
        return None
    return at, at + len(number)


def _mention_edits(
    located: list[Located], text: str, mapping: dict[str, str]
) -> tuple[list[Span], list[tuple[int, str, str]], set[int]]:
    """Spans to rewrite among the located leaves, the dangling mentions (offset, text, number),
    and the ids of the mention nodes placed (rewritten, unchanged or dangling)."""
    spans: list[Span] = []
    dangling: list[tuple[int, str, str]] = []
    placed: set[int] = set()
    for leaf in located:
        node = leaf.node
        key = mention_key(node)
        if key is None or not isinstance(node, nodes.Element):
            continue  # not a mention, or another volume's number: not ours to change
        number = node[MENTION_NUMBER]
        written = text[leaf.start:leaf.end]
        if key not in mapping:
            dangling.append((leaf.start, written, key))
            placed.add(id(node))
            continue
        chapter = key.startswith(CHAPTER_KEY)
        where = (_chapter_span(written, number) if chapter
                 else _number_span(written, number, is_role(node)))
        if where is None:
            continue  # written otherwise (an escape inside the number): reported by the caller
        placed.add(id(node))
        if mapping[key] != key:
            new_number = mapping[key].removeprefix(CHAPTER_KEY)
            new = written[:where[0]] + new_number + written[where[1]:]
            spans.append((leaf.start, leaf.end, new))
    return spans, dangling, placed


def mention_key(node: nodes.Node) -> str | None:
    """A local mention's key in the renumbering map: its § number, or ``ch:N`` for chapter N;
    None for any other node (and a sibling volume's mention)."""
    if not isinstance(node, nodes.Element) or node.get(MENTION_INVENTORY) is not None:
        return None
    kind = node.get(MENTION)
    if kind == "sec":
        return str(node[MENTION_NUMBER])
    return CHAPTER_KEY + str(node[MENTION_NUMBER]) if kind == "chapter" else None


def _chapter_span(written: str, number: str) -> tuple[int, int] | None:
    """Where chapter *number* is in a chapter mention or title as written (its digits)."""
    for match in _DIGITS.finditer(written):
        if chapter_number(match[0]) == number:
            return match.span()
    return None


def keyed_map(outline: Outline) -> dict[str, str]:
    """The § map and the chapter map (``ch:N`` keys) in one: what a mention's key becomes."""
    return outline.map | {CHAPTER_KEY + old: CHAPTER_KEY + new
                          for old, new in outline.chapter_map().items()}


def _heading_span(line_text: str, heading: Heading) -> tuple[int, int, str] | None:
    """The heading's `§N.M` (or new `§ `) on its source line, with what replaces it."""
    if heading.new is None or heading.old == heading.new:
        return None
    if heading.old is None:
        match = NEW_HEADING.search(line_text)
        return (match.start(), match.end(), f"§{heading.new} ") if match else None
    for match in HEADING.finditer(line_text):
        if section_number(match["number"]) == heading.old:
            return match.start(), match.end(), f"§{heading.new}"
    return None


def _to_place(block: nodes.Element, mapping: dict[str, str]) -> list[nodes.Element]:
    """The block's local § and chapter mentions to rewrite or to report (a number no heading
    or chapter has)."""
    return [node for node in block.findall(nodes.Element)
            if (key := mention_key(node)) is not None and mapping.get(key) != key]


def _chapter_title(plan: Plan, page: ChapterPage, unlocated: list[Dangling]) -> None:
    """Renumber a chapter page's title on its line; report it when not found as written."""
    if page.old == page.new:
        return
    text = plan.text(page.path)
    start = line_start(text, page.line)
    line = text[start:line_end(text, start)]
    where = _chapter_span(line, page.old) if line.lstrip().startswith("#") else None
    if where is None:
        unlocated.append(Dangling(page.path, page.line, f"chapter title {page.old} → {page.new}",
                                  CHAPTER_KEY + page.old))
        return
    plan.replace(page.path, start + where[0], start + where[1], page.new)


def plan_sources(
    plan: Plan, doctrees: dict[str, nodes.document], outline: Outline
) -> tuple[list[Dangling], list[Dangling]]:
    """Plan every ``.md`` edit; return the dangling mentions, and the mentions to renumber that
    could not be found as written (left as they are, for the author)."""
    dangling: list[Dangling] = []
    unlocated: list[Dangling] = []
    mapping = keyed_map(outline)
    for page in outline.chapters:
        _chapter_title(plan, page, unlocated)
    for heading in outline.headings:
        text = plan.text(heading.path)
        start = line_start(text, heading.line)
        found = _heading_span(text[start:line_end(text, start)], heading)
        if found is not None:
            plan.replace(heading.path, start + found[0], start + found[1], found[2])
        elif heading.new is not None and heading.old != heading.new:
            # never skip a heading silently (a heading written across lines, an escape)
            unlocated.append(Dangling(heading.path, heading.line,
                                      f"heading §{heading.old or ''} → §{heading.new}",
                                      heading.old or ""))
    for doctree in doctrees.values():
        for block in text_blocks(doctree):
            to_place = _to_place(block, mapping)
            if not to_place:
                continue
            path = Path(block.source or doctree["source"])
            text = plan.text(path)
            located = (locate_inline(block, text, line_start(text, block.line))
                       if block.line is not None else [])
            spans, lost, placed = _mention_edits(located, text, mapping)
            for start, end, new in spans:
                plan.replace(path, start, end, new)
            dangling.extend(Dangling(path, line_of(text, at), written, number)
                            for at, written, number in lost)
            for node in to_place:
                if id(node) not in placed:
                    key = mention_key(node) or ""
                    missed = Dangling(path, block.line or 0, node.astext(), key)
                    (dangling if key not in mapping else unlocated).append(missed)
    return dangling, unlocated


class CatalogRewrite:
    """The msgid and msgstr spans of each catalog entry, by the block its msgid came from."""

    def __init__(
        self, env: BuildEnvironment, doctrees: dict[str, nodes.document], outline: Outline
    ) -> None:
        self.mapping = keyed_map(outline)
        self.changed = outline.changed()
        self.chapters_changed = outline.chapters_changed()
        self.chapter_titles = {(page.docname, page.line) for page in outline.chapters}
        self.config = env.config
        self.patterns: tuple[str, ...] = ()  # the chapter patterns of the catalog's edition
        self.changing = re.compile(
            "|".join(re.escape(n) for n in sorted(self.changed, key=len, reverse=True)) or "(?!)"
        )
        # a heading is known by page and line (as number_book found it)
        self.headings = {(h.docname, h.line): h for h in outline.headings}
        self.uses: dict[str, list[tuple[str, nodes.Element]]] = {}
        for docname, doctree in doctrees.items():
            for node, message in extract_messages(doctree):
                self.uses.setdefault(message, []).append((docname, node))
        self.markdown: MarkdownIt = create_md_parser(
            env.myst_config, RendererHTML  # type: ignore[attr-defined]
        )
        self.path = Path()
        self.shared: list[Dangling] = []  # messages whose uses would need different rewrites
        # messages with a mention to renumber not found as written: left whole, for the author
        self.unlocated: list[Dangling] = []
        # numbers no heading has now that a heading will have: a message naming one (a deleted
        # section) would name another section once renumbered, so it is reported
        self.stale_numbers = outline.stale()
        self.stale: list[Dangling] = []
        self._complete = True
        self._links_only = False  # a page's own text: its prose mentions are the doctree's

    def __call__(self, entry: PoEntry) -> tuple[list[Span], list[Span]]:
        msgid = entry.msgid.value
        uses = self.uses.get(msgid, [])
        self.patterns = self._patterns(self.path)
        if uses and self.stale_numbers:
            for string in (entry.msgid, entry.msgstr):  # at the line of the string naming it
                for number in sorted(self._stale_in(string.value)):
                    self.stale.append(Dangling(self.path, string.line, f"§{number}", number))
        if not uses or not self._may_change(msgid):
            return [], []
        self._complete = True
        rewrites = [self._msgid_spans(docname, node, msgid) for docname, node in uses]
        if any(r != rewrites[0] for r in rewrites):
            # e.g. a heading and a diagram label with the same text: rewriting the message
            # for one would take the translation from the other
            self.shared.append(Dangling(self.path, entry.line, msgid))
            return [], []
        id_spans, heading = rewrites[0]
        if id_spans and heading is not None:
            str_spans = self._translated_heading(entry.msgstr.value, heading)
        else:
            str_spans = self._translated(entry.msgstr.value) if id_spans else []
        if not self._complete:
            self.unlocated.append(Dangling(self.path, entry.line, msgid))
            return [], []
        return (id_spans, str_spans) if id_spans else ([], [])

    def _stale_in(self, value: str) -> set[str]:
        """The stale numbers a message's text mentions as the build reads it (markdown-it's
        text outside links, local ``{sec}`` roles)."""
        found: set[str] = set()
        for token in self.markdown.parse(value):
            in_link = 0
            for child in token.children or []:
                if child.type in ("link_open", "link_close"):
                    in_link += 1 if child.type == "link_open" else -1
                elif child.type == "text" and not in_link:
                    found.update(m.number if m.kind == "sec" else CHAPTER_KEY + m.number
                                 for m in find_mentions(child.content, *self.patterns))
                elif child.type == "myst_role" and child.meta.get("name") == "sec":
                    _, _, inventory, number = sec_role_target(child.content)
                    if not inventory:
                        found.add(number)
        return found & self.stale_numbers

    def _may_change(self, msgid: str) -> bool:
        """Every rewrite replaces a changing number or numbers a new heading: a message with
        neither is left alone without aligning it."""
        if "§" in msgid and (self.changing.search(msgid) or NEW_HEADING.search(msgid)):
            return True
        return bool(self.chapters_changed) and any(
            m.kind == "chapter" and m.number in self.chapters_changed
            for m in find_mentions(msgid, *self.patterns))

    def _patterns(self, path: Path) -> tuple[str, ...]:
        """The chapter patterns a catalog's messages are read with: its edition's and the
        book's language's (``locale/<language>/LC_MESSAGES/…``)."""
        parts = path.parts
        at = parts.index("LC_MESSAGES") if "LC_MESSAGES" in parts else 0
        language = parts[at - 1] if at > 0 else None
        return tuple(edition_chapter_patterns(self.config, language))

    def _msgid_spans(
        self, docname: str, node: nodes.Element, msgid: str
    ) -> tuple[list[Span], Heading | None]:
        if isinstance(node, nodes.title) and isinstance(node.parent, nodes.section):
            line = node.parent.line or node.line or 0
            heading = self.headings.get((docname, line))
            if heading is None and (docname, line) in self.chapter_titles:
                return self._translated(msgid), None  # a chapter title: its 第N章 as text
            return (self._heading(msgid, heading), heading) if heading else ([], None)
        spans, _, placed = _mention_edits(locate_inline(node, msgid), msgid, self.mapping)
        if any(id(n) not in placed for n in _to_place(node, self.mapping)):
            self._complete = False
        return spans, None

    @staticmethod
    def _heading(value: str, heading: Heading) -> list[Span]:
        lead = len(value) - len(value.lstrip())
        found = _heading_span(value[lead:], heading)
        if found is None or (found[0] != 0):
            return []
        return [(lead + found[0], lead + found[1], found[2])]

    def _translated_heading(self, value: str, heading: Heading) -> list[Span]:
        """A heading's translation: its number where it leads (``§1.2 Strides``, or a new
        heading's ``§ ``), and every § mention it holds elsewhere, as prose is read
        (``Strides (§1.2)``: the translator put the number at the end)."""
        lead = self._heading(value, heading)
        rest = self._translated(value)
        return lead + [span for span in rest
                       if not any(span[0] < end and start < span[1] for start, end, _ in lead)]

    def _translated(self, value: str) -> list[Span]:
        """The prose § and chapter mentions of a translation whose number changes, read as the
        build does."""
        if "§" not in value and "#sec-" not in value and not self.chapters_changed:
            return []
        spans: list[Span] = []
        cursor = 0
        for token in self.markdown.parse(value):
            cursor = self._inline(token.children or [], value, cursor, spans)
        return spans

    def source_links(self, path: Path, text: str) -> list[Span]:
        """A Markdown page's links to a § by anchor (``[§3.1](#sec-3-1)``, ``[存储](#sec-3-1)``):
        their anchors and link texts renumbered; a link that cannot be is reported under
        ``unlocated`` at its paragraph. (Mentions and roles outside links are the doctree's.)"""
        if "#sec-" not in text:
            return []
        self.patterns = tuple(edition_chapter_patterns(self.config, None))
        spans: list[Span] = []
        self._links_only = True
        try:
            for token in self.markdown.parse(text):
                if not token.children or not token.map or "#sec-" not in token.content:
                    continue
                self._complete = True
                found: list[Span] = []
                self._inline(token.children, text, line_start(text, token.map[0] + 1), found)
                if self._complete:
                    spans += found
                else:  # left whole: a link renumbered in part would name two sections
                    self.unlocated.append(Dangling(path, token.map[0] + 1, token.content))
        finally:
            self._links_only = False
        return spans

    def _inline(self, tokens: list[Token], value: str, cursor: int, spans: list[Span]) -> int:
        # per open link, the § number its anchor names (``[§3.1](#sec-3-1)``), else None: the
        # text of a link to a § is renumbered with its anchor, any other link's is left alone
        links: list[str | None] = []
        for token in tokens:
            if token.type == "link_open":
                match = _SECTION_LINK.match(str(token.attrGet("href") or ""))
                links.append(match["number"].replace("-", ".") if match else None)
            elif token.type == "link_close":
                number = links.pop() if links else None
                close = value.find(")", cursor) if token.markup != "autolink" else -1
                if close >= 0 and "](" in value[cursor:close]:
                    if number in self.changed:
                        self._anchor(value, value.find("](", cursor) + 2, close, number, spans)
                    cursor = close + 1
                elif number in self.changed:
                    self._complete = False  # a reference-style link: its anchor is elsewhere
            elif token.type == "text" and token.content:
                outside = links[-1] is not None if links else not self._links_only
                span = find_written(value, token.content, cursor, len(value))
                if span is None or span[1] - span[0] != len(token.content):
                    # not found, or written with escapes: its offsets are not the text's
                    if outside and self._text_mentions(token.content, 0, []):
                        self._complete = False
                    cursor = span[1] if span else cursor
                    continue
                if outside:
                    self._text_mentions(token.content, span[0], spans)
                cursor = span[1]
            elif token.type == "myst_role":
                needle = f"{{{token.meta.get('name')}}}`{token.content}`"
                at = value.find(needle, cursor)
                if at < 0:
                    continue
                if token.meta.get("name") == "sec" and not self._links_only:
                    self._role(token.content, at, at + len(needle), value, spans)
                cursor = at + len(needle)
            elif token.content:
                at = value.find(token.content, cursor)  # code, math, html: skipped over
                cursor = at + len(token.content) if at >= 0 else cursor
        return cursor

    def _anchor(self, value: str, start: int, end: int, number: str, spans: list[Span]) -> None:
        """The ``#sec-…`` anchor ending a link's destination ``value[start:end]``, renumbered;
        a destination written otherwise (a title after it, escapes) is left for the author."""
        anchor = "#" + section_id(number)
        if not value[start:end].endswith(anchor):
            self._complete = False
            return
        spans.append((end - len(anchor), end, "#" + section_id(self.changed[number])))

    def _text_mentions(self, content: str, offset: int, spans: list[Span]) -> bool:
        """Add the spans of the mentions to renumber in *content*; whether there were any."""
        before = len(spans)
        for mention in find_mentions(content, *self.patterns):
            written = content[mention.start:mention.end]
            if mention.kind == "sec" and mention.number in self.changed:
                new = written[:len(written) - len(mention.number)] + self.changed[mention.number]
                spans.append((offset + mention.start, offset + mention.end, new))
            elif mention.kind == "chapter" and mention.number in self.chapters_changed:
                where = _chapter_span(written, mention.number)
                if where is not None:
                    new = (written[:where[0]] + self.chapters_changed[mention.number]
                           + written[where[1]:])
                    spans.append((offset + mention.start, offset + mention.end, new))
        return len(spans) > before

    def _role(self, content: str, start: int, end: int, value: str, spans: list[Span]) -> None:
        """A local ``{sec}`` role of a translation: the whole role, its target renumbered."""
        _, _, inventory, number = sec_role_target(content)  # as the build reads it
        written = value[start:end]
        where = _number_span(written, number, True)
        if inventory or number not in self.changed or where is None:
            return
        spans.append((start, end, written[:where[0]] + self.changed[number] + written[where[1]:]))
