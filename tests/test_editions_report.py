"""The translation report and the status page's links, made cheaply (``seriesbook.editions``'
``_report`` and ``_status``): a page's counts read the catalog's entries directly and add up its
sections, as counting each message with :func:`~seriesbook.editions._coverage.message_state`
does; the notices' links, found by a walk of the blocks only, are every link a walk of every
node finds (one page, or every page assembled into one)."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

from docutils import nodes
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.editions import _report
from seriesbook.editions._coverage import (
    SECTIONS_ATTR,
    TRANSLATED,
    Coverage,
    count_messages,
    message_state,
)
from seriesbook.editions._facts import CatalogFacts
from seriesbook.editions._status import STATUS_LINK, status_references
from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-translations-book"
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


@given(_MESSAGES)
def test_a_pages_coverage_from_the_facts_entries_is_each_message_counted_alone(
    messages: list[tuple[str, str | None, Any]]
) -> None:
    entries = {msgid: entry for msgid, _number, entry in messages if entry is not None}
    facts = CatalogFacts((), True, entries, (), frozenset(), False, (), {}, "")
    page = [msgid for msgid, _number, _entry in messages] + ["not in the catalog"]
    states = Counter(message_state(msgid, facts) for msgid in page)
    assert count_messages(page, facts) == Coverage.of(
        len(page), states[TRANSLATED], states["fuzzy"])


def _every_link(doctree: nodes.Element) -> list[nodes.reference]:
    return [node for node in doctree.findall(nodes.reference) if node.get(STATUS_LINK)]


def test_status_links_found_without_walking_the_text(tmp_path: Path) -> None:
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    for page in ("ch01", "ch02"):  # a message untranslated: each page has its notice
        catalog = book / "locale" / "en" / "LC_MESSAGES" / f"{page}.po"
        text = catalog.read_text(encoding="utf-8")
        catalog.write_text(re.sub(r'msgstr "[^"]+"', 'msgstr ""', text, count=1),
                           encoding="utf-8")
    for builder in ("html", "singlehtml"):
        app = SphinxTestApp(builder, srcdir=book, builddir=book / "_build" / builder,
                            confoverrides={"language": "en"}, status=StringIO(),
                            warning=StringIO())
        try:
            app.build()
            trees = [app.env.get_doctree(docname) for docname in sorted(app.env.all_docs)]
            if builder == "singlehtml":
                trees.append(app.builder.assemble_doctree())  # type: ignore[attr-defined]
            for tree in trees:
                assert {id(node) for node in status_references(tree)} == {
                    id(node) for node in _every_link(tree)}
            assert sum(len(status_references(tree)) for tree in trees) == (
                2 if builder == "html" else 4)  # ch01's and ch02's (and both assembled)
            out = Path(app.outdir) / ("ch01.html" if builder == "html" else "index.html")
            html = out.read_text(encoding="utf-8")
            assert html.count('href="translation-status.html">Translation status</a>') == (
                1 if builder == "html" else 2)
        finally:
            app.cleanup()
