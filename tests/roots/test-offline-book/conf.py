project = "离线测试书"
author = "测试作者"
copyright = "2026，测试作者"
version = release = "1"
extensions = ["seriesbook"]
exclude_patterns = ["_build", "demo-src", "locale"]
language = "zh_CN"
locale_dirs = ["locale"]
gettext_compact = False
gettext_uuid = False
gettext_location = False
seriesbook_editions = ["zh_CN", "en"]
seriesbook_sources = {
    "demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": "demo-src"},
}
seriesbook_default_source = "demo"
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
latex_documents = [("index", "offline.tex", project, author, "manual")]
epub_basename = "offline"
