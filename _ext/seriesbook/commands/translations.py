"""``seriesbook translations`` and ``seriesbook update-po``: the translator's two commands.

``translations`` reads the book as the build does (:func:`.reading.read_pages`, kept in
``_build/translations/``) and reports what an edition still needs
(:func:`seriesbook.editions.translation_report`); ``update-po`` updates the catalogs from
``make gettext``'s templates (:mod:`.update_po`), without
reading the book. Exit status 0 for a report or an update, 2 (:class:`UsageError`) on unusable
input: an unknown edition, a catalog or template that cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path

from seriesbook.commands.kept import kept_dir, usable
from seriesbook.commands.reading import read_pages
from seriesbook.commands.stops import UsageError
from seriesbook.commands.update_po import check_similarity, plan_language, write_updates
from seriesbook.core.config import book_editions
from seriesbook.editions import report_text, translation_report, unusable_catalog


def run_translations(srcdir: Path, confdir: Path, *, language: str | None, fmt: str) -> int:
    # the reading is kept between runs (_build/translations); the catalogs are read afresh
    with read_pages(srcdir, confdir, kept=usable(kept_dir(confdir, "translations"))) as run:
        edition = translated_language(book_editions(run.app.config), language)
        if (problem := unusable_catalog(run.app.env, edition)) is not None:
            raise UsageError(problem)
        report = translation_report(run.app.env, edition)
    if fmt == "json":
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(report_text(report))
    return 0


def translated_language(editions: list[str], wanted: str | None) -> str:
    """The edition a translator asks for: *wanted*, or the book's only translated edition."""
    translated = editions[1:]
    if wanted is not None:
        if wanted not in translated:
            known = ", ".join(translated) or "none"
            raise UsageError(
                f"{wanted!r} is not a translated edition (seriesbook_editions: {known})"
            )
        return wanted
    if not translated:
        raise UsageError("the book has no translated edition (seriesbook_editions)")
    if len(translated) > 1:
        raise UsageError(f"name the edition with --language ({', '.join(translated)})")
    return translated[0]


def run_update_po(
    pot_dir: Path, locale_dir: Path, languages: list[str] | None, similarity: float
) -> int:
    if not pot_dir.is_dir():
        raise UsageError(f"no templates in {pot_dir}: run `make gettext` first")
    languages = languages or sorted(
        path.name for path in locale_dir.glob("*") if (path / "LC_MESSAGES").is_dir()
    )
    if not languages:
        raise UsageError(f"no language directory in {locale_dir}: name one with -l LANGUAGE")
    check_similarity(similarity)
    # every catalog of every language is read (and may stop the update) before any is written
    updates = [
        update
        for language in languages
        for update in plan_language(pot_dir, locale_dir, language, similarity)
    ]
    write_updates(updates)
    for update in updates:
        print(update.summary(_shown(update.path)))
    return 0


def _shown(path: Path) -> Path:
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path
