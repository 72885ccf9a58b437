"""A light first view on a slow network: what each page loads, and when.

On sphinx-book-theme (pydata-sphinx-theme underneath), every page used to load 1.56 MB of
``fontawesome.js`` and 225 KB of icon fonts, and, render-blocking in its ``<head>``, the whole
search index (``searchindex.js``) with Sphinx's search scripts. Here, through the theme's
templates (``site/templates/``: our ``layout.html`` and ``static/webpack-macros.html`` over the
theme's, each naming the upstream issue) and ``html-page-context``:

* **Icons** are drawn by ``_static/seriesbook-icons.css`` (:mod:`seriesbook.site._icons`): no
  ``fontawesome.js``, no icon font.
* **Search's index** is loaded by the search page, and elsewhere by
  ``seriesbook-search-lazy.js`` when the search box is first focused or the search button
  pressed (the search page then finds the index in the browser's cache). With the theme's
  ``search_as_you_type`` on, the theme's eager loading is kept (it needs the index at once).
* **No script blocks the first text**: every script file of a page is deferred, except
  Sphinx's ``documentation_options.js`` (a few hundred bytes, fetched beside the CSS, which the
  theme's inline scripts need at once). On the search page the search scripts and the index
  are deferred (``templates/search.html``), first among the deferred scripts, so the results
  wait for no module of the page; its other small scripts run in place, before them.
* **Previews and menus first**: the theme's two deferred scripts (``bootstrap.js``,
  ``pydata-sphinx-theme.js``: menus and buttons) come first among the deferred scripts, in the
  head, instead of after every other deferred script and module at the end of the body.
* **Search from disk** (``file://``): Sphinx's search fetches each result's page for its
  snippet, which a browser refuses from disk ("Failed to fetch"). Each page's text is also
  written as a small script, ``_static/seriesbook-pages/<page>.js``, and on the search page
  opened from disk ``seriesbook-search-disk.js`` answers those fetches from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.core.builders import is_website
from seriesbook.core.escape import script_json
from seriesbook.site._templates import uses_pydata_templates

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

ICONS_STYLE = "seriesbook-icons.css"
LAZY_SEARCH = "seriesbook-search-lazy.js"
DISK_SEARCH = "seriesbook-search-disk.js"
PAGES_DIR = "seriesbook-pages"
# scripts that must run before the first text: the theme's inline scripts read it at once
KEPT_BLOCKING = ("documentation_options.js",)
_EXTERNAL_SCRIPT = re.compile(r"<script (?P<attributes>[^>]*\bsrc=[^>]*)>")


def _add_assets(app: Sphinx) -> None:
    """``builder-inited``: the icons' stylesheet and the search box's loader."""
    if not is_website(app) or not uses_pydata_templates(app.config):
        return
    from seriesbook.site import _icons, add_static_dir

    add_static_dir(app)
    app.add_css_file(ICONS_STYLE)
    _icons.forget_written(app)
    app.add_js_file(LAZY_SEARCH, loading_method="defer")


def deferred(tag: str) -> str:
    """*tag* (a rendered ``<script>``) made deferred, if it is a script file that blocks."""
    match = _EXTERNAL_SCRIPT.match(tag)
    if match is None:
        return tag
    attributes = match["attributes"]
    if re.search(r'\b(defer|async)\b|type="module"', attributes) or any(
        name in attributes for name in KEPT_BLOCKING
    ):
        return tag
    return f"<script defer {attributes}>" + tag[match.end() :]


def _defer_scripts(context: dict[str, Any]) -> None:
    js_tag: Callable[..., str] | None = context.get("js_tag")
    if js_tag is None or getattr(js_tag, "seriesbook_deferred", False):
        return

    def deferred_js_tag(*args: Any, **kwargs: Any) -> str:
        return deferred(js_tag(*args, **kwargs))

    deferred_js_tag.seriesbook_deferred = True  # type: ignore[attr-defined]
    context["js_tag"] = deferred_js_tag


def page_script(pagename: str, body: str) -> str:
    """The page's text for search from disk: a script handing it to the search page."""
    html = f'<div role="main">{body}</div>'
    return f"SeriesbookDisk.page({script_json(pagename)}, {script_json(html)});\n"


def _write_page_text(app: Sphinx, pagename: str, context: dict[str, Any]) -> None:
    body = context.get("body")
    if not body or not getattr(app.builder, "search", False) or pagename in {"search", "genindex"}:
        return
    target = Path(app.outdir) / "_static" / PAGES_DIR / f"{pagename}.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(page_script(pagename, body), encoding="utf-8")


def _on_page(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    if not is_website(app) or not uses_pydata_templates(app.config):
        return
    _write_page_text(app, pagename, context)
    if pagename == "search":
        # the page's scripts stay in place, run as the page is read (a few KB): its deferred
        # search scripts (templates/search.html) need them before any module of the page
        app.add_js_file(DISK_SEARCH, **{"data-pages": f"_static/{PAGES_DIR}/"})  # type: ignore[arg-type]
        return
    _defer_scripts(context)


def setup(app: Sphinx) -> dict[str, Any]:
    from seriesbook import __version__
    from seriesbook.site import _icons

    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups: the icons kept
    app.setup_extension("seriesbook.site._templates")  # our layer over the theme's layout
    app.connect("builder-inited", _add_assets)
    app.connect("html-page-context", _on_page, priority=900)  # after the theme's and others'
    app.connect("build-finished", _icons.write_icons)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
