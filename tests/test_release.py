"""The release a sibling volume depends on, the user's whole way: build the sdist and the wheel,
install the wheel into a fresh venv (nothing of this checkout on its path), ``seriesbook
--version`` is the package's version, ``seriesbook new`` a Chinese and an English volume, build
both with ``-W`` (0 warnings) and ``seriesbook check`` them; a PDF build without mermaid-cli
says so in one line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from seriesbook import __version__

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
#: What would reach this checkout or its npm packages from the fresh venv.
NOT_A_USERS = ("PYTHONPATH", "VIRTUAL_ENV", "SERIESBOOK_MERMAID_DIR", "PUPPETEER_EXECUTABLE_PATH",
               "MAKELEVEL", "MAKEFLAGS", "MFLAGS")


def users_environment(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_A_USERS}
    ours = str(Path(sys.executable).parent)
    path = [p for p in env["PATH"].split(os.pathsep) if p != ours]
    return {**env, "PATH": os.pathsep.join([str(venv / "bin"), *path])}


def run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          check=False, timeout=1200)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel, built as a release is (isolated: setuptools from the build pins)."""
    out = tmp_path_factory.mktemp("dist")
    result = run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], REPO,
                 dict(os.environ))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("user") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheel = next(dist.glob("seriesbook-*.whl"))
    # the series' theme is an extra: a volume of the series installs seriesbook[theme]
    result = run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                  f"{wheel}[theme]"], venv, users_environment(venv))
    assert result.returncode == 0, result.stderr[-3000:]
    return venv


def test_sdist_and_wheel_carry_the_release(dist: Path) -> None:
    sdist = next(dist.glob(f"seriesbook-{__version__}.tar.gz"))
    wheel = next(dist.glob(f"seriesbook-{__version__}-py3-none-any.whl"))
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml"} <= names
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"seriesbook-{__version__}.dist-info/METADATA").decode()
    assert f"seriesbook-{__version__}.dist-info/licenses/LICENSE" in names
    assert "seriesbook/commands/volume/conf.py.txt" in names  # seriesbook new's templates
    assert "seriesbook/vendor/mermaid/mermaid.esm.min.mjs" in names
    assert "Classifier: Framework :: Sphinx :: Extension" in metadata
    assert "License-Expression: MIT" in metadata
    assert "Project-URL: Documentation" in metadata
    assert "Requires-Dist: sphinx<10,>=9.0.4" in metadata
    assert 'Requires-Dist: sphinx-book-theme>=1.4.0; extra == "theme"' in metadata


def test_installed_version_is_the_package_version(venv: Path) -> None:
    env = users_environment(venv)
    shown = run(["seriesbook", "--version"], venv, env)
    assert shown.returncode == 0 and shown.stdout.strip() == f"seriesbook {__version__}"
    probe = ("import importlib.metadata as m, seriesbook; "
             "print(m.version('seriesbook'), seriesbook.__file__)")
    installed = run([str(venv / "bin" / "python"), "-c", probe], venv, env)
    version, location = installed.stdout.split()
    assert version == __version__
    assert Path(location).is_relative_to(venv)  # the wheel, not this checkout


@pytest.mark.parametrize(
    ("language", "flags"),
    [
        ("zh_CN", ["--title", "Tokio 深度解析", "--language", "zh_CN",
                   "--source", "tokio=https://github.com/tokio-rs/tokio@tokio-1.40.0"]),
        ("en", ["--title", "Inside Serde", "--language", "en"]),
    ],
)
def test_new_volumes_build_from_the_wheel(
    venv: Path, tmp_path: Path, language: str, flags: list[str]
) -> None:
    env = users_environment(venv)
    python = str(venv / "bin" / "python")
    volume = tmp_path / "volume"
    assert run(["seriesbook", "new", str(volume), *flags], tmp_path, env).returncode == 0
    checked = run(["seriesbook", "check"], volume, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = run([python, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-c", ".",
                 "-d", "_build/doctrees", "source", f"_build/html/{language}"], volume, env)
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr and "ERROR" not in built.stderr, built.stderr  # 0 warnings
    assert (volume / "_build" / "html" / language / "ch01.html").is_file()
    made = run(["make", "test", f"PYTHON={python}"], volume, env)
    assert made.returncode == 0 and "WARNING" not in made.stdout + made.stderr, made.stderr
    latex = run([python, "-m", "sphinx", "-b", "latex", "-W", "-q", "-c", ".", "-d",
                 "_build/doctrees-latex", "source", "_build/latex"], volume, env)
    lines = [line for line in latex.stderr.splitlines() if line.strip()]
    assert latex.returncode == 1 and len(lines) == 1, latex.stderr
    assert "[seriesbook.offline-tool]" in lines[0] and "Traceback" not in latex.stderr
