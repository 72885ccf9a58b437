"""Mermaid diagrams drawn when the book is built: inline SVG in the page, with Python alone.

Every diagram of every edition, as that edition has it (translated labels included), is drawn
by merman (a Rust Mermaid renderer on PyPI: no browser, no Node.js, so ``make html`` draws on a
machine with Python only and on Read the Docs) and put into the page as an SVG image:

* Drawing (:mod:`._draw`): labels as SVG text, measured (:mod:`._measure`) with the widths of
  the page's fonts plus room for the reader's system CJK font; colours as CSS custom properties,
  which ``seriesbook-diagrams.css`` switches for dark mode.
* Store (:mod:`._store`): kept by content in ``<doctreedir>/seriesbook-svg/``, so a rebuild draws
  only what changed; after a build it holds the book's drawings only (:mod:`._book`). The
  EPUB's images are the same drawings (:func:`standalone`: light colours, plain SVG 1.1).
* Page (:mod:`._place`): the image is named by its caption, ``accTitle``, ``:alt:`` or labels;
  untranslated labels carry the book's language; a wide diagram scrolls in its own box on a
  phone. A page whose diagrams are all drawn loads no Mermaid script.
* A diagram merman cannot draw is ``diagram-draw`` at its line (its source is shown), unless
  ``seriesbook_diagrams_in_browser = True`` leaves it to mermaid in the reader's browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.core.builders import is_website
from seriesbook.diagrams._book import DiagramCodes, prune_store
from seriesbook.diagrams._draw import DrawError, standalone
from seriesbook.diagrams._place import DIAGRAM_CLASS, PlaceDrawings
from seriesbook.diagrams._store import STORE_SUBDIR, drawing, drawing_path

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "DIAGRAM_CLASS", "STORE_SUBDIR", "DrawError", "drawing", "drawing_path", "setup", "standalone",
]

STYLE = "seriesbook-diagrams.css"


def _add_style(app: Sphinx) -> None:
    from seriesbook.site import add_static_dir

    if is_website(app):
        add_static_dir(app)
        app.add_css_file(STYLE)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.setup_extension("seriesbook.site")  # the mermaid directive, the static files
    app.setup_extension("seriesbook.editions")  # the diagrams' labels and their languages
    app.add_post_transform(PlaceDrawings)
    app.add_env_collector(DiagramCodes)
    app.connect("build-finished", prune_store)
    app.connect("builder-inited", _add_style)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
