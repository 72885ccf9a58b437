"""Sphinx's ``Locale`` transform without the work whose result it throws away.

``Locale`` walks the page twice (a first pass for titles and glossary terms, then the
translation) and in the first pass publishes every translated message, although it keeps the
result only for titles and terms; every paragraph is published again in the second pass. With
the messages' parses kept across builds (:mod:`._kept_messages`) a publish is cheap, but the
walks, the throwaway documents and the reference updates of plain-text messages were most of
what a translated edition costs beyond the book's own (figures in ``benchmarks/RESULTS.md``).

:class:`QuickLocale` is ``Locale`` run by :func:`seriesbook.compat.translate_page`: the same
passes, one cheaper walk (the second pass walks again only under what the first patched), no
first-pass publish of a paragraph whose parse is kept (so known to warn nothing and to depend on
its text alone: the second pass's publish of the same text, source and line does everything the
first would have), and such a message's kept nodes without the throwaway document a publish
makes around them (a paragraph's in the second pass, a title's in the first). What Sphinx's
``Locale`` could do instead is proposed in :mod:`seriesbook.compat._i18n`.
``seriesbook_speedups = False`` runs Sphinx's ``Locale`` as is; the tests build the translated
test books both ways and compare doctrees, HTML and warnings.
"""

from __future__ import annotations

from typing import Any

from sphinx.transforms.i18n import Locale

from seriesbook import compat
from seriesbook.core.config import get_config
from seriesbook.editions import _facts, _kept_messages, _parsing, _walked


class QuickLocale(Locale):
    """``Locale``, skipping the walks and publishes whose result it would throw away."""

    def apply(self, **kwargs: Any) -> None:
        if not get_config(self.config).speedups:
            super().apply(**kwargs)
            return
        settings = self.document.settings
        walked = _walked.messages_walked(self.document)  # NoteMessages' walk of the page
        parses = _kept_messages.page_parses(self.env)
        compiled = _facts.compiled_catalogs(self.config)
        if parses is None:  # nothing kept: every message published
            found = compat.translate_page(
                self, lambda text, where: False, lambda text, where: None, walked, compiled)
        else:
            found = compat.translate_page(
                self,
                lambda text, where: parses.settled((text, where)),
                lambda text, where: _parsing.kept_patch(parses, settings, (text, where)),
                walked,
                compiled,
            )
        _walked.after_locale(self.document, found)
