# Previews of § sections, chapters and citations; the source "demo" is the directory demo-src/.
extensions = ["myst_parser", "sphinxcontrib.mermaid", "seriesbook.previews"]
language = "zh_CN"
exclude_patterns = ["_build", "demo-src"]
seriesbook_sources = {
    "demo": {"repo": "https://github.com/pytorch/pytorch", "ref": "v1.0", "path": "demo-src"},
}
seriesbook_default_source = "demo"
# The English edition (-D language=en) translates ch02's headings, not its paragraphs.
locale_dirs = ["locale"]
gettext_compact = False
# Diagrams are named by previews, not drawn here: no mermaid from a CDN.
mermaid_use_local = "no-mermaid.mjs"
