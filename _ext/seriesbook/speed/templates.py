"""Keep the theme's compiled Jinja templates between builds.

Every ``sphinx-build`` process compiles each HTML template it renders from source: with
sphinx-book-theme (on pydata-sphinx-theme) about thirty templates, a visible part of a
one-chapter rebuild (``benchmarks/RESULTS.md``). Jinja has the cure built in: a bytecode cache
(:class:`jinja2.FileSystemBytecodeCache`) that stores each compiled template keyed by its name
and file and checked against its source, so an edited template is compiled again. Sphinx does
not turn it on; this module does, for the HTML builders, in the doctree directory (beside
Sphinx's own pickles, so ``make clean`` clears it). The directory is named after the Python,
Jinja and Sphinx versions, which the compiled code depends on.

What a template renders is the same either way: the cache holds the code Jinja would compile.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import sphinx
from sphinx.jinja2glue import BuiltinTemplateLoader

from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

def cache_dir(doctreedir: str | Path) -> Path:
    """Where compiled templates are kept, one directory per Python, Jinja and Sphinx."""
    versions = f"{sys.version_info[:2]} {jinja2.__version__} {sphinx.__version__}"
    tag = hashlib.sha256(versions.encode()).hexdigest()[:12]
    return Path(doctreedir) / f"seriesbook-templates-{tag}"


def _keep_compiled(app: Sphinx) -> None:
    templates = getattr(app.builder, "templates", None)
    if not get_config(app.config).speedups or not isinstance(templates, BuiltinTemplateLoader):
        return
    directory = cache_dir(app.doctreedir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only build directory: compile as Sphinx does
    templates.environment.bytecode_cache = jinja2.FileSystemBytecodeCache(str(directory))


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    app.connect("builder-inited", _keep_compiled)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
