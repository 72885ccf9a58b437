"""The book's structure in the PDF: parts from the root toctrees' captions, named destinations.

Sphinx's LaTeX builder inlines every toctree of the root page into one document and drops the
toctrees' captions; the root page's captions ("第一篇 全景") are the book's parts. Here they come
back as ``\\part`` before each toctree's first document, so the PDF's table of contents and
outline show parts, chapters and (bookmarks) every § section.

Every ``sec-…``/``ch-…`` id of a section (:mod:`seriesbook.sections` gives them) is also a named
PDF destination, so ``book.pdf#sec-12-3`` opens where ``ch12.html#sec-12-3`` does on the site.
Sphinx's own labels (``ch12:sec-12-3``) keep serving the book's internal links.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.latex import LaTeXBuilder as SphinxLaTeXBuilder
from sphinx.locale import _
from sphinx.transforms.post_transforms import SphinxPostTransform

if TYPE_CHECKING:
    from sphinx.writers.latex import LaTeXTranslator

# The ids seriesbook.sections gives numbered sections and chapter titles (sec-12-3, ch-12).
ANCHOR = re.compile(r"sec-\d+(?:-\d+)+|ch-\d+")
# xeCJK drops a space between two CJK characters (a line break in Chinese source is no space);
# in a title the space is meant ("第一篇 全景"): it becomes an ideographic space.
CJK = r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]"
TITLE_SPACE = re.compile(rf"(?<={CJK}) +(?={CJK})")


class book_part(nodes.Element):
    """A part of the book (a captioned toctree of the root page), before its first document."""


class pdf_destination(nodes.Element):
    """Named PDF destinations at the start of a section."""


class BookStructure(SphinxPostTransform):
    """On the LaTeX builder's assembled book: insert the parts and the destinations."""

    default_priority = 900
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        self._title_page_chapter()
        self._insert_parts()
        self._insert_destinations()
        self._keep_title_spaces()

    def _title_page_chapter(self) -> None:
        """The root page's own text (before its toctrees) becomes a chapter under its title.

        Its title is the book's title, which LaTeX prints on the title page; without a chapter
        of its own the text would hang between the table of contents and the first part.
        """
        root = self.document.next_node(nodes.section)
        if root is None or not root.children or not isinstance(root[0], nodes.title):
            return
        body = []
        for child in root.children[1:]:
            if isinstance(child, nodes.section) or any(child.findall(addnodes.start_of_file)):
                break
            body.append(child)
        if not any(isinstance(child, nodes.Element) and child.astext().strip() for child in body):
            return
        chapter = nodes.section("", nodes.title(root[0].astext(), root[0].astext()))
        for child in body:
            root.remove(child)
            chapter += child
        root.insert(1, chapter)

    def _part_titles(self) -> dict[str, str]:
        """First document of each captioned toctree of the root page → the caption."""
        root = self.env.get_doctree(self.config.root_doc)
        titles: dict[str, str] = {}
        for toctree in root.findall(addnodes.toctree):
            files: list[str] = toctree.get("includefiles", [])
            includes = [str(name) for name in files]
            if toctree.get("caption") and includes:
                titles.setdefault(includes[0], str(toctree["caption"]))
        return titles

    def _insert_parts(self) -> None:
        titles = self._part_titles()
        for start in list(self.document.findall(addnodes.start_of_file)):
            title = titles.pop(start["docname"], None)
            if title is not None and start.parent is not None:
                start.parent.insert(start.parent.index(start), book_part(title=title))

    def _keep_title_spaces(self) -> None:
        for title in [*self.document.findall(nodes.title), *self.document.findall(book_part)]:
            if isinstance(title, book_part):
                title["title"] = TITLE_SPACE.sub("\u3000", title["title"])
                continue
            for text in list(title.findall(nodes.Text)):
                spaced = TITLE_SPACE.sub("\u3000", text.astext())
                if spaced != text.astext() and text.parent is not None:
                    text.parent.replace(text, nodes.Text(spaced))

    def _insert_destinations(self) -> None:
        for section in self.document.findall(nodes.section):
            names = [name for name in section["ids"] if ANCHOR.fullmatch(name)]
            if names and section.children and isinstance(section[0], nodes.title):
                section.insert(1, pdf_destination(names=names))


def visit_book_part(self: LaTeXTranslator, node: book_part) -> None:
    self.body.append(f"\n\\part{{{self.encode(node['title'])}}}\n")
    raise nodes.SkipNode


def visit_pdf_destination(self: LaTeXTranslator, node: pdf_destination) -> None:
    for name in node["names"]:
        self.body.append(f"\\seriesbookdestination{{{name}}}")
    self.body.append("\n")
    raise nodes.SkipNode


def skip_node(self: nodes.NodeVisitor, node: nodes.Element) -> None:
    raise nodes.SkipNode


class LaTeXBuilder(SphinxLaTeXBuilder):
    """Sphinx's LaTeX builder (registered in its place with ``app.add_builder``), its table of
    contents titled with the language's own name ("目录"): Sphinx takes the first toctree's
    caption, and those captions are the parts here ("开篇")."""

    def get_contentsname(self, indexfile: str) -> str:
        return str(_("Contents"))
