extensions = ["seriesbook"]
language = "zh_CN"
