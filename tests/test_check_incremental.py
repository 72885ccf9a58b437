"""``seriesbook check`` keeps its environment in _build/check/ and answers as a fresh check does.

One copy of the book is checked after every edit with its kept environment, another copy, with
the same edits, afresh; the answers must be equal line for line, and the kept check must re-read
only what the edit changed. The book has problems of every phase: found while reading
(a missing cited file, verified right after reading), while resolving (an unresolved §), and in
the consistency checks (§ order, chapter gates).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from seriesbook import kept
from seriesbook.cli import main
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

Edit = Callable[[Path], None]


def _replace(name: str, old: str, new: str) -> Edit:
    def edit(book: Path) -> None:
        path = book / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _append(name: str, text: str) -> Edit:
    def edit(book: Path) -> None:
        with (book / name).open("a", encoding="utf-8") as file:
            file.write(text)

    return edit


def _remove(name: str) -> Edit:
    def edit(book: Path) -> None:
        (book / name).unlink()

    return edit


# (edit, the documents a kept check must re-read; None: a fresh environment, all of them)
STEPS: list[tuple[list[Edit], set[str] | None]] = [
    ([], set()),
    ([_append("ch01.md", "\n新的一段引用 `pkg/gone.py:1`。\n")], {"ch01"}),
    # ch01 and ch03 keep their reading problems although only ch02 is re-read
    ([_append("ch02.md", "\n又一段。\n")], {"ch02"}),
    ([_replace("ch03.md", "`pkg/missing.py:3`", "`pkg/engine.py:3`")], {"ch03"}),
    # § links change meaning: the referrer ch01 is resolved again (every document is), not re-read
    ([_replace("ch02.md", "## §2.1 概览", "## §2.3 概览")], {"ch02"}),
    ([_replace("ch02.md", "## §2.3 概览", "## §2.1 概览")], {"ch02"}),
    # a changed conf.py: Sphinx would not re-read for suppress_warnings, the check must
    ([_append("conf.py", '\nsuppress_warnings = ["seriesbook.cite-missing-file"]\n')], None),
    ([_replace("index.md", "ch03\n", ""), _remove("ch03.md")], {"index"}),
]


def _check(book: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    status = main(["check", str(book)])
    lines = capsys.readouterr().out.replace(str(book), "<book>").splitlines()
    assert status == (1 if lines else 0)
    return lines


def test_kept_check_answers_as_a_fresh_check(
    tmp_path: Path,
    rootdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept_book, fresh_book = tmp_path / "kept", tmp_path / "fresh"
    for book in (kept_book, fresh_book):
        shutil.copytree(rootdir / "test-check-incremental", book)
    read: list[str] = []
    reading = kept.ReadProblems._reading

    def note_reading(
        self: kept.ReadProblems, app: Sphinx, env: BuildEnvironment, docnames: list[str]
    ) -> None:
        read.extend(docnames)
        reading(self, app, env, docnames)

    monkeypatch.setattr(kept.ReadProblems, "_reading", note_reading)
    assert _check(kept_book, capsys) == _check(fresh_book, capsys)  # the first, fresh
    assert (kept.check_dir(kept_book, None) / kept.STAMP).is_file()
    seen = set()
    for edits, rereads in STEPS:
        for edit in edits:
            edit(kept_book)
            edit(fresh_book)
        shutil.rmtree(fresh_book / "_build")
        read.clear()
        answer = _check(kept_book, capsys)
        documents = {p.stem for p in kept_book.glob("*.md")}
        assert set(read) == (documents if rereads is None else rereads)
        assert answer == _check(fresh_book, capsys)
        seen |= {line.split(": ")[1] for line in answer}
    assert {"cite-missing-file", "sec-unresolved", "sec-order", "gate-han"} <= seen
