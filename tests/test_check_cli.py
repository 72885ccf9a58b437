"""``seriesbook check``: text and JSON output, default directories, exit codes 0/1/2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from seriesbook.commands.cli import main


@pytest.fixture
def book(tmp_path: Path, rootdir: Path) -> Path:
    """A copy of the book with every § numbering problem."""
    shutil.copytree(rootdir / "test-sections-problems", tmp_path / "book")
    return tmp_path / "book"


def test_clean_book_exits_0(
    tmp_path: Path, rootdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(rootdir / "test-sections-incremental", tmp_path / "clean")
    assert main(["check", str(tmp_path / "clean")]) == 0
    assert capsys.readouterr().out == ""


def test_text_output(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(book)]) == 1
    lines = capsys.readouterr().out.splitlines()
    ch03 = book / "ch03.md"
    assert f"{ch03}:7: sec-order: §3.3 leaves a gap (after §3.1; expected §3.2)" in lines
    assert f"{ch03}:5: sec-unresolved: no section §9.9 in this book" in lines
    codes = [line.split(": ")[1] for line in lines]
    assert sorted(set(codes)) == [
        "chapter-unresolved", "sec-chapter", "sec-duplicate", "sec-nesting", "sec-order",
        "sec-unresolved",
    ]
    assert len(lines) == 11


def test_json_output(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(book), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"problems", "fuzzy"} and report["fuzzy"] == []
    problems = report["problems"]
    assert len(problems) == 11
    assert {
        "file": str(book / "ch03.md"),
        "line": 17,
        "code": "sec-nesting",
        "message": "§3.2 has 2 parts but is a level-3 heading (###), which takes 3",
    } in problems
    assert all(set(p) == {"file", "line", "code", "message"} for p in problems)
    assert all(isinstance(p["line"], int) and p["line"] >= 1 for p in problems)


def test_default_dirs_source_and_conf(
    tmp_path: Path, rootdir: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With ./conf.py and ./source/, SRCDIR is source/ and CONFDIR is '.'."""
    source = tmp_path / "source"
    shutil.copytree(rootdir / "test-sections-problems", source)
    (source / "conf.py").rename(tmp_path / "conf.py")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "json"]) == 1
    files = {p["file"] for p in json.loads(capsys.readouterr().out)["problems"]}
    assert files == {str(source / "ch03.md"), str(source / "ch04.md")}


def test_confdir_option(
    tmp_path: Path, rootdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "pages"
    shutil.copytree(rootdir / "test-sections-incremental", source)
    (source / "conf.py").rename(tmp_path / "conf.py")
    assert main(["check", str(source), "-c", str(tmp_path)]) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "missing-dir"], "source directory not found"),
        (["check", "."], "no conf.py in"),
        (["check", ".", "--format", "yaml"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    args: list[str], message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        status = main(args)
    except SystemExit as exit:  # argparse reports its own usage errors
        status = int(exit.code or 0)
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1]


def test_command_line_entry_point(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "seriesbook", "check", str(tmp_path / "nope")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == f"seriesbook: source directory not found: {tmp_path / 'nope'}"


def test_a_build_after_the_command_keeps_its_own_language(
    tmp_path: Path, rootdir: Path, make_app: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command reads a Chinese book in this process; an English build after it in the same
    process (a caller's own app, a test suite) speaks English, not the book's Chinese."""
    shutil.copytree(rootdir / "test-sections-incremental", tmp_path / "zh")
    assert main(["check", str(tmp_path / "zh")]) == 0
    shutil.copytree(rootdir / "test-sections-incremental", tmp_path / "en")
    app = make_app("html", srcdir=tmp_path / "en", freshenv=True,
                   confoverrides={"language": "en"})
    app.build()
    page = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    assert 'title="Search"' in page
    assert "搜索" not in page
