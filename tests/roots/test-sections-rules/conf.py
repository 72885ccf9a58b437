extensions = ["myst_parser", "seriesbook.sections"]
language = "zh_CN"
exclude_patterns = ["_build"]
