import os

project = "parses"
# Pages parsed through compat.myst_parse_page with their token streams kept
# (seriesbook.speed.parses), as a parser would wire them; SERIESBOOK_TEST_PARSER=myst leaves
# seriesbook's own parser in place, for comparison.
extensions = ["seriesbook"]
language = "zh_CN"
exclude_patterns = ["_build"]
html_theme = "sphinx_book_theme"
mermaid_use_local = "no-mermaid.mjs"
myst_enable_extensions = ["colon_fence"]


def setup(app):
    from myst_parser.parsers.sphinx_ import MystParser
    from seriesbook import compat
    from seriesbook.speed.parses import kept_parse

    class KeptPagesParser(MystParser):
        def parse(self, inputstring, document):
            env = document.settings.env
            compat.myst_parse_page(inputstring, document,
                                   lambda md, text, md_env: kept_parse(md, text, md_env, env))

    if os.environ.get("SERIESBOOK_TEST_PARSER") != "myst":
        app.add_source_parser(KeptPagesParser, override=True)
