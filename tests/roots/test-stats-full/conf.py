extensions = ["seriesbook.site", "seriesbook.sections", "seriesbook.citations", "seriesbook.stats"]
language = "zh_CN"
exclude_patterns = ["_build", "demo-src"]
seriesbook_sources = {
    "demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": "demo-src"},
}
seriesbook_default_source = "demo"
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 1}
