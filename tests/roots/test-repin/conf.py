extensions = ["myst_parser", "seriesbook.citations"]
exclude_patterns = ["_build"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_sources = {
    "demo": {
        "repo": "https://example.org/demo",
        "ref": "v1.0",
    },
    "other": {"repo": "https://example.org/other", "ref": "v3"},
}
seriesbook_default_source = "demo"
