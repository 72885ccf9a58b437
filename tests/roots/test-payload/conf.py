# A small book on the site's theme: what a chapter page loads (icons, search, scripts).
project = "轻量页面测试书"
copyright = "2026，测试作者"
language = "zh_CN"
extensions = ["seriesbook"]
html_theme = "sphinx_book_theme"
html_search_language = "zh"
seriesbook_repository_url = "https://github.com/example/payload-book"
