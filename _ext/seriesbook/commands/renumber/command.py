"""The ``seriesbook renumber`` command: read, plan, report, and with ``--write`` rewrite.

Exit status: 0 nothing to change (or every change written), 1 changes needed (dry run, or
mentions left to edit by hand), 2 usage error (a duplicate number, a file changed under the plan).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import TYPE_CHECKING

from seriesbook.commands.kept import kept_dir, usable
from seriesbook.commands.reading import UsageError, read_pages
from seriesbook.commands.renumber import renumber
from seriesbook.commands.rewrite import PlanError, apply_checked
from seriesbook.renumbered import history_path, load_history

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from seriesbook.commands.renumber import Report

EXIT_CLEAN, EXIT_CHANGES = 0, 1


def record_renumbering(app: Sphinx, report: Report) -> dict[Path, str]:
    """The history file with this renumbering appended (written with the book's edits), keyed
    by the release and the date; sibling volumes read it where the build publishes it."""
    if not report.map:
        return {}
    path = history_path(app)
    try:
        entries = load_history(path.read_text(encoding="utf-8")) if path.is_file() else []
    except ValueError as error:  # not JSON, or not UTF-8: the author's file, not ours to replace
        raise PlanError(f"{path.name} cannot be read ({error}); fix or remove it") from None
    entries.append({
        "release": app.config.release or None,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "map": report.map,
    })
    text = json.dumps({"renumberings": entries}, ensure_ascii=False, indent=2) + "\n"
    return {path: text}


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
                history = record_renumbering(run.app, report)  # written with the book's edits
                report.written = apply_checked(plan, catalogs, history)
            except PlanError as error:
                raise UsageError(f"nothing written: {error}") from None
    if fmt == "json":
        print(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
    else:
        print(report.as_text())
    # mentions left to edit by hand are changes still needed, written or not
    needed = (report.edits and not report.written) or report.unlocated
    return EXIT_CHANGES if needed else EXIT_CLEAN
