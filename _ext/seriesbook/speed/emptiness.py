"""The theme's emptiness check spared for the templates that can never render empty.

For every page, pydata-sphinx-theme (under sphinx-book-theme) renders each template of its
sidebars, navbar, article header and footer once more only to drop those that come out empty
(``update_and_remove_templates``, at ``html-page-context``), and throws the text away; the page
then renders them again. Two of them cost most of that and are never empty: the chapter
navigation (``sbt-sidebar-nav.html``, seriesbook's copy) and the article header's buttons
(``article-header-buttons.html``, sphinx-book-theme's), each opening with markup no condition
guards. Here they are taken out of their section's list just before the theme's check (priority
499) and put back in their places just after it (501), so the theme checks the others as
before and keeps these, as its check would.

That gives the same page only while (a) each spared template is the audited one: the source of
the template and of every template it references, as the builder's loader finds them, hashes to
:data:`ALWAYS_SHOWN` (an author's override or a theme upgrade turns the sparing off); audited:
unguarded markup at the top, and nothing called whose result depends on having been called
before (the theme's id counter ``unique_html_id`` is not, its toctree functions are cached per
page); (b) no template the theme checks meanwhile reads the list a spared one was taken from (its
source, and what it references, names no such variable; a template referenced by a computed name
turns the sparing off for the page); (c) the theme's check is the one read, pinned by its source's
hash (:data:`CHECKS`). ``seriesbook_speedups = False`` lets the theme check everything.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from jinja2 import meta
from jinja2.exceptions import TemplateNotFound, TemplateSyntaxError

from seriesbook import __version__
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from jinja2 import Environment
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: Templates that render visible markup whatever the page, and the sha256 of their sources with
#: those they reference (:func:`closure_digest`), as audited.
ALWAYS_SHOWN: dict[str, str] = {
    # seriesbook's copy (site/templates): <nav>; the theme's cached generate_toctree_html
    "sbt-sidebar-nav.html": "697fcbfb4c1ef9c46202cef8a42b2f34c14cfb0a061d64ac893a0be44a1b5e5c",
    # sphinx-book-theme 1.4.0's: <div>; its button macros, the theme switcher, the search
    # button (gettext only) and our secondary toggle (the cached generate_toc_html)
    "article-header-buttons.html":
        "087ad9bcb37a571fd6469c822030160de8082aecf365a36b646b31857f6b2d1a",
}
#: The theme's listeners whose checks are read here (pydata-sphinx-theme 0.20), by the sha256 of
#: their source: the sections they check are :data:`SECTIONS` and ``theme_secondary_sidebar_items``.
CHECKS: dict[str, str] = {
    "pydata_sphinx_theme.update_and_remove_templates":
        "16760c0b87995d88527870933d9592189b9047ebad900450f879e59a974bae3c",
    "pydata_sphinx_theme.utils.set_secondary_sidebar_items":
        "d906bdf5ffc0ae6674c91bab754a65a721262c0f3bf089a0b04cd76d8684dd1b",
}
SECTIONS = (
    "theme_navbar_start", "theme_navbar_center", "theme_navbar_persistent", "theme_navbar_end",
    "theme_article_header_start", "theme_article_header_end", "theme_article_footer_items",
    "theme_content_footer_items", "theme_footer_start", "theme_footer_center",
    "theme_footer_end", "theme_primary_sidebar_end", "sidebars",
)  # fmt: skip
CHECKED = (*SECTIONS, "theme_secondary_sidebar_items")
_SPARED = "seriesbook_spared_templates"  # the context's note from 499 to 501


def template_names(value: object) -> list[str] | None:
    """A section's templates as the theme reads them (a list, or names split at commas, with
    ``.html`` added where a name has no suffix); None for anything else."""
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        return None
    return [name if os.path.splitext(name)[1] else f"{name}.html" for name in value]


class Templates:
    """What the builder's templates reference and name, read once per build."""

    def __init__(self, environment: Environment) -> None:
        self.environment = environment
        self._closures: dict[str, tuple[str, frozenset[str]] | None] = {}

    def closure(self, name: str) -> tuple[str, frozenset[str]] | None:
        """The digest of *name*'s source and those it references, and every variable they
        read; None when one cannot be found or parsed, or is referenced by a computed name."""
        if name not in self._closures:
            self._closures[name] = None  # a template that references itself: unprovable
            self._closures[name] = self._read(name)
        return self._closures[name]

    def _read(self, name: str) -> tuple[str, frozenset[str]] | None:
        loader = self.environment.loader
        if loader is None:
            return None
        try:
            source = loader.get_source(self.environment, name)[0]
            tree = self.environment.parse(source, name)
        except (TemplateNotFound, TemplateSyntaxError):
            return None
        digest = hashlib.sha256(f"{name}\0{source}".encode())
        names = set(meta.find_undeclared_variables(tree))
        for referenced in meta.find_referenced_templates(tree):
            found = None if referenced is None else self.closure(
                self.environment.join_path(referenced, name))  # the name Jinja loads it by
            if found is None:
                return None
            digest.update(found[0].encode())
            names |= found[1]
        return digest.hexdigest(), frozenset(names)


def _checks_are_known() -> bool:
    import pydata_sphinx_theme  # type: ignore[import-untyped]
    from pydata_sphinx_theme import utils

    for function in (pydata_sphinx_theme.update_and_remove_templates,
                     utils.set_secondary_sidebar_items):
        key = f"{function.__module__}.{function.__qualname__}"
        source = inspect.getsource(function)
        if CHECKS.get(key) != hashlib.sha256(source.encode()).hexdigest():
            return False
    return True


class Sparing:
    """The two listeners around the theme's check, with what they learnt in this build."""

    def __init__(self) -> None:
        self.templates: Templates | None = None
        self.known: bool | None = None

    def reset(self, app: Sphinx) -> None:
        """``builder-inited``: the templates are read again (another build, other files)."""
        self.templates, self.known = None, None

    def _spared(self, app: Sphinx, name: str) -> bool:
        assert self.templates is not None
        found = self.templates.closure(name)
        return found is not None and ALWAYS_SHOWN.get(name) == found[0]

    def before(self, app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
               doctree: Any) -> None:
        """Priority 499: the spared templates out of their sections (noted in the context)."""
        context.pop(_SPARED, None)
        environment = getattr(getattr(app.builder, "templates", None), "environment", None)
        if not get_config(app.config).speedups or environment is None:
            return
        if self.known is None:
            self.known = "pydata_sphinx_theme" in app.extensions and _checks_are_known()
        if not self.known:
            return
        if self.templates is None or self.templates.environment is not environment:
            self.templates = Templates(environment)
        sections: dict[str, list[str]] = {}
        for section in SECTIONS:
            if context.get(section) and (names := template_names(context[section])) is not None:
                sections[section] = names
        read = self._read_by(_checked(context, sections))
        if read is None:
            return
        spare = {section: names for section, names in sections.items()
                 if section not in read and any(self._spared(app, name) for name in names)}
        if not spare:
            return
        context[_SPARED] = spare
        for section, names in spare.items():
            context[section] = [name for name in names if not self._spared(app, name)]

    def _read_by(self, checked: Iterable[str] | None) -> set[str] | None:
        """Every variable the templates the theme will check read (None: not knowable)."""
        assert self.templates is not None
        if checked is None:
            return None
        read: set[str] = set()
        for name in checked:
            found = self.templates.closure(name)
            if found is None:
                return None
            read |= found[1]
        return read

    def after(self, app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
              doctree: Any) -> None:
        """Priority 501: each spared template back in its place among those the theme kept."""
        spare: dict[str, list[str]] | None = context.pop(_SPARED, None)
        if not spare:
            return
        for section, names in spare.items():
            kept = list(context.get(section) or [])
            restored: list[str] = []
            for name in names:
                if self._spared(app, name):
                    restored.append(name)
                elif kept and kept[0] == name:
                    restored.append(kept.pop(0))
            context[section] = restored


def _checked(context: dict[str, Any], sections: dict[str, list[str]]) -> list[str] | None:
    """Every template the theme's two listeners may render to check it (None: unknowable)."""
    names = [name for section in sections.values() for name in section]
    secondary = context.get("theme_secondary_sidebar_items")
    values = list(secondary.values()) if isinstance(secondary, dict) else [secondary]
    for value in values:  # page patterns: all of them, to be sure
        more = template_names(value) if value else []
        if more is None:
            return None
        names += more
    return names


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    sparing = Sparing()
    app.connect("builder-inited", sparing.reset)
    app.connect("html-page-context", sparing.before, priority=499)
    app.connect("html-page-context", sparing.after, priority=501)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
