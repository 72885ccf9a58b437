"""The sidebar's global toctree without copying every chapter's sections for every page.

sphinx-book-theme draws its sidebar with the template function ``toctree(titles_only=True,
includehidden=True, maxdepth=4)``, which is Sphinx's ``global_toctree_for_doc``. For every page,
Sphinx's ``_entries_from_toctree`` copies each document's whole table of contents (every section
of every chapter) and only then, because of ``titles_only``, deletes all but the document titles
and the toctrees found among the sections. The work grows as pages × sections, so it dominates
the writing of a large book (measured in ``benchmarks/RESULTS.md``).

Here the template function gets, for ``titles_only`` calls only, a view of the environment whose
``tocs`` hold each document's toc already reduced to what ``titles_only`` keeps: every top-level
entry's title, and below it only the branches that lead to a toctree (with their nesting, so
that ``maxdepth``, ``collapse``, ``:tocdepth:`` and ``only`` cut them exactly where they cut the
full toc). Sphinx then runs its own code on the smaller trees, so the sidebar is the same node
for node, and the pages byte for byte (tested against Sphinx's own path with
``seriesbook_speedups = False``, on books with parts, hidden and nested toctrees, ``only``, and
a page in no toctree). Each reduced toc is made once per process and document, and made again
when the document's toc is replaced (an incremental build re-reads it); nothing is stored in the
environment, so ``-j`` and incremental builds see the same trees as Sphinx does.

The 404 page (sphinx-notfound-page) gets a ``toctree()`` of its own, which makes every link
absolute and calls Sphinx's function on the whole tocs: :func:`notfound_toctree` takes its steps
on the reduced ones (``tests/test_navigation.py`` pins the function it follows).

The natural home of :func:`titles_only_toc` is Sphinx itself: ``_toctree_standard_entry`` could
copy ``titles_only_toc(toc)`` instead of ``toc`` when ``titles_only`` is set.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.adapters.toctree import global_toctree_for_doc

from seriesbook import __version__
from seriesbook.core.config import get_config, is_translated_edition
from seriesbook.editions import mark_toctree_captions

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

def titles_only_toc(toc: nodes.Element) -> nodes.Element:
    """A copy of a document's toc keeping only what ``titles_only`` resolution can show.

    Each top-level ``list_item`` keeps its title paragraph, and its sub-list keeps only the
    branches that contain a toctree, at the same depth and inside the same ``only`` nodes.
    Anything else at the top level is copied whole, as Sphinx's own titles-only pass treats it.
    """
    reduced = toc.copy()
    for entry in toc.children:
        if (
            isinstance(entry, nodes.list_item)
            and len(entry.children) == 2
            and isinstance(entry[0], addnodes.compact_paragraph)
            and isinstance(entry[1], nodes.bullet_list)
        ):
            item = entry.copy()
            item += entry[0].deepcopy()
            item += _branches_to_toctrees(entry[1])
            reduced += item
        else:
            reduced += entry.deepcopy()
    return reduced


def _branches_to_toctrees(node: nodes.Element) -> nodes.Element:
    """``node`` (shallow) with only the children that are, or contain, a toctree."""
    kept = node.copy()
    for child in node.children:
        if isinstance(child, addnodes.toctree):
            kept += child.deepcopy()
        elif isinstance(child, nodes.Element) and _has_toctree(child):
            kept += _branches_to_toctrees(child)
    return kept


def _has_toctree(node: nodes.Element) -> bool:
    return next(iter(node.findall(addnodes.toctree)), None) is not None


class _TitlesOnlyTocs(Mapping[str, nodes.Element]):
    """``env.tocs`` as titles-only resolution sees it, reduced once per document."""

    def __init__(self, env: BuildEnvironment) -> None:
        self._env = env
        self._reduced: dict[str, tuple[nodes.Element, nodes.Element]] = {}

    def __getitem__(self, docname: str) -> nodes.Element:
        toc = self._env.tocs[docname]
        cached = self._reduced.get(docname)
        if cached is None or cached[0] is not toc:
            cached = (toc, titles_only_toc(toc))
            self._reduced[docname] = cached
        return cached[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._env.tocs)

    def __len__(self) -> int:
        return len(self._env.tocs)


class _TitlesOnlyEnvironment:
    """The build environment, except that ``tocs`` are the reduced ones (read-only use)."""

    def __init__(self, env: BuildEnvironment) -> None:
        self._env = env
        self.tocs = _TitlesOnlyTocs(env)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


_VIEWS: WeakKeyDictionary[BuildEnvironment, _TitlesOnlyEnvironment] = WeakKeyDictionary()


def _view(env: BuildEnvironment) -> BuildEnvironment:
    view = _VIEWS.get(env)
    if view is None:
        view = _VIEWS[env] = _TitlesOnlyEnvironment(env)
    return view  # type: ignore[return-value]


def local_toctree(
    builder: StandaloneHTMLBuilder,
    pagename: str,
    sphinx_toctree: Callable[..., str],
    collapse: bool = True,
    **kwargs: Any,
) -> str:
    """The template's ``toctree()``: Sphinx's, with titles-only calls on the reduced tocs.

    Same defaults and argument handling as ``StandaloneHTMLBuilder._get_local_toctree``.
    """
    reduced = get_config(builder.config).speedups and kwargs.get("titles_only")
    if not reduced and not is_translated_edition(builder.config):
        return sphinx_toctree(collapse=collapse, **kwargs)
    # a translated edition's sidebar in any theme (alabaster calls toctree() without
    # titles_only) marks its untranslated captions; Sphinx's own steps otherwise
    kwargs.setdefault("includehidden", False)
    if kwargs.get("maxdepth") == "":
        kwargs.pop("maxdepth")
    env = _view(builder.env) if reduced else builder.env
    toctree = global_toctree_for_doc(
        env, pagename, builder, tags=builder.tags, collapse=collapse, **kwargs
    )
    if toctree is not None:
        mark_toctree_captions(toctree, builder.config)  # untranslated captions: lang="zh-CN"
    return builder.render_partial(toctree)["fragment"]


def notfound_toctree(app: Sphinx, *args: Any, **kwargs: Any) -> str | None:
    """sphinx-notfound-page's ``toctree()`` of its 404 page (every link made absolute), with
    titles-only calls on the reduced tocs. Its steps, as its ``finalize_media`` defines it."""
    from notfound.utils import replace_uris  # type: ignore[import-untyped]

    collapse = kwargs.pop("collapse", False)
    includehidden = kwargs.pop("includehidden", False)
    env = _view(app.env) if kwargs.get("titles_only") else app.env
    toc = global_toctree_for_doc(
        env, app.config.notfound_pagename, app.builder, tags=app.builder.tags,
        collapse=collapse, includehidden=includehidden, **kwargs,
    )
    if not toc:
        return None
    replace_uris(app, toc, nodes.reference, "refuri")
    fragment: str = app.builder.render_partial(toc)["fragment"]  # type: ignore[attr-defined]
    return fragment


def _is_notfound_toctree(function: Any) -> bool:
    return (getattr(function, "__module__", None) == "notfound.extension"
            and getattr(function, "__qualname__", None) == "finalize_media.<locals>.toctree")


def _on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    sphinx_toctree = context.get("toctree")
    if sphinx_toctree is None or not hasattr(app.builder, "render_partial"):
        return

    def toctree(**kwargs: Any) -> str:
        return local_toctree(app.builder, pagename, sphinx_toctree, **kwargs)  # type: ignore[arg-type]

    context["toctree"] = toctree


def _on_notfound_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """The 404 page's toctree, which sphinx-notfound-page gave its own, on the reduced tocs."""
    if get_config(app.config).speedups and _is_notfound_toctree(context.get("toctree")):
        context["toctree"] = functools.partial(notfound_toctree, app)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    # before sphinx-notfound-page's (400), which gives the 404 page a toctree of absolute links
    app.connect("html-page-context", _on_html_page_context, priority=399)
    # and just after it, that one
    app.connect("html-page-context", _on_notfound_page, priority=401)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
