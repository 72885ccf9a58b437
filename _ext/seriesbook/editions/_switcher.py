"""The language switcher: every HTML page links to the same page in the other editions.

``make html`` builds each edition into ``_build/html/<language>/``, so the same page of another
edition is ``../<language>/<page>`` from the edition's root. ``seriesbook_edition_url`` is that
link as a pattern (fields ``{language}``, ``{rtd_language}`` — ``zh_CN`` → ``zh-cn`` as Read
the Docs spells it —, ``{pagename}`` and ``{target}``, the page's file as the builder names it).
A relative pattern is taken from the edition's root; an absolute one (``/{rtd_language}/latest/
{target}`` on Read the Docs) is used as is. A small script keeps the reader's ``#sec-…`` anchor.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.core.builders import is_website
from seriesbook.core.config import (
    add_path,
    book_editions,
    edition_root,
    from_edition_root,
    get_config,
    rtd_language,
)
from seriesbook.core.escape import html_attribute, html_text
from seriesbook.editions._ui import editions_label, html_lang, language_name

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.config import Config

STATIC = Path(__file__).resolve().parent.parent / "static"
SCRIPT, STYLE = "seriesbook-editions.js", "seriesbook-editions.css"


def edition_url(pattern: str, language: str, pagename: str, target: str) -> str:
    """The link to *pagename* in the *language* edition, relative to the edition's root."""
    return pattern.format(
        language=language,
        rtd_language=rtd_language(language),
        pagename=pagename,
        target=target,
    )


def edition_link(app: Sphinx, pagename: str, language: str) -> str:
    """The link from *pagename* to the same page in the *language* edition."""
    pattern = get_config(app.config).edition_url
    target = app.builder.get_target_uri(pagename)
    to_root = edition_root(app.builder, pagename)
    return from_edition_root(edition_url(pattern, language, pagename, target), to_root)


def switcher_html(editions: list[str], current: str, links: dict[str, str]) -> str:
    label = html_attribute(editions_label())  # also the nav's aria-label
    items = [f'<span class="seriesbook-editions-label">{label}:</span>']
    for language in editions:
        name, lang = html_text(language_name(language)), html_attribute(html_lang(language))
        if language == current:
            items.append(f'<strong lang="{lang}" aria-current="page">{name}</strong>')
        else:
            href = html_attribute(links[language])
            items.append(
                f'<a class="seriesbook-edition" href="{href}" hreflang="{lang}" lang="{lang}">'
                f"{name}</a>"
            )
    return f'<nav class="seriesbook-editions" aria-label="{label}">{" ".join(items)}</nav>\n'


def add_switcher(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """Put the switcher at the top of every document page's body."""
    editions = book_editions(app.config)
    if doctree is None or not is_website(app) or len(editions) < 2:
        return  # an EPUB holds one edition: the other editions' pages are not in it
    links = {language: edition_link(app, pagename, language) for language in editions}
    current = str(app.config.language or editions[0])
    context["body"] = switcher_html(editions, current, links) + context.get("body", "")


def add_static(app: Sphinx, config: Config) -> None:
    if len(book_editions(config)) < 2:
        return
    add_path(config, "html_static_path", str(STATIC))
    app.add_js_file(SCRIPT, loading_method="defer")
    app.add_css_file(STYLE)
