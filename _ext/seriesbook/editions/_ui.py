"""The few words seriesbook itself shows in an edition, and the names of the languages.

The words are a gettext catalog of their own, ``seriesbook``, shipped as ``.po`` files in
``seriesbook/locale/<language>/LC_MESSAGES/`` and registered with Sphinx
(:meth:`~sphinx.application.Sphinx.add_message_catalog`), so they follow the build's language
like Sphinx's own words (``zh_CN`` uses ``zh``; a language without a catalog shows English).
A language's name is shown in that language (its endonym), the same in every edition.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from sphinx.locale import get_translation

from seriesbook import compat
from seriesbook.core.config import language_key, language_tag

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

CATALOG = "seriesbook"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
_ = get_translation(CATALOG)

LANGUAGE_NAMES: dict[str, str] = {
    "zh_CN": "简体中文",
    "zh_TW": "繁體中文",
    "zh": "中文",
    "en": "English",
    "ja": "日本語",
    "ko": "한국어",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "ru": "Русский",
}

def language_name(language: str) -> str:
    key = language_key(language, LANGUAGE_NAMES)
    return LANGUAGE_NAMES[key] if key else language


def editions_label() -> str:
    """The language switcher's label, in the build's language."""
    return str(_("Editions"))


def notice_title() -> str:
    return str(_("Translation in progress"))


def notice_text(percent: str, source: str) -> str:
    """The translation notice: the page's *percent* and the book's own language *source*."""
    message = _(
        "This page is {percent}% translated. Passages not translated yet are shown in the "
        "original ({source})."
    )
    return str(message).format(percent=percent, source=source)


def notice_outdated(count: int) -> str:
    """The notice's sentence on the page's fuzzy translations (shown, marked)."""
    message = _(
        "Passages marked “possibly outdated” ({count}) show a translation made before the "
        "original changed."
    )
    return str(message).format(count=count)


def outdated_mark() -> str:
    """The visible mark after a possibly outdated (fuzzy) translation."""
    return str(_("possibly outdated"))


def outdated_tooltip(source: str) -> str:
    """The mark's tooltip; *source* is the book's own language, by name."""
    message = _(
        "This translation may be outdated: the original ({source}) has changed since. "
        "Read the original."
    )
    return str(message).format(source=source)


def status_title() -> str:
    """The title of the translation status page, and the notice's link to it."""
    return str(_("Translation status"))


def status_headers() -> list[str]:
    """The columns of the translation status table."""
    return [
        str(_("Chapter or section")),
        str(_("Translated")),
        str(_("Possibly outdated")),
        str(_("Not translated")),
        str(_("Characters to do")),
    ]


def status_converted_header() -> str:
    """The status table's column of machine-converted messages no person has reviewed."""
    return str(_("Machine-converted, not reviewed"))


def status_reviewed_header() -> str:
    """The status table's column of translations a person made or reviewed (an edition made
    by conversion, where the machine's are counted apart)."""
    return str(_("Reviewed"))


def status_summary(percent: str, translated: int, total: int) -> str:
    message = _("{percent}% translated: {translated} of {total} passages.")
    return str(message).format(percent=percent, translated=translated, total=total)


def download_tooltip(name: str) -> str:
    """The tooltip of the theme's download button for the book as *name* (PDF, EPUB)."""
    return str(_("Download the book ({name})")).format(name=name)


def diagram_words() -> dict[str, str]:
    """The accessible names of a diagram's full-screen view (its button, its close button, the
    view itself), which sphinxcontrib-mermaid writes in English only, and of the disclosure
    that shows a drawn diagram's source."""
    return {
        "open": str(_("Show the diagram full screen")),
        "close": str(_("Close the full-screen diagram")),
        "viewer": str(_("Diagram, full screen")),
        "source": str(_("Diagram source")),
    }


def theme_words() -> dict[str, str]:
    """Words of the page's chrome that seriesbook sets itself (the themes' own words are
    messages of this catalog too, registered for their domains by ``seriesbook.site``)."""
    return {
        "search-placeholder": str(_("Search…")),
        "toggle-primary": str(_("Toggle primary sidebar")),
        "toggle-secondary": str(_("Toggle secondary sidebar")),
        "chapters": str(_("Chapters")),
        "notfound-title": str(_("Page not found")),
        "notfound-body": str(_(
            "This page is not in the book. It may have moved: search for it, or start from "
            "the table of contents."
        )),
    }


def add_catalog(app: Sphinx) -> None:
    """Compile the shipped ``.po`` catalogs (only they are in the package) and register them.

    The ``.mo`` files go to the build's doctree directory, which Sphinx can always write to,
    so a fresh ``pip install`` needs no compile step; they are rewritten when a ``.po`` is newer.
    """
    target = Path(app.doctreedir) / "seriesbook-locale"
    for po_path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{CATALOG}.po")):
        mo_path = target / po_path.relative_to(LOCALE_DIR).with_suffix(".mo")
        if mo_path.is_file() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as stream:
            catalog = read_po(stream)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        partial = mo_path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(compiled.getvalue())
        partial.replace(mo_path)  # atomic: a parallel build never reads half a file
    # Sphinx keeps one translator per catalog for the process and adds later languages to it
    # as fallbacks: a second build in the same process (tests, `seriesbook check` of every
    # edition) must start from its own language.
    compat.forget_translations(CATALOG)
    app.add_message_catalog(CATALOG, str(target))


#: A BCP 47 tag for ``lang``/``hreflang``: ``zh_CN`` → ``zh-CN`` (:func:`language_tag`).
html_lang = language_tag


def setup(app: Sphinx) -> ExtensionMetadata:
    """The UI words' catalog, registered once per build whichever capability needs it first."""
    from seriesbook import __version__

    add_catalog(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
