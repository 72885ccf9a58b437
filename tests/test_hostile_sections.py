"""Hostile § and citation input (issue 10, items 6 and 8): a table of cases on the smallest book.

Each case changes a few files of :data:`hostile.BOOK` and names the problems it must give, each
as (code, file, a text on the reported line). For every case: no traceback anywhere, nothing
printed to stdout by a build, ``seriesbook check`` exits 0 when clean and 1 with exactly those
problems, and the ``-W`` build of every edition fails exactly when check does, with the same
problems at the same places.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import pytest
from hostile import BOOK, Found, run_book

HUGE = "9" * 5000  # more digits than Python's int() converts (4,300)
CH01, CH02 = BOOK["ch01.md"], BOOK["ch02.md"]
# MyST puts a cell at the table's first line, or at the last inline literal's line (row 甲)
TABLE = "\n| 名称 | 位置 |\n|---|---|\n| 甲 | §1.1 与 `pkg/core.py:1` |\n| 乙 | {cell} |\n"


def _lock(files: object) -> str:
    """A lock as `seriesbook lock` writes it, with *files* as the demo source's cited files."""
    source = {"repo": "https://example.org/demo", "ref": "v1", "commit": "", "files": files,
              "ranges": {}, "symbols": {}, "excerpts": {}}
    return json.dumps({"format": 1, "sources": {"demo": source}}, indent=1, sort_keys=True)


class Case(NamedTuple):
    files: dict[str, str]
    expected: list[tuple[str, str, str]]  # code, file, a text on the reported line


CASES: dict[str, Case] = {
    # 6a: a second top heading is another top part of the page; the chapter is the first title
    "extra top heading": Case({"ch01.md": CH01 + "\n# 附录\n\n附录文字。\n"}, []),
    "§ heading under the extra top heading": Case(
        {"ch01.md": CH01 + "\n# 附录\n\n## §1.2 附录里的一节\n"}, []),
    "second chapter title on a page": Case(
        {"ch01.md": CH01 + "\n# 第3章 混进来的\n"}, [("sec-chapter", "ch01.md", "第3章")]),
    "§ heading as the first heading": Case(
        {"ch03.md": "## §3.1 无标题的页\n\n### §3.1.1 小节\n",
         "index.md": BOOK["index.md"].replace("ch02\n", "ch02\nch03\n")},
        [("myst.header", "ch03.md", "无标题")]),  # MyST's own warning; levels are still right
    # 6b: the number's parent is the number of the enclosing § section
    "child before its parent": Case(
        {"ch01.md": CH01 + "\n### §1.2.1 提前\n\n## §1.2 后来\n"},
        [("sec-nesting", "ch01.md", "§1.2.1")]),
    "child under an unnumbered heading": Case(  # §1.1's child, as renumber numbers it
        {"ch01.md": CH01 + "\n## 小结\n\n### §1.1.1 小结之下\n"}, []),
    "child under the wrong sibling": Case(
        {"ch01.md": CH01 + "\n## §1.2 二\n\n### §1.1.1 属于一\n"},
        [("sec-nesting", "ch01.md", "§1.1.1")]),
    "gap under a parent still sec-order": Case(
        {"ch01.md": CH01 + "\n### §1.1.2 跳号\n"}, [("sec-order", "ch01.md", "§1.1.2")]),
    # 6c: full-width digits are the same numbers (ASCII ids, links)
    "full-width heading": Case(
        {"ch01.md": CH01 + "\n## §１．２ 全角\n", "ch02.md": CH02 + "\n见 §1.2。\n"}, []),
    "full-width mentions": Case({"ch02.md": CH02 + "\n见第１章、§１.１ 与 {sec}`１.１`。\n"}, []),
    "full-width chapter title": Case({"ch01.md": CH01.replace("第1章", "第０１章")}, []),
    "full-width number still checked": Case(
        {"ch01.md": CH01 + "\n## §１.３ 跳号\n"}, [("sec-order", "ch01.md", "§１.３")]),
    # 6d: numbers longer than int() converts are problems, not tracebacks
    "huge § heading": Case(
        {"ch01.md": CH01 + f"\n## §1.{HUGE} 大\n"}, [("sec-order", "ch01.md", HUGE)]),
    "huge § mention": Case(
        {"ch02.md": CH02 + f"\n见 §2.{HUGE}。\n"}, [("sec-unresolved", "ch02.md", HUGE)]),
    "huge chapter mention": Case(
        {"ch02.md": CH02 + f"\n见第{HUGE}章。\n"}, [("chapter-unresolved", "ch02.md", HUGE)]),
    "huge chapter title": Case(
        {"ch01.md": CH01.replace("第1章", f"第{HUGE}章")},
        [("sec-chapter", "ch01.md", "§1.1"), ("chapter-unresolved", "ch02.md", "第1章")]),
    "huge citation line": Case(
        {"ch02.md": CH02 + f"\n见 `pkg/core.py:{HUGE}`。\n"},
        [("cite-line-range", "ch02.md", HUGE)]),
    "huge citation range end": Case(
        {"ch02.md": CH02 + f"\n见 {{src}}`dispatch <pkg/core.py:5-{HUGE}>`。\n"},
        [("cite-line-range", "ch02.md", HUGE)]),
    # 6e: a sibling volume's § that cannot be linked is one warning
    "sibling without intersphinx": Case(
        {"ch02.md": CH02 + "\n见 {sec}`vllm:3.2`。\n"}, [("sec-unresolved", "ch02.md", "vllm")]),
    "sibling inventory unknown": Case(
        {"ch02.md": CH02 + "\n见 {sec}`vllm:3.2`。\n",
         "conf.py": BOOK["conf.py"] + 'extensions += ["sphinx.ext.intersphinx"]\n'},
        [("sec-unresolved", "ch02.md", "vllm")]),
    # 8: malformed {src} targets, hand-edited locks, problems in table cells
    "role target without symbol": Case(
        {"ch02.md": CH02 + "\n见 {src}`<pkg/core.py:1>`。\n"}, [("cite-syntax", "ch02.md", "<")]),
    "role that is no citation": Case(
        {"ch02.md": CH02 + "\n见 {src}`nothing here`。\n"},
        [("cite-syntax", "ch02.md", "nothing")]),
    "lock lines not a number": Case(
        {"citations.lock.json": _lock({"pkg/core.py": {"lines": "many", "sha256": "0"}})},
        [("cite-lock", "citations.lock.json", '"pkg/core.py"')]),
    "lock lines true": Case(
        {"citations.lock.json": _lock({"pkg/core.py": {"lines": True, "sha256": "0"}})},
        [("cite-lock", "citations.lock.json", '"pkg/core.py"')]),
    "lock files a list": Case(
        {"citations.lock.json": _lock(["pkg/core.py"])},
        [("cite-lock", "citations.lock.json", '"files"')]),
    "lock not JSON": Case(
        {"citations.lock.json": '{"format": 1,\n "sources": {\n  "demo": nope\n }\n}\n'},
        [("cite-lock", "citations.lock.json", "nope")]),
    "lock sources a list": Case(
        {"citations.lock.json": '{"format": 1,\n "sources": []}\n'},
        [("cite-lock", "citations.lock.json", '"sources"')]),
    "§ mention in a table cell": Case(
        {"ch02.md": CH02 + TABLE.format(cell="§9.9")}, [("sec-unresolved", "ch02.md", "§9.9")]),
    "citation in a table cell": Case(
        {"ch02.md": CH02 + TABLE.format(cell="`pkg/core.py:99`")},
        [("cite-line-range", "ch02.md", ":99")]),
    "role in a table cell": Case(
        {"ch02.md": CH02 + TABLE.format(cell="{src}`<pkg/core.py:2>`")},
        [("cite-syntax", "ch02.md", "<pkg")]),
}


def _expected(book: Path, expected: list[tuple[str, str, str]]) -> list[Found]:
    """The problems at the line where their text is written (the last such line)."""
    found = []
    for code, file, text in expected:
        lines = (book / file).read_text(encoding="utf-8").splitlines()
        line = max(n for n, written in enumerate(lines, 1) if text in written)
        found.append(Found(code, file, line))
    return sorted(found)


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_section_and_citation_input(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    outcome = run_book(tmp_path, case.files)
    assert outcome.tracebacks == []
    assert outcome.stray_output == ""
    expected = _expected(outcome.book, case.expected)
    assert outcome.problems == expected
    assert outcome.check_status == (1 if expected else 0)
    for build in outcome.builds.values():
        assert build.error == ""
        assert sorted(set(build.warnings)) == expected, build.language
        assert build.status == (1 if expected else 0)
    assert outcome.agreement() == ""
