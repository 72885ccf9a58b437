"""The ``seriesbook renumber`` command: read, plan, report, and with ``--write`` rewrite.

Exit status: 0 nothing to change (or every change written), 1 changes needed (dry run, or
mentions left to edit by hand: a number no section has, one a renumbering left naming another
section, one not written as read), 2 usage error (a duplicate number, a file changed under the
plan, a file that cannot be written: nothing written).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.commands.kept import kept_dir, usable
from seriesbook.commands.reading import UsageError, read_pages
from seriesbook.commands.renumber import history_data, pending_to_record, renumber
from seriesbook.commands.rewrite import PlanError, apply_checked
from seriesbook.renumbered import history_path

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from seriesbook.commands.renumber import Report

EXIT_CLEAN, EXIT_CHANGES = 0, 1


def record_renumbering(
    app: Sphinx, report: Report, pending: list[dict[str, Any]] | None = None
) -> dict[Path, str]:
    """The history file with this renumbering appended (written with the book's edits).

    Every other key and entry of the file is kept as it is (another tool's, or a later
    seriesbook's); *pending* are the mentions that now name another section (see
    :mod:`seriesbook.renumbered.pending`), kept in the entry until the author edits them.
    """
    if not report.map and not report.chapters and not pending:
        return {}
    data = history_data(app)
    entry: dict[str, Any] = {
        "release": app.config.release or None,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "map": report.map,
    }
    if report.chapters:
        entry["chapters"] = report.chapters
    if pending:
        entry["pending"] = pending
    data["renumberings"] = [*data.get("renumberings", []), entry]
    text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return {history_path(app): text}


def run_renumber(
    srcdir: Path, confdir: Path, *, write: bool = False, fmt: str = "text", fresh: bool = False
) -> int:
    root = confdir if srcdir.is_relative_to(confdir) else srcdir
    # the read doctrees suffice; kept between runs, so a run after an edit re-reads that page
    kept = None if fresh else usable(kept_dir(confdir, "renumber"))
    with read_pages(srcdir, confdir, kept=kept) as run:
        report, plan, catalogs = renumber(run.app, root)
        if write and (report.edits or report.map):
            try:
                pending = pending_to_record(run.app, report, plan.new_texts())
                history = record_renumbering(run.app, report, pending)  # with the book's edits
                report.written = apply_checked(plan, catalogs, history)
            except PlanError as error:
                raise UsageError(f"nothing written: {error}") from None
    if fmt == "json":
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        print(report.as_text())
    # mentions left to edit by hand are changes still needed, written or not
    needed = (report.edits and not report.written) or report.needs_hand()
    return EXIT_CHANGES if needed else EXIT_CLEAN
