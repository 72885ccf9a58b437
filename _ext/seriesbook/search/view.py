"""A page's doctree as the search reads it, in one digest: what a kept page is kept under.

Everything the search takes from a page (Sphinx's ``IndexBuilder.feed`` and its walk, the
page's § parts, the bigrams across inline markup, the Mermaid diagrams, the titles) is a
function of the doctree's shape, the class of each node, its text and a few attributes.
:func:`page_digest` writes exactly those, in document order, and digests them; two doctrees
with the same digest give the index the same words, titles and parts.

What is written of each node:

* a ``Text``: its text;
* an element: its class (module and name: every ``isinstance`` test and every class's own
  ``astext`` follow from it), its number of children, its ``ids`` (section anchors, the
  anchors of titles), whether its ``classes`` hold ``no-search`` (Sphinx skips it), and the
  attributes its class is read for (:func:`_attributes`): ``format`` of ``raw``, ``name``,
  ``lang`` and ``content`` of ``meta``, ``entries`` of Sphinx's ``index``, ``code`` of a
  Mermaid diagram, ``translated`` of a ``title``, and every attribute of a node whose class
  has an ``astext`` of its own (``image``'s ``alt``, ``option_argument``'s ``delimiter``…).

A change to what the search reads of a doctree must be written here too (``tests/
test_search_pages.py`` changes each of these and expects another digest).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable
from typing import NamedTuple

from docutils import nodes
from sphinx import addnodes

#: Separates the written items (an item holding it cannot be written: the page is not kept).
SEPARATOR = "\x00"
#: Element classes whose ``astext`` is docutils' own (their text is their children's).
_PLAIN_ASTEXT = frozenset({nodes.Element.astext, nodes.TextElement.astext})

#: Attributes read of a node of these classes (or of a subclass).
_READ: tuple[tuple[type[nodes.Element], tuple[str, ...]], ...] = (
    (nodes.raw, ("format",)),
    (nodes.meta, ("name", "lang", "content")),
    (addnodes.index, ("entries",)),
    (nodes.title, ("translated",)),
)
#: Read of every node, whatever its class.
_ALL = ("*",)


def _attributes(cls: type[nodes.Element]) -> tuple[str, ...]:
    """The attributes the search reads of a node of *cls* besides ``ids`` and ``classes``."""
    if getattr(cls, "astext", None) not in _PLAIN_ASTEXT:
        return _ALL  # its own text depends on what it holds: all of it is written
    names: list[str] = []
    for owner, read in _READ:
        if issubclass(cls, owner):
            names.extend(read)
    if cls.tagname == "mermaid":
        names.append("code")
    return tuple(names)


_CLASSES: dict[type[nodes.Node], tuple[str, tuple[str, ...]]] = {}


def _class(cls: type[nodes.Node]) -> tuple[str, tuple[str, ...]]:
    found = _CLASSES.get(cls)
    if found is None:
        name = f"{cls.__module__}.{cls.__qualname__}"
        read = _attributes(cls) if issubclass(cls, nodes.Element) else _ALL
        found = _CLASSES[cls] = (name, read)
    return found


def _writer() -> tuple[list[str], list[str], array[int], Callable[[nodes.Element], None]]:
    """The lists a page is written to, and the function that writes a node and all below it
    (pre-order): its items to the first, its texts to the second, and the number of children
    of each element and the length of each text to the third."""
    shape: list[str] = []
    texts: list[str] = []
    sizes = array("q")
    write, write_text, write_size = shape.append, texts.append, sizes.append
    classes, text = _CLASSES, nodes.Text

    def walk(node: nodes.Element) -> None:
        cls = node.__class__
        found = classes.get(cls)
        name, read = found if found is not None else _class(cls)
        children = node.children
        write(name)
        write_size(len(children))
        attributes = node.attributes
        ids, classes_ = attributes["ids"], attributes["classes"]  # every element has them
        if ids:
            write(repr(ids))
        if classes_ and "no-search" in classes_:
            write("!no-search")
        if read:
            if read is _ALL:
                write(repr(attributes))
            else:
                for key in read:
                    if key in attributes:
                        write(f"@{key}={attributes[key]!r}")
        for child in children:
            if child.__class__ is text:
                write("")
                write_text(child)
                write_size(len(child))
            elif isinstance(child, nodes.Element):
                walk(child)
            elif isinstance(child, nodes.Text):
                write("")
                write_text(child)
                write_size(len(child))
            else:  # neither text nor element: nothing the search knows how to read
                raise _Unreadable

    return shape, texts, sizes, walk


class _Unreadable(Exception):
    pass


class Digest(NamedTuple):
    """A page's digest, and its texts with their own digest (another digest of the same page,
    made while its texts are still the same objects, reuses that)."""

    digest: str | None
    texts: list[str]
    texts_digest: bytes


def page_digest(
    doctree: nodes.Element, *extra: object, before: Digest | None = None
) -> Digest:
    """The digest of what the search reads of *doctree* (and of *extra*, written with
    ``repr``); ``None`` if the page cannot be written unambiguously (it is then never kept).
    *before*: a digest of the page made earlier in this build."""
    shape, texts, sizes, walk = _writer()
    shape.append(repr(extra))
    try:
        walk(doctree)
    except (_Unreadable, KeyError):  # a node the search cannot read, an element without ids
        return Digest(None, [], b"")
    outline = SEPARATOR.join(shape)
    if outline.count(SEPARATOR) != len(shape) - 1:  # an item holding the separator
        return Digest(None, [], b"")
    if before is not None and before.texts == texts:  # the same str objects: compared at once
        texts_digest = before.texts_digest
    else:  # cut apart by their lengths (in sizes)
        texts_digest = hashlib.sha256("".join(texts).encode("utf-8", "surrogatepass")).digest()
    hashed = hashlib.sha256()
    for part in (outline.encode("utf-8", "surrogatepass"), texts_digest, sizes.tobytes()):
        hashed.update(len(part).to_bytes(8, "little"))
        hashed.update(part)
    return Digest(hashed.hexdigest()[:40], texts, texts_digest)
