extensions = ["seriesbook"]
exclude_patterns = ["_build", "demo-src", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
html_search_language = "zh"
seriesbook_editions = ["zh_CN", "zh_TW"]
seriesbook_sources = {
    "demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": "demo-src"},
}
seriesbook_default_source = "demo"
html_theme = "sphinx_book_theme"
