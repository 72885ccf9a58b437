"""The house rule kept by a subclass or a public API (issue 31), not by replacing Sphinx's methods:
the LaTeX contents' name, the Chinese search language."""

from __future__ import annotations

import shutil
from io import StringIO
from pathlib import Path

from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-hostile-labels"


def _app(tmp_path: Path, builder: str, language: str) -> SphinxTestApp:
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    return SphinxTestApp(
        builder, srcdir=book, builddir=book / "_build", confoverrides={"language": language},
        status=StringIO(), warning=StringIO(),
    )


def test_the_latex_contents_are_named_by_a_registered_subclass(tmp_path: Path) -> None:
    from seriesbook.offline import LaTeXBuilder
    from sphinx.builders.latex import LaTeXBuilder as SphinxLaTeXBuilder

    app = _app(tmp_path, "latex", "zh_CN")
    try:
        assert type(app.builder) is LaTeXBuilder and isinstance(app.builder, SphinxLaTeXBuilder)
        assert "get_contentsname" not in vars(app.builder)  # the class's method, not swapped
        assert app.builder.get_contentsname("index") == "目录"
    finally:
        app.cleanup()


def test_chinese_search_is_registered_with_add_search_language(tmp_path: Path) -> None:
    from seriesbook.search import SearchChineseOnDemand
    from seriesbook.search.zh import SearchChinese
    from sphinx.search import languages

    app = _app(tmp_path, "html", "zh_CN")
    try:
        assert languages["zh"] is SearchChineseOnDemand
        assert isinstance(SearchChineseOnDemand({}), SearchChinese)  # jieba only now
    finally:
        app.cleanup()
