"""Previews: read a § section, a chapter or the cited source lines without leaving the page.

Hovering (after a short delay), focusing (Tab) or tapping a link to a § section or chapter (an
auto-linked ``§4.2`` or ``第4章``, ``{sec}``, ``{ref}`` to ``sec-…``/``ch-…``) shows the target's
number and title and the start of its text (about 200 characters; a diagram, code block or
table before it is named, not drawn), in the edition's language, with a link to go there. The
same on a citation (``torch/cuda/memory.py:513``) shows the cited lines at the pinned release,
highlighted with the theme's colours, numbered, the first 12 of a longer range and how many
more, the source's license underneath; the GitHub link stays the link.

The lines come from the build's verification (a local copy, else the lock, which keeps their
text: ``seriesbook lock``), so a build on Read the Docs previews the same bytes as one on the
author's machine. Each page's data is one UTF-8 file, ``_previews/<page>.js``, loaded by a
``<script>`` element on the first gesture (so it works from ``file://``); a page carries only a
``<meta>`` naming it, plus one small script and style sheet. No third-party request, ever.
Links into a sibling volume preview from the ``seriesbook-previews.json`` that volume publishes
beside its ``objects.inv`` (read at build time, like the inventory); this volume publishes its own.

Configuration: ``seriesbook_previews = False`` turns previews off; a source's ``license`` in
``seriesbook_sources`` names its license (PyTorch and vLLM are known).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from seriesbook.core.config import add_path
from seriesbook.previews._collect import collect
from seriesbook.previews._records import PreviewsDomain, previews_domain
from seriesbook.previews._write import PageWriter, add_pointer, enabled, publish
from seriesbook.sections import get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

STATIC = Path(__file__).resolve().parent / "static"
SCRIPT = "seriesbook-previews.js"


def _add_static(app: Sphinx) -> None:
    """``builder-inited``: the script (it loads the style sheet on the first gesture)."""
    if not enabled(app):
        return
    add_path(app.config, "html_static_path", str(STATIC))
    app.add_js_file(SCRIPT, loading_method="defer")


def _referrers(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: pages linking to a target whose preview changed are written again."""
    changed = previews_domain(env).changed_since_published()
    return sorted(get_domain(env).referrers(changed))


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    app.setup_extension("seriesbook.sections")
    app.setup_extension("seriesbook.citations")
    app.setup_extension("seriesbook.editions._ui")  # the preview's words
    app.add_domain(PreviewsDomain)
    writer = PageWriter()
    app.connect("builder-inited", _add_static)
    app.connect("doctree-read", collect)
    app.connect("env-updated", _referrers)
    app.connect("env-updated", writer.reset)
    app.connect("doctree-resolved", writer.write)
    app.connect("html-page-context", add_pointer)
    app.connect("build-finished", publish)
    app.connect("build-finished", writer.save)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
