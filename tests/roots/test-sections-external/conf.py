# This series' volume linking into a sibling: intersphinx_mapping is given by the test.
extensions = ["myst_parser", "sphinx.ext.intersphinx", "seriesbook.sections"]
language = "zh_CN"
exclude_patterns = ["_build"]
