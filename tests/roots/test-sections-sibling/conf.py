# A sibling volume built with stock Sphinx: intersphinx_mapping is given by the test.
extensions = ["myst_parser", "sphinx.ext.intersphinx"]
language = "zh_CN"
exclude_patterns = ["_build"]
