extensions = ["myst_parser", "sphinxcontrib.mermaid", "seriesbook.sections"]
language = "zh_CN"
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
