"""The shared rewrite layer: planned edits, atomic writes, .po strings located byte-exactly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.commands.rewrite import (
    Plan,
    PlanError,
    entry_span,
    escape,
    literal_span,
    plan_catalog,
    read_entries,
    read_text,
    verify_catalog,
)

CATALOG = '''# header comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#, python-brace-format
msgid "见 §4.2 与 \\"§4.3\\"\\t{src}`a <x.py:1>`"
msgstr "see §4.2 and \\"§4.3\\"\\t{src}`a <x.py:1>`"

msgid ""
"长消息 §4."
"2 在续行上"
msgstr ""
"long §4.2 on "
"a continuation line"

#, fuzzy
msgid "模糊 §4.2"
msgstr "fuzzy §4.2"

msgid "未译 §4.2"
msgstr ""

#~ msgid "旧的 §4.2"
#~ msgstr "old §4.2"
'''


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _renumber(entry_value: str) -> list[tuple[int, int, str]]:
    at = entry_value.find("§4.2")
    return [(at, at + 4, "§4.3")] if at >= 0 else []


def test_po_strings_are_located_with_escapes_and_continuations(tmp_path: Path) -> None:
    entries = read_entries(CATALOG)
    assert [e.msgid.value for e in entries] == [
        "", '见 §4.2 与 "§4.3"\t{src}`a <x.py:1>`', "长消息 §4.2 在续行上", "模糊 §4.2",
        "未译 §4.2",
    ]
    assert [e.fuzzy for e in entries] == [False, False, False, True, False]
    assert entries[2].msgid.line == 10 and entries[2].msgstr.value == (
        "long §4.2 on a continuation line"
    )
    # every decoded character maps to the file characters that encode it
    second = entries[1].msgid
    quote = second.value.index('"')
    start, end = second.file_span(quote, quote + 1)
    assert CATALOG[start:end] == '\\"'


def test_catalog_rewrite_touches_only_the_spans_and_keeps_translations(tmp_path: Path) -> None:
    path = _write(tmp_path, "ch.po", CATALOG)
    plan = Plan()
    changed = plan_catalog(
        plan, path, lambda e: (_renumber(e.msgid.value), _renumber(e.msgstr.value))
    )
    assert len(changed) == 4
    new = plan.new_texts()[path]
    verify_catalog(new, changed)
    expected = (
        CATALOG.replace("§4.2", "§4.3")
        .replace('"长消息 §4."\n"2 在续行上"', '"长消息 §4.3"\n" 在续行上"')
    )
    expected = expected.replace("#~ msgid \"旧的 §4.3\"\n#~ msgstr \"old §4.3\"",
                                "#~ msgid \"旧的 §4.2\"\n#~ msgstr \"old §4.2\"")
    assert new == expected  # obsolete entries untouched, every other byte kept
    assert plan.apply() == [path]
    catalog = read_po(io.StringIO(read_text(path)))
    strings = {m.id: (m.string, m.fuzzy) for m in catalog}
    assert strings["长消息 §4.3 在续行上"] == ("long §4.3 on a continuation line", False)
    assert strings['见 §4.3 与 "§4.3"\t{src}`a <x.py:1>`'][1] is False
    assert strings["模糊 §4.3"] == ("fuzzy §4.3", True)  # fuzzy stays fuzzy, no more, no less
    # a second run has nothing to do
    again = Plan()
    plan_catalog(again, path, lambda e: (_renumber(e.msgid.value), _renumber(e.msgstr.value)))
    assert again.edits == []


def test_apply_is_all_or_nothing(tmp_path: Path) -> None:
    first = _write(tmp_path, "a.md", "one §1.1\r\ntwo\n")
    second = _write(tmp_path, "b.md", "three §1.1\n")
    plan = Plan()
    plan.replace(first, 4, 8, "§2.1")
    plan.replace(second, 6, 10, "§2.1")
    second.write_text("changed meanwhile\n", encoding="utf-8")
    with pytest.raises(PlanError, match="file changed"):
        plan.apply()
    assert read_text(first) == "one §1.1\r\ntwo\n"  # nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.md"]  # no temporary left


def test_overlapping_edits_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "§1.1 and more")
    plan = Plan()
    plan.replace(path, 0, 4, "§2.1")
    plan.replace(path, 2, 6, "x")
    with pytest.raises(PlanError, match="overlapping"):
        plan.check()


def test_apply_keeps_line_endings_and_reports_edits(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.md", "x\r\n见 §1.1\r\n")
    plan = Plan()
    edit = plan.replace(path, 5, 9, "§1.2")
    assert plan.replace(path, 0, 1, "x") is None  # already as wanted: no edit
    assert edit is not None and edit.as_json(tmp_path) == {
        "file": "a.md", "line": 2, "old": "§1.1", "new": "§1.2"}
    plan.apply()
    assert path.read_bytes() == "x\r\n见 §1.2\r\n".encode()


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=40))
def test_escaped_strings_read_back(value: str) -> None:
    text = f'msgid "k"\nmsgstr "{escape(value)}"\n'
    [entry] = read_entries(text)
    assert entry.msgstr.value == value


CONF = '''extensions = ["seriesbook"]
seriesbook_sources = {
    "pytorch": {
        "repo": "https://github.com/pytorch/pytorch",
        "ref": "v2.11.0",
        "commit": "70d99e9",
    },
    "vllm": {"repo": "https://x", "ref": "v0.8.5", "commit": "abc"},
}
'''


def test_conf_literals_and_entries() -> None:
    start, end = literal_span(CONF, "seriesbook_sources", "pytorch", "ref") or (0, 0)
    assert CONF[start:end] == '"v2.11.0"'
    start, end = entry_span(CONF, "seriesbook_sources", "pytorch", "commit") or (0, 0)
    assert CONF[start:end] == '        "commit": "70d99e9",\n'
    start, end = entry_span(CONF, "seriesbook_sources", "vllm", "ref") or (0, 0)
    assert CONF[start:end] == '"ref": "v0.8.5", '
    assert literal_span(CONF, "seriesbook_sources", "nothing", "ref") is None
    assert literal_span("x = f()\n", "x") is None
