"""``seriesbook convert zh_TW``: the converted edition's catalogs, filled and refreshed.

First what ``update-po`` does for the language (:func:`.update_po.plan_language`: new
messages, fuzzy ones with ``#|``, obsolete ones kept), then every message no person has
translated is converted (:mod:`seriesbook.convert`), all in memory; the catalogs are written
in one all-or-nothing step. Printed: one line per catalog (converted, hand edits kept; with
``--verbose`` each message converted, at its line), what the glossary changed (each term and
how often), and each false friend left in a converted message as
``file:line: convert-false-friend: …``. Exit status 0, 1 when a false friend was
reported, 2 on unusable input (no templates, a broken catalog or glossary).
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

from babel.messages.catalog import Catalog

from seriesbook.commands.reported import Reported
from seriesbook.commands.stops import UsageError
from seriesbook.commands.translations import _shown
from seriesbook.commands.update_po import CatalogUpdate, plan_language, write_updates
from seriesbook.convert import (
    CONVERTED_LANGUAGES,
    Glossary,
    GlossaryError,
    convert_catalog,
    glossary_path,
    read_glossary,
)
from seriesbook.core.problems import Problem
from seriesbook.editions import PreviousParser, write_catalog


def _parse(text: bytes) -> Catalog:
    catalog = Catalog()
    PreviousParser(catalog).parse(io.StringIO(text.decode("utf-8")))
    return catalog


def _line_numbers(text: bytes) -> dict[str, int]:
    """Each msgid's line in the written catalog (its ``msgid`` line, 1-based)."""
    return {
        str(message.id): message.lineno
        for message in _parse(text)
        if isinstance(message.id, str) and message.id and message.lineno
    }


def _load_glossary(path: Path) -> tuple[Glossary, str | None]:
    try:
        glossary = read_glossary(path)
    except GlossaryError as error:
        raise UsageError(str(error)) from None
    if glossary is None:
        return Glossary(), f"no glossary at {path}: OpenCC's words alone"
    return glossary, None


def run_convert(
    language: str,
    pot_dir: Path,
    locale_dir: Path,
    glossary_file: Path | None = None,
    verbose: bool = False,
) -> int:
    if language not in CONVERTED_LANGUAGES:
        known = ", ".join(sorted(CONVERTED_LANGUAGES))
        raise UsageError(f"{language!r} is not made by conversion (the languages are: {known})")
    if not pot_dir.is_dir():
        raise UsageError(f"no templates in {pot_dir}: run `make gettext` first")
    glossary, note = _load_glossary(glossary_file or glossary_path(locale_dir, language))
    updates = plan_language(pot_dir, locale_dir, language)
    total: Counter[tuple[str, str]] = Counter()
    lines: list[str] = []
    problems: list[Reported] = []
    for update in updates:
        catalog = _parse(update.text)
        copied = {reused.msgid for reused in update.reused if reused.similarity == 1.0}
        done = convert_catalog(catalog, glossary, copied)
        text = write_catalog(catalog)
        if text != update.text:
            update.text, update.changed = text, True
        total.update(done.glossary)
        shown = _shown(update.path)
        lines.append(_summary(update, shown, len(done.converted), len(done.hand_edited)))
        numbers = _line_numbers(text) if done.false_friends or verbose else {}
        if verbose:
            lines.extend(
                f"{shown}:{numbers.get(msgid, '?')}: converted: {_excerpt(msgid)}"
                for msgid in done.converted
            )
        if done.false_friends:
            for msgid, term, output in done.false_friends:
                problems.append(
                    Reported(
                        str(shown),
                        numbers.get(msgid),
                        Problem.CONVERT_FALSE_FRIEND.code,
                        f"{term} → {output} (OpenCC's word; decide it in the glossary's "
                        f"[before] or [after])",
                    )
                )
    write_updates(updates)
    if note:
        print(note)
    for line in lines:
        print(line)
    for (term, word), count in sorted(total.items(), key=lambda item: (-item[1], item[0])):
        print(f"glossary: {term} → {word} ×{count}")
    for problem in problems:
        print(problem.as_text())
    return 1 if problems else 0


def _excerpt(text: str, width: int = 40) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _summary(update: CatalogUpdate, shown: Path, converted: int, hand_edited: int) -> str:
    head = update.summary(shown)
    notes = [f"{converted} converted"] if converted else []
    if hand_edited:
        notes.append(f"{hand_edited} edited by hand, kept as reviewed")
    return head + (f"; {', '.join(notes)}" if notes else "")
