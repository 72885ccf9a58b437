"""Babel's ``.po`` parser, taught the ``#| msgid`` lines it reads as translator comments."""

from __future__ import annotations

from typing import Any

from babel.messages.pofile import PoFileParser, unescape


class PreviousParser(PoFileParser):
    """Babel's ``.po`` parser, reading ``#| msgid`` lines into the next entry's ``previous_id``.

    ``#| msgctxt`` and ``#| msgid_plural`` lines are read and dropped (the book uses neither), as
    are the previous text of obsolete entries (``#~|``, which GNU ``msgmerge`` writes and Babel
    rejects as an invalid keyword).
    The one place seriesbook uses Babel's private parser API (pinned in
    :data:`seriesbook.compat.INTERNALS`; Babel reads ``#|`` lines as comments:
    https://github.com/python-babel/babel/issues/206).
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
