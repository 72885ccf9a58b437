"""The series' theme is an extra: a conf.py that names sphinx-book-theme without it installed
gets one ``theme-missing`` line naming ``seriesbook[theme]``, and the page is still built (with
Sphinx's default theme), never Sphinx's "Theme error!" report."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from seriesbook.site import _theme_door
from sphinx.testing.util import SphinxTestApp


@pytest.mark.sphinx("html", testroot="site-basic", freshenv=True)
def test_series_theme_installed_is_used(app: SphinxTestApp) -> None:
    app.build()
    assert app.config.html_theme == "sphinx_book_theme"
    assert "theme-missing" not in app.warning.getvalue()


def test_series_theme_missing_is_one_line(
    monkeypatch: pytest.MonkeyPatch, make_app: type[SphinxTestApp], rootdir: Path,
    tmp_path: Path,
) -> None:
    real_find_spec = _theme_door.find_spec
    monkeypatch.setattr(
        _theme_door, "find_spec",
        lambda name: None if name == "sphinx_book_theme" else real_find_spec(name),
    )
    srcdir = tmp_path / "book"
    shutil.copytree(rootdir / "test-site-basic", srcdir)
    app = make_app("html", srcdir=srcdir)
    app.build()
    warnings = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()).splitlines()
                if "WARNING" in line]
    assert len(warnings) == 1, warnings
    assert "[seriesbook.theme-missing]" in warnings[0]
    assert 'pip install "seriesbook[theme]"' in warnings[0]
    assert app.config.html_theme != "sphinx_book_theme"  # alabaster (sphinx.testing: basic)
    assert (Path(app.outdir) / "index.html").is_file()
