"""``make`` and its ``.venv`` (issue 31): two makes at once in a fresh clone install it once, and
a damaged one is named (``make distclean``), never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
NOT_A_NEWCOMERS = ("VIRTUAL_ENV", "PYTHONPATH", "MAKELEVEL", "MAKEFLAGS", "MFLAGS")


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_A_NEWCOMERS}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    return env


def _clone(tmp_path: Path) -> Path:
    """This repository's Makefile and what `pip install -e .` reads, as a fresh clone has them."""
    clone = tmp_path / "book"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    for name in ("Makefile", "pyproject.toml"):  # the work tree's, committed or not
        shutil.copy2(REPO / name, clone / name)
    return clone


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("flock") is None, reason="flock (util-linux) is missing")
def test_two_makes_at_once_install_the_venv_once_and_a_damaged_one_is_named(
    tmp_path: Path,
) -> None:
    clone = _clone(tmp_path)
    env = _environment()
    stamp = ".venv/.seriesbook-installed"
    makes = [
        subprocess.Popen(["make", stamp], cwd=clone, env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(2)
    ]
    outputs = [make.communicate(timeout=1800)[0] for make in makes]
    assert [make.returncode for make in makes] == [0, 0], outputs
    assert sum(out.count("pip install -e .") for out in outputs) == 1, outputs  # one waited
    assert (clone / ".venv" / "bin" / "seriesbook").is_file()

    (sphinx,) = (clone / ".venv" / "lib").glob("python3*/site-packages/sphinx")
    shutil.rmtree(sphinx)  # half deleted
    result = subprocess.run(["make", "gettext"], cwd=clone, env=env, capture_output=True,
                            text=True, check=False)
    assert result.returncode != 0
    assert ".venv is damaged" in result.stderr and "make distclean" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr
