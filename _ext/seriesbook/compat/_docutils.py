"""Doors to docutils internals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from docutils import nodes, utils
from docutils.utils import smartquotes

if TYPE_CHECKING:
    from docutils.transforms.universal import SmartQuotes


def detach_document(node: nodes.Node) -> None:
    """Forget the document *node* was copied from (``Node._document``, which docutils sets on
    copies and which drags the whole settings and environment into a pickle of the node)."""
    node.__dict__.pop("_document", None)


def educate_quotes(transform: SmartQuotes, needs_educating: Callable[[str], bool]) -> None:
    """docutils' ``SmartQuotes.apply`` after its settings checks (the caller made them: Sphinx's
    ``SphinxSmartQuotes.apply`` does, then calls it), with one change: a block none of whose
    texts *needs_educating* is not handed to ``educate_tokens``, whose result for it would be its
    own text (each text node is still replaced by an equal new one, as docutils does). Each
    block's language is still looked up, so the warnings about languages without quotes are the
    same.

    Upstream: https://github.com/sphinx-doc/sphinx/issues/3967 (smart quotes should not work
    on the doctree: every text block of every page is educated at reading)."""
    document = transform.document
    smart_quotes = document.settings.setdefault("smart_quotes", False)
    if not smart_quotes:
        return
    alternative = isinstance(smart_quotes, str) and smart_quotes.startswith("alt")
    document_language = document.settings.language_code
    lc_smartquotes = document.settings.smartquotes_locales
    if lc_smartquotes:
        smartquotes.smartchars.quotes.update(dict(lc_smartquotes))
    for node in document.findall(nodes.TextElement):
        if isinstance(node, transform.nodes_to_skip):
            continue
        if isinstance(node.parent, nodes.TextElement):
            continue
        txtnodes = [txtnode for txtnode in node.findall(nodes.Text)
                    if not isinstance(txtnode.parent, nodes.option_string)]
        lang = node.get_language_code(document_language)
        if alternative:
            lang = lang.replace("-x-altquot", "") if "-x-altquot" in lang else lang + "-x-altquot"
        for tag in utils.normalize_language_tag(lang):
            if tag in smartquotes.smartchars.quotes:
                lang = tag
                break
        else:  # language not supported -- keep ASCII quotes
            if lang not in transform.unsupported_languages:
                document.reporter.warning(
                    f'No smart quotes defined for language "{lang}".', base_node=node)
            transform.unsupported_languages.add(lang)
            lang = ""
        if any(needs_educating(str(txtnode)) for txtnode in txtnodes):
            teacher: Iterable[str] = smartquotes.educate_tokens(
                transform.get_tokens(txtnodes), attr=transform.smartquotes_action, language=lang)
        else:  # what educate_tokens would give back (new nodes all the same, as docutils makes:
            # one copied from a translated message would keep that message's document)
            teacher = [str(txtnode) for txtnode in txtnodes]
        for txtnode, newtext in zip(txtnodes, teacher, strict=False):
            txtnode.parent.replace(txtnode, nodes.Text(newtext))
    transform.unsupported_languages.clear()
