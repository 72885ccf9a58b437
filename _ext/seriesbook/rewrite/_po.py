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
from pathlib import Path

from babel.messages.pofile import read_po

from seriesbook.rewrite._plan import Edit, Plan, PlanError

_KEYWORD = re.compile(r'(?P<keyword>msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)[ \t]*(?=")')
_UNESCAPE = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}
_PLAIN = re.compile(r'[^"\\\n]*')
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape(value: str) -> str:
    """*value* as it is written inside a ``.po`` string's quotes."""
    return "".join(_ESCAPE.get(char, char) for char in value)


@dataclass(frozen=True)
class PoString:
    """One keyword's string: its decoded value and where each of its characters is in the file.

    ``offsets[i]`` is the file offset of ``value[i]`` (``offsets[len(value)]`` is where the last
    piece's content ends); ``pieces`` are the ``(start, end)`` file spans of each quoted piece's
    content, in order.
    """

    keyword: str
    value: str
    offsets: tuple[int, ...]
    pieces: tuple[tuple[int, int], ...]
    line: int

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


def _string_at(text: str, keyword: str, position: int, line: int) -> tuple[PoString, int, int]:
    """Read the quoted pieces from *position* (at the first quote) on; return string, end, line."""
    value: list[str] = []
    offsets: list[int] = []
    pieces: list[tuple[int, int]] = []
    while True:
        if position >= len(text) or text[position] != '"':
            raise PlanError(f"line {line}: expected a quoted string after {keyword}")
        content = position + 1
        plain = _PLAIN.match(text, content)
        index = plain.end() if plain else content
        value.append(text[content:index])  # up to an escape: one character each, in one step
        offsets.extend(range(content, index))
        while index < len(text) and text[index] != '"':
            char = text[index]
            if char == "\\" and index + 1 < len(text):
                value.append(_UNESCAPE.get(text[index + 1], text[index + 1]))
                offsets.append(index)
                index += 2
                continue
            if char == "\n":
                raise PlanError(f"line {line}: unterminated string")
            value.append(char)
            offsets.append(index)
            index += 1
        pieces.append((content, index))
        position = index + 1
        # a continuation line: optional blanks, a newline, blanks, then a quote
        match = re.compile(r'[ \t]*\r?\n[ \t]*(?=")').match(text, position)
        if match is None:
            break
        position = match.end()
        line += 1
    offsets.append(pieces[-1][1])
    string = PoString(keyword, "".join(value), tuple(offsets), tuple(pieces), line)
    return string, position, line


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
            strings[keyword] = PoString(keyword, string.value, string.offsets, string.pieces,
                                        line)
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
    catalog = read_po(io.StringIO(text), abort_invalid=True)
    ours = {(e.msgctxt, e.msgid.value): e for e in entries if e.msgid.value}
    for message in catalog:
        if not message.id or not isinstance(message.id, str):
            continue
        entry = ours.get((message.context, message.id))
        if entry is None or entry.msgstr.value != message.string:
            raise PlanError(f"line {message.lineno}: could not locate the entry {message.id!r}")
