"""Rewrite spans of the author's files — Markdown sources, ``.po`` catalogs, ``conf.py`` — safely.

Used by ``seriesbook renumber`` (§ numbers) and ``seriesbook repin`` (citations). The rules:
plan every edit first; touch only the spans meant (every other byte stays as it was); keep a
message's ``msgid`` and ``msgstr`` in step so no translation turns fuzzy; write every file
atomically, all or nothing; a second run finds nothing to do.

API
---

Edits and plans (:mod:`._plan`)
    ``plan = Plan()``; ``plan.text(path)`` reads a file once (UTF-8, line endings kept);
    ``plan.replace(path, start, end, new) -> Edit | None`` plans replacing the characters
    ``[start, end)`` (None when they already read *new*). ``plan.sorted_edits()`` are
    :class:`Edit` records ``(path, start, end, old, new, line)`` with ``as_json(root)`` →
    ``{"file", "line", "old", "new"}`` and ``as_text(root)``. ``plan.check()`` raises
    :class:`PlanError` if a file changed under an edit or two edits overlap;
    ``plan.new_texts()`` builds the new texts in memory; ``plan.apply(whole, new, then)``
    writes them all in one step (:mod:`._write`: symbolic links followed, temporary files
    beside the targets, each target read again just before it is replaced, everything put back
    if a move fails, ``OSError`` → one-line :class:`PlanError`); *then(transaction)* runs with
    the files in place and may ``transaction.write(...)`` more (a lock computed from the
    rewritten book), undone with the rest if it fails. Helpers: ``read_text``,
    ``line_of(text, offset)``, ``line_start(text, line)``, ``line_end(text, start)`` (lines
    end at ``\\r\\n``, ``\\r``, ``\\n``, as markdown-it ends them:
    :data:`seriesbook.core.lines.LINE_END`), ``target(path)`` (links followed).

Markdown: spans of what the build read (:mod:`._inline`)
    Docutils nodes carry lines, not offsets. ``text_blocks(doctree)`` yields the blocks whose
    inline content the build links (paragraphs, list text, captions; not titles, code,
    diagrams). ``locate_inline(block, text, start)`` aligns the block's leaves with the text
    from ``start`` (``line_start(text, block.line)`` for a ``.md``; 0 for the block's msgid)
    and returns :class:`Located` ``(node, start, end)``: ``nodes.Text`` pieces, inline
    literals (``node.astext()`` located inside its backticks), link texts, the build's §
    mention ``pending_xref`` nodes, and roles by their written form ``{name}`content```
    (``is_role``, ``role_name``, ``role_content``); a leaf not found is left out, so compare
    with what you needed and report the rest. ``find_written(text, wanted, start, stop)``: the
    span where text as read is written, backslash escapes allowed. Use the doctree of the
    *source* edition (``run.app.env.get_doctree(docname)`` after
    :func:`seriesbook.commands.reading.read_book`).

Catalogs (:mod:`._po`, :mod:`._catalogs`)
    ``catalog_files(app)``: every ``.po`` under ``locale_dirs``. ``read_entries(text)``:
    :class:`PoEntry` ``(msgid, msgstr, fuzzy, msgctxt)`` located in the file, checked against
    Babel's reading; each :class:`PoString` has the decoded ``value`` and
    ``replace(plan, path, start, end, new)`` to plan an edit of ``value[start:end]`` (escapes
    and continuation lines handled). ``plan_catalog(plan, path, rewrite)`` runs
    ``rewrite(entry) -> (msgid_spans, msgstr_spans)`` (``(start, end, new)`` on the decoded
    values) over every entry and plans both strings together; ``verify_catalog(new_text,
    changed)`` reads the new text back with Babel (same fuzzy flags, the new strings).
    ``catalog_entries(plan, path)`` reads a catalog's entries once it is known to parse (else
    :class:`PlanError` naming it). Sphinx's ``extract_messages(doctree)`` ties a message to the
    block it came from (and so to its spans in the ``.md``).

``conf.py`` (:mod:`._conf`)
    ``literal_span(text, "seriesbook_sources", "pytorch", "ref")`` → the span of that string
    literal (quotes included) or None when it is not a plain literal (then print the edit for
    the author). ``entry_span(text, variable, *keys)`` → the span of a dict entry with its
    comma (whole lines when alone on them), for deleting it.
"""

from __future__ import annotations

from seriesbook.commands.rewrite._catalogs import (
    EntryRewrite,
    Span,
    apply_checked,
    catalog_entries,
    catalog_files,
    plan_catalog,
    verify_catalog,
)
from seriesbook.commands.rewrite._conf import entry_span, literal_span, python_lines
from seriesbook.commands.rewrite._inline import (
    Located,
    find_written,
    is_role,
    locate_inline,
    role_content,
    role_name,
    text_blocks,
)
from seriesbook.commands.rewrite._plan import (
    Edit,
    Plan,
    PlanError,
    line_end,
    line_of,
    line_start,
    read_text,
    shown,
)
from seriesbook.commands.rewrite._po import PoEntry, PoString, escape, read_entries
from seriesbook.commands.rewrite._write import Transaction, target, write_all

__all__ = [
    "Edit",
    "EntryRewrite",
    "Located",
    "Plan",
    "PlanError",
    "PoEntry",
    "PoString",
    "Span",
    "Transaction",
    "apply_checked",
    "catalog_entries",
    "catalog_files",
    "entry_span",
    "escape",
    "find_written",
    "is_role",
    "line_end",
    "line_of",
    "line_start",
    "literal_span",
    "locate_inline",
    "plan_catalog",
    "python_lines",
    "read_entries",
    "read_text",
    "role_content",
    "role_name",
    "shown",
    "target",
    "text_blocks",
    "verify_catalog",
    "write_all",
]
