project = "侧栏测试书"
copyright = "2026，侧栏测试作者"
language = "zh_CN"
extensions = ["seriesbook.site"]  # the sidebar alone: no gates or § checks on this tiny book
html_theme = "sphinx_book_theme"
html_search_language = "zh"
