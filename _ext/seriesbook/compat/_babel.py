"""Babel's ``.po`` parser, taught the ``#| msgid`` lines it reads as translator comments."""

from __future__ import annotations

from typing import Any

from babel.messages.pofile import PoFileParser, unescape


class PreviousParser(PoFileParser):
    """Babel's ``.po`` parser, reading ``#| msgid`` lines into the next entry's ``previous_id``.

    Previous text is read for live and obsolete entries alike (``#~| msgid``, which GNU
    ``msgmerge`` writes and Babel rejects as an invalid keyword); ``#| msgctxt`` and
    ``#| msgid_plural`` lines are read and dropped (the book uses neither). Flags and translator
    comments are the ones the file writes: Babel's :class:`~babel.messages.catalog.Message`
    adds ``python-format`` to any msgid that looks like a format string (``50% done``), which
    would make ``msgfmt --check`` compare format directives nobody declared, and collapses a
    comment written twice in a row.
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
            self._process_comment("#" + line)
            return
        super()._process_message_line(lineno, line, obsolete)

    def _add_message(self) -> None:
        pieces, self._previous, self._previous_keyword = self._previous, [], ""
        msgid = self.messages[0].denormalize() if self.messages else None
        context = self.context.denormalize() if self.context else None
        obsolete = self.obsolete
        flags = {flag for flag in self.flags if flag}
        comments = list(self.user_comments)
        lineno = self.offset + 1
        super()._add_message()
        if not isinstance(msgid, str):
            return
        if obsolete:
            message = self.catalog.obsolete.get((msgid, context) if context else msgid)
        else:
            message = self.catalog.get(msgid, context)
        if message is None or message.lineno != lineno:
            return  # a duplicate: Babel keeps the first
        if msgid:
            message.flags = flags  # as written: no python-format Babel guessed
            message.user_comments = comments  # as written: Babel collapses repeated ones
        if pieces and not message.previous_id:
            message.previous_id = ["".join(unescape(piece) for piece in pieces)]
