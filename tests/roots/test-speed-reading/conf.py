project = "reading"
# Code blocks of several languages (one unknown, one that does not lex), for the kept
# highlighter; the whole of seriesbook, as a book has it.
extensions = ["seriesbook"]
language = "zh_CN"
exclude_patterns = ["_build"]
html_theme = "sphinx_book_theme"
mermaid_use_local = "no-mermaid.mjs"
