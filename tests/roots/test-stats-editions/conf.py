extensions = ["seriesbook.site", "seriesbook.editions", "seriesbook.stats"]
language = "zh_CN"
exclude_patterns = ["_build"]
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_editions = ["zh_CN", "en"]
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
