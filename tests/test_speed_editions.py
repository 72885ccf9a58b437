"""``make html``'s editions side by side (``seriesbook.speed.editions``): the files a sequential
build writes, each edition's log whole and in order, a failed edition's status and forgotten
environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from seriesbook.speed.editions import default_jobs, edition_command

ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).resolve().parents[1]
RUNNER = [sys.executable, "-m", "seriesbook.speed.editions"]


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def run_editions(builddir: Path, jobs: int, sphinx: list[str], *extra: str,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUNNER, "--builder", "html", "--builddir", str(builddir), "--languages", "zh_CN en",
         "--jobs", str(jobs), *extra, "--", *sphinx],
        capture_output=True, text=True, check=False, env=env,
    )


def test_each_edition_gets_the_makefiles_command() -> None:
    command = edition_command(["sphinx-build", "-W", "--keep-going", "-c", ".", "source"],
                              "html", "en", Path("_build/doctrees/en"), Path("_build/html/en"))
    assert command == ["sphinx-build", "-b", "html", "-D", "language=en", "-d",
                       "_build/doctrees/en", "-W", "--keep-going", "-c", ".", "source",
                       "_build/html/en"]


def test_editions_at_once_follow_the_cores_or_the_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERIESBOOK_EDITION_JOBS", "1")
    assert default_jobs(2) == 1
    monkeypatch.delenv("SERIESBOOK_EDITION_JOBS")
    assert 1 <= default_jobs(2) <= 2
    assert default_jobs(1) == 1
    monkeypatch.setenv("SERIESBOOK_EDITION_JOBS", "many")
    with pytest.raises(ValueError, match="SERIESBOOK_EDITION_JOBS"):
        default_jobs(2)


def test_side_by_side_editions_write_the_files_of_editions_in_turn(tmp_path: Path) -> None:
    """The editions test book, both editions with -W --keep-going: byte-identical trees, and
    each edition's log whole under its own line, in the editions' order."""
    book = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-book", book)
    sphinx = [str(Path(sys.executable).parent / "sphinx-build"), "-W", "--keep-going", str(book)]
    trees = {}
    for jobs in (1, 2):
        builddir = tmp_path / f"build-{jobs}"
        done = run_editions(builddir, jobs, sphinx)
        assert done.returncode == 0, done.stdout + done.stderr
        header_zh = f"== zh_CN -> {builddir}/html/zh_CN/"
        header_en = f"== en -> {builddir}/html/en/"
        lines = done.stdout.splitlines()
        assert lines.index(header_zh) < lines.index(header_en)
        # zh_CN's own lines (its output directory) all come before en's header
        assert all(i < lines.index(header_en) for i, line in enumerate(lines)
                   if "html/zh_CN" in line or "zh_CN]" in line)
        trees[jobs] = {edition: files(builddir / "html" / edition) for edition in ("zh_CN", "en")}
    assert trees[1].keys() == trees[2].keys()
    for edition in ("zh_CN", "en"):
        assert trees[1][edition], edition
        assert trees[1][edition] == trees[2][edition], edition


FAKE_SPHINX = """#!/bin/sh
# fails for the English edition, after writing to both streams
case "$*" in *language=en*) echo "en: building"; echo "en: WARNING: broken" >&2; exit 1;; esac
echo "zh_CN: building"; sleep 0.3; echo "zh_CN: build succeeded"
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_edition_fails_the_build_and_forgets_its_environment(
        tmp_path: Path, jobs: int) -> None:
    fake = tmp_path / "sphinx-build"
    fake.write_text(FAKE_SPHINX)
    fake.chmod(0o755)
    builddir = tmp_path / "build"
    for edition in ("zh_CN", "en"):
        (builddir / "doctrees" / edition).mkdir(parents=True)
        (builddir / "doctrees" / edition / "environment.pickle").write_bytes(b"kept")
    done = run_editions(builddir, jobs, [str(fake), "-W", "--keep-going", "source"])
    assert done.returncode == 1
    assert not (builddir / "doctrees" / "en").exists()  # the failed edition starts afresh
    assert (builddir / "doctrees" / "zh_CN" / "environment.pickle").read_bytes() == b"kept"
    assert done.stdout.splitlines() == [
        f"== zh_CN -> {builddir}/html/zh_CN/", "zh_CN: building", "zh_CN: build succeeded",
        f"== en -> {builddir}/html/en/", "en: building",
    ]
    assert done.stderr.splitlines() == ["en: WARNING: broken", "== failed: en"]


def test_then_runs_after_each_successful_edition(tmp_path: Path) -> None:
    fake = tmp_path / "sphinx-build"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    done = run_editions(tmp_path / "build", 2, [str(fake), "source"],
                        "--then", 'echo "then $language"')
    assert done.returncode == 0
    assert [line for line in done.stdout.splitlines() if line.startswith("then")] == [
        "then zh_CN", "then en"]


@pytest.mark.slow
def test_make_html_side_by_side_writes_what_it_wrote_in_turn(tmp_path: Path) -> None:
    """The book itself: ``make html`` (both editions at once on two cores) and
    ``make html EDITION_JOBS=1`` (one after the other) write the same files."""
    env = {k: v for k, v in os.environ.items() if k not in {"MAKELEVEL", "MAKEFLAGS", "MFLAGS"}}
    trees = {}
    for jobs in ("2", "1"):
        builddir = tmp_path / f"build-{jobs}"
        done = subprocess.run(["make", "html", f"BUILDDIR={builddir}", f"EDITION_JOBS={jobs}"],
                              cwd=REPO, capture_output=True, text=True, check=False, env=env)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        trees[jobs] = files(builddir / "html")
    assert trees["1"] and trees["1"] == trees["2"]
