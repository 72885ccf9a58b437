"""SmartQuotes that leaves alone the text blocks it would not change.

Sphinx educates quotes, dashes and ellipses of every text block of every page while reading
(``SphinxSmartQuotes``, docutils' ``SmartQuotes``): each block's texts go through a dozen
regular expressions and every text node is replaced. An English edition pays it on every page
(Sphinx skips it for Chinese: ``smartquotes_excludes``); most of the blocks hold nothing it
changes. :class:`QuickSmartQuotes` is Sphinx's transform with one test first: a block whose
texts hold no ASCII quote, backtick, backslash, ``&``, ``--`` or ``..`` (nor ``. .``) is what
educating would leave it, so it is left (``compat.educate_quotes``). Everything else —
settings, ``smartquotes_action``, ``smartquotes_excludes``, languages and their warnings,
literal nodes — is Sphinx's own. ``seriesbook_speedups = False`` runs Sphinx's transform as is;
the tests build the translated test books both ways and compare doctrees and HTML.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sphinx.transforms import SphinxSmartQuotes

from seriesbook import __version__
from seriesbook.compat import educate_quotes, replace_transform
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: What ``educate_tokens`` can change in a text: quotes and backticks, backslash escapes and the
#: entities it restores, dashes, ellipses (``...``, ``. . .``).
EDUCABLE = ('"', "'", "`", "\\", "&", "--", "..", ". .")
#: ``smartquotes_action`` values whose changes :data:`EDUCABLE` covers (``-1``, "stupefy",
#: turns typographic characters back to ASCII: Sphinx's transform does that one).
STUPEFY = "-1"


#: ``..`` or ``. .`` (a regular expression starting with a literal is scanned for it in C; two
#: ``in`` tests each walk the text, and most English blocks hold a full stop).
_ELLIPSIS = re.compile(r"\.\ ?\.").search


def needs_educating(text: str) -> bool:
    """Whether *text* holds any of :data:`EDUCABLE`: one character is looked for with ``in``
    (``memchr``: cheaper than a regular expression over English text, whose full stops and
    hyphens start its branches), two only where their first is (``--`` behind ``-``, rare)."""
    return ('"' in text or "'" in text or "`" in text or "\\" in text or "&" in text
            or ("-" in text and "--" in text) or ("." in text and _ELLIPSIS(text) is not None))


class QuickSmartQuotes(SphinxSmartQuotes):
    """``SphinxSmartQuotes``, skipping the blocks it would leave as they are."""

    def apply(self, **kwargs: Any) -> None:
        if not get_config(self.config).speedups or self.config.smartquotes_action == STUPEFY:
            super().apply(**kwargs)
            return
        if not self.is_available():
            return
        self.smartquotes_action = self.config.smartquotes_action  # type: ignore[misc]  # as Sphinx
        educate_quotes(self, needs_educating)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    replace_transform(app, SphinxSmartQuotes, QuickSmartQuotes)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
