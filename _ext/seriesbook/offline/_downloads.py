"""Links from every HTML page to the book's PDF and EPUB: sphinx-book-theme's download button.

``seriesbook_download_url`` is the link pattern (fields ``{format}`` — ``pdf`` or ``epub`` —,
``{language}`` and ``{rtd_language}``); empty (the default) adds no links. On Read the Docs,
``conf.py`` sets it to Read the Docs' download address. A relative pattern is taken from the
edition's root, an absolute one (``/_/downloads/{rtd_language}/latest/{format}/``) as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seriesbook.core.builders import is_website
from seriesbook.core.config import edition_root, from_edition_root, get_config, rtd_language
from seriesbook.editions import download_tooltip

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

FORMATS = {"pdf": ("PDF", "fas fa-file-pdf"), "epub": ("EPUB", "fas fa-book")}
GROUP_LABEL = "download-buttons"


def download_url(pattern: str, fmt: str, language: str) -> str:
    return pattern.format(
        format=fmt, language=language, rtd_language=rtd_language(language)
    )


def add_download_links(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """Add the book's PDF and EPUB to the theme's download menu (after the theme filled it)."""
    pattern = get_config(app.config).download_url
    buttons: list[dict[str, Any]] | None = context.get("header_buttons")
    if not pattern or buttons is None or not is_website(app):
        return
    language = str(app.config.language or "en")
    to_root = edition_root(app.builder, pagename)
    links = [
        {
            "type": "link",
            "url": from_edition_root(download_url(pattern, fmt, language), to_root),
            "text": name,
            "tooltip": download_tooltip(name),
            "icon": icon,
            "label": f"download-book-{fmt}-button",
        }
        for fmt, (name, icon) in FORMATS.items()
    ]
    group = next((b for b in buttons if b.get("label") == GROUP_LABEL), None)
    if group is None:
        group = {"type": "group", "icon": "fas fa-download", "label": GROUP_LABEL, "buttons": []}
        group["tooltip"] = download_tooltip("PDF, EPUB")
        buttons.append(group)
    group["buttons"].extend(links)
