"""Putting a drawing into a web page: an inline SVG image with a name, its labels' languages,
and a box of its own that scrolls on a phone instead of shrinking the labels.

A page whose ``mermaid`` nodes are all replaced here holds none, so sphinxcontrib-mermaid adds
no Mermaid script to it.
"""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinxcontrib.mermaid import mermaid

from seriesbook import compat
from seriesbook.core.builders import is_website
from seriesbook.core.config import (
    get_config,
    is_translated_edition,
    language_tag,
    source_language,
)
from seriesbook.core.escape import html_text
from seriesbook.core.problems import Problem, warn
from seriesbook.diagrams._draw import ID_PLACEHOLDER, DrawError
from seriesbook.diagrams._store import STORE_SUBDIR, drawing
from seriesbook.editions import diagram_label, diagram_words

if TYPE_CHECKING:
    from pathlib import Path

DIAGRAM_CLASS = "seriesbook-diagram"
SOURCE_CLASS = "seriesbook-diagram-source"
SOURCE_LABELS_CLASS = "seriesbook-source-labels"  # editions' list, for the browser's drawing
SMALLEST_LABEL_PX = 10  # a wide diagram scrolls in its box rather than draw labels smaller
_SVG_OPEN = re.compile(r"<svg\b[^>]*>")
_ROLE = re.compile(r'\s(?:role|aria-roledescription)="[^"]*"')
_WIDTH = re.compile(r'max-width:\s*([\d.]+)px')
_FONT_SIZE = re.compile(r'font-size[:=]\s*"?([\d.]+)px')
_TEXT = re.compile(r"<text\b([^>]*)>(.*?)</text>", re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")
_ACC_TITLE = re.compile(r"^\s*accTitle\s*:\s*(.+?)\s*$", re.MULTILINE)
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def accessible_name(node: mermaid) -> str:
    """The caption, else the author's ``accTitle`` or ``:alt:``, else the labels in order."""
    figure = node.parent if isinstance(node.parent, nodes.figure) else None
    caption = figure.next_node(nodes.caption) if figure is not None else None
    if caption is not None:
        return caption.astext()
    if match := _ACC_TITLE.search(node["code"]):
        return match.group(1)
    if node.get("alt"):
        return str(node["alt"])
    labels = [_LINE_BREAK.sub(" ", str(label["text"])) for label in node.findall(diagram_label)]
    return " · ".join(label for label in labels if label) or "Mermaid diagram"


HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def name_is_untranslated(node: mermaid, name: str) -> bool:
    """In a translated edition: whether the name shows the book's own words (an untranslated
    caption, label or ``:alt:``), so it carries the book's language."""
    figure = node.parent if isinstance(node.parent, nodes.figure) else None
    caption = figure.next_node(nodes.caption) if figure is not None else None
    if caption is not None:
        classes: list[str] = [
            cls for element in caption.findall(nodes.Element) for cls in element["classes"]
        ]
        return any(cls.startswith("language-") for cls in classes)
    untranslated = [
        str(label["text"]) for label in node.findall(diagram_label)
        if label["text"] == label["message"] and label["text"]
    ]
    if node.get("alt") and name == node["alt"]:
        return True  # the directive's options are not translated
    return any(text in name for text in untranslated)


def shows_source_words(node: mermaid, code: str) -> bool:
    """Whether the code holds the book's words: an untranslated label with Han, or Han in a
    diagram that could not be split into labels."""
    labels = list(node.findall(diagram_label))
    if not labels:
        return bool(HAN.search(code))
    return any(
        label["text"] == label["message"] and HAN.search(str(label["text"])) for label in labels
    )


def _squeezed(text: str) -> str:
    return "".join(_LINE_BREAK.sub("", text).split())


def mark_source_labels(svg: str, texts: set[str], language: str) -> str:
    """Give each ``<text>`` that shows exactly one of *texts* (blanks removed) a ``lang``."""

    def mark(match: re.Match[str]) -> str:
        shown = _squeezed(html.unescape(_TAGS.sub("", match.group(2))))
        if shown not in texts or "lang=" in match.group(1):
            return match.group()
        return f'<text lang="{language}"{match.group(1)}>{match.group(2)}</text>'

    return _TEXT.sub(mark, svg)


def as_image(svg: str, name: str, element_id: str, name_language: str | None = None) -> str:
    """The drawing as an image named *name*, with the page's id, at least legible on a phone."""
    opening = _SVG_OPEN.search(svg)
    if opening is None:
        return svg
    tag = _ROLE.sub("", opening.group())
    width = _WIDTH.search(tag)
    sizes = [float(size) for size in _FONT_SIZE.findall(svg)] or [16.0]
    if width is not None:
        natural = float(width.group(1))
        least = math.ceil(natural * SMALLEST_LABEL_PX / min(sizes))
        tag = tag.replace(width.group(), f"{width.group()}; min-width: {min(least, natural):g}px")
    title_id = f"{element_id}-title"
    tag = tag[:-1] + f' role="img" aria-labelledby="{title_id}">'
    lang = f' lang="{name_language}"' if name_language else ""
    title = f'<title id="{title_id}"{lang}>{html_text(name)}</title>'
    body = svg[: opening.start()] + tag + title + svg[opening.end() :]
    return body.replace(ID_PLACEHOLDER, element_id)


def source_disclosure(code: str, code_language: str | None = None) -> str:
    """The diagram's Mermaid source, one click away (for copying, and for readers the drawing
    does not serve); in the book's language where it holds the book's words."""
    summary = html_text(diagram_words()["source"])
    lang = f' lang="{code_language}"' if code_language else ""
    return (
        f'<details class="{SOURCE_CLASS}"><summary>{summary}</summary>'
        f'<pre class="{SOURCE_CLASS}-code"{lang}>{html_text(code)}</pre>'
        "</details>\n"
    )


class PlaceDrawings(SphinxPostTransform):
    """On the web site, each ``mermaid`` node becomes its drawing, inline."""

    default_priority = 90

    def is_supported(self) -> bool:
        return is_website(compat.application(self.env))

    def run(self, **kwargs: Any) -> None:
        store: Path = compat.application(self.env).doctreedir / STORE_SUBDIR
        in_browser = get_config(self.config).diagrams_in_browser
        docname = self.env.current_document.docname
        for index, node in enumerate(list(self.document.findall(mermaid)), start=1):
            try:
                svg = drawing(store, str(node["code"]))
            except DrawError as error:
                if not in_browser:
                    warn(
                        Problem.DIAGRAM_DRAW,
                        f"Mermaid diagram could not be drawn: {error}; its source is shown "
                        "instead (seriesbook_diagrams_in_browser = True lets the reader's "
                        "browser draw it)",
                        node,
                    )
                    shown = nodes.literal_block(node["code"], node["code"], language="text")
                    node.replace_self(shown)
                continue
            element_id = f"diagram-{re.sub(r'[^A-Za-z0-9_-]', '-', docname)}-{index}"
            svg = self._mark_languages(node, svg)
            name = accessible_name(node)
            source = self._source_language()
            name_language = source if source and name_is_untranslated(node, name) else None
            page_html = as_image(svg, name, element_id, name_language)
            code = str(node["code"])
            code_language = source if source and shows_source_words(node, code) else None
            classes = [DIAGRAM_CLASS] + ([f"align-{node['align']}"] if node.get("align") else [])
            ids = " ".join(node["ids"])
            id_attr = f' id="{ids}"' if ids else ""
            block = (
                f'<div class="{" ".join(classes)}"{id_attr}>{page_html}</div>\n'
                + source_disclosure(code, code_language)
            )
            self._drop_source_labels(node)
            node.replace_self(nodes.raw("", block, format="html"))

    def _source_language(self) -> str | None:
        """The book's language tag in a translated edition (its marks), else None."""
        if not is_translated_edition(self.config):
            return None
        return language_tag(source_language(self.config))

    def _mark_languages(self, node: mermaid, svg: str) -> str:
        if not is_translated_edition(self.config):
            return svg
        labels = list(node.findall(diagram_label))
        untranslated = [label for label in labels if label["text"] == label["message"]]
        if not untranslated or len(untranslated) == len(labels):  # all: the page marks the box
            return svg
        texts = {_squeezed(str(label["text"])) for label in untranslated}
        return mark_source_labels(svg, texts, language_tag(source_language(self.config)))

    def _drop_source_labels(self, node: mermaid) -> None:
        """The list editions leaves for the browser's drawing is not needed by ours."""
        parent = node.parent
        if parent is None:
            return
        after = parent.index(node) + 1
        following = parent[after] if after < len(parent) else None
        if isinstance(following, nodes.raw) and SOURCE_LABELS_CLASS in following.astext():
            parent.remove(following)
