"""Read stage: the opening of every § section and chapter of a document, as previews show it.

Runs at ``doctree-read``, when the document is translated and its § anchors are set (the sections
capability's records name them), so a preview shows the edition's own text. Text shown
untranslated in a translated edition (Sphinx marks such messages ``translated = False``) carries
the source language, for the preview's ``lang`` attribute.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.nodes import clean_astext

from seriesbook.core.config import is_translated_edition, source_language
from seriesbook.editions import NOTICE_CLASS, html_lang
from seriesbook.previews._records import Block, TargetPreview, previews_domain
from seriesbook.sections import MentionKind, get_domain, heading_number

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: About this many characters of a target's text are shown.
TEXT_LIMIT = 200
MAX_BLOCKS = 3
_WIDE = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_BREAK = re.compile(f"(?<=[{_WIDE}])\\s*\\n\\s*(?=[{_WIDE}])")
_SPACES = re.compile(r"\s+")
#: Whether an element's text is shown untranslated (in a translated edition).
Untranslated = Callable[[nodes.Element], bool]


def flat_text(text: str) -> str:
    """One line: a line break between two Han characters vanishes, other whitespace is a space."""
    return _SPACES.sub(" ", _CJK_BREAK.sub("", text)).strip()


def title_text(node: nodes.Element) -> str:
    """Sphinx's ``clean_astext``: the text without images' alt text or raw markup, which it
    gets from a copy of the node; a title holding neither is its own text, without the copy."""
    if any(isinstance(inner, nodes.image | nodes.raw) for inner in node.findall(nodes.Element)):
        return clean_astext(node)
    return node.astext()


def clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _untranslated(node: nodes.Element) -> bool:
    """Sphinx marked a message of *node* untranslated: ``any(n.get("translated") is False for n
    in node.findall(nodes.Element))``, without findall's generators (every block of every
    section opening a preview asks)."""
    stack = [node]
    while stack:
        element = stack.pop()
        if element.attributes.get("translated", None) is False:
            return True
        stack.extend(child for child in element.children if isinstance(child, nodes.Element))
    return False


def _caption(node: nodes.Element, lang: str, untranslated: Untranslated) -> tuple[str, str]:
    """A figure's or a code block's caption, and its language if it is shown untranslated."""
    caption = next(iter(node.findall(nodes.caption)), None)
    if caption is None:
        return "", ""
    return flat_text(caption.astext()), lang if lang and untranslated(caption) else ""


def _diagram(node: nodes.Element) -> nodes.Element | None:
    """A diagram, or the ``<div lang>`` the marks put around an untranslated one."""
    if getattr(node, "tagname", "") == "mermaid" or isinstance(node, nodes.image):
        return node
    if (isinstance(node, nodes.container) and len(node.children) == 1
            and any(cls.startswith("language-") for cls in node["classes"])):
        inner = node[0]
        if isinstance(inner, nodes.Element) and getattr(inner, "tagname", "") == "mermaid":
            return inner
    return None


def _named(kind: str, text: str, lang: str) -> Block:
    """A diagram, code block or table named by *text* (a language only where there is text)."""
    return Block(kind, text, lang if text else "")


def _block(node: nodes.Node, lang: str, untranslated: Untranslated) -> Block | None:
    """What one body element of a section contributes, or None (skipped: targets, comments).

    A name shown untranslated in a translated edition (a caption, a table's title, a
    diagram's ``:alt:``, which is never translated) carries the source language, as the page
    marks it."""
    skipped = nodes.Invisible | nodes.system_message
    if not isinstance(node, nodes.Element) or isinstance(node, skipped):
        return None
    if NOTICE_CLASS in node["classes"]:  # the edition's "translation in progress", not the text
        return None
    diagram = _diagram(node)
    if diagram is not None:
        alt = flat_text(diagram.get("alt", ""))
        translated = isinstance(diagram, nodes.image) and bool(diagram.get("translated"))
        return _named("d", alt, "" if translated else lang)
    if isinstance(node, nodes.figure):
        return _named("d", *_caption(node, lang, untranslated))
    if isinstance(node, nodes.literal_block):
        return Block("c", node.get("language", ""))  # a language's name, not the book's words
    if isinstance(node, nodes.container) and node.get("literal_block"):
        return _named("c", *_caption(node, lang, untranslated))
    if isinstance(node, nodes.table):
        title = next(iter(node.findall(nodes.title)), None)
        if title is None:
            return Block("t", "")
        return _named("t", flat_text(title.astext()), lang if untranslated(title) else "")
    text = flat_text(node.astext())
    if not text:
        return None
    return Block("p", text, lang if lang and untranslated(node) else "")


def opening(
    section: nodes.section, lang: str = "", untranslated: Untranslated = _untranslated
) -> tuple[Block, ...]:
    """The section's first paragraph (clipped), with the diagrams, code and tables before it
    named; a short lead-in is followed by what comes next. A section that opens with a
    subsection shows that one's title (``s``) and opening."""
    blocks: list[Block] = []
    used = 0
    for child in section.children:
        if isinstance(child, nodes.section) and not blocks:
            title = child[0] if child.children and isinstance(child[0], nodes.title) else None
            if title is None:
                break
            heading = Block("s", title_text(title), lang if lang and untranslated(title) else "")
            return (heading, *opening(child, lang, untranslated)[: MAX_BLOCKS - 1])
        if isinstance(child, nodes.title | nodes.section):
            continue
        block = _block(child, lang, untranslated)
        if block is None:
            continue
        if block.kind == "p":
            block = block._replace(text=clipped(block.text, max(TEXT_LIMIT - used, 40)))
            used += len(block.text)
        blocks.append(block)
        if used >= TEXT_LIMIT // 2 or len(blocks) >= MAX_BLOCKS:
            break
    return tuple(blocks)


def shown_title(kind: MentionKind, number: str, text: str) -> str:
    """A § title keeps its number even where a translation dropped it (as the sections'
    records do); a chapter title is as written."""
    if kind == "sec" and heading_number(text) != number:
        return f"§{number} {text}"
    return text


def _always(node: nodes.Element) -> bool:
    return True


def _nothing_translated(doctree: nodes.document) -> bool:
    """A page without a catalog: Sphinx marks none of its messages, all are untranslated.

    ``translation_progress`` is what Sphinx's ``TranslationProgressTotaliser`` (Sphinx ≥ 7.1)
    counts of the ``translated`` marks; test_untranslated_text_carries_the_source_language
    guards both (a page with a partial catalog, one with none)."""
    progress: dict[str, int] = doctree.get("translation_progress") or {}
    return not progress.get("translated", 0)


def collect(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: note the previews of the document's § sections and chapter."""
    env = app.env
    docname = env.current_document.docname
    sections = get_domain(env)
    wanted: dict[str, tuple[MentionKind, str, str]] = {}
    chapter = sections.chapters.get(docname)
    if chapter is not None:
        wanted[chapter.id] = ("chapter", chapter.number, chapter.title)
    for record in sections.sections.get(docname, ()):
        wanted.setdefault(record.id, ("sec", record.number, record.title))
    lang = html_lang(source_language(app.config)) if is_translated_edition(app.config) else ""
    untranslated = _always if lang and _nothing_translated(doctree) else _untranslated
    found: dict[str, TargetPreview] = {}
    for section in doctree.findall(nodes.section):
        ids = section.get("ids") or [""]
        if ids[0] in wanted and ids[0] not in found:
            kind, number, title = wanted[ids[0]]
            title_node = section[0] if isinstance(section[0], nodes.title) else None
            title_lang = lang if lang and title_node and untranslated(title_node) else ""
            if title_node is not None:  # as the page shows it (after smart quotes)
                title = shown_title(kind, number, title_text(title_node))
            found[ids[0]] = TargetPreview(kind, number, ids[0], title, title_lang,
                                          opening(section, lang, untranslated))
    domain = previews_domain(env)
    if found:
        domain.targets[docname] = found
    else:
        domain.targets.pop(docname, None)
