"""Read the Docs addons: which the book takes, and what the page does about the others.

Read the Docs injects its addons (flyout, notifications, search, link previews, …) into every
page it serves; which are on is a setting of the project's dashboard (*Settings → Addons*),
not of the repository: the build cannot switch them. The README lists the settings. Two would
take over what the book does better, so each page also:

* asks for the addons' data in API version 1 (``<meta name="readthedocs-addons-api-version"
  content="1">``, the documented way to receive the ``readthedocs-addons-data-ready`` event);
* loads ``seriesbook-readthedocs.js``, which answers the search addon's ``readthedocs-search-show``
  (its ``/`` hotkey) with the book's own search dialog, hides Read the Docs' link-preview
  tooltips, and says in the console which addons the dashboard should switch off.

Off Read the Docs neither does anything (no addon sends those events).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.core.builders import is_website
from seriesbook.site import add_static_dir

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

SCRIPT = "seriesbook-readthedocs.js"
ADDONS_API_VERSION = "1"
META = f'<meta name="readthedocs-addons-api-version" content="{ADDONS_API_VERSION}" />\n'


def _add_script(app: Sphinx) -> None:
    if is_website(app):
        add_static_dir(app)
        app.add_js_file(SCRIPT, loading_method="defer")


def _add_meta(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    if is_website(app) and META not in context.get("metatags", ""):
        context["metatags"] = context.get("metatags", "") + META


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", _add_script)
    app.connect("html-page-context", _add_meta)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
