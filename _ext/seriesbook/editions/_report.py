"""What a translated edition still needs, per chapter and per § section: the translator's plan.

Built from what the build read (each page's messages and the § each sits in, noted before
translation by :class:`~seriesbook.editions._coverage.NoteMessages`; section titles from the
``sec`` domain) and the edition's catalogs, with :func:`~._coverage.message_state`'s rules, so
``seriesbook translations``, the status page and ``seriesbook stats`` count alike.

For every fuzzy message (``stale``) the report shows the source text its translation was made
from (the catalog's ``#|`` previous msgid), the new one, the change marked ``[-old-]{+new+}``
(character by character in Chinese, word by word in English) and the current translation.
``todo_chars`` counts the characters of the source text of the messages not translated yet or
fuzzy. Shape (JSON)::

    {"language", "translated", "fuzzy", "untranslated", "todo_chars",
     "chapters": [{"docname", "title", "file", "translated", "fuzzy", "untranslated",
                   "todo_chars", "percent",
                   "sections": [{"number", "title", "translated", "fuzzy", "untranslated",
                                 "todo_chars"}],
                   "stale": [{"file", "line", "section", "old", "new", "translation", "diff"}]}]}

A section's ``number`` is null for the messages before a page's first § heading (its title
is the page's).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.core.percent import floor_percent, percent_text
from seriesbook.editions._catalogs import catalog_path
from seriesbook.editions._coverage import (
    FUZZY,
    TRANSLATED,
    UNTRANSLATED,
    message_sections,
    string_state,
)
from seriesbook.editions._facts import NO_ENTRY, CatalogFacts, catalog_facts

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.environment import BuildEnvironment

# one token per Han character (or other non-word character), one per run of word characters
_TOKEN = re.compile(r"[A-Za-z0-9_]+|\s+|.", re.DOTALL)


def marked_change(old: str, new: str) -> str:
    """*new* with what changed from *old* marked ``[-removed-]{+added+}`` (``wdiff`` style)."""
    before, after = _TOKEN.findall(old), _TOKEN.findall(new)
    parts: list[str] = []
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for operation, i1, i2, j1, j2 in matcher.get_opcodes():
        if operation == "equal":
            parts.append("".join(after[j1:j2]))
            continue
        if i2 > i1:
            parts.append(f"[-{''.join(before[i1:i2])}-]")
        if j2 > j1:
            parts.append(f"{{+{''.join(after[j1:j2])}+}}")
    return "".join(parts)


def report_pages(env: BuildEnvironment) -> list[str]:
    """The pages of the report: the root page, the chapters in toctree order, then the rest."""
    from seriesbook.stats.report import chapter_docnames

    root = env.config.root_doc
    ordered = [root, *chapter_docnames(env)]
    ordered += sorted(set(env.all_docs) - set(ordered))
    noted = message_sections(env)
    return [docname for docname in dict.fromkeys(ordered) if noted.get(docname)]


#: Of the translated messages, those a machine converted and no person has reviewed yet
#: (``seriesbook convert``): counted apart, and still counted as translated.
CONVERTED = "machine_converted"


def _counts() -> dict[str, int]:
    return {TRANSLATED: 0, CONVERTED: 0, FUZZY: 0, UNTRANSLATED: 0, "todo_chars": 0}


def _summed(parts: Iterable[dict[str, Any]]) -> dict[str, int]:
    """The counts of *parts* added up (a page's of its sections, the edition's of its pages)."""
    parts = list(parts)
    return {key: sum(part[key] for part in parts) for key in _counts()}


def _section_titles(env: BuildEnvironment, docname: str) -> dict[str, str]:
    domain = env.domains.get("sec")
    records = getattr(domain, "sections", {}).get(docname, ()) if domain is not None else ()
    return {record.number: record.title for record in records}


def _page_title(env: BuildEnvironment, docname: str) -> str:
    title = env.titles.get(docname)
    return title.astext() if title is not None else docname


def page_report(env: BuildEnvironment, language: str, docname: str) -> dict[str, Any]:
    """One page's counts, per § section, and its stale (fuzzy) messages."""
    path = catalog_path(env, language, docname)
    catalog: CatalogFacts | None = None
    if path is not None and (facts := catalog_facts(env.config, path, language)).usable:
        catalog = facts
    title = _page_title(env, docname)
    titles = _section_titles(env, docname)
    sections: dict[str | None, dict[str, Any]] = {}
    stale: list[dict[str, Any]] = []
    # the entries' tuples read directly (no entry made per message; a page has hundreds), each
    # message counted once, in its section: the page's counts are its sections' added up
    entries = catalog.entries if catalog is not None else {}
    for msgid, number in message_sections(env).get(docname, {}).items():
        string, fuzzy, _line, converted = entries.get(msgid, NO_ENTRY)
        state = string_state(string, fuzzy)  # message_state(msgid, catalog)
        counts = sections.get(number)
        if counts is None:
            section_title = title if number is None else titles.get(number, f"§{number}")
            counts = sections[number] = {"number": number, "title": section_title, **_counts()}
        counts[state] += 1
        if state != TRANSLATED:
            counts["todo_chars"] += len(msgid)
        elif converted:
            counts[CONVERTED] += 1
        if state == FUZZY and catalog is not None:
            stale.append(_stale(catalog, path, msgid, number))
    page = _summed(sections.values())
    total = page[TRANSLATED] + page[FUZZY] + page[UNTRANSLATED]
    return {
        "docname": docname,
        "title": title,
        "file": str(path) if path is not None else None,
        **page,
        "percent": floor_percent(page[TRANSLATED], total),
        "sections": list(sections.values()),
        "stale": stale,
    }


def _stale(
    catalog: CatalogFacts, path: Path | None, msgid: str, number: str | None
) -> dict[str, Any]:
    message = catalog.get(msgid)
    old = catalog.previous.get(msgid)
    return {
        "file": str(path) if path is not None else None,
        "line": message.lineno if message is not None else None,
        "section": number,
        "old": old,
        "new": msgid,
        "translation": str((message.string if message is not None else "") or ""),
        "diff": marked_change(old, msgid) if old is not None else None,
    }


def unusable_catalog(env: BuildEnvironment, language: str) -> str | None:
    """``FILE:LINE: why`` of the first catalog of the report's pages that cannot be read (its
    counts would be wrong), or None."""
    for docname in report_pages(env):
        path = catalog_path(env, language, docname)
        if path is None:
            continue
        facts = catalog_facts(env.config, path, language)
        if not facts.usable and facts.problems:
            problem = facts.problems[0]
            return f"{problem.path}:{problem.line or 1}: {problem.message}"
    return None


def translation_report(env: BuildEnvironment, language: str) -> dict[str, Any]:
    """The whole report for the *language* edition (see the module's docstring for the shape)."""
    chapters = [page_report(env, language, docname) for docname in report_pages(env)]
    totals = _summed(chapters)
    return {"language": language, **totals, "chapters": chapters}


def fuzzy_entries(env: BuildEnvironment, languages: list[str]) -> list[dict[str, Any]]:
    """Every fuzzy message the pages use, in each of *languages*: ``seriesbook check --format
    json``'s ``fuzzy`` (the stale entries, with ``language`` and ``docname``)."""
    return [
        {"language": language, "docname": chapter["docname"], **entry}
        for language in languages
        for chapter in translation_report(env, language)["chapters"]
        for entry in chapter["stale"]
    ]


def report_text(report: dict[str, Any]) -> str:
    """The report as text: a line per chapter and § section, then each stale message."""
    total = report[TRANSLATED] + report[FUZZY] + report[UNTRANSLATED]
    percent = percent_text(floor_percent(report[TRANSLATED], total))
    lines = [f"{report['language']}: {percent}% translated: {_figures(report)}"]
    for chapter in report["chapters"]:
        lines.append("")
        lines.append(f"{chapter['title']} ({chapter['docname']}): {_figures(chapter)}")
        for section in chapter["sections"]:
            label = f"§{section['number']} {section['title']}" if section["number"] else "(intro)"
            if section["number"] and section["title"].startswith(f"§{section['number']}"):
                label = section["title"]
            lines.append(f"  {label}: {_figures(section)}")
        for entry in chapter["stale"]:
            where = f"{entry['file']}:{entry['line']}"
            section = f" (§{entry['section']})" if entry["section"] else ""
            lines.append(f"  fuzzy {where}{section}")
            lines.append(f"    change:      {entry['diff'] or entry['new']}")
            lines.append(f"    translation: {entry['translation']}")
    return "\n".join(lines)


def _figures(counts: dict[str, Any]) -> str:
    converted = counts.get(CONVERTED, 0)
    reviewed = f" ({converted} machine-converted, not reviewed)" if converted else ""
    return (
        f"{counts[TRANSLATED]} translated{reviewed}, {counts[FUZZY]} fuzzy, "
        f"{counts[UNTRANSLATED]} untranslated, {counts['todo_chars']:,} characters to do"
    )
