"""Hostile options, start-up warnings, exit codes and editions (issue 10, items 3, 4, 5, 7).

Each case is the smallest book of :mod:`hostile` with a few changes; for each: no traceback
anywhere, the expected problem codes at file:line (or exit 2 with one line naming the file or
option), and ``seriesbook check`` agreeing with the ``-W`` build of every edition.
"""

from __future__ import annotations

from pathlib import Path

from hostile import run_book


def test_smallest_book_is_clean(tmp_path: Path) -> None:
    outcome = run_book(tmp_path)
    assert outcome.tracebacks == []
    assert outcome.check_status == 0
    assert outcome.problems == []
    assert set(outcome.builds) == {"zh_CN", "en"}
    assert all(build.ok and not build.warnings for build in outcome.builds.values())
    assert outcome.agreement() == ""
