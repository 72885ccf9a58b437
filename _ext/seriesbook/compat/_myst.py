"""Doors to MyST and markdown-it: MyST's page parse with the token stream handed in.

Listed in :data:`seriesbook.compat.INTERNALS`; ``tests/test_compat.py`` pins the code copied and
the code the kept token streams (:mod:`seriesbook.speed.parses`) rely on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docutils import nodes
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from myst_parser.config.main import MdParserConfig

#: ``md.parse(text, env)``, or what stands for it (a kept copy of the tokens and environment).
Parse = Callable[["MarkdownIt", str, dict[str, Any]], "list[Token]"]


def myst_parse_page(inputstring: str, document: nodes.document, parse: Parse) -> None:
    """MyST 5.2's ``MystParser.parse`` (a page's front matter merged into the configuration,
    a parser made for it), with its ``MarkdownIt.render`` spelt out so that the tokens come
    from *parse*: ``render`` is the renderer's rendering of ``parse(text, {})``."""
    from myst_parser.config.main import TopmatterReadError, merge_file_level, read_topmatter
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
    from myst_parser.parsers.mdit import create_md_parser
    from myst_parser.warnings_ import create_warning

    config: MdParserConfig = document.settings.env.myst_config
    try:
        topmatter = read_topmatter(inputstring)
    except TopmatterReadError:
        pass  # this will be reported during the render
    else:
        if topmatter:

            def warning(wtype: Any, msg: str) -> None:
                create_warning(document, msg, wtype, line=1, append_to=document)

            config = merge_file_level(config, topmatter, warning)
    parser = create_md_parser(config, SphinxRenderer)
    parser.options["document"] = document
    env: dict[str, Any] = {}
    parser.renderer.render(parse(parser, inputstring, env), parser.options, env)
