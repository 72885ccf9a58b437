"""The translation report, made cheaply (``seriesbook.editions._report``): a page's counts read
the catalog's entries directly and add up its sections, as counting each message with
:func:`~seriesbook.editions._coverage.message_state` does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.editions import _report
from seriesbook.editions._coverage import SECTIONS_ATTR, TRANSLATED, message_state
from seriesbook.editions._facts import CatalogFacts

KEYS = ("translated", "machine_converted", "fuzzy", "untranslated", "todo_chars")

# an entry as CatalogFacts keeps it: (msgstr, fuzzy, line, machine-converted); None: no entry
_ENTRIES = st.none() | st.tuples(
    st.sampled_from(["", "done", ("", ""), ("one", "many")]), st.booleans(), st.just(1),
    st.booleans(),
)
_MESSAGES = st.lists(
    st.tuples(st.text(min_size=1, max_size=6), st.sampled_from([None, "1.1", "1.2", "2.1"]),
              _ENTRIES),
    unique_by=lambda message: message[0], max_size=30,
)


def _straight(
    messages: dict[str, str | None], facts: CatalogFacts | None
) -> tuple[Counter[str], dict[str | None, Counter[str]]]:
    """Each message counted on its own, in the page and in its section."""
    page: Counter[str] = Counter()
    sections: dict[str | None, Counter[str]] = {}
    for msgid, number in messages.items():
        state = message_state(msgid, facts)
        entry = facts.get(msgid) if facts is not None else None
        converted = state == TRANSLATED and entry is not None and entry.converted
        for counts in (page, sections.setdefault(number, Counter())):
            counts[state] += 1
            counts["machine_converted"] += converted
            counts["todo_chars"] += len(msgid) if state != TRANSLATED else 0
    return page, sections


@settings(max_examples=300, deadline=None)
@given(_MESSAGES, st.sampled_from(["usable", "unusable", "none"]))
def test_page_report_counts_as_each_message_counted_alone(
    messages: list[tuple[str, str | None, Any]], catalog: str
) -> None:
    page = {msgid: number for msgid, number, _entry in messages}
    entries = {msgid: entry for msgid, _number, entry in messages if entry is not None}
    facts = CatalogFacts((), catalog == "usable", entries, (), frozenset(), False, (), {}, "")
    env = SimpleNamespace(config=None, titles={}, domains={}, **{SECTIONS_ATTR: {"p": page}})
    path = None if catalog == "none" else Path("p.po")
    with (patch.object(_report, "catalog_path", lambda *_: path),
          patch.object(_report, "catalog_facts", lambda *_: facts)):
        report = _report.page_report(env, "en", "p")  # type: ignore[arg-type]
    counted, sections = _straight(page, facts if catalog == "usable" else None)
    assert {key: report[key] for key in KEYS} == {key: counted[key] for key in KEYS}
    assert [section["number"] for section in report["sections"]] == list(sections)
    for section in report["sections"]:
        assert {key: section[key] for key in KEYS} == {
            key: sections[section["number"]][key] for key in KEYS}
    fuzzy = [msgid for msgid in page
             if catalog == "usable" and message_state(msgid, facts) == "fuzzy"]
    assert [stale["new"] for stale in report["stale"]] == fuzzy
