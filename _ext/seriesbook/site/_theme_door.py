"""The series' theme is an extra (``pip install "seriesbook[theme]"``): a volume whose conf.py
names it without it installed gets one line (``theme-missing``) saying what to install, and its
build goes on with Sphinx's default theme, instead of Sphinx's "Theme error!" crash report."""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

SERIES_THEME = "sphinx_book_theme"
FALLBACK_THEME = "alabaster"


def require_series_theme(app: Sphinx, config: Config) -> None:
    """``config-inited``: the series' theme named but not installed is one clear line."""
    if config.html_theme != SERIES_THEME or find_spec(SERIES_THEME) is not None:
        return
    warn(
        Problem.THEME_MISSING,
        f"html_theme {SERIES_THEME!r} is not installed: pip install \"seriesbook[theme]\" "
        f"(or sphinx-book-theme); this build uses Sphinx's default theme, {FALLBACK_THEME}",
        None,
    )
    config.html_theme = FALLBACK_THEME
    config.html_theme_options = {}  # the series theme's options mean nothing to another
