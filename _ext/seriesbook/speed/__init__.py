"""Build-speed machinery: the same pages, built faster. Nothing here changes what a build writes.

* :mod:`.heap` — Python's cycle collector runs less often during a build (and not at exit);
* :mod:`.sidebar` — the theme's titles-only sidebar toctree from reduced tocs;
* :mod:`.navigation` — the theme's sidebar and page contents HTML without BeautifulSoup
  (on :mod:`.markup`, which reads and writes Sphinx's plain markup as bs4 does);
* :mod:`.description` — the theme's page description from the text's first characters only;
* :mod:`.templates` — the theme's compiled Jinja templates kept between builds;
* :mod:`.smartquotes` — SmartQuotes leaves alone the text blocks it would not change;
* :mod:`.highlights` — code blocks' highlighted HTML kept across builds;
* :mod:`.codelang` — code blocks given their language without a walk over every node;
* :mod:`.deferred` — a module the theme imports and no path of ours uses run when first used;
* :mod:`.stylesheet` — the theme's light and dark ``pygments.css`` kept across builds.

:mod:`.editions` is not an extension: ``make html`` runs it to build the editions side by side.

Each is an extension of its own (``seriesbook.site`` sets up the sidebar, navigation, description,
templates, deferred imports and stylesheet, which only HTML builds use); ``seriesbook.speed``
sets up all ten. Other speed work lives with the capability it speeds up, where it needs that
capability's internals: the search's segmentation cache (``seriesbook_search_cache``),
translated messages' parses, the title index and the ``Locale`` that skips what it would throw
away (``seriesbook.editions``), citations' highlighted lines (``seriesbook.previews``), the
icons' stylesheet (``seriesbook.site``).
``benchmarks/identical.py`` proves the output unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.speed.heap")  # gc thresholds raised until build-finished
    app.setup_extension("seriesbook.speed.sidebar")  # html-page-context: the toctree function
    app.setup_extension("seriesbook.speed.navigation")  # the theme's toctree functions
    app.setup_extension("seriesbook.speed.description")  # the theme's page description
    app.setup_extension("seriesbook.speed.templates")  # builder-inited: Jinja bytecode cache
    app.setup_extension("seriesbook.speed.smartquotes")  # reading: SphinxSmartQuotes replaced
    app.setup_extension("seriesbook.speed.highlights")  # builder-inited: the kept highlighter
    app.setup_extension("seriesbook.speed.codelang")  # builder-inited: a post-transform replaced
    app.setup_extension("seriesbook.speed.deferred")  # config-inited: soupsieve run when used
    app.setup_extension("seriesbook.speed.stylesheet")  # builder-inited: a listener replaced
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
