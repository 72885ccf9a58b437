"""The ``seriesbook renumber`` command: read, plan, report, and with ``--write`` rewrite.

Exit status: 0 nothing to change (or every change written), 1 changes needed (dry run, or
mentions left to edit by hand: a number no section has, one a renumbering left naming another
section, one not written as read), 2 usage error (a duplicate number, a file changed under the
plan, a file that cannot be written: nothing written).
"""

from __future__ import annotations

import json
from pathlib import Path

from seriesbook.kept import kept_dir, usable
from seriesbook.reading import UsageError, read_pages
from seriesbook.renumber import pending_to_record, renumber
from seriesbook.renumber.history import record_renumbering
from seriesbook.rewrite import PlanError, apply_checked

EXIT_CLEAN, EXIT_CHANGES = 0, 1


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
