"""Sphinx's HTML fragments read and written as BeautifulSoup's ``html.parser`` reads and writes
them, for the plain markup Sphinx writes, in a small tree of our own.

pydata-sphinx-theme edits the sidebar's and the page's toctree HTML with BeautifulSoup (one
parse, CSS selectors, a write for every page); :mod:`.navigation` makes the same edits on this
tree. What bs4 4.x does to such markup, and this module does too:

* character references become characters, and on writing ``&``, ``<`` and ``>`` in text and
  attribute values become ``&amp;``, ``&lt;`` and ``&gt;`` (so ``&quot;`` and ``&#64;`` in
  text come out as ``"`` and ``@``);
* a text of ASCII whitespace alone becomes ``"\\n"`` if it holds a newline, else ``" "``;
* ``class`` (and the other multi-valued attributes) is a list of its words, written joined by
  single spaces; a ``None`` value is written as the bare attribute name;
* attributes are written in alphabetical order, each in double quotes, or in single quotes when
  the value holds a double quote and no single one (with both, ``"`` becomes ``&quot;``).

Anything outside that plain markup raises :class:`Unsupported` (the caller then uses the
theme's own BeautifulSoup path): a tag outside :data:`TAGS` (void, raw-text and table
elements, whose parsing bs4 treats specially), a start tag not written as Sphinx writes it
(``<name a="v">``, double quotes, single spaces), a repeated attribute, an end tag that does not
close the innermost open element, an unclosed element, a ``&`` that is not ``&amp;``, ``&lt;``,
``&gt;``, ``&quot;`` or a numeric reference to a character bs4 and ``html.unescape`` both give
back as it is, and a ``<`` that opens no tag (comments, declarations).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: Elements read here: those that hold phrasing or flow content and that neither bs4 nor
#: ``html.parser`` treats specially.
TAGS = frozenset({
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "details", "dfn", "div", "dl",
    "dd", "dt", "em", "i", "ins", "kbd", "li", "mark", "nav", "ol", "p", "q", "s", "samp",
    "small", "span", "strong", "sub", "summary", "sup", "time", "u", "ul", "var",
})
_LIST_VALUED = frozenset({"class", "accesskey", "dropzone"})  # bs4's, for every element
_LIST_VALUED_A = frozenset({"rel", "rev"})  # bs4's, for <a> too
_TOKEN = re.compile(
    r'<([a-z][a-z0-9]*)((?: [a-z][a-z0-9-]*="[^"<>]*")*)>'  # a start tag
    r"|</([a-z][a-z0-9]*)>"  # an end tag
    r"|([^<]+)"  # text
)
_ATTRIBUTE = re.compile(r' ([a-z][a-z0-9-]*)="([^"<>]*)"')
_REFERENCE = re.compile(r"&(?:(amp|lt|gt|quot)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));|&")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"'}
_WORD = re.compile(r"\S+")  # bs4's nonwhitespace_re
_ASCII_SPACES = frozenset("\x20\x0a\x09\x0c\x0d")  # bs4's BeautifulSoup.ASCII_SPACES

AttributeValue = str | list[str] | None


class Unsupported(ValueError):
    """Markup this module does not read exactly as bs4 would."""


class Element:
    """An element: name (``None`` for the root of a fragment), attributes, children."""

    __slots__ = ("attrs", "children", "name", "parent")

    def __init__(self, name: str | None, attrs: dict[str, AttributeValue] | None = None) -> None:
        self.name = name
        self.attrs: dict[str, AttributeValue] = attrs if attrs is not None else {}
        self.children: list[Element | str] = []
        self.parent: Element | None = None

    def classes(self) -> list[str]:
        """The ``class`` words (the stored list itself), or a new empty list."""
        value = self.attrs.get("class")
        if isinstance(value, list):
            return value
        if value is None:
            return []
        raise Unsupported("a class attribute that is not a list")

    def has_class(self, word: str) -> bool:
        value = self.attrs.get("class")
        return isinstance(value, list) and word in value

    def add_classes(self, *words: str) -> None:
        """``tag["class"] = [*tag.get("class", []), *words]``."""
        self.attrs["class"] = [*self.classes(), *words]

    def append(self, child: Element | str) -> None:
        self.insert(len(self.children), child)

    def insert(self, position: int, child: Element | str) -> None:
        """bs4's ``Tag.insert``: the child leaves its parent first."""
        if isinstance(child, Element):
            if child is self:
                raise Unsupported("an element inserted into itself")
            if child.parent is self:
                index = _index(self.children, child)
                if index < position:
                    position -= 1
                elif index == position:
                    return
            child.extract()
            child.parent = self
        self.children.insert(min(position, len(self.children)), child)

    def adopt_children(self, other: Element) -> None:
        """Append every child of *other* (elements and texts), in order: bs4's
        ``self.extend(other.contents)``."""
        for child in other.children:
            if isinstance(child, Element):
                child.parent = self
        self.children.extend(other.children)
        other.children = []

    def extract(self) -> None:
        if self.parent is not None:
            del self.parent.children[_index(self.parent.children, self)]
            self.parent = None

    def elements(self) -> Iterator[Element]:
        """Every element below this one, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.elements()

    def find(self, name: str) -> Element | None:
        """The first element named *name* below this one (bs4's ``find``)."""
        return next((element for element in self.elements() if element.name == name), None)

    def find_all(self, name: str) -> list[Element]:
        return [element for element in self.elements() if element.name == name]

    def child_elements(self, name: str) -> list[Element]:
        """The children named *name* (bs4's ``find_all(name, recursive=False)``)."""
        return [c for c in self.children if isinstance(c, Element) and c.name == name]

    def following_siblings(self) -> list[Element]:
        """The elements after this one in its parent (bs4's ``next_siblings``, elements only)."""
        if self.parent is None:
            return []
        siblings = self.parent.children
        return [s for s in siblings[_index(siblings, self) + 1:] if isinstance(s, Element)]

    def is_attached_to(self, root: Element) -> bool:
        node: Element | None = self
        while node is not None and node is not root:
            node = node.parent
        return node is root


def _index(children: list[Element | str], child: Element) -> int:
    for index, candidate in enumerate(children):
        if candidate is child:
            return index
    raise Unsupported("a child that is not in its parent")


def _unescape(text: str) -> str:
    if "&" not in text:
        return text
    return _REFERENCE.sub(_character, text)


def _character(match: re.Match[str]) -> str:
    named, decimal, hexadecimal = match.groups()
    if named:
        return _NAMED[named]
    if decimal is None and hexadecimal is None:
        raise Unsupported("an & that is not one of the references read here")
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    # what bs4's numeric_character_reference and html.unescape both give back unchanged: no
    # C0/C1 controls but tab and newline, no surrogates, no noncharacters
    if not (
        code in (9, 10)
        or 32 <= code < 127
        or 160 <= code < 0xD800
        or 0xE000 <= code < 0xFDD0
        or (0xFDF0 <= code <= 0x10FFFF and (code & 0xFFFE) != 0xFFFE)
    ):
        raise Unsupported("a numeric reference bs4 and html.parser may read differently")
    return chr(code)


def parse(html: str) -> Element:
    """The fragment's tree, as ``BeautifulSoup(html, "html.parser")`` builds it."""
    root = Element(None)
    current = root
    position = 0
    for match in _TOKEN.finditer(html):
        if match.start() != position:
            raise Unsupported("markup that is not a plain tag or text")
        position = match.end()
        name, attributes, end, text = match.groups()
        if text is not None:
            text = _unescape(text)
            if all(character in _ASCII_SPACES for character in text):
                text = "\n" if "\n" in text else " "
            current.children.append(text)
        elif name is not None:
            if name not in TAGS:
                raise Unsupported(f"a <{name}> element")
            element = Element(name)
            for key, value in _ATTRIBUTE.findall(attributes):
                if key in element.attrs:
                    raise Unsupported("a repeated attribute")
                value = _unescape(value)
                if key in _LIST_VALUED or (name == "a" and key in _LIST_VALUED_A):
                    element.attrs[key] = _WORD.findall(value)
                else:
                    element.attrs[key] = value
            element.parent = current
            current.children.append(element)
            current = element
        else:
            if end != current.name:
                raise Unsupported("an end tag that closes no open element")
            assert current.parent is not None  # the root has no name
            current = current.parent
    if position != len(html) or current is not root:
        raise Unsupported("markup that is not a plain tag or text, or an unclosed element")
    return root


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attribute(key: str, value: AttributeValue) -> str:
    if value is None:
        return key
    text = _escape(" ".join(value) if isinstance(value, list) else value)
    if '"' not in text:
        return f'{key}="{text}"'
    if "'" not in text:
        return f"{key}='{text}'"
    return '{}="{}"'.format(key, text.replace('"', "&quot;"))


def _write(node: Element, out: list[str]) -> None:
    for child in node.children:
        if isinstance(child, str):
            out.append(_escape(child))
            continue
        attributes = "".join(" " + _attribute(k, v) for k, v in sorted(child.attrs.items()))
        out.append(f"<{child.name}{attributes}>")
        _write(child, out)
        out.append(f"</{child.name}>")


def write(node: Element) -> str:
    """*node* as ``str()`` of its bs4 counterpart writes it (a root: its children only)."""
    out: list[str] = []
    if node.name is None:
        _write(node, out)
    else:
        holder = Element(None)
        holder.children.append(node)
        _write(holder, out)
    return "".join(out)
