project = "站点测试书"
copyright = "2026，站点测试作者。正文采用 CC BY-NC-SA 4.0 许可"
language = "zh_CN"
extensions = ["seriesbook"]
html_theme = "sphinx_book_theme"
html_search_language = "zh"
seriesbook_repository_url = "https://github.com/example/site-book"
