extensions = ["myst_parser", "seriesbook.citations"]
exclude_patterns = ["_build"]
language = "de"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_sources = {"demo": {"repo": "https://example.org/demo", "ref": "v1.0"}}
seriesbook_default_source = "demo"
