"""A plain Markdown link to a § anchor (``[text](#sec-2-1)``) builds under ``-W`` (issue 24).

MyST resolves such a link by asking every domain (``resolve_any_xref``) and warns
``myst.domains`` about one that does not answer: the citations domain, which names nothing a
link can point at, must answer "nothing" rather than fail every ``-W`` build.
"""

from __future__ import annotations

from pathlib import Path

from hostile import BOOK, run_book


def test_a_markdown_link_to_a_section_anchor_builds_clean(tmp_path: Path) -> None:
    page = BOOK["ch02.md"] + "\n见 [键集](#sec-2-1) 与 [存储](#sec-1-1)。\n"
    outcome = run_book(tmp_path, {"ch02.md": page})
    assert outcome.tracebacks == []
    assert outcome.check_status == 0 and outcome.problems == []
    for language, build in outcome.builds.items():
        assert build.status == 0 and build.warnings == [], (language, build.stderr)
