extensions = ["myst_parser", "seriesbook.citations"]
exclude_patterns = ["_build"]
seriesbook_sources = {
    "demo": {
        "repo": "https://example.org/demo",
        "ref": "v1.0",
        "generated": {
            "build/ops/*": "gen/ops.py",
            "pkg/version.py": "tools/make_version.py",
        },
    },
}
seriesbook_default_source = "demo"
