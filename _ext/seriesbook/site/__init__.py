"""A self-contained site: local Mermaid, Chinese search that really indexes, theme wiring.

Many readers are in mainland China, so a page must load nothing from third-party hosts:

* Diagrams are drawn when the book is built (:mod:`seriesbook.diagrams`); the browser draws only
  those an author leaves to it (``seriesbook_diagrams_in_browser``), with npm's ``mermaid`` (the
  version this repository's ``package.json`` pins), vendored in the package
  (``seriesbook/vendor/mermaid/``, made by ``.ci/vendor-mermaid``): no Node.js, no CDN.
  ``seriesbook_mermaid_dir`` (or ``$SERIESBOOK_MERMAID_DIR``) overrides it with another
  ``mermaid/dist``; an override that holds no mermaid is an error, never a silent fallback. Its
  files (no source maps) are copied to ``_static/mermaid/``; a page loads none of them unless it
  holds such a diagram, and then ``seriesbook-diagrams.js`` loads the classic one-file build
  when the diagram comes near the view (sphinxcontrib-mermaid's ES module import, which
  browsers refuse from ``file://``, is dropped from every page).
* Sphinx's Chinese search silently indexes nothing when :mod:`jieba` is missing; here that is a
  build error that says what to install.
* With sphinx-book-theme, ``seriesbook_repository_url`` fills the repository and edit buttons.
* Fonts: ``seriesbook-lang.css`` gives every language its font stack (Han text in SC fonts in
  every edition, SC first for ``lang="zh-CN"``), so the browser never guesses a font.
* Diagrams' full-screen button: sphinxcontrib-mermaid's U+26F6 is missing from common fonts;
  ``mermaid_fullscreen_button`` defaults to no text and ``seriesbook-diagrams.js`` draws an SVG
  icon named in the edition's language.
* Read the Docs addons: :mod:`seriesbook.site.readthedocs`.
* A light first view on a slow network (icons without fontawesome.js, search's index only
  where used, deferred scripts, search from disk): :mod:`seriesbook.site._payload`.
* The page's chrome (menus at every width, the theme's words, metadata, 404 page, print):
  :mod:`seriesbook.site._chrome`.
* The book's navigation on every page after an incremental build (a renamed chapter, a page
  added to a toctree): :mod:`seriesbook.site._navigation`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.errors import ExtensionError

import seriesbook
from seriesbook import __version__, compat
from seriesbook.core.builders import is_website
from seriesbook.core.config import add_path, get_config, is_set_by_author, language_key
from seriesbook.site._theme_door import require_series_theme

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

MERMAID_ENTRY = "mermaid.esm.min.mjs"
MERMAID_CLASSIC = "mermaid.min.js"  # one classic script: what a page may load from disk
MERMAID_CHUNKS = Path("chunks") / "mermaid.esm.min"
STATIC_SUBDIR = "mermaid"
MERMAID_ENV = "SERIESBOOK_MERMAID_DIR"
# Sphinx 9.0's Chinese language_data.js ends with `window.Stemmer = ChineseStemmer;`, a class it
# never ships (Chinese uses the English stemmer), so every search in the browser stops with a
# ReferenceError (sphinx-doc/sphinx#14229, fixed upstream by #14416). Define the name first.
CHINESE_STEMMER_SHIM = "window.ChineseStemmer = function () { return new EnglishStemmer(); };"


def packaged_mermaid() -> Path:
    """The mermaid vendored in the package (its manifest names the version and integrity)."""
    return Path(seriesbook.__file__).resolve().parent / "vendor" / "mermaid"


def holds_mermaid(path: Path) -> bool:
    return (path / MERMAID_ENTRY).is_file() and (path / MERMAID_CHUNKS).is_dir()


def mermaid_override(confdir: Path, configured: str) -> tuple[str, Path] | None:
    """The overriding mermaid directory and what named it, if the author set one."""
    if configured:
        return "seriesbook_mermaid_dir", confdir / configured
    if os.environ.get(MERMAID_ENV):
        return f"${MERMAID_ENV}", confdir / os.environ[MERMAID_ENV]
    return None


STATIC = Path(__file__).resolve().parent.parent / "static"
FONTS_STYLE = "seriesbook-lang.css"
DIAGRAMS_SCRIPT = "seriesbook-diagrams.js"


def add_static_dir(app: Sphinx) -> None:
    """seriesbook's own static files, copied into the site's ``_static``."""
    add_path(app.config, "html_static_path", str(STATIC))


def find_mermaid_dist(confdir: Path, configured: str) -> Path:
    """The mermaid build the site serves: the override if set, else the packaged one."""
    override = mermaid_override(confdir, configured)
    if override is not None:
        name, path = override
        if not holds_mermaid(path):
            raise ExtensionError(
                f"seriesbook: {name} is {path}, which holds no mermaid ES module build "
                f"({MERMAID_ENTRY} and {MERMAID_CHUNKS.as_posix()}/): point it at npm's "
                "mermaid/dist (`npm install mermaid`), or unset it to use the mermaid "
                "packaged with seriesbook."
            )
        return path.resolve()
    packaged = packaged_mermaid()
    if not holds_mermaid(packaged):
        raise ExtensionError(
            f"seriesbook: the mermaid packaged with seriesbook is missing from {packaged} (a "
            "broken install?): reinstall seriesbook, or set seriesbook_mermaid_dir to npm's "
            "mermaid/dist."
        )
    return packaged


def _require_mermaid(app: Sphinx) -> None:
    if not is_website(app):
        return
    dist = find_mermaid_dist(Path(app.confdir), get_config(app.config).mermaid_dir)
    app.config.mermaid_use_local = f"{STATIC_SUBDIR}/{MERMAID_ENTRY}"
    app.env.seriesbook_mermaid_dist = dist  # type: ignore[attr-defined]


def _copy_mermaid(app: Sphinx, exception: BaseException | None) -> None:
    dist: Path | None = getattr(app.env, "seriesbook_mermaid_dist", None)
    if exception is not None or dist is None or not is_website(app):
        return
    target = Path(app.outdir) / "_static" / STATIC_SUBDIR
    target.mkdir(parents=True, exist_ok=True)
    _copy_changed(dist / MERMAID_ENTRY, target / MERMAID_ENTRY)
    if (dist / MERMAID_CLASSIC).is_file():
        _copy_changed(dist / MERMAID_CLASSIC, target / MERMAID_CLASSIC)
    shutil.copytree(
        dist / MERMAID_CHUNKS,
        target / MERMAID_CHUNKS,
        ignore=shutil.ignore_patterns("*.map"),
        copy_function=_copy_changed,
        dirs_exist_ok=True,
    )


def _copy_changed(source: str | Path, target: str | Path) -> None:
    """``shutil.copy2``, unless *target* is already its copy (the same size and modification
    time, which copy2 gives it): a rebuild does not copy mermaid's 5 MB again."""
    here, there = os.stat(source), None
    with contextlib.suppress(OSError):
        there = os.stat(target)
    if there is None or (there.st_size, there.st_mtime_ns) != (here.st_size, here.st_mtime_ns):
        shutil.copy2(source, target)


def _require_jieba(app: Sphinx) -> None:
    language = app.config.html_search_language or app.config.language or ""
    if not is_website(app) or language_key(language, ["zh"]) is None:
        return
    # find_spec, not import: importing jieba is paid only where the search index is made
    # (sphinx.search.zh imports it)
    if importlib.util.find_spec("jieba") is None:
        raise ExtensionError(
            "seriesbook: Chinese search needs jieba, which is not installed; without it Sphinx "
            "builds an empty search index. Install it: `pip install jieba` (a dependency of "
            "seriesbook, so `pip install seriesbook` or `make html` brings it)."
        )
    app.add_js_file(None, body=CHINESE_STEMMER_SHIM)


def _wire_theme(app: Sphinx, config: Config) -> None:
    """Fill sphinx-book-theme's repository and edit buttons from seriesbook_repository_url; name
    the light/dark mode the theme starts in (without one, every page that has no stored mode, as
    one opened from disk for the first time, logs "Got invalid theme mode" to the console)."""
    if config.html_theme == "sphinx_book_theme":
        config.html_context = {"default_mode": "auto", **dict(config.html_context or {})}
    options = get_config(config)
    if config.html_theme != "sphinx_book_theme" or not options.repository_url:
        return
    theme_options: dict[str, Any] = dict(config.html_theme_options)
    srcdir = Path(app.srcdir).resolve()
    docs_path = os.path.relpath(srcdir, Path(app.confdir).resolve())
    theme_options.setdefault("repository_url", options.repository_url)
    theme_options.setdefault("repository_branch", options.repository_branch)
    theme_options.setdefault("path_to_docs", "" if docs_path == "." else docs_path)
    theme_options.setdefault("use_repository_button", True)
    theme_options.setdefault("use_edit_page_button", True)
    config.html_theme_options = theme_options


# Mermaid's own stack, with the SC fonts before the generic family: Han labels (a diagram partly
# translated keeps the edition's language) are drawn in SC, not in the page language's fallback.
DIAGRAM_FONTS = (
    '"trebuchet ms", verdana, arial, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", '
    '"Microsoft YaHei", sans-serif'
)


def _diagram_fonts(app: Sphinx, config: Config) -> None:
    """Mermaid's ``fontFamily``, unless ``mermaid_init_config`` names one."""
    init = dict(config.mermaid_init_config or {})
    init.setdefault("fontFamily", DIAGRAM_FONTS)
    config.mermaid_init_config = init


def _no_fullscreen_glyph(app: Sphinx, config: Config) -> None:
    """sphinxcontrib-mermaid's button text defaults to U+26F6, which common fonts lack: no text
    (``seriesbook-diagrams.js`` draws an icon into an empty button), unless the author set one."""
    if not is_set_by_author(config, "mermaid_fullscreen_button"):
        config.mermaid_fullscreen_button = ""


def _add_reader_assets(app: Sphinx) -> None:
    """The font stacks and the diagrams' full-screen button, in the edition's words."""
    from seriesbook.editions import diagram_words

    add_static_dir(app)
    app.add_css_file(FONTS_STYLE)
    words = {f"data-{name}": text for name, text in diagram_words().items()}
    # for diagrams left to the browser: mermaid's settings (the fonts) and its classic script
    words["data-mermaid-config"] = json.dumps(app.config.mermaid_init_config or {})
    words["data-mermaid"] = f"{STATIC_SUBDIR}/{MERMAID_CLASSIC}"
    app.add_js_file(DIAGRAMS_SCRIPT, loading_method="defer", **words)  # type: ignore[arg-type]


def _no_module_script(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """sphinxcontrib-mermaid imports mermaid as an ES module, which browsers refuse from
    ``file://``, on every page without a doctree (search, the index) too: dropped everywhere.
    A diagram left to the browser is drawn by ``seriesbook-diagrams.js``, which loads mermaid's
    classic script when the diagram comes near the view."""
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        # in place: the list is the builder's, where a later handler's add_js_file for this
        # page lands (Sphinx restores it after the page)
        scripts[:] = [
            script
            for script in scripts
            if MERMAID_ENTRY not in str(getattr(script, "attributes", {}).get("body", ""))
        ]


def _without_dropped_script(install_js: Callable[..., None]) -> Callable[..., None]:
    """sphinxcontrib-mermaid's ``install_js``, not run for a page without a doctree (the index,
    search, 404) where all it would add is the module script :func:`_no_module_script` drops:
    such a page holds no diagram, so without d3's zoom for every diagram
    (``mermaid_d3_zoom``) it adds that script alone, and making it compiles three Jinja
    templates in every build (the import of the mermaid it names, ours, is what is dropped)."""

    def install_js_where_kept(
        app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
    ) -> None:
        local = str(app.config.mermaid_use_local or "")
        if doctree is None and not app.config.mermaid_d3_zoom and local.endswith(MERMAID_ENTRY):
            return
        install_js(app, pagename, templatename, context, doctree)

    return install_js_where_kept


def _on_builder_inited(app: Sphinx) -> None:
    _require_jieba(app)
    _require_mermaid(app)
    if is_website(app):
        _add_reader_assets(app)
    if get_config(app.config).speedups:
        from sphinxcontrib.mermaid import install_js

        compat.replace_listener(app, "html-page-context", install_js, _without_dropped_script)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.setup_extension("myst_parser")
    app.setup_extension("sphinxcontrib.mermaid")
    app.setup_extension("seriesbook.speed.sidebar")
    app.setup_extension("seriesbook.speed.templates")
    app.setup_extension("seriesbook.speed.navigation")
    app.setup_extension("seriesbook.speed.description")
    app.setup_extension("seriesbook.speed.deferred")
    app.setup_extension("seriesbook.speed.stylesheet")
    app.setup_extension("seriesbook.editions._ui")  # the diagrams' words
    app.setup_extension("seriesbook.site.readthedocs")
    app.setup_extension("seriesbook.site._payload")  # page weight: icons, search, deferral
    app.setup_extension("seriesbook.site._chrome")
    app.setup_extension("seriesbook.site._navigation")  # a renamed chapter: every page written
    app.connect("config-inited", _no_fullscreen_glyph)
    app.connect("config-inited", _diagram_fonts)
    app.connect("config-inited", require_series_theme, priority=450)  # before the wiring
    app.connect("config-inited", _wire_theme)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("build-finished", _copy_mermaid)
    # after sphinxcontrib-mermaid's install_js (500)
    app.connect("html-page-context", _no_module_script, priority=600)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
