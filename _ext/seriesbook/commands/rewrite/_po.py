"""Spans of a ``.po`` catalog's strings in its file, so a rewrite touches only the text meant.

Babel reads a catalog into messages but re-serialising it through Babel would re-wrap lines and
change bytes nobody meant to touch, and writing a message through Babel's ``Catalog`` marks an
edited msgid's translation fuzzy. Here each entry's ``msgid``/``msgstr`` is located in the file's
text with the offset of every decoded character, so an edit of ``value[start:end]`` becomes an
edit of exactly the file characters that encode it (escapes and ``"…"`` continuation lines
included). Babel's reading is the reference: every located entry is checked against it.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from babel.messages.pofile import PoFileError, read_po

from seriesbook.commands.rewrite._plan import Edit, Plan, PlanError

_KEYWORD = re.compile(r'(?P<keyword>msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]*(?=")')
_UNESCAPE = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}
# a quoted piece on one line (an escape may quote anything, a quote included), and the
# blanks and line break before a continuation line's piece
_PIECE = re.compile(r'"((?:[^"\\\n]|\\[\s\S])*)"')
_CONTINUATION = re.compile(r'[ \t]*\r?\n[ \t]*(?=")')
_ESCAPED = re.compile(r"\\([\s\S])")
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape(value: str) -> str:
    """*value* as it is written inside a ``.po`` string's quotes."""
    return "".join(_ESCAPE.get(char, char) for char in value)


@dataclass(frozen=True)
class PoString:
    """One keyword's string: its decoded value and where its quoted pieces are in the file.

    ``pieces`` are the ``(start, end)`` file spans of each quoted piece's content, in order, and
    ``raw`` their contents as written; ``offsets[i]`` is the file offset of ``value[i]``
    (``offsets[len(value)]`` is where the last piece's content ends), worked out only for the
    strings an edit touches.
    """

    keyword: str
    value: str
    pieces: tuple[tuple[int, int], ...]
    raw: tuple[str, ...]
    line: int

    @cached_property
    def offsets(self) -> tuple[int, ...]:
        offsets: list[int] = []
        for (start, _), written in zip(self.pieces, self.raw, strict=True):
            index = 0
            while index < len(written):
                offsets.append(start + index)
                index += 2 if written[index] == "\\" else 1
        offsets.append(self.pieces[-1][1])
        return tuple(offsets)

    def file_span(self, start: int, end: int) -> tuple[int, int]:
        """The file span that encodes ``value[start:end]``."""
        if not 0 <= start <= end <= len(self.value):
            raise PlanError(f"span {start}-{end} outside the {self.keyword} string")
        if start == end:
            return self.offsets[start], self.offsets[start]
        last = self.offsets[end - 1]
        width = 2 if self.value[end - 1] in _ESCAPE else 1
        return self.offsets[start], last + width

    def replace(self, plan: Plan, path: Path, start: int, end: int, new: str) -> Edit | None:
        """Plan replacing ``value[start:end]`` by *new*, escaped, keeping line breaks of the file.

        A span that crosses a continuation line keeps the break after the new text.
        """
        file_start, file_end = self.file_span(start, end)
        between = "".join(
            plan.text(path)[left_end:right_start]
            for (_, left_end), (right_start, _) in zip(self.pieces, self.pieces[1:], strict=False)
            if file_start < left_end and right_start < file_end
        )
        return plan.replace(path, file_start, file_end, escape(new) + between)


@dataclass(frozen=True)
class PoEntry:
    """A live (not obsolete) catalog entry with a single ``msgstr``."""

    msgid: PoString
    msgstr: PoString
    fuzzy: bool
    msgctxt: str | None = None

    @property
    def line(self) -> int:
        return self.msgid.line


def _decode(written: str) -> str:
    """A quoted piece's content as Babel reads it (an unknown escape is the character itself)."""
    if "\\" not in written:
        return written
    return _ESCAPED.sub(lambda match: _UNESCAPE.get(match[1], match[1]), written)


def _string_at(text: str, keyword: str, position: int, line: int) -> tuple[PoString, int, int]:
    """Read the quoted pieces from *position* (at the first quote) on; return string, end, line."""
    pieces: list[tuple[int, int]] = []
    raw: list[str] = []
    while True:
        if position >= len(text) or text[position] != '"':
            raise PlanError(f"line {line}: expected a quoted string after {keyword}")
        piece = _PIECE.match(text, position)
        if piece is None:
            raise PlanError(f"line {line}: unterminated string")
        pieces.append(piece.span(1))
        raw.append(piece[1])
        position = piece.end()
        continuation = _CONTINUATION.match(text, position)
        if continuation is None:
            break
        position = continuation.end()
        line += 1
    value = "".join(_decode(written) for written in raw)
    return PoString(keyword, value, tuple(pieces), tuple(raw), line), position, line


def read_entries(text: str) -> list[PoEntry]:
    """Every live entry of a catalog's *text* with its strings located; checked against Babel."""
    entries: list[PoEntry] = []
    flags: set[str] = set()
    strings: dict[str, PoString] = {}
    offset, line = 0, 1

    def finish() -> None:
        if "msgid" in strings and "msgstr" in strings and "msgid_plural" not in strings:
            context = strings.get("msgctxt")
            entries.append(PoEntry(strings["msgid"], strings["msgstr"], "fuzzy" in flags,
                                   context.value if context else None))
        flags.clear()
        strings.clear()

    while offset < len(text):
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        row = text[offset:end]
        stripped = row.strip()
        if stripped.startswith("#,"):
            if strings:
                finish()
            flags.update(flag.strip() for flag in stripped[2:].split(","))
        elif stripped.startswith("#") or not stripped:
            if strings and not stripped.startswith("#~"):
                finish()
        elif match := _KEYWORD.match(row):
            keyword = match["keyword"]
            if keyword in ("msgctxt", "msgid") and "msgstr" in strings:
                finish()
            string, stop, last_line = _string_at(text, keyword, offset + match.end(), line)
            strings[keyword] = PoString(keyword, string.value, string.pieces, string.raw, line)
            line = last_line
            next_line = text.find("\n", stop)
            offset = len(text) if next_line < 0 else next_line + 1
            line += 1
            continue
        offset = end + 1
        line += 1
    if strings:
        finish()
    _check_against_babel(text, entries)
    return entries


def _check_against_babel(text: str, entries: list[PoEntry]) -> None:
    try:
        catalog = read_po(io.StringIO(text), abort_invalid=True)
    except (PoFileError, ValueError, LookupError, TypeError) as error:
        raise PlanError(f"not a valid .po file ({error}); fix it first") from None
    ours: dict[tuple[str | None, str], PoEntry] = {}
    for entry in entries:  # of duplicate msgids the first counts, as for Babel and Sphinx
        if entry.msgid.value:
            ours.setdefault((entry.msgctxt, entry.msgid.value), entry)
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        found = ours.get((message.context, message.id))
        if found is None or found.msgstr.value != message.string:
            raise PlanError(f"line {message.lineno}: could not locate the entry {message.id!r}")
