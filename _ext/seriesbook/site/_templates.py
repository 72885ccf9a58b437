"""seriesbook's template layer over pydata-sphinx-theme and sphinx-book-theme, in one place.

The overrides in ``templates/`` (the layout's head, the search page, the sidebar toggles and
navigation, the asset macros) are written against those themes' templates: another theme gets
none of them. They carry the theme's interface words, which our UI catalog translates, so the
gettext builder must not extract them into the book's ``sphinx.pot``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.core.config import add_path, is_set_by_author

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

TEMPLATES = Path(__file__).resolve().parent / "templates"
PYDATA_THEMES = frozenset({"sphinx_book_theme", "pydata_sphinx_theme"})


def uses_pydata_templates(config: Config) -> bool:
    return config.html_theme in PYDATA_THEMES


def add_templates(app: Sphinx, config: Config) -> None:
    """``config-inited``: our layer after the author's templates, so theirs win, and before
    the themes' component directories, so ours win over the themes'.

    Where conf.py sets no ``templates_path``, the value is Sphinx's default list, one object for
    the whole process, which both themes append their directories to: a build after another in
    the same process (``seriesbook serve``, ``check``, the tests) finds them there already. Our
    layer goes first in a list of this build's own (the author has no entries), never into
    that shared one.
    """
    ours = str(TEMPLATES)
    if not uses_pydata_templates(config) or ours in config.templates_path:
        return
    if is_set_by_author(config, "templates_path"):
        add_path(config, "templates_path", ours)
    else:
        config.templates_path = [ours, *config.templates_path]


def templates_out_of_catalogs(app: Sphinx) -> None:
    """``builder-inited``: Sphinx's gettext builder extracts every ``templates_path`` entry
    into the book's ``sphinx.pot`` (it reads the list when it builds), which would hand a
    translator the theme's words."""
    if app.builder.name == "gettext" and str(TEMPLATES) in app.config.templates_path:
        app.config.templates_path = [
            path for path in app.config.templates_path if path != str(TEMPLATES)
        ]


def setup(app: Sphinx) -> dict[str, Any]:
    """Loaded by each part of :mod:`seriesbook.site` that relies on the layer (once, however
    many do)."""
    from seriesbook import __version__

    app.connect("config-inited", add_templates)
    app.connect("builder-inited", templates_out_of_catalogs)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
