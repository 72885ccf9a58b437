extensions = ["seriesbook"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
seriesbook_editions = ["zh_CN", "en"]
html_theme = "sphinx_book_theme"
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
version = release = "1"
copyright = "2026, seriesbook tests"
project = "Language marks"
# The fuzzy entry of ch02 stands for text shown in the source language (outdated translations
# are shown marked by default: tests/test_translations.py covers them).
seriesbook_outdated_translations = False
# As the book's conf.py: both editions search with seriesbook's Chinese search (its snippets).
html_search_language = "zh"
