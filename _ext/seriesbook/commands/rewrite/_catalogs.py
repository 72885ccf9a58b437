"""Rewrite catalog entries: a message's ``msgid`` and its ``msgstr`` in the same plan.

A message whose msgid changes only where its translation changes the same way stays a valid
translation: Sphinx finds it by the new msgid, nothing turns fuzzy, and the file's other bytes
stay as they were (see :mod:`seriesbook.commands.rewrite._po`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.pofile import read_po

from seriesbook.commands.rewrite._plan import Plan, PlanError
from seriesbook.commands.rewrite._po import PoEntry, read_entries

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from seriesbook.commands.rewrite._write import Transaction

#: ``(start, end, new)``: replace ``value[start:end]`` of a message string by ``new``.
Span = tuple[int, int, str]
#: Given an entry, the spans to change in its msgid and in its msgstr.
EntryRewrite = Callable[[PoEntry], tuple[list[Span], list[Span]]]


def catalog_files(app: Sphinx) -> list[Path]:
    """Every ``.po`` file under the book's ``locale_dirs``, sorted."""
    found: set[Path] = set()
    for directory in app.config.locale_dirs:
        root = (Path(app.srcdir) / directory).resolve()
        if root.is_dir():
            found.update(root.rglob("*.po"))
    return sorted(found)


def catalog_entries(plan: Plan, path: Path) -> list[PoEntry]:
    """The entries of the catalog *path* as *plan* has its text; a catalog that cannot be read
    or parsed stops the command naming it (renumbering around it would leave it out of step)."""
    try:
        return read_entries(plan.text(path))
    except PlanError as error:
        message = str(error)
        if not message.startswith(str(path)):
            message = f"{path}: {message}"
        raise PlanError(message) from None


def _rewritten(value: str, spans: list[Span]) -> str:
    pieces, position = [], 0
    for start, end, new in sorted(spans):
        pieces += [value[position:start], new]
        position = end
    return "".join(pieces) + value[position:]


def plan_catalog(plan: Plan, path: Path, rewrite: EntryRewrite) -> list[tuple[PoEntry, str, str]]:
    """Plan *rewrite* on every live entry of the catalog *path*; return ``(entry, msgid, msgstr)``
    for each entry changed, with its new strings.

    An entry without a translation (empty msgstr) changes only its msgid.
    """
    changed: list[tuple[PoEntry, str, str]] = []
    for entry in catalog_entries(plan, path):
        id_spans, str_spans = rewrite(entry)
        if not id_spans and not str_spans:
            continue
        for string, spans in ((entry.msgid, id_spans), (entry.msgstr, str_spans)):
            for start, end, new in spans:
                string.replace(plan, path, start, end, new)
        changed.append((entry, _rewritten(entry.msgid.value, id_spans),
                        _rewritten(entry.msgstr.value, str_spans)))
    return changed


def apply_checked(
    plan: Plan,
    catalogs: dict[Path, list[tuple[PoEntry, str, str]]],
    whole: dict[Path, str] | None = None,
    then: Callable[[Transaction], None] | None = None,
) -> list[Path]:
    """Read every rewritten catalog back with Babel (:func:`verify_catalog`), then write all the
    plan's files (and *whole*, and what *then* writes) in one all-or-nothing step; return the
    files written."""
    texts = plan.new_texts()
    for path, changed in catalogs.items():
        if changed and path in texts:
            try:
                verify_catalog(texts[path], changed)
            except PlanError as error:
                raise PlanError(f"{path}: {error}") from None
    return plan.apply(whole, texts, then)  # exactly what was verified


def verify_catalog(text: str, expected: list[tuple[PoEntry, str, str]]) -> None:
    """Read the new *text* with Babel: every changed entry has its new msgid and msgstr and the
    fuzzy flag it had."""
    catalog = read_po(io.StringIO(text), abort_invalid=True)
    for entry, msgid, msgstr in expected:
        message = catalog.get(msgid, context=entry.msgctxt)
        if message is None or message.string != msgstr or message.fuzzy != entry.fuzzy:
            raise PlanError(f"line {entry.line}: the rewritten entry {msgid!r} does not read back")
