"""Doors to docutils internals."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes, utils
from docutils.utils import smartquotes

if TYPE_CHECKING:
    from docutils.transforms.universal import SmartQuotes


def detach_document(node: nodes.Node) -> None:
    """Forget the document *node* was copied from (``Node._document``, which docutils sets on
    copies and which drags the whole settings and environment into a pickle of the node)."""
    node.__dict__.pop("_document", None)


def _own_language(node: nodes.Element) -> str | None:
    """The language *node*'s own classes give it (the first step of ``get_language_code``)."""
    classes: list[str] = node.get("classes", [])
    for cls in classes:
        if cls.startswith("language-"):
            return cls.removeprefix("language-")
    return None


def _text_elements(
    root: nodes.Element, fallback: str
) -> Iterator[tuple[nodes.TextElement, str]]:
    """``root.findall(nodes.TextElement)``, node for node and as live (a node's children are
    looked up after the node is yielded, and by index, as docutils does), each with its
    ``get_language_code(fallback)``: carried down the walk where the node's ``parent`` is the
    node the walk came from, asked of the node where it is not."""
    stack: list[list[Any]] = [[root, 0, root.get_language_code(fallback)]]
    while stack:
        frame = stack[-1]
        parent = frame[0]
        children = parent.children
        index = frame[1]
        if index >= len(children):
            stack.pop()
            continue
        frame[1] = index + 1
        child = children[index]
        if isinstance(child, nodes.Text):
            continue
        if child.parent is parent:
            language = _own_language(child)
            if language is None:
                language = frame[2]
        else:
            language = child.get_language_code(fallback)
        if isinstance(child, nodes.TextElement):
            yield child, language
        if child.children:
            stack.append([child, 0, language])


def _texts(block: nodes.Element) -> list[nodes.Text]:
    """``list(block.findall(nodes.Text))`` without the texts of option strings."""
    found: list[nodes.Text] = []
    stack: list[nodes.Node] = [block]
    while stack:
        node = stack.pop()
        if isinstance(node, nodes.Text):
            if not isinstance(node.parent, nodes.option_string):
                found.append(node)
        else:
            stack.extend(reversed(node.children))
    return found


def _renew_text(txtnode: nodes.Text) -> None:
    """What ``txtnode.parent.replace(txtnode, nodes.Text(str(txtnode)))`` leaves, without a new
    node where it can: the child it finds (the first one *equal* to *txtnode*: docutils looks
    it up with ``list.index``) gets the state a new text gets from ``setup_child`` (its parent,
    and the parent's document with that document's current source and line)."""
    parent = txtnode.parent
    children = parent.children
    index = children.index(txtnode)
    target = children[index]
    if type(target) is not nodes.Text:  # docutils puts a plain Text there
        parent.replace(txtnode, nodes.Text(str(txtnode)))
        return
    state = target.__dict__
    state.clear()
    state["parent"] = parent
    document = parent.document
    if document is not None:
        state["_document"] = document
        state["source"] = document.current_source
        state["line"] = document.current_line


def educate_quotes(transform: SmartQuotes, needs_educating: Callable[[str], bool]) -> None:
    """docutils' ``SmartQuotes.apply`` after its settings checks (the caller made them: Sphinx's
    ``SphinxSmartQuotes.apply`` does, then calls it), with three changes that leave the same
    page: a block none of whose text *needs_educating* is not handed to ``educate_tokens``,
    whose result for it would be its own text, and each of its text nodes is left as docutils'
    replacement by an equal new node leaves it (:func:`_renew_text`: the pickled doctree is the
    same, and nothing is allocated); a language's supported tag is looked up once; the walks are
    docutils' own, with a stack, and each block's language is carried down the walk. Each
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
    supported: dict[str, str | None] = {}  # a language: its first tag with quotes, or None
    for node, lang in _text_elements(document, document_language):
        if isinstance(node, transform.nodes_to_skip):
            continue
        if isinstance(node.parent, nodes.TextElement):
            continue
        txtnodes = _texts(node)
        if alternative:
            lang = lang.replace("-x-altquot", "") if "-x-altquot" in lang else lang + "-x-altquot"
        if lang not in supported:
            supported[lang] = next((tag for tag in utils.normalize_language_tag(lang)
                                    if tag in smartquotes.smartchars.quotes), None)
        tag = supported[lang]
        if tag is not None:
            lang = tag
        else:  # language not supported -- keep ASCII quotes
            if lang not in transform.unsupported_languages:
                document.reporter.warning(
                    f'No smart quotes defined for language "{lang}".', base_node=node)
            transform.unsupported_languages.add(lang)
            lang = ""
        if not needs_educating("".join(txtnodes)):  # (what it finds in a text, it finds here)
            for txtnode in txtnodes:
                _renew_text(txtnode)
            continue
        teacher: Iterable[str] = smartquotes.educate_tokens(
            transform.get_tokens(txtnodes), attr=transform.smartquotes_action, language=lang)
        for txtnode, newtext in zip(txtnodes, teacher, strict=False):
            txtnode.parent.replace(txtnode, nodes.Text(newtext))
    transform.unsupported_languages.clear()
