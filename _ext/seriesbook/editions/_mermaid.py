"""Split Mermaid source into structure and text labels, and put translated labels back.

:func:`parse` turns a diagram into ``structure[0] label[0] structure[1] … structure[n]``: the
labels are the words a reader sees (flowchart node and edge labels, subgraph titles, sequence
participants' display names, messages, notes and block titles, class labels and relation labels,
state descriptions and notes, the front-matter title); everything else — ids, arrows, keywords,
styling, comments — is structure and never reaches a translator. ``"".join`` of the pieces is
the source, byte for byte.

:func:`render_label` writes a translation back as plain text mermaid shows exactly as written:
every ASCII symbol becomes a Mermaid entity (``#58;`` for ``:``, one pass, so ``#`` is ``#35;``
and nothing else), which mermaid replaces by a placeholder before any grammar, ``%%`` directive,
comment, Markdown or HTML sanitiser sees the text; a newline or ``<br>`` is ``<br/>`` (a space
in a title). :func:`unsafe` names the few translations mermaid cannot show as written; the
caller reports them and keeps the label untranslated. ``tests/test_editions_diagram_render.py``
renders every label kind with hostile translations in mermaid itself to prove it.

What this module does not understand raises :class:`DiagramError` (with the line in the code);
the caller warns and leaves that diagram as written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

LabelKind = Literal[
    "quoted",  # written back as "…" (flowchart and edge labels, state and class labels)
    "markdown",  # written back as "`…`" (a Mermaid markdown string)
    "text",  # rest-of-line text (sequence messages and notes, relation labels, state text)
    "title",  # rest-of-line text shown on one line (titles, accessible title and description)
    "block",  # a sequence block's title (loop, alt, …), which mermaid wraps itself
    "node-id",  # a flowchart node shown by its id: written back as ID["…"]
    "subgraph-id",  # a subgraph titled by its id: written back as ID ["…"]
    "participant-id",  # a participant shown by its id: written back as ID as …
    "yaml",  # the front-matter title: written back as a JSON (YAML) string
]


@dataclass(frozen=True)
class Label:
    """One text label: *raw* as written in the diagram, *message* as the translator sees it."""

    raw: str
    message: str
    kind: LabelKind


@dataclass
class Diagram:
    """A diagram split into ``len(labels) + 1`` structure strings around its labels."""

    structure: list[str] = field(default_factory=lambda: [""])
    labels: list[Label] = field(default_factory=list)

    def add_structure(self, text: str) -> None:
        self.structure[-1] += text

    def add_label(self, raw: str, message: str, kind: LabelKind) -> None:
        if not message.strip():
            self.add_structure(raw)
            return
        self.labels.append(Label(raw, message, kind))
        self.structure.append("")

    def render(self, texts: list[str]) -> str:
        """The diagram with *texts* (one per label) in place of the labels' messages."""
        parts = [self.structure[0]]
        for label, text, after in zip(self.labels, texts, self.structure[1:], strict=True):
            parts += [render_label(label, text), after]
        return "".join(parts)


class DiagramError(ValueError):
    """A diagram this module cannot split; *line* counts from 1 within the code."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line} of the diagram: {reason}")
        self.line = line
        self.reason = reason


# --- writing translations back ---------------------------------------------------------------

# Mermaid turns every ``#name;``/``#123;`` of the whole code into a private placeholder
# (``ﬂ°…¶ß``) before any diagram's grammar reads it, and back into an HTML entity in the finished
# SVG. A character written that way is invisible to every grammar (statement separators, quotes,
# arrows, ``%%`` directives and comments, Markdown, HTML tags) and shown as itself. The
# placeholders' own pairs of characters cannot be written at all: mermaid decodes them anyway.
_PLACEHOLDERS = re.compile("\ufb02\xb0|\xb6\xdf")
_LINE_BREAK = re.compile(r"<br\s*/?>|\r\n|\r|\n", re.IGNORECASE)
_END_NOTE = re.compile(r"\b(end)\s+(note)\b", re.IGNORECASE)


def label_lines(text: str) -> list[str]:
    """A translation as lines (newline or ``<br>``): blanks collapse, as HTML shows them."""
    return [" ".join(line.split()) for line in _LINE_BREAK.split(text) if line.strip()]


# In a sequence block's title only these mean something to mermaid: the grammar's ``#`` and
# ``;``, ``%%`` directives, HTML, ``$$`` math and ``:`` (mermaid's own ``style …:#…;`` rewrite).
_BLOCK_SYMBOLS = frozenset("#;%<>&:$")


def _needs_escape(char: str, kind: LabelKind) -> bool:
    if kind == "block":
        return char in _BLOCK_SYMBOLS
    return char.isascii() and not char.isalnum() and char != " "


def _escaped(text: str, kind: LabelKind, joiner: str = "<br/>") -> str:
    """Plain text as mermaid shows it: lines joined by *joiner*, symbols escaped for *kind*."""
    lines = [
        "".join(f"#{ord(char)};" if _needs_escape(char, kind) else char for char in line)
        # mermaid drops a backslash right before a line break (escaped or not): keep a blank
        + (" " if line.endswith("\\") else "")
        for line in label_lines(text)
    ]
    return joiner.join(lines).rstrip(" ")


# Mermaid wraps a sequence block's title to the block's width, cutting any word wider than that
# with a hyphen, escapes included (measured as their placeholders): it would cut one in two.
# A word with an escape is kept shorter than the narrowest block (150px less padding).
_BLOCK_WORD_LIMIT = 12  # characters of the word as mermaid measures it, an escape counting 7
_HTML_IN_TITLE = re.compile(r"[<>&]")


def unsafe(label: Label, text: str) -> str | None:
    """Why *text* cannot stand in for *label* unchanged, or None when it can."""
    if not label_lines(text):
        return "it is empty"
    if _PLACEHOLDERS.search(text):
        return "mermaid cannot show 'ﬂ°' or '¶ß' (it decodes them as its own escapes)"
    if label.kind == "yaml" and _HTML_IN_TITLE.search(text):
        return "mermaid shows '<', '>' and '&' in a front-matter title as HTML escapes"
    if label.kind == "block":
        for word in " ".join(label_lines(text)).split():
            measured = sum(7 if _needs_escape(char, "block") else 1 for char in word)
            if measured > len(word) and measured > _BLOCK_WORD_LIMIT:
                return (
                    f"mermaid would cut the word {word!r} inside an escaped symbol when it wraps "
                    "the title; separate the symbol by spaces"
                )
    return None


def render_label(label: Label, text: str) -> str:
    """*text* written where *label* stood: as written when untranslated, escaped otherwise.

    The caller checks :func:`unsafe` first; a translated label is plain text, shown by mermaid
    exactly as the translator wrote it (a newline or ``<br>`` is a line break).
    """
    if text == label.message:
        return label.raw
    if label.kind == "yaml":
        return json.dumps(" ".join(" ".join(label_lines(text)).split()), ensure_ascii=False)
    escaped = _escaped(text, label.kind)
    if label.kind == "quoted":
        return f'"{escaped}"'
    if label.kind == "markdown":
        return f'"`{escaped}`"'
    if label.kind == "node-id":
        return f'{label.raw}["{escaped}"]'
    if label.kind == "subgraph-id":
        return f'{label.raw} ["{escaped}"]'
    if label.kind == "participant-id":
        return f"{label.raw} as {escaped}"
    if label.kind == "title":
        return _escaped(text, label.kind, " ")
    return _END_NOTE.sub(r"\1#32;\2", escaped)  # would close a state diagram's note


# --- reading: shared helpers -----------------------------------------------------------------


class _Line:
    """One line being split: appends structure and labels to *diagram* left to right."""

    def __init__(self, diagram: Diagram, text: str, number: int) -> None:
        self.diagram, self.text, self.number, self.pos = diagram, text, number, 0

    def error(self, reason: str) -> DiagramError:
        return DiagramError(self.number, reason)

    def structure_to(self, end: int) -> None:
        self.diagram.add_structure(self.text[self.pos : end])
        self.pos = end

    def label(self, start: int, end: int, kind: LabelKind) -> None:
        """The text between *start* and *end* is a label (surrounding blanks stay structure)."""
        self.structure_to(start)
        raw = self.text[start:end]
        inner = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        self.structure_to(start + lead)
        if kind == "quoted" and len(inner) >= 2 and inner[0] == inner[-1] == '"':
            message = inner[1:-1]
            if len(message) >= 2 and message[0] == message[-1] == "`":
                kind, message = "markdown", message[1:-1]
        else:
            message = inner
        self.diagram.add_label(inner, message.strip(), kind)
        self.pos = start + lead + len(inner)

    def rest(self) -> None:
        self.structure_to(len(self.text))


def _quoted_or_to(line: _Line, start: int, closers: tuple[str, ...]) -> tuple[int, int]:
    """Where a label starting at *start* ends: a quoted string, or the nearest closer."""
    text = line.text
    at = start
    while at < len(text) and text[at] == " ":
        at += 1
    if at < len(text) and text[at] == '"':
        end = text.find('"', at + 1)
        if end < 0:
            raise line.error("unterminated quoted label")
        after = end + 1
        while after < len(text) and text[after] == " ":
            after += 1
        closer = next((c for c in closers if text.startswith(c, after)), None)
        if closer is None:
            raise line.error(f"expected {' or '.join(closers)} after a quoted label")
        return end + 1, after + len(closer)
    found = [(i, c) for c in closers if (i := text.find(c, start)) >= 0]
    if not found:
        raise line.error(f"expected {' or '.join(closers)}")
    i, closer = min(found)
    return i, i + len(closer)


# --- flowcharts ------------------------------------------------------------------------------

_SHAPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("(((", (")))",)),
    ("((", ("))",)),
    ("([", ("])",)),
    ("[[", ("]]",)),
    ("[(", (")]",)),
    ("[/", ("/]", "\\]")),
    ("[\\", ("\\]", "/]")),
    ("{{", ("}}",)),
    ("(", (")",)),
    ("[", ("]",)),
    ("{", ("}",)),
    (">", ("]",)),
)
_ID = re.compile(r"\w+")
_PLAIN_LINK = re.compile(r"[xo<]?(?:-{2,}[-xo>]|={2,}[=xo>]|-\.+-[xo>]?|~{3,})")
_LINK_TEXT = r'(?P<text>\s*"[^"]*"\s*|[^"]+?)'
_TEXT_LINKS = (
    re.compile(rf"[xo<]?--{_LINK_TEXT}-{{2,}}[-xo>]"),
    re.compile(rf"[xo<]?=={_LINK_TEXT}={{2,}}[=xo>]"),
    re.compile(rf"[xo<]?-\.{_LINK_TEXT}\.+-[xo>]?"),
)
_EDGE_ID = re.compile(r"\w+@(?=[-=.~<xo])")
_CLASS_SUFFIX = re.compile(r":::[\w-]+")
_METADATA = re.compile(r'@\{(?:[^"}]|"[^"]*")*\}')
_HEAD_BEFORE_LINK = re.compile(r"(?<=\s)[xo](?=[-=.])")
_FLOW_KEYWORDS = frozenset(
    {"graph", "flowchart", "style", "classdef", "class", "linkstyle", "click", "direction", "end"}
)
_ACC = re.compile(r"\s*acc(?:Title|Descr)\s*:")


def _flow_link(line: _Line) -> bool:
    text, at = line.text, line.pos
    if m := _EDGE_ID.match(text, at):
        at = m.end()
    if m := _PLAIN_LINK.match(text, at):
        line.structure_to(m.end())
    else:
        for pattern in _TEXT_LINKS:
            if (m := pattern.match(text, at)) is not None:
                line.label(m.start("text"), m.end("text"), "quoted")
                line.structure_to(m.end())
                break
        else:
            return False
    if m := re.compile(r" *\|").match(text, line.pos):
        line.structure_to(m.end())
        end, after = _quoted_or_to(line, line.pos, ("|",))
        line.label(line.pos, end, "quoted")
        line.structure_to(after)
    return True


def _flow_node(line: _Line, labelled: set[str], shown: list[tuple[int, int, str]]) -> bool:
    text = line.text
    m = _ID.match(text, line.pos)
    if m is None or _EDGE_ID.match(text, line.pos):
        return False
    node_id = m.group()
    line.structure_to(m.end())
    where = (len(line.diagram.labels), len(line.diagram.structure[-1]), node_id)
    has_label = False
    if text.startswith("@{", line.pos):
        block = _METADATA.match(text, line.pos)
        if block is None:
            raise line.error("unterminated @{ … }")
        meta = re.search(r'label\s*:\s*("[^"]*")', block.group())
        if meta:
            line.label(line.pos + meta.start(1), line.pos + meta.end(1), "quoted")
            has_label = True
        line.structure_to(block.end())
    for opener, closers in _SHAPES:
        if text.startswith(opener, line.pos):
            line.structure_to(line.pos + len(opener))
            end, after = _quoted_or_to(line, line.pos, closers)
            line.label(line.pos, end, "quoted")
            line.structure_to(after)
            has_label = True
            break
    if has_label:
        labelled.add(node_id)
    else:
        shown.append(where)
    if m := _CLASS_SUFFIX.match(text, line.pos):
        line.structure_to(m.end())
    return True


Shown = list[tuple[int, int, str]]  # nodes shown by their id: (label index, offset, id)


def _flow_statement_line(line: _Line, labelled: set[str], shown: Shown) -> None:
    text = line.text
    while line.pos < len(text):
        char = text[line.pos]
        if char in " \t\r\n;&":
            line.structure_to(line.pos + 1)
            continue
        if text.startswith("%%", line.pos):
            break
        link_first = char in "<-=.~" or (
            _HEAD_BEFORE_LINK.match(text, line.pos) and text[: line.pos].strip()
        )
        if link_first and _flow_link(line):
            continue
        if _flow_node(line, labelled, shown) or _flow_link(line):
            continue
        raise line.error(f"unexpected {text[line.pos :]!r}")
    line.rest()


def _subgraph(line: _Line, labelled: set[str]) -> None:
    text = line.text
    start = text.index("subgraph") + len("subgraph")
    line.structure_to(start)
    m = re.compile(r"\s*(\w+)\s*\[").match(text, start)
    if m:
        labelled.add(m.group(1))
        line.structure_to(m.end())
        end, after = _quoted_or_to(line, line.pos, ("]",))
        line.label(line.pos, end, "quoted")
        line.structure_to(after)
        line.rest()
        return
    title = text[start:].split("%%")[0].rstrip().rstrip(";")
    if re.fullmatch(r"\s*\w+", title):
        labelled.add(title.strip())
        line.label(start, start + len(title), "subgraph-id")
    elif re.fullmatch(r'\s*"[^"]*"', title):
        line.label(start, start + len(title), "quoted")
    elif title.strip():
        raise line.error('a subgraph title with spaces needs an id: subgraph ID ["title"]')
    line.rest()


def _flowchart(diagram: Diagram, lines: list[tuple[int, str]]) -> None:
    labelled: set[str] = set()
    shown: list[tuple[int, int, str]] = []  # (label index, offset in structure, id)
    for number, text in lines:
        line = _Line(diagram, text, number)
        words = text.split()
        first = words[0].lower().rstrip(";") if words else ""
        if not first or first.startswith("%%") or first in _FLOW_KEYWORDS:
            line.rest()
        elif first == "subgraph":
            _subgraph(line, labelled)
        elif (m := _ACC.match(text)) and "{" not in text:
            line.label(m.end(), len(text), "title")
            line.rest()
        else:
            _flow_statement_line(line, labelled, shown)
    _label_shown_ids(diagram, labelled, shown)


def _label_shown_ids(
    diagram: Diagram, labelled: set[str], shown: list[tuple[int, int, str]]
) -> None:
    """Nodes never given a label show their id: the first occurrence becomes a label."""
    firsts: dict[str, tuple[int, int]] = {}
    for index, offset, node_id in shown:
        if node_id not in labelled:
            firsts.setdefault(node_id, (index, offset))
    for node_id, (index, offset) in sorted(firsts.items(), key=lambda kv: kv[1], reverse=True):
        before = diagram.structure[index]
        start = offset - len(node_id)
        diagram.structure[index : index + 1] = [before[:start], before[offset:]]
        diagram.labels.insert(index, Label(node_id, node_id, "node-id"))


# --- sequence diagrams -----------------------------------------------------------------------

_SEQ_ARROW = r"(?:<<-->>|<<->>|-->>|->>|-->|->|--x|-x|--\)|-\))"
_PARTICIPANT = r"\s*(?:create\s+)?(?:participant|actor)\s+"
_SEQ_PATTERNS: tuple[tuple[re.Pattern[str], LabelKind], ...] = (
    (re.compile(rf"{_PARTICIPANT}[^\s@]+\s+as\s+(?P<text>.+)$"), "text"),
    (re.compile(rf"{_PARTICIPANT}(?P<text>[^\s@]+)\s*$"), "participant-id"),
    (re.compile(rf"\s*[^\s:]+?\s*{_SEQ_ARROW}\s*[+-]?\s*[^\s:]+\s*:(?P<text>.*)$"), "text"),
    (re.compile(r"\s*note\s+(?:left of|right of|over)\s+[^:]+:(?P<text>.*)$", re.I), "text"),
    (
        re.compile(r"\s*(?:loop|alt|else|opt|par|and|critical|option|break)\b(?P<text>.*)$"),
        "block",
    ),
    (re.compile(r"\s*(?:title\s*:?|acc(?:Title|Descr)\s*:)(?P<text>.+)$"), "title"),
    (re.compile(r"\s*box\s+(?:(?:rgba?|hsla?)\([^)]*\)|transparent)(?P<text>.*)$"), "text"),
    (re.compile(r"\s*box\s+(?P<text>.*)$"), "text"),
)
_SEQ_STRUCTURE = re.compile(
    r"\s*(?:(?:sequenceDiagram|autonumber|activate|deactivate|destroy|end|rect|links?"
    r"|properties|details)\b|%%|$)"
)


def _sequence(diagram: Diagram, lines: list[tuple[int, str]]) -> None:
    for number, text in lines:
        line = _Line(diagram, text, number)
        if _SEQ_STRUCTURE.match(text):
            line.rest()
            continue
        for pattern, kind in _SEQ_PATTERNS:
            if m := pattern.match(text):
                line.label(m.start("text"), m.end("text"), kind)
                line.rest()
                break
        else:
            raise line.error(f"unexpected {text.strip()!r}")


# --- class and state diagrams ----------------------------------------------------------------

_CLASS_RELATION = re.compile(
    r"<\|--|--\|>|\*--|--\*|o--|--o|-->|<--|\.\.>|<\.\.|\.\.\|>|<\|\.\.|--|\.\."
)
_CLASS_PATTERNS: tuple[tuple[re.Pattern[str], LabelKind], ...] = (
    (re.compile(r'\s*class\s+[\w~`.-]+\s*\[(?P<text>"[^"]*")\]'), "quoted"),
    (re.compile(r'\s*note\s+(?:for\s+\w+\s+)?(?P<text>"[^"]*")'), "quoted"),
)
_STATE_PATTERNS: tuple[tuple[re.Pattern[str], LabelKind], ...] = (
    (re.compile(r'\s*state\s+(?P<text>"[^"]*")\s+as\s'), "quoted"),
    (re.compile(r"\s*note\s+(?:left|right)\s+of\s+[\w.]+\s*:(?P<text>.*)$", re.I), "text"),
    (re.compile(r"\s*[\w.\[\]*]+\s*-->\s*[\w.\[\]*]+\s*:(?P<text>.*)$"), "text"),
    (
        re.compile(r"\s*(?!note\b|state\b|class\b|classDef\b|style\b)[\w.]+\s*:(?P<text>.*)$"),
        "text",
    ),
)


def _class(diagram: Diagram, lines: list[tuple[int, str]]) -> None:
    depth = 0
    for number, text in lines:
        line = _Line(diagram, text, number)
        body = "" if text.lstrip().startswith("%%") else text
        if depth == 0 and body:
            for pattern, kind in _CLASS_PATTERNS:
                if m := pattern.match(text):
                    line.label(m.start("text"), m.end("text"), kind)
                    break
            else:
                lhs, colon, _ = body.partition(" : ")
                if colon and _CLASS_RELATION.search(lhs):
                    start = len(lhs) + len(colon)
                    line.label(start, len(body.rstrip()), "text")
        bare = re.sub(r'"[^"]*"', "", body)  # braces inside labels do not open a body
        depth += bare.count("{") - bare.count("}")
        line.rest()


def _state(diagram: Diagram, lines: list[tuple[int, str]]) -> None:
    in_note = False
    for number, text in lines:
        line = _Line(diagram, text, number)
        stripped = text.strip()
        if in_note:
            if stripped.lower() == "end note":
                in_note = False
            else:
                line.label(0, len(text), "text")
        elif re.match(r"note\s+(?:left|right)\s+of\s+[\w.]+\s*$", stripped, re.I):
            in_note = True
        elif not stripped.startswith("%%"):
            for pattern, kind in _STATE_PATTERNS:
                if m := pattern.match(text):
                    line.label(m.start("text"), m.end("text"), kind)
                    break
        line.rest()
    if in_note:
        raise DiagramError(lines[-1][0], "a note is not closed by 'end note'")


# --- whole diagrams --------------------------------------------------------------------------

_KINDS: dict[str, Callable[[Diagram, list[tuple[int, str]]], None]] = {
    "graph": _flowchart,
    "flowchart": _flowchart,
    "flowchart-elk": _flowchart,
    "sequenceDiagram": _sequence,
    "classDiagram": _class,
    "classDiagram-v2": _class,
    "stateDiagram": _state,
    "stateDiagram-v2": _state,
}


def _front_matter(diagram: Diagram, lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Split off a leading ``---`` YAML block; its ``title:`` is a label."""
    if not lines or lines[0][1].strip() != "---":
        return lines
    diagram.add_structure(lines[0][1])
    for index, (number, text) in enumerate(lines[1:], start=1):
        line = _Line(diagram, text, number)
        if text.strip() == "---":
            line.rest()
            return lines[index + 1 :]
        m = re.match(r"title\s*:\s*(?P<text>.*?)\s*$", text)
        if m and m.group("text"):
            value = m.group("text")
            message = value[1:-1] if value[:1] == value[-1:] and value[:1] in "\"'" else value
            line.structure_to(m.start("text"))
            diagram.add_label(value, message.strip(), "yaml")
            line.pos = m.end("text")
        line.rest()
    raise DiagramError(lines[0][0], "front matter is not closed by '---'")


def parse(code: str) -> Diagram:
    """Split *code* into structure and labels; :class:`DiagramError` if it is not understood."""
    diagram = Diagram()
    lines = list(enumerate(code.splitlines(keepends=True), start=1))
    body = _front_matter(diagram, lines)
    head = next(
        (i for i, (_, t) in enumerate(body) if t.strip() and not t.strip().startswith("%%")),
        None,
    )
    if head is None:
        raise DiagramError(len(lines), "no diagram type")
    kind = body[head][1].split()[0].rstrip(";")
    if kind not in _KINDS:
        raise DiagramError(body[head][0], f"diagram type {kind!r} is not translatable")
    for number, text in body[:head]:
        _Line(diagram, text, number).rest()
    _KINDS[kind](diagram, body[head:])
    return diagram
