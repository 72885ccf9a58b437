"""seriesbook.offline's LaTeX and EPUB settings are defaults: conf.py and -D still decide."""

from __future__ import annotations

import pytest
from sphinx.testing.util import SphinxTestApp


@pytest.mark.sphinx("latex", testroot="offline-book", confoverrides={"language": "en"})
def test_every_language_gets_xelatex_with_xecjk(app: SphinxTestApp) -> None:
    config = app.config
    assert config.latex_engine == "xelatex"  # Sphinx alone would pick pdflatex for English
    assert "xeCJK" in config.latex_elements["fontpkg"]
    assert "Noto Serif CJK SC" in config.latex_elements["fontpkg"]
    assert "xeCJKDeclareCharClass{Default}" in config.latex_elements["preamble"]  # Latin quotes
    assert config.latex_show_urls == "no" and config.epub_show_urls == "no"
    assert config.epub_language == "en"


@pytest.mark.sphinx(
    "epub",
    testroot="offline-book",
    confoverrides={
        "latex_engine": "lualatex",
        "epub_show_urls": "footnote",
        "latex_elements": {"papersize": "a4paper", "preamble": r"\newcommand\mine{}"},
    },
)
def test_the_authors_settings_win(app: SphinxTestApp) -> None:
    config = app.config
    assert config.latex_engine == "lualatex"
    assert config.epub_show_urls == "footnote"
    assert config.latex_elements["papersize"] == "a4paper"
    assert "xeCJK" in config.latex_elements["fontpkg"]  # keys the author did not set stay ours
    preamble = config.latex_elements["preamble"]
    assert preamble.index("seriesbookdestination") < preamble.index(r"\newcommand\mine")
    assert config.epub_language == "zh-CN"  # EPUB's BCP 47 form of zh_CN
