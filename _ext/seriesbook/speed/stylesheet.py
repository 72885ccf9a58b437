"""pydata-sphinx-theme's light and dark ``pygments.css``, kept across builds.

When every build finishes, the theme's ``overwrite_pygments_css`` writes ``_static/pygments.css``
again from two Pygments styles (``pygments_light_style`` and ``pygments_dark_style``, its
accessible ones by default, which a plugin package provides): to check that the styles exist it
lists every style installed, which reads the entry points of every installed distribution, a
one-chapter rebuild's too. What it writes depends only on the two names, on Pygments and on the
installed packages (the plugins among them), so the file it wrote is kept in the doctree
directory (``seriesbook-pygments-css.pickle``) under those, and written again from there. A
build where the theme would fall back to another style (a name it does not find: it says so)
runs the theme's own code, and so does ``seriesbook_speedups = False``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygments

from seriesbook import __version__
from seriesbook.core.pagestore import dump_atomically, installed_packages, read_stored
from seriesbook.speed._theme import replace_theme_listener

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

CACHE_NAME = "seriesbook-pygments-css.pickle"
FORMAT = 1
#: The theme's options naming the styles, in the order it reads them.
OPTIONS = ("pygments_light_style", "pygments_dark_style")


def requested_styles(app: Sphinx, theme_options: dict[str, Any]) -> tuple[str, str] | None:
    """The styles the theme is asked for (its options, else its ``theme.conf``), as it reads
    them; None if it is asked for none (then it takes its fallbacks)."""
    names: list[str] = []
    for option in OPTIONS:
        name = theme_options.get(option)
        theme = getattr(app.builder, "theme", None)
        if name is None and theme is not None:
            name = theme.get_options()[option]
        if not isinstance(name, str):
            return None
        names.append(name)
    return names[0], names[1]


def _kept(theme_handler: Callable[..., None]) -> Callable[..., None]:
    """The theme's ``overwrite_pygments_css``, its file written from the store when kept."""

    def overwrite_pygments_css(app: Sphinx, exception: BaseException | None = None) -> None:
        theme = sys.modules.get("pydata_sphinx_theme")
        utils = sys.modules.get("pydata_sphinx_theme.utils")
        if exception is not None or app.builder is None or theme is None or utils is None:
            theme_handler(app, exception)
            return
        names = requested_styles(app, utils.get_theme_options_dict(app))
        key = (FORMAT, __version__, getattr(theme, "__version__", ""), pygments.__version__,
               installed_packages(), names)  # fmt: skip
        store = Path(app.doctreedir) / CACHE_NAME
        target = Path(app.builder.outdir) / "_static" / "pygments.css"
        kept = read_stored(store, key) if names is not None else None
        if kept is not None and isinstance(kept.get("css"), bytes):
            target.parent.mkdir(exist_ok=True)
            target.write_bytes(kept["css"])
            return
        theme_handler(app, exception)
        from pygments.styles import get_all_styles  # listed once more, as the theme did

        if names is None or not set(names) <= set(get_all_styles()) or not target.is_file():
            return  # the theme fell back to another style, and said so
        try:
            dump_atomically(store, {"key": key, "css": target.read_bytes()})
        except OSError:
            return  # a read-only build directory: nothing kept

    return overwrite_pygments_css


def setup(app: Sphinx) -> ExtensionMetadata:
    replace_theme_listener(
        app, "pydata_sphinx_theme.pygments", "build-finished", "overwrite_pygments_css", _kept
    )
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
