extensions = ["myst_parser", "seriesbook.sections"]
language = "en"
locale_dirs = ["locale"]
gettext_compact = False
exclude_patterns = ["_build"]
seriesbook_editions = ["zh_CN", "en"]
