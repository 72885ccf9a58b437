"""Sphinx configuration of seriesbook's manual (this directory), built with seriesbook itself.

`make docs` builds it with -W into _build/docs/; on Read the Docs, docs/.readthedocs.yaml.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "_ext"), str(HERE.parent / "_ext")]  # the tables; seriesbook unbuilt

from seriesbook import __version__  # noqa: E402

project = "seriesbook"
author = "The seriesbook authors"
copyright = "2026, the seriesbook authors (MIT)"
language = "en"
version = release = __version__

extensions = ["seriesbook", "reference_tables"]
exclude_patterns = ["_build", "_ext", ".venv"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
html_theme = "sphinx_book_theme"
html_title = f"seriesbook {__version__}"
seriesbook_repository_url = "https://github.com/seriesbook/pytorch-internals"
# The manual's prose shows the book's § mentions (§12.3), which name no section of the manual.
suppress_warnings = ["seriesbook.sec-unresolved"]
html_static_path = ["_static"]
html_css_files = ["manual.css"]
