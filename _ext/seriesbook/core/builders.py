"""What kind of output a build writes, asked by every capability that serves the web site only."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def is_website(app: Sphinx) -> bool:
    """A web site: not an embedded HTML output such as EPUB, whose reader runs no scripts."""
    return app.builder.format == "html" and not getattr(app.builder, "embedded", False)
