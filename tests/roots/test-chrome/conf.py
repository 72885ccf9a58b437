# The page's chrome at every width: two editions, long citations, a wide table, code, a preview.
project = "外壳测试书"
copyright = "2026，外壳测试作者"
language = "zh_CN"
extensions = ["seriesbook"]
exclude_patterns = ["_build", "demo-src", "locale"]
html_theme = "sphinx_book_theme"
html_search_language = "zh"
html_theme_options = {"show_toc_level": 2}
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_repository_url = "https://github.com/example/chrome-book"
seriesbook_editions = ["zh_CN", "en"]
seriesbook_sources = {
    "demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": "demo-src"},
}
seriesbook_default_source = "demo"
