"""The page's chrome on sphinx-book-theme: menus at every width, the theme's words in the
edition's language, a page that says what it is, a 404 page, print as an article.

Everything goes through the theme's and Sphinx's public means:

* ``seriesbook-chrome.js``/``.css`` (static files): the sidebar buttons that do nothing below
  992 px (pydata/pydata-sphinx-theme#2451, executablebooks/sphinx-book-theme#988 and #935) work
  at every width, by touch and keyboard, Escape and a tap outside close them; long citations,
  identifiers and headings wrap, code, tables and diagrams scroll inside themselves; the skip link
  lands on the article; focus is never under the sticky header; print hides the chrome.
* The theme's words: seriesbook's UI catalog (``seriesbook/locale/``) holds the words of
  sphinx-book-theme and pydata-sphinx-theme too; it is registered, before the theme loads, as
  the first catalog of the theme's domains (``booktheme`` and ``sphinx``), so it answers first.
  Words the themes write without a catalog (the sidebar buttons' tooltips, the navigation's
  label) come from our copies of those small templates (``templates/``), found before the
  theme's; ``tests/test_chrome.py`` pins the upstream templates they replace. Their words are
  the context's ``seriesbook_words``, not ``_()`` calls, so ``make gettext`` (which extracts the
  ``_()`` of every template in ``templates_path``) puts no theme words in the book's catalogs.
* Metadata: ``<meta name="description">`` and Open Graph (sphinxext-opengraph, from the page's
  text after its title), ``hreflang`` alternates to the same page in every other edition, a
  favicon (``seriesbook-favicon.svg`` unless ``html_favicon`` is set).
* A 404 page per edition (sphinx-notfound-page: its links are absolute, so it works at any
  depth of a missing URL), in the edition's words.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from markupsafe import Markup

from seriesbook import __version__, compat
from seriesbook.core.builders import is_website
from seriesbook.core.config import add_path, book_editions, is_set_by_author, language_tag
from seriesbook.core.escape import html_attribute, html_text
from seriesbook.editions import CATALOG, edition_link, theme_words

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

HERE = Path(__file__).resolve().parent
STATIC = HERE.parent / "static"
SCRIPT, STYLE, FAVICON = "seriesbook-chrome.js", "seriesbook-chrome.css", "seriesbook-favicon.svg"
#: The catalogs the themes translate their words with: sphinx-book-theme's own, and Sphinx's
#: (pydata-sphinx-theme's templates and its catalog).
THEME_CATALOGS = ("booktheme", "sphinx")


#: Traditional Chinese: the themes ship their own words for it, which our Simplified ``zh``
#: catalog must not replace (a ``zh_TW`` catalog of ours would).
TRADITIONAL_CHINESE = frozenset({"zh_TW", "zh_HK", "zh_MO", "zh_Hant"})


def theme_words_catalog(compiled: Path, language: str) -> Path | None:
    """Our compiled UI catalog that speaks for the themes in *language*: its own, or its base
    language's (``zh`` for ``zh_CN``), but never Simplified for Traditional Chinese."""
    candidates = [language]
    if language not in TRADITIONAL_CHINESE:
        candidates.append(language.split("_")[0])
    for key in candidates:
        path = compiled / key / "LC_MESSAGES" / f"{CATALOG}.mo"
        if path.is_file():
            return path
    return None


def register_theme_words(app: Sphinx) -> None:
    """Our UI catalog as the first catalog of the themes' domains in the build's language.

    An extension's setup runs before the theme's (Sphinx loads the theme with the builder), so
    the catalog registered here is asked first; the theme's own becomes the fallback.
    """
    language = app.config.language or ""
    source = theme_words_catalog(Path(app.doctreedir) / "seriesbook-locale", language)
    if source is None:
        return
    target = Path(app.doctreedir) / "seriesbook-theme-locale"
    for name in THEME_CATALOGS:
        copy = target / language / "LC_MESSAGES" / f"{name}.mo"
        if not copy.is_file() or copy.stat().st_mtime < source.stat().st_mtime:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
    compat.forget_translations("booktheme")  # a second build in this process: its own language
    for name in THEME_CATALOGS:
        app.add_message_catalog(name, str(target))


def _configure(app: Sphinx, config: Config) -> None:
    """Our templates after the author's; the favicon, Open Graph and 404 page's defaults."""
    # pydata-sphinx-theme sets the mode to "" on a first visit (empty localStorage), then logs
    # "Got invalid theme mode" (pydata/pydata-sphinx-theme#1635); its default_mode says "auto"
    config.html_context = {"default_mode": "auto", **config.html_context}
    if not config.html_favicon:
        config.html_favicon = str(STATIC / FAVICON)
    if not is_set_by_author(config, "ogp_social_cards"):
        config.ogp_social_cards = {"enable": False}  # no images drawn (and no matplotlib)
    if not is_set_by_author(config, "ogp_site_url") and config.html_baseurl:
        config.ogp_site_url = config.html_baseurl
    words = theme_words()
    if not is_set_by_author(config, "notfound_context"):
        title = html_text(words["notfound-title"])
        config.notfound_context = {
            "title": words["notfound-title"],
            "body": f"<h1>{title}</h1>\n<p>{html_text(words['notfound-body'])}</p>",
        }
    if not is_set_by_author(config, "notfound_urls_prefix") and not os.environ.get("READTHEDOCS"):
        # make html's layout, _build/html/<language>/: the edition's root is /<language>/
        config.notfound_urls_prefix = f"/{config.language or book_editions(config)[0]}/"


def _add_assets(app: Sphinx) -> None:
    if not is_website(app):
        return
    add_path(app.config, "html_static_path", str(STATIC))
    app.add_css_file(STYLE)
    app.add_js_file(SCRIPT, loading_method="defer")


def alternates_html(app: Sphinx, pagename: str) -> str:
    """``<link rel="alternate" hreflang>`` to the same page in every edition (this one too, as
    the convention asks). Search engines want them fully qualified: with ``html_baseurl`` (Read
    the Docs sets it) they are; a local build, which knows no address, links them relatively."""
    links = []
    base = str(app.config.html_baseurl or "")
    page_url = urljoin(base.rstrip("/") + "/", app.builder.get_target_uri(pagename)) if base else ""
    for language in book_editions(app.config):
        link = edition_link(app, pagename, language)
        href = html_attribute(urljoin(page_url, link) if page_url else link)
        tag = html_attribute(language_tag(language))
        links.append(f'<link rel="alternate" hreflang="{tag}" href="{href}" />\n')
    return "".join(links)


# Sphinx writes a toctree's caption as role="heading" without the aria-level ARIA requires
# (sphinx-doc/sphinx#14030; axe: aria-required-attr, critical): level 2, ARIA 1.1's implicit one.
# The caption's start tag as Sphinx writes it (attributes sorted; a translated edition's lang
# mark may sit between class and role).
CAPTION = re.compile(r'(<p class="caption"(?: lang="[^"]*")?) role="heading">')
CAPTION_WITH_LEVEL = r'\1 role="heading" aria-level="2">'


def with_heading_level(html: str) -> Markup:
    return Markup(CAPTION.sub(CAPTION_WITH_LEVEL, str(html)))


def _toctree_with_levels(function: Callable[..., str]) -> Callable[..., Markup]:
    """The theme's sidebar toctree (pydata-sphinx-theme's ``generate_toctree_html``), levelled."""
    return lambda *args, **kwargs: with_heading_level(function(*args, **kwargs))


def _early_context(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """Our templates' words (before the theme renders its templates, at 500); and the 404 page's
    toctree: sphinx-notfound-page's is None in a book without a toctree, which
    pydata-sphinx-theme then fails to parse (readthedocs/sphinx-notfound-page#253): an empty
    one instead. Between the two handlers (400 and 500)."""
    context["seriesbook_words"] = theme_words()
    toctree = context.get("toctree")
    if pagename == app.config.notfound_pagename and callable(toctree):
        context["toctree"] = lambda *args, **kwargs: toctree(*args, **kwargs) or ""


def _page_context(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """The search box's placeholder in the edition's words, the hreflang alternates, and the
    toctree captions' heading level (in the page and in the theme's sidebar)."""
    if not is_website(app):
        return
    if "body" in context:
        context["body"] = str(with_heading_level(context["body"]))
    toctree = context.get("generate_toctree_html")
    if callable(toctree):
        context["generate_toctree_html"] = _toctree_with_levels(toctree)
    if "search_bar_text" not in app.config.html_theme_options:
        context["theme_search_bar_text"] = theme_words()["search-placeholder"]
    if doctree is not None and len(book_editions(app.config)) > 1:
        context["metatags"] = context.get("metatags", "") + alternates_html(app, pagename)


def _setup_opengraph(app: Sphinx) -> None:
    """sphinxext-opengraph prints "matplotlib is not installed" on import, to stdout, in every
    build: the book draws no social cards (``ogp_social_cards`` off), so that line is noise."""
    with contextlib.redirect_stdout(io.StringIO()):
        importlib.import_module("sphinxext.opengraph")
    app.setup_extension("sphinxext.opengraph")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.editions._ui")  # compiles the UI catalog
    app.setup_extension("seriesbook.site._templates")  # the toggles' and sidebar's copies
    _setup_opengraph(app)
    app.setup_extension("notfound.extension")
    register_theme_words(app)
    app.connect("config-inited", _configure)
    app.connect("builder-inited", _add_assets)
    # after the book theme's add_metadata_to_page (500), which sets the search placeholder, and
    # pydata-sphinx-theme's, which adds generate_toctree_html
    app.connect("html-page-context", _page_context, priority=900)
    app.connect("html-page-context", _early_context, priority=450)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
