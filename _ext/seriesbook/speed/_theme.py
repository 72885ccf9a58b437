"""Put seriesbook's handler where one of the theme's listeners is, once the theme is set up.

The theme is set up with the builder, just before ``builder-inited``: its listeners are there
then. :func:`replace_theme_listener` gives the listener of *event* whose handler is the theme
module's *name* the handler ``make_handler(its handler)`` in the same place among the
listeners (:func:`seriesbook.compat.replace_listener`), when the theme is the build's and
speedups are on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from seriesbook import compat
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def replace_theme_listener(
    app: Sphinx,
    module: str,
    event: str,
    name: str,
    make_handler: Callable[[Callable[..., Any]], Callable[..., Any]],
) -> None:
    """At ``builder-inited``: replace the theme's listener (see the module's docstring)."""

    def on_builder_inited(app: Sphinx) -> None:
        theme_module = sys.modules.get(module)  # set up with the builder, if it is the theme
        if theme_module is not None and get_config(app.config).speedups:
            compat.replace_listener(app, event, getattr(theme_module, name), make_handler)

    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    app.connect("builder-inited", on_builder_inited)
