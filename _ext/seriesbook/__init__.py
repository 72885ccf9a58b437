"""seriesbook: the Sphinx extensions every volume of the 深度解析 book series uses.

``extensions = ["seriesbook"]`` enables every capability in :data:`CAPABILITIES` (and MyST and
sphinxcontrib-mermaid); each is also an extension of its own, whose ``setup()`` lists what it
registers:

* ``seriesbook.site`` — local Mermaid, Chinese search, theme wiring;
* ``seriesbook.sections`` — § anchors, auto-links and checks;
* ``seriesbook.citations`` — ``file:line`` links pinned to a release, verified;
* ``seriesbook.stats`` — the book's scale table and chapter gates;
* ``seriesbook.search`` — Chinese search index, segmenting each text once across builds;
* ``seriesbook.editions`` — translated editions from gettext catalogs;
* ``seriesbook.renumbered`` — publishes the renumbering history beside ``objects.inv`` and warns
  when a link into a sibling volume names a number renumbered there;
* ``seriesbook.previews`` — previews of § sections, chapters and cited source lines;
* ``seriesbook.diagrams`` — Mermaid diagrams drawn at build time, inline SVG (no browser);
* ``seriesbook.offline`` — PDF (XeLaTeX, xeCJK) and EPUB editions with drawn diagrams;
* ``seriesbook.speed`` — build-speed machinery (same output, built faster).

Beside them: ``seriesbook.core`` (options, problem codes, numbers, the page store), which every
capability uses; ``seriesbook.compat``, the one door to private Sphinx/jieba internals; and
``seriesbook.commands``, the ``seriesbook`` command, which a build never imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"

CAPABILITIES = (
    "seriesbook.site", "seriesbook.sections", "seriesbook.citations", "seriesbook.stats",
    "seriesbook.search", "seriesbook.editions", "seriesbook.renumbered",
    "seriesbook.previews", "seriesbook.diagrams",
    "seriesbook.offline", "seriesbook.speed",
)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.speed.heap")  # first: the collector relaxed for the rest
    for name in CAPABILITIES:
        app.setup_extension(name)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
