extensions = ["seriesbook.site", "seriesbook.editions"]
exclude_patterns = ["_build"]
language = "zh_CN"
