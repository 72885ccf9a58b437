extensions = ["seriesbook"]
exclude_patterns = ["_build"]
language = "zh_CN"
version = "1"
copyright = "2026"
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
