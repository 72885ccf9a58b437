"""The theme's sidebar and in-page contents without BeautifulSoup: the same HTML, cheaper.

For every page pydata-sphinx-theme (under sphinx-book-theme) parses Sphinx's toctree HTML with
BeautifulSoup, edits it with CSS selectors and writes it again: ``generate_toctree_html`` (the
chapter sidebar, with ``add_collapse_checkboxes``) and ``generate_toc_html`` (the page's
contents), template functions its ``add_toctree_functions`` puts in each page's context. Their
first CSS selector also makes soupsieve compile its own patterns, once in every process, which
a one-chapter rebuild pays as much as a full build.

Here the same edits, step by step in the theme's order, are made on :mod:`.markup`'s small tree,
which reads and writes the plain markup Sphinx writes as bs4 does; what it returns is a
:class:`Fragment` that the templates use as they use the theme's tag (its text, its length, its
truth). Where an input is outside what is reproduced here (another ``kind`` or
``startdepth``, a ``show_nav_level`` or ``show_toc_level`` that is not a number, markup
:mod:`.markup` does not read, a case where the theme's code would fail), the theme's own
function answers, so a page is never different, only built the theme's way.

The theme's ``add_toctree_functions`` listener is given a handler that runs it and then puts
these functions in front of the theme's in the context (:func:`seriesbook.compat.replace_listener`,
same place in the listeners, so the theme's emptiness checks that come next already use them).
``tests/test_navigation.py`` compares both for every page of books with parts, hidden and
nested toctrees, each ``show_navbar_depth``, ``collapse_navbar`` and ``show_toc_level``, and
for markup Hypothesis writes; the test also pins the theme's and bs4's code followed here.

Upstream, the theme could make these edits on Sphinx's toctree nodes before they are written,
not on the written HTML (its sidebar's cost: pydata/pydata-sphinx-theme#381 and #859).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.speed._theme import replace_theme_listener
from seriesbook.speed.markup import Element, Unsupported, parse, write

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

ThemeFunction = Callable[..., Any]


class Fragment:
    """A bs4 tag as the theme's templates use it: ``str()`` writes it, ``len()`` counts its
    children (``page_toc | length``), and it is true even when empty (``{% if page_toc %}``)."""

    __slots__ = ("_html", "_length")

    def __init__(self, node: Element) -> None:
        self._html = write(node)
        self._length = len(node.children)

    def __str__(self) -> str:
        return self._html

    def __len__(self) -> int:
        return self._length

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"Fragment({self._html!r})"


def _selected(root: Element, name: str, parent_name: str, parent_class: str | None) -> list[
        Element]:
    """``root.select("parent.class > name")``: elements named *name* whose parent is one
    named *parent_name* (with the class *parent_class*, if given), in document order."""
    return [
        element for element in root.elements()
        if element.name == name and element.parent is not None
        and element.parent.name == parent_name
        and (parent_class is None or element.parent.has_class(parent_class))
    ]


def _select_one(root: Element, name: str, word: str, parent_name: str) -> Element | None:
    """``root.select_one("parent_name > name.word")``."""
    for element in root.elements():
        if (element.name == name and element.has_class(word) and element.parent is not None
                and element.parent.name == parent_name):
            return element
    return None


def _parent_with_class(element: Element, name: str, word: str) -> Element | None:
    """bs4's ``element.find_parent(name, class_=word)``."""
    node = element.parent
    while node is not None:
        if node.name == name and node.has_class(word):
            return node
        node = node.parent
    return None


def add_collapse_checkboxes(root: Element) -> None:
    """pydata-sphinx-theme's ``add_collapse_checkboxes``, step by step."""
    for element in root.find_all("li"):
        classes = element.classes()
        if "current" in classes:
            part = _parent_with_class(element, "li", "toctree-l0")
            if part is not None:
                details = part.find("details")
                if details is None:
                    raise Unsupported("the theme would fail: a part without <details>")
                details.attrs["open"] = None
        if element.find("ul") is None:
            continue
        element.attrs["class"] = [*classes, "has-children"]
        details = Element("details")
        details.adopt_children(element)
        element.append(details)
        link = _select_one(element, "a", "reference", "details")
        if link is not None:
            element.insert(0, link)
        summary = Element("summary")
        toggle = Element("span", {"class": ["toctree-toggle"], "role": "presentation"})
        toggle.append(Element("i", {"class": ["fa-solid", "fa-chevron-down"]}))
        summary.append(toggle)
        heading = _select_one(element, "p", "caption", "details")
        if heading is not None:
            summary.insert(0, heading)
        details.insert(0, summary)
        if "current" in classes:
            details.attrs["open"] = "open"


def _parts(root: Element) -> Element:
    """``show_nav_level`` 0: each caption and the list after it in a ``li.toctree-l0``."""
    captions = [p for p in root.find_all("p") if p.has_class("caption")]
    if not captions:
        return root
    parts = Element("ul", {"class": ["list-caption"]})
    toclist: Element | None = None
    for caption in captions:
        following = caption.following_siblings()
        toclist = next((s for s in following if s.name == "ul"), toclist)
        if toclist is None:
            raise Unsupported("the theme would fail: a caption with no list after it")
        part = Element("li", {"class": ["toctree-l0"]})
        part.append(caption)
        part.append(toclist)
        parts.append(part)
    new_root = Element(None)
    new_root.append(parts)
    return new_root


def sidebar_html(html: str, show_nav_level: int) -> Fragment:
    """``generate_toctree_html("sidebar", startdepth=0, show_nav_level=…)`` given the HTML of
    ``toctree(**kwargs)``."""
    root = parse(html)
    for li in root.find_all("li"):
        if li.has_class("current"):
            li.classes().append("active")
    for li in root.find_all("li"):
        if not li.is_attached_to(root):
            continue  # decomposed with an enclosing item
        link = li.find("a")
        if link is not None:
            href = link.attrs.get("href")
            if not isinstance(href, str):
                raise Unsupported("the theme would fail: a link without href")
            if "#" in href and href != "#":
                li.extract()
    for ul in root.child_elements("ul"):
        ul.add_classes("nav", "bd-sidenav")
    if show_nav_level == 0:
        root = _parts(root)
    add_collapse_checkboxes(root)
    for level in range(show_nav_level):
        for details in _selected(root, "details", "li", f"toctree-l{level}"):
            details.attrs["open"] = "open"
    return Fragment(root)


def page_toc_html(html: str, show_toc_level: Callable[[], int]) -> Fragment | str:
    """``generate_toc_html("html")`` given the page's ``toc``; *show_toc_level* reads the
    theme option when the theme would (only if there is a list)."""
    root = parse(html)

    def add_header_levels(ul: Element | None, level: int) -> None:
        if ul is None:
            return
        if level <= show_toc_level() + 1:
            ul.add_classes("pst-show_toc_level")
        for li in ul.child_elements("li"):
            li.add_classes(f"toc-h{level}")
            lists = li.child_elements("ul")
            add_header_levels(lists[0] if lists else None, level + 1)

    add_header_levels(root.find("ul"), 1)
    for ul in root.find_all("ul"):
        ul.add_classes("nav", "section-nav", "flex-column")
    for li in root.find_all("li"):
        li.add_classes("nav-item", "toc-entry")
        link = li.find("a")
        if link is not None:
            link.add_classes("nav-link")
    titles = [element for element in root.elements() if element.has_class("toc-h1")]
    if len(titles) != 1:
        return Fragment(root)
    if not any(element.has_class("toc-h2") for element in titles[0].elements()):
        return ""
    sections = titles[0].find("ul")
    if sections is None:
        raise Unsupported("the theme would return None")
    return Fragment(sections)


def _arguments_toctree(
    kind: str, startdepth: int = 1, show_nav_level: int = 1, **kwargs: Any
) -> tuple[str, int, int, dict[str, Any]]:
    return kind, startdepth, show_nav_level, kwargs  # the theme's signature


def _arguments_toc(kind: str = "html") -> str:
    return kind  # the theme's signature


def _key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Hashable:
    key = (args, tuple(kwargs.items()))
    hash(key)  # TypeError for what functools.cache refuses too
    return key


def page_functions(
    context: dict[str, Any], theme_toctree: ThemeFunction, theme_toc: ThemeFunction
) -> tuple[ThemeFunction, ThemeFunction]:
    """This page's ``generate_toctree_html`` and ``generate_toc_html``, each cached per page as
    the theme's are, answering with the theme's own where this module does not reproduce it."""
    toctrees: dict[Hashable, Any] = {}
    tocs: dict[Hashable, Any] = {}

    def generate_toctree_html(*args: Any, **kwargs: Any) -> Any:
        try:
            key = _key(args, kwargs)
            kind, startdepth, show_nav_level, options = _arguments_toctree(*args, **kwargs)
        except TypeError:
            return theme_toctree(*args, **kwargs)
        if key not in toctrees:
            toctrees[key] = _toctree(kind, startdepth, show_nav_level, options, args, kwargs)
        return toctrees[key]

    def _toctree(kind: str, startdepth: int, show_nav_level: int, options: dict[str, Any],
                 args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if kind == "sidebar" and startdepth == 0 and type(show_nav_level) is int:
            html = context["toctree"](**options)
            if isinstance(html, str):
                try:
                    return sidebar_html(html, show_nav_level)
                except Unsupported:
                    pass
        return theme_toctree(*args, **kwargs)

    def generate_toc_html(*args: Any, **kwargs: Any) -> Any:
        try:
            key = _key(args, kwargs)
            kind = _arguments_toc(*args, **kwargs)
        except TypeError:
            return theme_toc(*args, **kwargs)
        if key not in tocs:
            tocs[key] = _toc(kind, args, kwargs)
        return tocs[key]

    def _toc(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if "toc" not in context:
            return ""
        html = context["toc"]
        if kind == "html" and isinstance(html, str):
            try:
                return page_toc_html(html, show_toc_level)
            except Unsupported:
                pass
        return theme_toc(*args, **kwargs)

    def show_toc_level() -> int:
        level = context.get("theme_show_toc_level")
        if type(level) is not int:
            raise Unsupported("show_toc_level is not a number")
        return level

    return generate_toctree_html, generate_toc_html


def _with_page_functions(theme_handler: Callable[..., None]) -> Callable[..., None]:
    """The theme's ``add_toctree_functions`` listener, then ours in front of its functions."""

    def add_toctree_functions(
        app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
    ) -> None:
        theme_handler(app, pagename, templatename, context, doctree)
        theme_toctree = context.get("generate_toctree_html")
        theme_toc = context.get("generate_toc_html")
        if callable(theme_toctree) and callable(theme_toc):
            context["generate_toctree_html"], context["generate_toc_html"] = page_functions(
                context, theme_toctree, theme_toc
            )

    return add_toctree_functions


def setup(app: Sphinx) -> ExtensionMetadata:
    # pydata-sphinx-theme's listener (the theme, or sphinx-book-theme's parent)
    replace_theme_listener(
        app, "pydata_sphinx_theme.toctree", "html-page-context", "add_toctree_functions",
        _with_page_functions,
    )
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
