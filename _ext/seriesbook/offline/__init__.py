"""The book offline: PDF (XeLaTeX, xeCJK, Noto CJK) and EPUB editions of every language.

* Settings (:mod:`._settings`): defaults for the LaTeX and EPUB builders, so every volume of the
  series gets them; ``conf.py`` may still set any of them (names, titles).
* Structure (:mod:`._structure`): the root page's toctree captions become LaTeX parts, every
  ``sec-…``/``ch-…`` id a named PDF destination (``book.pdf#sec-12-3`` works like the site).
* Diagrams (:mod:`._diagrams`, :mod:`._render`): each Mermaid diagram, as the reader's edition
  has it (translated labels), is drawn once by npm's ``@mermaid-js/mermaid-cli`` in the system
  Chromium — a PDF (labels stay text) for LaTeX, a PNG for EPUB — all in one browser session,
  cached by content hash in the doctree directory, and put into the page as an image. A
  diagram that fails is ``diagram-render`` at its line, and its source is printed instead.
* Downloads (:mod:`._downloads`): the HTML pages link the PDF and EPUB from the theme's
  download menu when ``seriesbook_download_url`` says where they are (Read the Docs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.offline import _diagrams, _downloads, _glyphs, _settings, _structure

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.config")
    app.setup_extension("sphinxcontrib.mermaid")
    _settings.register(app)
    _structure.register(app)
    _diagrams.register(app)
    _downloads.register(app)
    app.connect("doctree-resolved", _glyphs.glyph_checker(_settings.MAIN_FONT))  # pdf-glyph
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
