"""What each § section of a page says, so a search result can land on the § that matches.

A page with § sections (the ``sec`` domain knows their anchors) is cut into the text each § owns:
its title and body up to its first numbered sub-§ (an unnumbered sub-heading stays with its §),
and the page's opening before its first § (anchor ``""``, the top of the page). Each part keeps
its keys (the Han bigrams of each paragraph, and the stems of its Latin words, as the page's
terms are stemmed) and its length in characters; :mod:`~seriesbook.search.compact` writes them
into the index as per-§ postings. Pages without § sections have no parts and keep page results.

The parts are kept per page in the search's store (:mod:`~seriesbook.search.store`), so an
incremental build, which writes only the changed pages, still knows the § of every page when it
writes the index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

from docutils import nodes

from seriesbook.search.splitter import han_bigrams

if TYPE_CHECKING:
    from sphinx.application import Sphinx

class SectionText(NamedTuple):
    """One § of a page (``anchor`` ``""``: the page's text before its first §)."""

    anchor: str
    length: int
    keys: tuple[str, ...]
    #: In a translated edition: the title is still in the book's language (not translated).
    source_title: bool = False


def section_anchors(app: Sphinx, docname: str) -> set[str]:
    """The § anchors of *docname* the ``sec`` domain recorded (none without sections)."""
    if "seriesbook.sections" not in app.extensions:
        return set()
    from seriesbook.sections import get_domain

    return {record.id for record in get_domain(app.env).sections.get(docname, [])}


def _own_blocks(node: nodes.Element, anchors: set[str]) -> Iterator[nodes.Element]:
    """The blocks of *node* outside its numbered sub-sections, in document order."""
    for child in node.children:
        if not isinstance(child, nodes.Element) or isinstance(child, nodes.comment | nodes.raw):
            continue
        if isinstance(child, nodes.section) and anchors.intersection(child["ids"]):
            continue
        if isinstance(child, nodes.TextElement) or child.tagname == "mermaid":
            yield child
        else:
            yield from _own_blocks(child, anchors)


def _text(block: nodes.Element) -> str:
    """What the index takes from a block: its text; a Mermaid diagram's source (its labels)."""
    return str(block.get("code", "")) if block.tagname == "mermaid" else block.astext()


def _untranslated_title(node: nodes.Element) -> bool:
    title = next(node.findall(nodes.title), None)
    return title is not None and not title.get("translated")


#: A page's § parts before their keys are taken: each part's anchor, the texts of its blocks,
#: and whether its title is untranslated (what :func:`parts_of` makes the parts from).
PageTexts = tuple[tuple[str, tuple[str, ...], bool], ...]


def page_texts(
    doctree: nodes.document, anchors: set[str], translated_edition: bool = False
) -> PageTexts:
    """The texts of each part of a page (its opening, then each § in document order); none
    without §. In a *translated_edition*, a part whose title Sphinx did not translate says so."""
    if not anchors:
        return ()
    found: list[tuple[str, nodes.Element]] = []
    for section in doctree.findall(nodes.section):
        anchor = next((i for i in section["ids"] if i in anchors), None)
        if anchor is not None:
            found.append((anchor, section))
    if not found:
        return ()
    return tuple(
        (
            anchor,
            tuple(_text(block) for block in _own_blocks(node, anchors)),
            translated_edition and _untranslated_title(node),
        )
        for anchor, node in [("", doctree), *found]
    )


def section_part(
    anchor: str, texts: tuple[str, ...], source_title: bool, latin: Callable[[str], list[str]]
) -> SectionText:
    """One part of a page from its anchor, the texts of its blocks and whether its title is
    untranslated (*latin*: as :func:`parts_of`'s)."""
    keys: dict[str, None] = {}
    length = 0
    for text in texts:
        length += len("".join(text.split()))
        keys.update(dict.fromkeys(han_bigrams(text)))
        keys.update(dict.fromkeys(latin(text)))
    return SectionText(anchor, length, tuple(keys), source_title)


def parts_of(texts: PageTexts, latin: Callable[[str], list[str]]) -> list[SectionText]:
    """The parts of a page from its :func:`page_texts`; *latin* gives the index keys of a
    text's Latin words (the search language's stems)."""
    return [section_part(anchor, blocks, source, latin) for anchor, blocks, source in texts]


def page_sections(
    doctree: nodes.document,
    anchors: set[str],
    latin: Callable[[str], list[str]],
    translated_edition: bool = False,
) -> list[SectionText]:
    """The parts of a page (its opening, then each § in document order); none without §."""
    return parts_of(page_texts(doctree, anchors, translated_edition), latin)
