"""``seriesbook new``: a volume in English and one in Chinese build at once, offline, with 0
warnings (``make test``: ``seriesbook check`` and every edition with ``-W``); an existing file
stops it before anything is written; a PDF build without mermaid-cli says so in one line.

These run with this environment's seriesbook (editable); ``test_release.py`` does the same from
the built wheel in a fresh venv.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from seriesbook.commands.cli import main

#: What would point a volume at this repository's npm packages (conftest sets the first).
NOT_A_VOLUMES = ("SERIESBOOK_MERMAID_DIR", "PUPPETEER_EXECUTABLE_PATH", "MAKELEVEL", "MAKEFLAGS")
VOLUMES = {
    "en": ["--title", "Inside Tokio", "--source", "tokio=https://github.com/tokio-rs/tokio@v1.40.0"],
    "zh_CN": ["--title", "Tokio 深度解析", "--language", "zh_CN"],
}


def volume_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in NOT_A_VOLUMES}


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=volume_environment(), capture_output=True, text=True, check=False,
        timeout=600,
    )


def new_volume(tmp_path: Path, language: str) -> Path:
    volume = tmp_path / f"volume-{language}"
    assert main(["new", str(volume), *VOLUMES[language]]) == 0
    return volume


@pytest.mark.parametrize("language", sorted(VOLUMES))
def test_a_new_volume_builds_with_no_warning(tmp_path: Path, language: str) -> None:
    volume = new_volume(tmp_path, language)
    result = run(["make", "test", f"PYTHON={sys.executable}"], volume)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output and "ERROR" not in output
    page = (volume / "_build" / "html" / language / "ch01.html").read_text(encoding="utf-8")
    assert 'id="sec-1-1"' in page  # the § section
    assert "examples/hello.py#L1-L2" in page  # the citation, verified from examples/
    assert '<div class="seriesbook-diagram' in page and "<svg" in page  # drawn at build time
    conf = (volume / "conf.py").read_text(encoding="utf-8")
    assert f"language = {language!r}" in conf
    for path in ("locale", "Makefile", ".readthedocs.yaml", ".ci/run", "README.md"):
        assert (volume / path).exists(), path
    assert os.access(volume / ".ci" / "run", os.X_OK)


def test_the_pinned_source_is_in_conf_py(tmp_path: Path) -> None:
    conf = (new_volume(tmp_path, "en") / "conf.py").read_text(encoding="utf-8")
    assert "'tokio': {\"repo\": 'https://github.com/tokio-rs/tokio', \"ref\": 'v1.40.0'}" in conf
    assert "seriesbook_default_source = 'tokio'" in conf
    namespace: dict[str, object] = {}
    exec(compile(conf, "conf.py", "exec"), namespace)  # valid Python
    assert namespace["project"] == "Inside Tokio"


def test_new_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    volume = tmp_path / "volume"
    (volume / "source").mkdir(parents=True)
    (volume / "source" / "index.md").write_text("# mine\n", encoding="utf-8")
    assert main(["new", str(volume)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "index.md exists" in error and "never overwrites" in error
    assert (volume / "source" / "index.md").read_text(encoding="utf-8") == "# mine\n"
    assert sorted(p.name for p in volume.rglob("*")) == ["index.md", "source"]  # nothing written


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--source", "tokio"], "--source expects NAME=REPO@REF"),
        (["--source", "a=https://x/a@v1", "--source", "a=https://x/b@v2"], "names a source twice"),
        (["--source", "examples=https://x/a@v1"], "volume's own examples/"),
        (["--language", "English!"], "--language expects"),
    ],
)
def test_bad_flags_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    assert main(["new", str(tmp_path / "v"), *arguments]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error
    assert not (tmp_path / "v").exists()


def _offline_build(volume: Path, builder: str) -> subprocess.CompletedProcess[str]:
    return run(
        [sys.executable, "-m", "sphinx", "-q", "-b", builder, "-W", "-c", ".", "-d", "_build/dt",
         "source", f"_build/{builder}"],
        volume,
    )


def test_epub_draws_its_diagrams_without_mermaid_cli(tmp_path: Path) -> None:
    """The EPUB takes the site's drawings (Python alone): no npm needed, no warning."""
    result = _offline_build(new_volume(tmp_path, "en"), "epub")
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_pdf_without_mermaid_cli_says_so_in_one_line(tmp_path: Path) -> None:
    result = _offline_build(new_volume(tmp_path, "en"), "latex")
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr  # with -q: the one warning, nothing else
    assert "[seriesbook.offline-tool]" in lines[0]
    assert "npm install @mermaid-js/mermaid-cli mermaid" in lines[0]
    assert "Extension error" not in result.stderr and "Traceback" not in result.stderr
