"""Language marks: text a translated edition shows untranslated says it is in the book's language.

A page of the English edition mixes English (translated messages, seriesbook's notice and
switcher, the theme's words) with the book's own Chinese (messages without a usable
translation, whole pages without a catalog, diagrams whose labels are not translated yet, code
comments). Inside ``<html lang="en">`` the browser draws that Chinese with the fallback font it
picks for an *English* page (on Debian a calligraphic Kai), a screen reader reads it with an
English voice, and search engines mislabel it. So every piece the build knows to be the
source's text carries the source language, as a ``language-<tag>`` class, which docutils' HTML
writer turns into ``lang="zh-CN"`` (and :class:`XmlLangTranslator` into ``xml:lang`` too, for
EPUB reading systems, whose pages' ``<html>`` also gets the edition's language):

* a message whose node Sphinx's ``Locale`` did not translate (``translated`` false or missing: no
  entry, an empty or fuzzy one, or no catalog for the page): the paragraph (``<p lang>``) or,
  for a title or term, its text (``<h2><span lang>``, so the permalink and the table of contents,
  the sidebar and the previous/next links built from the title carry the mark too);
* a diagram whose labels are all untranslated, or that could not be split into labels (a
  ``<div lang>`` around it); in a diagram partly translated, each element mermaid draws with
  the text of an untranslated label (the site's ``seriesbook-diagrams.js``, from the label
  texts the page lists after the diagram);
* a code block holding Han characters (its comments are the author's; code without Han is not
  natural language and keeps no mark);
* a toctree caption shown as written (:func:`mark_toctree_captions` in the sidebar,
  :func:`mark_page` in the page).

The notice and the language switcher are the edition's words and stay unmarked. The book's own
edition marks nothing: its text is its ``<html lang>``, and the English it holds (identifiers,
paths, product names) is part of Chinese sentences; the only English-only spans the build writes
there are the switcher's language names, which carry their own ``lang``.

Only HTML output (the site, EPUB) is marked: the PDF picks fonts per character (xeCJK), so the
same mark would buy nothing there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.writers.html5 import HTML5Translator
from sphinxcontrib.mermaid import mermaid

from seriesbook import compat
from seriesbook.core.config import is_translated_edition, language_tag, source_language
from seriesbook.core.escape import html_attribute, html_text, script_json
from seriesbook.editions import _walked
from seriesbook.editions._diagrams import diagram_label
from seriesbook.editions._messages import page_messages_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

# Han ideographs (CJK Unified Ideographs, Extension A, compatibility ideographs, Extension B+).
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
# Title-like messages: their text is wrapped, so what Sphinx adds after it (¶) is not marked.
_WRAPPED = (nodes.title, nodes.term)
# Messages that are not shown as text of their own (or are marked elsewhere).
_UNMARKED = (addnodes.toctree, nodes.meta, nodes.image, diagram_label)


def language_class(language: str) -> str:
    """The class docutils' HTML writer turns into ``lang``: ``language-zh-CN``."""
    return "language-" + language_tag(language)


def shows_source_text(node: nodes.Element) -> bool:
    """Whether a message node shows the source's text: ``Locale`` did not translate it."""
    return not node.get("translated")


def mark(node: nodes.Element, language: str) -> None:
    """Say that *node*'s text is in *language*."""
    if isinstance(node, _WRAPPED):
        if not node.children or (_is_marked(node[0]) and len(node.children) == 1):
            return
        text = nodes.inline("", "", *node.children, classes=[language_class(language)])
        node.children = []
        node.append(text)
    else:
        mark_element(node, language)


def mark_element(node: nodes.Element, language: str) -> None:
    """Say that *node*, as a whole, is in *language* (``<p lang>``)."""
    if language_class(language) not in node["classes"]:
        node["classes"].append(language_class(language))


def _is_marked(node: nodes.Node) -> bool:
    return isinstance(node, nodes.inline) and any(
        cls.startswith("language-") for cls in node["classes"]
    )


class MarkSourceText(SphinxTransform):
    """After the translation steps (``Locale``, 20; the notice, 30): mark what is still the
    source's text. A step that translates a node another way sets its ``translated`` too."""

    default_priority = 40

    def apply(self, **kwargs: Any) -> None:
        builder = compat.builder_class(self.env)
        if builder is None or builder.format != "html" or not is_translated_edition(self.config):
            return
        source = source_language(self.config)
        found = _walked.messages(self.document)  # as Locale left them
        pairs = (page_messages_of(self.document, self.config) if found is None
                 else compat.messages_of(found))
        for node, _message in list(pairs):
            if not isinstance(node, _UNMARKED) and shows_source_text(node):
                mark(node, source)
        blocks: list[nodes.literal_block] = []
        diagrams: list[mermaid] = []
        walked_blocks = _walked.found(self.document, nodes.literal_block)  # NoteMessages' walk
        walked_diagrams = _walked.found(self.document, mermaid)  # found them
        if walked_blocks is None or walked_diagrams is None:
            _code_and_diagrams(self.document, blocks, diagrams)
        else:
            blocks, diagrams = walked_blocks, walked_diagrams
        for block in blocks:
            if HAN.search(block.astext()):
                mark(block, source)
        for diagram in diagrams:
            labels = [child for child in diagram.children if isinstance(child, diagram_label)]
            untranslated = [label for label in labels if label["text"] == label["message"]]
            if len(untranslated) == len(labels):  # none: a diagram not split, shown as written
                _wrap(diagram, source)
            elif untranslated and builder.name != "epub":  # the EPUB's diagrams are images
                _name_source_labels(diagram, untranslated, source)


def _code_and_diagrams(
    node: nodes.Node, blocks: list[nodes.literal_block], diagrams: list[mermaid]
) -> None:
    """The page's literal blocks and diagrams, each in document order: what
    ``findall(nodes.literal_block)`` and ``findall(mermaid)`` find, in one walk."""
    if isinstance(node, nodes.literal_block):
        blocks.append(node)
    if isinstance(node, mermaid):
        diagrams.append(node)
    for child in node.children:
        if not isinstance(child, nodes.Text):
            _code_and_diagrams(child, blocks, diagrams)


# Where a partly translated diagram names its untranslated labels for seriesbook-diagrams.js.
SOURCE_LABELS_CLASS = "seriesbook-source-labels"
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _name_source_labels(
    diagram: nodes.Element, labels: list[diagram_label], language: str
) -> None:
    """After a partly translated diagram, the texts of its untranslated labels (spaces and line
    breaks removed) as JSON: once mermaid has drawn the diagram, the page's script gives the
    elements showing exactly those texts the source language."""
    if diagram.parent is None:
        return
    texts = sorted({"".join(_LINE_BREAK.sub("", str(label["text"])).split()) for label in labels})
    data = script_json({"lang": language_tag(language), "labels": texts})
    script = f'<script type="application/json" class="{SOURCE_LABELS_CLASS}">{data}</script>\n'
    diagram.parent.insert(diagram.parent.index(diagram) + 1, nodes.raw("", script, format="html"))


def _wrap(node: nodes.Element, language: str) -> None:
    """Put *node* in a ``<div lang>`` (its writer ignores classes)."""
    if node.parent is None:
        return
    wrapper = nodes.container("", classes=[language_class(language)])
    node.replace_self(wrapper)
    wrapper += node


def mark_toctree_captions(tree: nodes.Node, config: Config) -> None:
    """In a translated edition, a resolved toctree's caption shown as written is the source's.

    Sphinx keeps the written caption as the caption title's ``rawsource``; ``Locale`` treats a
    translation identical to it as untranslated too. (With :data:`seriesbook.speed.sidebar.ENABLED`
    off, the sidebar is Sphinx's own and its captions go unmarked.)
    """
    if is_translated_edition(config):
        for caption in _captions_as_written(tree):
            mark_element(caption, source_language(config))


def _captions_as_written(tree: nodes.Node) -> Iterator[nodes.title]:
    for paragraph in tree.findall(addnodes.compact_paragraph):
        if paragraph.get("toctree"):
            # a global toctree (the sidebar) joins the root's toctrees: one caption each
            for caption in paragraph.children:
                if isinstance(caption, nodes.title) and caption.astext() == caption.rawsource:
                    yield caption


# How Sphinx's HTML writers open a toctree's caption (test_editions_lang checks it still is).
CAPTION_HTML = '<p class="caption" role="heading"><span class="caption-text">'


def mark_page(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """``html-page-context``, after the theme's: the page's toctree captions and the theme's
    copy of an untranslated page title (sphinx-book-theme's ``pagetitle``, printed) say their
    language too.

    Sphinx resolves a page's toctrees after its last event on the doctree (``doctree-resolved``)
    and writes them at once, so the mark is added to the written caption: the caption's
    opening tags, as Sphinx writes them, followed by its text. The sidebar marks its own
    (:func:`seriesbook.speed.sidebar.local_toctree`).
    """
    body = context.get("body")
    if doctree is None or not isinstance(body, str) or not is_translated_edition(app.config):
        return
    tag = language_tag(source_language(app.config))
    attributes = f'lang="{tag}"' + (f' xml:lang="{tag}"' if app.builder.name == "epub" else "")
    title = next(iter(doctree.findall(nodes.title)), None)
    pagetitle = context.get("pagetitle")
    if (
        isinstance(pagetitle, str)
        and title is not None
        and len(title.children) == 1
        and _is_marked(title[0])  # the page's title is the source's
    ):
        context["pagetitle"] = f"<span {attributes}>{html_text(pagetitle)}</span>"
    captions = _captions_as_written(doctree) if CAPTION_HTML in body else ()  # else none written
    for caption in captions:
        written = CAPTION_HTML + caption.astext().translate(HTML5Translator.special_characters)
        marked = written.replace('role="heading"', f'{attributes} role="heading"', 1)
        body = body.replace(written, marked, 1)
    context["body"] = body


def tag_page_language(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """``html-page-context``: the page's ``<html lang>`` is the edition's BCP 47 tag, with its
    script where :func:`language_tag` names one (``zh-Hant-TW``; Sphinx writes ``zh-TW``)."""
    if app.config.language and isinstance(context.get("language"), str):
        context["language"] = language_tag(str(app.config.language))


def mark_epub_root(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """``html-page-context``: an EPUB page's ``<html>`` says the edition's language.

    Sphinx's EPUB builder writes its own ``<html>`` tag (``html_tag``) without one, leaving each
    page's language to the package's ``dc:language``.
    """
    tag = context.get("html_tag")
    if app.builder.name != "epub" or not isinstance(tag, str) or "lang=" in tag:
        return
    language = html_attribute(language_tag(str(app.config.language or "en")))
    context["html_tag"] = tag.removesuffix(">") + f' lang="{language}" xml:lang="{language}">'


class XmlLangTranslator(HTML5Translator):
    """EPUB's writer: every ``lang`` it writes is also ``xml:lang`` (XHTML reading systems)."""

    def starttag(
        self,
        node: nodes.Element,
        tagname: str,
        suffix: str = "\n",
        empty: bool = False,
        **attributes: Any,
    ) -> str:
        classes: list[str] = node.get("classes", []) if isinstance(node, nodes.Element) else []
        tags = [cls.removeprefix("language-") for cls in classes if cls.startswith("language-")]
        if tags and "xml:lang" not in attributes:
            attributes["xml:lang"] = tags[0]
        return str(super().starttag(node, tagname, suffix, empty, **attributes))

