"""The book offline: PDF (XeLaTeX, xeCJK, Noto CJK) and EPUB editions of every language.

* Settings (:mod:`._settings`): defaults for the LaTeX and EPUB builders, so every volume of the
  series gets them; ``conf.py`` may still set any of them (names, titles).
* Structure (:mod:`._structure`): the root page's toctree captions become LaTeX parts, every
  ``sec-…``/``ch-…`` id a named PDF destination (``book.pdf#sec-12-3`` works like the site).
* Diagrams (:mod:`._diagrams`, :mod:`._render`): each Mermaid diagram, as the reader's edition
  has it (translated labels), is drawn once — for EPUB, the site's own drawing
  (:mod:`seriesbook.diagrams`, Python alone) as an SVG file; for LaTeX, a PDF (labels stay text)
  by npm's ``@mermaid-js/mermaid-cli`` in the system Chromium, all in one browser session —
  cached by content hash in the doctree directory, and put into the page as an image. A
  diagram that fails is ``diagram-render`` at its line, and its source is printed instead.
* Downloads (:mod:`._downloads`): the HTML pages link the PDF and EPUB from the theme's
  download menu when ``seriesbook_download_url`` says where they are (Read the Docs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.offline._diagrams import DiagramCollector, PlaceDiagrams, draw_missing
from seriesbook.offline._downloads import add_download_links
from seriesbook.offline._glyphs import glyph_checker
from seriesbook.offline._settings import MAIN_FONT, apply_defaults
from seriesbook.offline._structure import (
    BookStructure,
    LaTeXBuilder,
    book_part,
    pdf_destination,
    skip_node,
    visit_book_part,
    visit_pdf_destination,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.setup_extension("sphinxcontrib.mermaid")
    app.setup_extension("seriesbook.editions._ui")  # the download tooltip's words, also alone
    # settings: LaTeX and EPUB defaults every volume gets (conf.py may still set them)
    app.connect("config-inited", apply_defaults, priority=400)
    # structure: toctree captions become LaTeX parts, every § id a named PDF destination
    app.add_builder(LaTeXBuilder, override=True)
    skip = (skip_node, None)
    others = {name: skip for name in ("html", "epub", "text", "man", "texinfo")}
    app.add_node(book_part, latex=(visit_book_part, None), **others)  # type: ignore[arg-type]
    app.add_node(
        pdf_destination, latex=(visit_pdf_destination, None), **others  # type: ignore[arg-type]
    )
    app.add_post_transform(BookStructure)
    # diagrams: drawn once per content after reading, placed as images when writing
    app.add_env_collector(DiagramCollector)
    app.connect("env-updated", draw_missing)
    app.add_post_transform(PlaceDiagrams)
    # downloads: the HTML pages link the PDF and EPUB from the theme's download menu
    app.connect("html-page-context", add_download_links, priority=600)
    # glyphs: a character no font of the PDF has is pdf-glyph at its line, never dropped
    app.connect("doctree-resolved", glyph_checker(MAIN_FONT))
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
