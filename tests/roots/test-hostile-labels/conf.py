extensions = ["seriesbook"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
seriesbook_editions = ["zh_CN", "en"]
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
version = release = "1"
copyright = "2026, seriesbook tests"
project = "Hostile labels"
