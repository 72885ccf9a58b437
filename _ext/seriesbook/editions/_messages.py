"""The page's catalog messages, as Sphinx's ``extract_messages`` finds them, for the editions'
own passes over a page (its messages noted, its fuzzy ones noted, its untranslated ones marked).

A translated edition walks each page for its messages several times besides ``Locale``'s two
walks; Sphinx's function asks ``is_translatable`` about every node, which renders every literal
block as XML for a debug line (shown from ``-vv`` only). :func:`page_messages_of` is
:func:`seriesbook.compat.extract_messages` instead (the same messages, in the same order; without
those debug lines in a build that does not show them), or Sphinx's own with
``seriesbook_speedups = False``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util.nodes import extract_messages

from seriesbook import compat
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from collections.abc import Iterable

    from docutils import nodes
    from sphinx.config import Config


def page_messages_of(
    document: nodes.Element, config: Config
) -> Iterable[tuple[nodes.Element, str]]:
    """Each message node of *document* with its message, as ``extract_messages`` yields them."""
    if not get_config(config).speedups:
        return extract_messages(document)
    return compat.extract_messages(document, quiet=config.verbosity < 2)
