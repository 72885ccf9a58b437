project = "导航测试书"
copyright = "2026，导航测试作者"
language = "zh_CN"
# the theme's navigation alone: no gates or § checks on this tiny book
extensions = ["seriesbook.site", "seriesbook.core.config"]
exclude_patterns = ["_build", "locale"]
myst_enable_extensions = ["dollarmath"]
html_theme = "sphinx_book_theme"
html_search_language = "zh"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_editions = ["zh_CN", "en"]
