extensions = ["seriesbook.site", "seriesbook.stats"]
language = "zh_CN"
myst_enable_extensions = ["colon_fence"]
seriesbook_gates = {"min_han": 20, "min_mermaid": 2}
