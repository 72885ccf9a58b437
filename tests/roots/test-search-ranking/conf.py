"""A small book for the ranking of § results (tests/test_browser.py::test_ranking_rule)."""

project = "排序测试"
extensions = ["myst_parser", "sphinxcontrib.mermaid", "seriesbook.sections", "seriesbook.search"]
language = "zh_CN"
html_search_language = "zh"
exclude_patterns = ["_build"]
