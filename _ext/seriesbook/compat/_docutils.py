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
    test, the settings it read and the languages' quotes found so far."""

    def __init__(self, transform: SmartQuotes, needs_educating: Callable[[str], bool],
                 fallback: str, alternative: bool) -> None:
        self.transform = transform
        self.needs_educating = needs_educating
        self.fallback = fallback
        self.alternative = alternative
        self.skip = transform.nodes_to_skip
        self.quotes: dict[str, tuple[str, str | None]] = {}  # a language: its :func:`_quotes`


def _educate_under(node: nodes.Element, language: str, blocks: _Blocks) -> None:
    """``for block in node.findall(nodes.TextElement)`` (below *node*, whose
    ``get_language_code(fallback)`` is *language*) as docutils' ``SmartQuotes.apply`` loops,
    node for node and as live: docutils' own recursion (a node's children are looked up after
    the node is handled), each with its ``get_language_code(fallback)``: the first
    ``language-`` class of its own, else carried down the walk where the node's ``parent`` is
    the node the walk came from, else asked of the node. A recursion of calls, not of
    generators: a node is handled where it is found. Below a block, :func:`_educate_block`
    walks on: its walk for the block's texts has seen every node, and the few where a block
    may be."""
    skip = blocks.skip
    for child in node.children:
        if not isinstance(child, nodes.Element):  # a text
            continue
        if child.parent is node:
            child_language = language
            for cls in child.attributes.get("classes", ()):
                if cls.startswith("language-"):
                    child_language = cls.removeprefix("language-")
                    break
        else:
            child_language = child.get_language_code(blocks.fallback)
        if (isinstance(child, nodes.TextElement) and not isinstance(child, skip)
                and not isinstance(child.parent, nodes.TextElement)):
            _educate_block(child, child_language, blocks)
        elif child.children:
            _educate_under(child, child_language, blocks)


def _texts(block: nodes.Element, found: list[nodes.Text], inner: list[nodes.Element]) -> None:
    """Add ``block.findall(nodes.Text)`` without the texts of option strings to *found*, in
    order (the block itself is not a text), and to *inner* each element below *block* whose
    ``parent`` is no text element, outermost ones only: a block can only be one of them or
    below one (elements are not replaced while educating: what is seen here holds after)."""
    for child in block.children:
        if isinstance(child, nodes.Text):
            if not isinstance(child.parent, nodes.option_string):
                found.append(child)
        elif isinstance(child, nodes.Element):
            if not isinstance(child.parent, nodes.TextElement):
                inner.append(child)
                if child.children:
                    _only_texts(child, found)
            elif child.children:
                _texts(child, found, inner)


def _only_texts(block: nodes.Element, found: list[nodes.Text]) -> None:
    """:func:`_texts` without looking for elements."""
    for child in block.children:
        if isinstance(child, nodes.Text):
            if not isinstance(child.parent, nodes.option_string):
                found.append(child)
        elif isinstance(child, nodes.Element) and child.children:
            _only_texts(child, found)


def _language(node: nodes.Element, block: nodes.Element, language: str, fallback: str) -> str:
    """``node.get_language_code(fallback)`` for *node* below *block*, whose language is
    *language*: the first ``language-`` class up *node*'s ``parent`` chain until *block*."""
    here: nodes.Element | None = node
    while here is not block:
        if here is None:
            return fallback
        for cls in here.attributes.get("classes", ()):
            if cls.startswith("language-"):
                code: str = cls.removeprefix("language-")
                return code
        here = here.parent
    return language


def _document(node: nodes.Node | None) -> nodes.document | None:
    """``node.document`` (``None`` for no node): the first ``_document`` up the ``parent`` chain,
    as a loop (the property recurses, a Python call a level, and tests each document's
    ``Node.__bool__``)."""
    here: Any = node  # (``_document`` is not in docutils' stubs)
    while here is not None:
        document: nodes.document | None = here._document
        if document is not None:
            return document
        here = here.parent
    return None


def _new_text_state(parent: nodes.Element, document: nodes.document | None) -> dict[str, Any]:
    """The state ``setup_child`` gives a new text under *parent*, whose document is
    *document*: its parent, and that document with its current source and line."""
    if document is None:
        return {"parent": parent}
    return {"parent": parent, "_document": document, "source": document.current_source,
            "line": document.current_line}


def _renew_texts(txtnodes: list[nodes.Text]) -> None:
    """What ``txtnode.parent.replace(txtnode, nodes.Text(str(txtnode)))`` for each of
    *txtnodes* leaves, without a new node where it can: the child it finds (the first one
    *equal* to the text: docutils looks it up with ``list.index``) gets the state a new text
    gets from ``setup_child`` (its parent, and the parent's document with that document's
    current source and line: the document looked up once for a run of texts of one parent)."""
    last: nodes.Element | None = None
    children: list[nodes.Node] = []
    document: nodes.document | None = None
    text = nodes.Text
    for txtnode in txtnodes:
        parent = txtnode.parent
        if parent is not last:
            last, children, document = parent, parent.children, _document(parent)
        target = children[children.index(txtnode)]
        if type(target) is not text:  # docutils puts a plain Text there
            parent.replace(txtnode, text(str(txtnode)))
        else:
            target.__dict__ = _new_text_state(parent, document)


def educate_quotes(transform: SmartQuotes, needs_educating: Callable[[str], bool]) -> None:
    """docutils' ``SmartQuotes.apply`` after its settings checks (the caller made them: Sphinx's
    ``SphinxSmartQuotes.apply`` does, then calls it), with three changes that leave the same
    page: a block none of whose text *needs_educating* is not handed to ``educate_tokens``,
    whose result for it would be its own text, and each of its text nodes is left as docutils'
    replacement by an equal new node leaves it (:func:`_renew_texts`: the pickled doctree is the
    same, and no node is made), a block within such a block not even tested or renewed again
    (:func:`_educate_block`); a language's supported tag is looked up once; the walk is
    docutils' own as a recursion of calls (:func:`_educate_under`), each block's language
    carried down it, below a block only to where a block may be. Each block's language is still
    looked up, so the warnings about languages without quotes are the same.

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


def _educate_block(node: nodes.TextElement, language: str, blocks: _Blocks,
                   renewed: bool = False) -> None:
    """docutils' ``SmartQuotes.apply`` for one text block of *language*, with the changes
    :func:`educate_quotes` lists, then for the blocks below it as the walk would find them:
    where :func:`_texts` saw they may be, in order, each with its language. A block below one
    whose texts were renewed is *renewed*: its texts are some of those, in a row (nothing to
    educate in them), and renewing them again leaves them as they are (each one's first equal
    sibling has the state the parent gives it), so only its language is looked at."""
    quotes = blocks.quotes.get(language)
    if quotes is None:
        quotes = blocks.quotes[language] = _quotes(language, blocks.alternative)
    lang, tag = quotes
    if tag is None:  # language not supported -- keep ASCII quotes
        transform = blocks.transform
        if lang not in transform.unsupported_languages:
            transform.document.reporter.warning(
                f'No smart quotes defined for language "{lang}".', base_node=node)
        transform.unsupported_languages.add(lang)
        tag = ""
    children = node.children
    if (len(children) == 1 and type(text := children[0]) is nodes.Text and text.parent is node
            and not isinstance(node, nodes.option_string)
            and (renewed or not blocks.needs_educating(text))):
        if renewed:
            return
        # one text, most blocks: :func:`_renew_texts` for it (the only child equal to it)
        text.__dict__ = _new_text_state(node, _document(node))
        return
    txtnodes: list[nodes.Text] = []
    inner: list[nodes.Element] = []
    _texts(node, txtnodes, inner)
    if not renewed:  # (what it finds in a text, it finds in the texts joined)
        if blocks.needs_educating("".join(txtnodes)):
            transform = blocks.transform
            teacher: Iterable[str] = smartquotes.educate_tokens(
                transform.get_tokens(txtnodes), attr=transform.smartquotes_action, language=tag)
            for txtnode, newtext in zip(txtnodes, teacher, strict=False):
                txtnode.parent.replace(txtnode, nodes.Text(newtext))
        else:
            _renew_texts(txtnodes)
            renewed = True
    for element in inner:  # (its parent is no text element: a block if it is one)
        element_language = _language(element, node, language, blocks.fallback)
        if isinstance(element, nodes.TextElement) and not isinstance(element, blocks.skip):
            _educate_block(element, element_language, blocks, renewed)
        elif element.children:  # (its blocks are tested and renewed as anywhere)
            _educate_under(element, element_language, blocks)


def _quotes(language: str, alternative: bool) -> tuple[str, str | None]:
    """A block's language as docutils names it (its alternative form if *alternative*), and
    its first tag that has quotes (``None``: none has)."""
    if alternative:
        language = (language.replace("-x-altquot", "") if "-x-altquot" in language
                    else language + "-x-altquot")
    return language, next((tag for tag in utils.normalize_language_tag(language)
                           if tag in smartquotes.smartchars.quotes), None)
