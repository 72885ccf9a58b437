"""The previous msgid of a fuzzy entry (``#| msgid "…"``), read and written as gettext does.

``make update-po`` marks a message whose source text changed ``#, fuzzy`` and keeps the text its
translation was made from as ``#| msgid`` lines, like GNU ``msgmerge --previous``, so the translator
sees what changed. Babel sets :attr:`~babel.messages.catalog.Message.previous_id` when it updates
a catalog, but its parser reads ``#|`` lines as translator comments, and its writer wraps them at
76 columns without quotes (``msgfmt`` rejects that). So :class:`PreviousParser` reads them into
``previous_id`` and :func:`write_catalog` writes them as ``msgfmt`` expects, unwrapped.
"""

from __future__ import annotations

import io
import secrets
from typing import TYPE_CHECKING, Any

from babel.messages.pofile import normalize, write_po

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog


#: The prefix of the comments ``seriesbook update-po`` writes (a similar message's translation
#: offered as fuzzy); they go when the fuzzy flag goes, and the edition never shows such an entry.
COMMENT_PREFIX = "seriesbook:"


def previous_text(message: Any) -> str | None:
    """The source text a fuzzy message's translation was made from, if the catalog says."""
    previous = getattr(message, "previous_id", None)
    return str(previous[0]) if previous else None


def _previous_lines(text: str) -> str:
    """``#| msgid`` lines for *text*, one quoted piece per source line, never wrapped."""
    pieces = normalize(text, width=0).split("\n")
    first, *rest = pieces
    return f"#| msgid {first}\n" + "".join(f"#| {piece}\n" for piece in rest)


def write_catalog(catalog: Catalog) -> bytes:
    """*catalog* as a ``.po`` file: unwrapped lines, obsolete entries kept, and for every fuzzy
    entry that has one its previous msgid (``#|``), for no other entry."""
    token = f"seriesbook-previous-{secrets.token_hex(8)}-"
    replacements: dict[str, str] = {}
    saved = []
    for index, message in enumerate(catalog):
        if not message.id:
            continue
        saved.append((message, message.previous_id))
        previous = previous_text(message) if message.fuzzy else None
        if previous is None:
            message.previous_id = []
            continue
        placeholder = f"{token}{index}"
        replacements[f'#| msgid "{placeholder}"\n'] = _previous_lines(previous)
        message.previous_id = [placeholder]
    stream = io.BytesIO()
    try:
        write_po(stream, catalog, width=0, include_previous=True)
    finally:
        for message, previous_id in saved:
            message.previous_id = previous_id
    text = stream.getvalue().decode(catalog.charset or "utf-8")
    for placeholder_line, lines in replacements.items():  # each placeholder is unique
        text = text.replace(placeholder_line, lines, 1)
    return text.encode(catalog.charset or "utf-8")
