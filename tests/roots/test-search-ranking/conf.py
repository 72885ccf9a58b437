"""A small book for the ranking of § results (tests/test_browser.py::test_ranking_rule)."""

project = "排序测试"
extensions = ["myst_parser", "sphinxcontrib.mermaid", "seriesbook.sections", "seriesbook.search"]
language = "zh_CN"
html_search_language = "zh"
exclude_patterns = ["_build"]


def setup(app):  # type: ignore[no-untyped-def]
    # Sphinx 9.0's zh search needs this name (sphinx-doc/sphinx#14229); seriesbook.site adds it.
    app.add_js_file(None, body="window.ChineseStemmer = function () { return new EnglishStemmer(); };")
