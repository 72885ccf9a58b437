"""Mermaid labels as messages: splitting, writing translations back, checked by mermaid itself."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.editions._mermaid import DiagramError, Label, label_lines, parse, unsafe
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
NODE = shutil.which("node")
FENCE = r"```\{mermaid\}\n(.*?)```"
HOSTILE = 'x"; ] ) } | -- --> ==> -.- ;; # #quot; `md` %% end\nnext line'

FLOWCHART = """\
flowchart TD
    A[bare text] -->|edge| B("round")
    B -- inline text --> C{{hexagon}}
    C -.-> D
    D == thick ==> E>flag]
    x-->y
    F@{ shape: rect, label: "meta" }
    subgraph S1 [Title one]
        E
    end
    subgraph Bare
        F
    end
    F --> Bare
    style A fill:#f9f
    classDef hot stroke:#f00
    class A hot
    %% a comment
"""
SEQUENCE = """\
sequenceDiagram
    autonumber
    participant A
    actor B as Bob
    A->>+B: hello
    B-->>-A: back
    Note right of A: a note
    loop every time
        A-)B: async
    end
    alt ok
        A->>B: yes
    else bad
        A-xB: no
    end
    rect rgb(0, 0, 255)
        B->>B: self
    end
"""
CLASS = """\
classDiagram
    class Animal["动物"]
    Animal <|-- Duck : 继承
    class Duck {
        +swim() void
        +String beak
    }
    note for Duck "会游泳"
"""
STATE = """\
stateDiagram-v2
    state "等待中" as W
    [*] --> W
    W --> R : 开始
    R : 运行中
    note right of R
        第一行
    end note
    R --> [*]
"""
FRONT_MATTER = '---\ntitle: "图的标题"\nconfig:\n  theme: forest\n---\nflowchart LR\n    A --> B\n'


def messages(code: str) -> list[tuple[str, str]]:
    return [(label.kind, label.message) for label in parse(code).labels]


def mermaid_check(codes: list[str]) -> list[str]:
    """Mermaid's own parser on each code: "OK" or its error."""
    assert NODE is not None
    result = subprocess.run(
        [NODE, str(TESTS / "editions_mermaid_parse.mjs")],
        input=json.dumps(codes),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    answers: list[str] = json.loads(result.stdout)
    return answers


def book_diagrams() -> list[tuple[str, str]]:
    found = []
    for path in sorted((REPO / "source").glob("*.md")):
        for match in re.finditer(
            r"```\{mermaid\}\n(.*?)```", path.read_text(encoding="utf-8"), re.S
        ):
            found.append((path.name, match.group(1)))
    return found


# --- what is a message -----------------------------------------------------------------------


def test_flowchart_labels() -> None:
    assert messages(FLOWCHART) == [
        ("quoted", "bare text"),
        ("quoted", "edge"),
        ("quoted", "round"),
        ("quoted", "inline text"),
        ("quoted", "hexagon"),
        ("node-id", "D"),  # shown by its id: the only place it can be translated
        ("quoted", "thick"),
        ("quoted", "flag"),
        ("node-id", "x"),
        ("node-id", "y"),
        ("quoted", "meta"),
        ("quoted", "Title one"),
        ("subgraph-id", "Bare"),
    ]


def test_sequence_labels() -> None:
    assert messages(SEQUENCE) == [
        ("participant-id", "A"),
        ("text", "Bob"),
        ("text", "hello"),
        ("text", "back"),
        ("text", "a note"),
        ("block", "every time"),
        ("text", "async"),
        ("block", "ok"),
        ("text", "yes"),
        ("block", "bad"),
        ("text", "no"),
        ("text", "self"),
    ]


def test_class_and_state_labels() -> None:
    assert messages(CLASS) == [("quoted", "动物"), ("text", "继承"), ("quoted", "会游泳")]
    assert messages(STATE) == [
        ("quoted", "等待中"),
        ("text", "开始"),
        ("text", "运行中"),
        ("text", "第一行"),
    ]


def test_front_matter_title_only() -> None:
    assert messages(FRONT_MATTER) == [("yaml", "图的标题"), ("node-id", "A"), ("node-id", "B")]


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ('flowchart TD\n    A["unterminated --> B\n', 2),
        ("flowchart TD\n    A --> B\n    A ?? B\n", 3),
        ("gantt\n    title Plan\n", 1),
        ("sequenceDiagram\n    A->>B: ok\n    what is this\n", 3),
        ("---\ntitle: x\n", 1),
        ("%% only a comment\n", 1),
    ],
)
def test_unparseable_diagrams(code: str, line: int) -> None:
    with pytest.raises(DiagramError) as error:
        parse(code)
    assert error.value.line == line


# --- structure is untouched, translations cannot break it ------------------------------------

ALL = [FLOWCHART, SEQUENCE, CLASS, STATE, FRONT_MATTER]


@pytest.mark.parametrize("code", ALL)
def test_untranslated_is_byte_identical(code: str) -> None:
    diagram = parse(code)
    assert diagram.render([label.message for label in diagram.labels]) == code


def read_back(label: Label) -> str:
    """What a reader sees of a label written back: its message with the escapes undone."""
    if label.kind == "yaml":
        return str(json.loads(label.raw))
    text = label.message.replace(" <br/>", "<br/>").replace("<br/>", "\n")  # " ": see _escaped
    return re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), text)


def normalized(text: str, kind: str) -> str:
    """A translation as a diagram can show it: trimmed lines (a title is one line)."""
    lines = label_lines(text)
    return " ".join(" ".join(lines).split()) if kind in {"yaml", "title"} else "\n".join(lines)


translations = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
    | st.sampled_from(list('"[](){}|;:#`-=>.<%\n ')),
    min_size=1,
    max_size=30,
).filter(lambda t: bool(label_lines(t)) and not re.search("\ufb02\xb0|\xb6\xdf", t))


@given(st.sampled_from(ALL), st.data())
@settings(max_examples=int(os.environ.get("EDITIONS_EXAMPLES", "80")), deadline=None)
def test_any_translation_reads_back_and_keeps_the_structure(code: str, data: st.DataObject) -> None:
    diagram = parse(code)
    texts = [data.draw(translations) for _ in diagram.labels]
    again = parse(diagram.render(texts))  # still a diagram this module (and mermaid) reads
    assert len(again.labels) == len(diagram.labels)
    for label, text, back in zip(diagram.labels, texts, again.labels, strict=True):
        if unsafe(label, text) is None:
            assert read_back(back) == normalized(text, label.kind)
    shown_by_id = {"node-id", "subgraph-id", "participant-id"}
    if not shown_by_id & {label.kind for label in diagram.labels}:
        assert again.structure == diagram.structure


@pytest.mark.skipif(NODE is None, reason="needs Node.js for mermaid's parser")
def test_mermaid_accepts_every_translation() -> None:
    codes = []
    for code in ALL:
        diagram = parse(code)
        codes += [
            code,
            diagram.render([HOSTILE for _ in diagram.labels]),
            diagram.render([f"译文 {i}" for i, _ in enumerate(diagram.labels)]),
        ]
    assert mermaid_check(codes) == ["OK"] * len(codes)


@pytest.mark.skipif(NODE is None, reason="needs Node.js for mermaid's parser")
def test_every_diagram_of_the_book_is_translatable() -> None:
    found = book_diagrams()
    assert found
    codes = []
    for name, code in found:
        diagram = parse(code)  # no DiagramError: the book has no untranslatable diagram
        assert diagram.labels, name
        assert diagram.render([label.message for label in diagram.labels]) == code
        codes.append(diagram.render([HOSTILE for _ in diagram.labels]))
    assert mermaid_check(codes) == ["OK"] * len(codes)


# --- in a build ------------------------------------------------------------------------------


@pytest.mark.sphinx("html", testroot="editions-diagram-error")
def test_malformed_diagram_warned_at_its_line_and_left_as_written(app: SphinxTestApp) -> None:
    app.build()
    warnings = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    source = Path(app.srcdir) / "index.md"
    assert f"{source}:8: WARNING: Mermaid diagram not translatable: unterminated quoted label" in (
        warnings
    )
    assert "[seriesbook.i18n-diagram]" in warnings
    assert warnings.count("[seriesbook.") == 1
    html = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    assert "A[&quot;未闭合 --&gt; B" in html
