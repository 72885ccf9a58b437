"""Doors to docutils internals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from docutils import nodes, utils
from docutils.utils import smartquotes

if TYPE_CHECKING:
    from docutils.transforms.universal import SmartQuotes


def detach_document(node: nodes.Node) -> None:
    """Forget the document *node* was copied from (``Node._document``, which docutils sets on
    copies and which drags the whole settings and environment into a pickle of the node)."""
    node.__dict__.pop("_document", None)


def text_paragraph(
    rawsource: str, text: str, line: Any, source: Any, text_source: Any, text_line: Any
) -> nodes.paragraph:
    """A paragraph of one text, as unpickling a detached copy of such a parse gives it: the
    state Sphinx's ``Element.deepcopy`` (``sphinx.util.nodes._deepcopy`` and
    ``_copy_except__document``) leaves each node (attribute names in that order, the text's
    ``parent``, ``source`` and ``line``), without ``Element.__init__`` or ``Text.__new__``."""
    node: nodes.paragraph = _new(nodes.paragraph)
    child: nodes.Text = _new_text(nodes.Text, text)
    node.__dict__ = {
        "children": [child],
        "rawsource": rawsource,
        "tagname": "paragraph",
        "attributes": {"ids": [], "classes": [], "names": [], "dupnames": []},
        "line": line,
        "source": source,
    }
    child.__dict__ = {"parent": node, "source": text_source, "line": text_line}
    return node


def same_state(made: nodes.Node, kept: nodes.Node) -> bool:
    """Whether *made* is *kept* again: the class, the text, every attribute of each node
    (names in order, values equal and of the same types, dictionaries' keys in order, the
    parent set where it is set), the children likewise."""
    if type(made) is not type(kept):
        return False
    if isinstance(kept, nodes.Text) and str(made) != str(kept):
        return False
    mine, theirs = made.__dict__, kept.__dict__
    if list(mine) != list(theirs):
        return False
    for name, value in theirs.items():
        other = mine[name]
        if name == "parent":
            if (value is None) is not (other is None):
                return False
        elif name == "children":
            if len(value) != len(other) or not all(map(same_state, other, value)):
                return False
        elif type(value) is not type(other) or value != other or (isinstance(value, dict) and (
                list(value) != list(other)
                or [type(v) for v in value.values()] != [type(v) for v in other.values()])):
            return False
    return True


_new = object.__new__
_new_text = str.__new__


class _Blocks:
    """What :func:`_educate_under` needs at every block of one document: the transform, the
    test, the settings it read and the languages' supported tags found so far."""

    def __init__(self, transform: SmartQuotes, needs_educating: Callable[[str], bool],
                 fallback: str, alternative: bool) -> None:
        self.transform = transform
        self.needs_educating = needs_educating
        self.fallback = fallback
        self.alternative = alternative
        self.skip = transform.nodes_to_skip
        self.supported: dict[str, str | None] = {}  # a language: its first tag with quotes


def _educate_under(node: nodes.Element, language: str, blocks: _Blocks) -> None:
    """``for block in node.findall(nodes.TextElement)`` (below *node*, whose
    ``get_language_code(fallback)`` is *language*) as docutils' ``SmartQuotes.apply`` loops,
    node for node and as live: docutils' own recursion (a node's children are looked up after
    the node is handled), each with its ``get_language_code(fallback)``: the first
    ``language-`` class of its own, else carried down the walk where the node's ``parent`` is
    the node the walk came from, else asked of the node. A recursion of calls, not of
    generators: a node is handled where it is found."""
    for child in node.children:
        if not isinstance(child, nodes.Element):  # a text
            continue
        child_language = None
        if child.parent is node:
            for cls in child.attributes.get("classes", ()):
                if cls.startswith("language-"):
                    child_language = cls.removeprefix("language-")
                    break
            else:
                child_language = language
        else:
            child_language = child.get_language_code(blocks.fallback)
        if (isinstance(child, nodes.TextElement) and not isinstance(child, blocks.skip)
                and not isinstance(child.parent, nodes.TextElement)):
            _educate_block(child, child_language, blocks)
        if child.children:
            _educate_under(child, child_language, blocks)


def _texts(block: nodes.Element, found: list[nodes.Text]) -> list[nodes.Text]:
    """*found* and ``block.findall(nodes.Text)`` without the texts of option strings, in
    order (the block itself is not a text)."""
    for child in block.children:
        if isinstance(child, nodes.Text):
            if not isinstance(child.parent, nodes.option_string):
                found.append(child)
        elif isinstance(child, nodes.Element) and child.children:
            _texts(child, found)
    return found


def _renew_texts(txtnodes: list[nodes.Text]) -> None:
    """What ``txtnode.parent.replace(txtnode, nodes.Text(str(txtnode)))`` for each of
    *txtnodes* leaves, without a new node where it can: the child it finds (the first one
    *equal* to the text: docutils looks it up with ``list.index``) gets the state a new text
    gets from ``setup_child`` (its parent, and the parent's document with that document's
    current source and line)."""
    last: nodes.Element | None = None
    document: nodes.document | None = None
    for txtnode in txtnodes:
        parent = txtnode.parent
        children = parent.children
        index = children.index(txtnode)
        target = children[index]
        if type(target) is not nodes.Text:  # docutils puts a plain Text there
            parent.replace(txtnode, nodes.Text(str(txtnode)))
            continue
        if parent is not last:  # (its own document, if it has one: what the property gives)
            last, document = parent, parent.__dict__.get("_document") or parent.document
        state = target.__dict__
        state.clear()
        state["parent"] = parent
        if document is not None:
            state["_document"] = document
            state["source"] = document.current_source
            state["line"] = document.current_line


def educate_quotes(transform: SmartQuotes, needs_educating: Callable[[str], bool]) -> None:
    """docutils' ``SmartQuotes.apply`` after its settings checks (the caller made them: Sphinx's
    ``SphinxSmartQuotes.apply`` does, then calls it), with three changes that leave the same
    page: a block none of whose text *needs_educating* is not handed to ``educate_tokens``,
    whose result for it would be its own text, and each of its text nodes is left as docutils'
    replacement by an equal new node leaves it (:func:`_renew_texts`: the pickled doctree is the
    same, and nothing is allocated); a language's supported tag is looked up once; the walk is
    docutils' own as a recursion of calls (:func:`_educate_under`), each block's language
    carried down it. Each block's language is still looked up, so the warnings about languages
    without quotes are the same.

    Upstream: https://github.com/sphinx-doc/sphinx/issues/3967 (smart quotes should not work
    on the doctree: every text block of every page is educated at reading). Short of that,
    docutils' ``SmartQuotes`` could leave a block with nothing to educate as it is (its texts
    unreplaced) and look a language's quotes up once: the two changes made here."""
    document = transform.document
    smart_quotes = document.settings.setdefault("smart_quotes", False)
    if not smart_quotes:
        return
    alternative = isinstance(smart_quotes, str) and smart_quotes.startswith("alt")
    document_language = document.settings.language_code
    lc_smartquotes = document.settings.smartquotes_locales
    if lc_smartquotes:
        smartquotes.smartchars.quotes.update(dict(lc_smartquotes))
    blocks = _Blocks(transform, needs_educating, document_language, alternative)
    _educate_under(document, document.get_language_code(document_language), blocks)
    transform.unsupported_languages.clear()


def _educate_block(node: nodes.TextElement, lang: str, blocks: _Blocks) -> None:
    """docutils' ``SmartQuotes.apply`` for one text block of language *lang*, with the changes
    :func:`educate_quotes` lists."""
    transform = blocks.transform
    txtnodes = _texts(node, [])
    if blocks.alternative:
        lang = lang.replace("-x-altquot", "") if "-x-altquot" in lang else lang + "-x-altquot"
    supported = blocks.supported
    if lang not in supported:
        supported[lang] = next((tag for tag in utils.normalize_language_tag(lang)
                                if tag in smartquotes.smartchars.quotes), None)
    tag = supported[lang]
    if tag is not None:
        lang = tag
    else:  # language not supported -- keep ASCII quotes
        if lang not in transform.unsupported_languages:
            transform.document.reporter.warning(
                f'No smart quotes defined for language "{lang}".', base_node=node)
        transform.unsupported_languages.add(lang)
        lang = ""
    if not blocks.needs_educating("".join(txtnodes)):  # (what it finds in a text, it finds here)
        _renew_texts(txtnodes)
        return
    teacher: Iterable[str] = smartquotes.educate_tokens(
        transform.get_tokens(txtnodes), attr=transform.smartquotes_action, language=lang)
    for txtnode, newtext in zip(txtnodes, teacher, strict=False):
        txtnode.parent.replace(txtnode, nodes.Text(newtext))
