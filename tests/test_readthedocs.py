""".readthedocs.yaml: its build commands, run with Read the Docs' environment, build one edition.

The install commands (``pip``, ``npm``) are not re-run here: the test already runs inside the
installed virtual environment with node_modules in place, and reinstalling would take minutes.
Every other command runs exactly as written, with that environment's ``bin`` first on PATH.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

REPO = Path(__file__).resolve().parent.parent
INSTALL_COMMAND = re.compile(r"^(?:python3? -m )?(?:pip|npm)\b")


def rtd_config() -> dict[str, object]:
    config: dict[str, object] = yaml.safe_load((REPO / ".readthedocs.yaml").read_text("utf-8"))
    return config


def build_commands() -> list[str]:
    build = rtd_config()["build"]
    assert isinstance(build, dict)
    commands: list[str] = build["commands"]
    return commands


def test_config_declares_python_and_node() -> None:
    config = rtd_config()
    assert config["version"] == 2
    build = config["build"]
    assert isinstance(build, dict)
    assert build["os"] == "ubuntu-24.04"
    assert build["tools"] == {"python": "3.11", "nodejs": "20"}
    commands = build_commands()
    assert any(command.startswith("npm ci") for command in commands)
    assert any(re.search(r"pip install .*\.", command) for command in commands)


@pytest.mark.parametrize(("rtd_language", "html_lang"), [("zh-cn", "zh-CN"), ("en", "en")])
def test_build_commands_write_the_requested_edition(
    tmp_path: Path, rtd_language: str, html_lang: str
) -> None:
    canonical = f"https://example.org/{rtd_language}/latest/"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "READTHEDOCS": "True",
        "READTHEDOCS_OUTPUT": str(tmp_path),
        "READTHEDOCS_LANGUAGE": rtd_language,
        "READTHEDOCS_CANONICAL_URL": canonical,
    }
    for command in build_commands():
        if INSTALL_COMMAND.match(command):
            continue
        result = subprocess.run(
            command, shell=True, cwd=REPO, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"

    index = tmp_path / "html" / "index.html"
    assert index.is_file()
    soup = BeautifulSoup(index.read_text("utf-8"), "html.parser")
    assert soup.html is not None and soup.html["lang"] == html_lang
    links = soup.find_all("link", rel="canonical")
    assert [str(link["href"]) for link in links] == [f"{canonical}index.html"]
    assert (tmp_path / "html" / "_static" / "mermaid" / "mermaid.esm.min.mjs").is_file()
