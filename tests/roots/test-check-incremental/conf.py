extensions = ["myst_parser", "seriesbook.sections", "seriesbook.citations", "seriesbook.stats"]
language = "zh_CN"
exclude_patterns = ["_build", "src"]
seriesbook_sources = {"demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": "src"}}
seriesbook_default_source = "demo"
# the gates this book had as defaults before seriesbook dropped them (issue 30)
seriesbook_gates = {"min_han": 6500, "min_mermaid": 4, "min_excerpts": 2}
