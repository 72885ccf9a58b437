"""The previous msgid of a fuzzy entry (``#| msgid "…"``), read and written as gettext does.

``make update-po`` marks a message whose source text changed ``#, fuzzy`` and keeps the text its
translation was made from as ``#| msgid`` lines, like GNU ``msgmerge --previous``, so the translator
sees what changed. Babel sets :attr:`~babel.messages.catalog.Message.previous_id` when it updates
a catalog, but its parser reads ``#|`` lines as translator comments, and its writer wraps them at
76 columns without quotes (``msgfmt`` rejects that). So :class:`PreviousParser` reads them into
``previous_id`` and :func:`write_catalog` writes them as ``msgfmt`` expects, unwrapped.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import secrets
from typing import TYPE_CHECKING, Any

from babel.messages.pofile import PoFileParser, normalize, unescape, write_po

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog


# The private methods of Babel's parser PreviousParser overrides or relies on, as of Babel 2.19
# (sha256 of inspect.getsource); a guard test fails when Babel changes one. Babel reads #| lines
# as translator comments (https://github.com/python-babel/babel/issues/206): the door to close.
BABEL_PARSER_SHA256 = {
    "_process_comment": "d66bf0c1e5fd8f7f745acec36949c42bac06d3224b3940e9ddbc1e1b021102b0",
    "_add_message": "653282ec75725f928ce5af82ed0256d5e33a1a4abee06c185efcaf632b7fa674",
    "_finish_current_message": "54b40a12143ad4d84154d05774e1454765c5099bbab69f3bf7553dcf1c7194ee",
    "_process_message_line": "221e617efa5c4b26d7c1b6a6a848a7208240df02ac13cd2b22b3c8522c8ce4db",
}


def babel_parser_is_pinned() -> bool:
    """Whether Babel's parser methods are the ones :class:`PreviousParser` was written against."""
    return all(
        hashlib.sha256(inspect.getsource(getattr(PoFileParser, name)).encode()).hexdigest()
        == digest
        for name, digest in BABEL_PARSER_SHA256.items()
    )


#: The prefix of the comments ``seriesbook update-po`` writes (a similar message's translation
#: offered as fuzzy); they go when the fuzzy flag goes, and the edition never shows such an entry.
COMMENT_PREFIX = "seriesbook:"


class PreviousParser(PoFileParser):
    """Babel's ``.po`` parser, reading ``#| msgid`` lines into the next entry's ``previous_id``.

    ``#| msgctxt`` and ``#| msgid_plural`` lines are read and dropped (the book uses neither), as
    are the previous text of obsolete entries (``#~|``, which GNU ``msgmerge`` writes and Babel
    rejects as an invalid keyword).
    The one place seriesbook uses Babel's private parser API (see :data:`BABEL_PARSER_SHA256`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._previous: list[str] = []
        self._previous_keyword = ""

    def _process_comment(self, line: str) -> None:
        if not line.startswith("#|"):
            super()._process_comment(line)
            return
        self._finish_current_message()
        rest = line[2:].strip()
        if rest.startswith('"'):
            if self._previous_keyword == "msgid":
                self._previous.append(rest)
            return
        keyword, _, argument = rest.partition(" ")
        self._previous_keyword = keyword
        if keyword == "msgid":
            self._previous = [argument.strip()]

    def _process_message_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
        if obsolete and line.startswith("|"):
            return
        super()._process_message_line(lineno, line, obsolete)

    def _add_message(self) -> None:
        pieces, self._previous, self._previous_keyword = self._previous, [], ""
        msgid = self.messages[0].denormalize() if self.messages else None
        context = self.context.denormalize() if self.context else None
        obsolete = self.obsolete
        super()._add_message()
        if not pieces or not isinstance(msgid, str) or obsolete:
            return
        message = self.catalog.get(msgid, context)
        if message is not None and not message.previous_id:
            message.previous_id = ["".join(unescape(piece) for piece in pieces)]


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
