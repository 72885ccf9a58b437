"""A small Chinese book: Sphinx's zh search vs seriesbook.search (tests/test_search.py)."""

project = "搜索测试"
language = "zh_CN"
extensions = ["myst_parser", "sphinxcontrib.mermaid", "seriesbook.search"]
html_search_language = "zh"
