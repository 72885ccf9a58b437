extensions = ["seriesbook"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
seriesbook_editions = ["zh_CN", "en"]
