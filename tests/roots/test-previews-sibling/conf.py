# A sibling volume linking into test-previews (intersphinx_mapping "demo" is given by the test).
extensions = ["myst_parser", "sphinx.ext.intersphinx", "seriesbook.previews"]
language = "zh_CN"
exclude_patterns = ["_build"]
