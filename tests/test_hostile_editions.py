"""Hostile catalogs and translations (issue 10, items 1, 2, 3 and 8): a table of bad inputs.

Each case is the smallest book of :mod:`hostile` with an English catalog (and, for diagrams, a
diagram in ``ch02.md``); for each: no traceback and nothing printed anywhere, ``seriesbook
check`` exits 0 or 1 with exactly the expected problem codes at ``file:line``, and agrees with
the ``-W`` build of every edition (the Chinese build is untouched by a broken English catalog).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hostile import Outcome, run_book

Content = str | bytes | None

PO = "locale/en/LC_MESSAGES/ch02.po"
HEADER = (
    'msgid ""\n'
    'msgstr ""\n'
    '"Project-Id-Version: demo\\n"\n'
    '"Language: en\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    "\n"
)
CH02 = "# 第2章 调度\n\n## §2.1 键集\n\n参见第1章。\n"
DIAGRAMS = (
    CH02
    + "\n```{mermaid}\nstateDiagram-v2\n    空闲 --> 运行 : 开始\n    运行 : 运行中\n```\n"
    + "\n```{mermaid}\nsequenceDiagram\n    participant P as 调用者\n    P->>D: 调用绑定\n"
    + "    Note over P: 注意\n    loop 每一步\n        P->>D: 重试\n    end\n```\n"
    + "\n```{mermaid}\nflowchart LR\n    A[起点] -->|边| B(终点)\n```\n"
)


def po(*entries: tuple[str, str] | str) -> str:
    """A catalog: (msgid, msgstr) pairs, or raw text spliced in as written."""
    parts = [HEADER]
    for entry in entries:
        if isinstance(entry, str):
            parts.append(entry)
        else:
            msgid, msgstr = (text.replace('"', '\\"') for text in entry)
            parts.append(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n')
    return "".join(parts)


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The 1-based line of the *occurrence*-th line of *text* that contains *needle*."""
    found = [n for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return found[occurrence - 1]


@dataclass(frozen=True)
class Case:
    files: dict[str, Content]
    expected: set[str]  # "code file:line" as check reports them
    shown: list[str] = field(default_factory=list)  # in the English ch02.html diagrams


GOOD = po(("第2章 调度", "Chapter 2 Dispatch"), ("参见第1章。", "See Chapter 1."))
GARBAGE = GOOD + "garbage line\n"
NOT_UTF8 = GOOD.encode() + b'msgid "\xff"\nmsgstr "x"\n'
BAD_HEADER = HEADER.replace("demo", "d\xe9mo").encode("latin-1") + b"\n"
CONFLICT = po(("参见第1章。", "See Chapter 1."), '#-#-#-#-#  ch02.po (demo)  #-#-#-#-#\n')
DUPLICATE = po(("参见第1章。", "See Chapter 1."), ("参见第1章。", "See chapter one."))
CHAPTER_9 = po(("参见第1章。", "See Chapter 9."))
CHAPTER_SWAP_SOURCE = "# 第2章 调度\n\n## §2.1 键集\n\n参见第1章与第2章。\n"
CHAPTER_SWAP = po(("参见第1章与第2章。", "See Chapter 1 and Chapter 1."))
CHAPTER_MIXED = po(("参见第1章。", "See 第1章."))
FUZZY_WRONG = po('#, fuzzy\nmsgid "参见第1章。"\nmsgstr "See Chapter 9."\n\n')


def diagram_po(*pairs: tuple[str, str]) -> str:
    return po(("参见第1章。", "See Chapter 1."), *pairs)


STATE_COLON = diagram_po(("开始", "step 1: start"), ("运行中", "running: yes; no"))
SEQUENCE_HASH = diagram_po(
    ("调用绑定", "calls the C# binding"), ("注意", "note #1; #2"), ("调用者", "C# caller")
)
INIT_DIRECTIVE = diagram_po(
    ("起点", "Start %%{init: {'theme':'forest'}}%%"), ("边", "%% not a comment"), ("终点", "end")
)
MARKUP = diagram_po(("起点", '<b>x</b> "q" `c` [a] (b) {c}'), ("每一步", "every < step > & more"))
UNSHOWABLE = diagram_po(("调用绑定", "a ¶ß b"), ("终点", "<br>"))
LONG_ESCAPED = diagram_po(("每一步", "retry#until;done%%"))

CASES: dict[str, Case] = {
    "catalog: a good one is clean": Case({PO: GOOD}, set()),
    "catalog: a byte that is not UTF-8": Case(
        {PO: NOT_UTF8}, {f"i18n-catalog {PO}:{GOOD.count(chr(10)) + 1}"}
    ),
    "catalog: a header that is not UTF-8": Case({PO: BAD_HEADER}, {f"i18n-catalog {PO}:3"}),
    "catalog: a garbage line": Case(
        {PO: GARBAGE}, {f"i18n-catalog {PO}:{line_of(GARBAGE, 'garbage line')}"}
    ),
    "catalog: a directory named like one": Case(
        {f"{PO}/README": "not a catalog"}, {f"i18n-catalog {PO}:1"}
    ),
    "catalog: a merge conflict left in": Case(
        {PO: CONFLICT}, {f"i18n-catalog {PO}:{line_of(CONFLICT, '#-#-#-#-#')}"}
    ),
    "catalog: a duplicate msgid": Case(
        {PO: DUPLICATE}, {f"i18n-catalog {PO}:{line_of(DUPLICATE, 'msgid', 3)}"}
    ),
    "catalog: the page was removed": Case(
        {"locale/en/LC_MESSAGES/old.po": GOOD}, {"i18n-catalog locale/en/LC_MESSAGES/old.po:1"}
    ),
    "catalog: a UTF-8 byte order mark": Case({PO: "\ufeff" + GOOD}, set()),
    "chapter: 第1章 translated as Chapter 9": Case(
        {PO: CHAPTER_9},
        {f"i18n-mismatch {PO}:{line_of(CHAPTER_9, '参见')}", "chapter-unresolved ch02.md:5"},
    ),
    "chapter: 第2章 translated as Chapter 1": Case(
        {"ch02.md": CHAPTER_SWAP_SOURCE, PO: CHAPTER_SWAP},
        {f"i18n-mismatch {PO}:{line_of(CHAPTER_SWAP, '参见')}"},
    ),
    "chapter: left in the source language": Case({PO: CHAPTER_MIXED}, set()),
    "chapter: a fuzzy wrong translation is not used": Case({PO: FUZZY_WRONG}, set()),
    "diagram: ':' in state labels": Case(
        {"ch02.md": DIAGRAMS, PO: STATE_COLON},
        set(),
        ["空闲 --> 运行 : step 1#58; start", "运行 : running#58; yes#59; no"],
    ),
    "diagram: '#' and ';' in sequence texts": Case(
        {"ch02.md": DIAGRAMS, PO: SEQUENCE_HASH},
        set(),
        ["P->>D: calls the C#35; binding", "Note over P: note #35;1#59; #35;2", "as C#35; caller"],
    ),
    "diagram: a %%{init}%% directive and %% comment": Case(
        {"ch02.md": DIAGRAMS, PO: INIT_DIRECTIVE},
        set(),
        ['A["Start #37;#37;#123;init#58; #123;#39;theme#39;#58;#39;forest#39;#125;#125;#37;#37;"]'],
    ),
    "diagram: HTML, quotes, backticks, brackets": Case(
        {"ch02.md": DIAGRAMS, PO: MARKUP},
        set(),
        ["#60;b#62;x#60;#47;b#62; #34;q#34; #96;c#96;", "loop every #60; step #62; #38; more"],
    ),
    "diagram: a translation mermaid cannot show": Case(
        {"ch02.md": DIAGRAMS, PO: UNSHOWABLE},
        {
            f"i18n-diagram {PO}:{line_of(UNSHOWABLE, '调用绑定')}",
            f"i18n-diagram {PO}:{line_of(UNSHOWABLE, '终点')}",
        },
        ["P->>D: 调用绑定", "B(终点)"],
    ),
    "diagram: a block title mermaid would cut inside an escape": Case(
        {"ch02.md": DIAGRAMS, PO: LONG_ESCAPED},
        {f"i18n-diagram {PO}:{line_of(LONG_ESCAPED, '每一步')}"},
        ["loop 每一步"],
    ),
}


def reported(outcome: Outcome) -> set[str]:
    return {f"{p.code} {p.at()}" for p in outcome.problems}


def english_diagrams(tmp_path: Path) -> str:
    page = (tmp_path / "_build" / "en" / "html" / "ch02.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(page, "html.parser")
    return "\n".join(pre.get_text() for pre in soup.select("pre.seriesbook-diagram-source-code"))


@pytest.mark.parametrize("name", CASES)
def test_hostile_catalogs_and_translations(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    outcome = run_book(tmp_path, case.files)
    assert outcome.tracebacks == []
    assert outcome.stray_output == ""
    assert outcome.check_stderr == ""
    assert outcome.check_status == (1 if case.expected else 0), outcome.check_stdout
    assert reported(outcome) == case.expected
    assert outcome.agreement() == ""
    assert outcome.builds["zh_CN"].error == "" and outcome.builds["en"].error == ""
    if case.expected and all(code.startswith("i18n-catalog") for code in case.expected):
        assert outcome.builds["zh_CN"].ok  # the other edition is untouched
    if case.shown:
        code = english_diagrams(tmp_path)
        for expected in case.shown:
            assert expected in code
