"""The newcomer's path, which a green CI (Chromium and Node.js installed first) cannot show.

* ``make html`` on a fresh clone, on a machine with Python alone (``.ci/python-only``: a mount
  namespace hides Chromium, Node.js and npm, puppeteer's download host is a closed port), builds,
  and every diagram of both editions is drawn into its page: opened from disk (``file://``) in
  Chromium (the test process itself has the browser; only the make run is wrapped), no Mermaid
  script is requested and nothing is logged to the console. After it the venv holds no test or
  dev tools.
* ``make epub`` with Python alone builds both editions' EPUBs from the site's drawings;
  ``make latexpdf`` without a browser stops with one line naming it.
* A two-chapter sibling volume that only ``pip install``s this repository (no node_modules, no
  Node.js on PATH) builds with ``-W`` and its page holds its diagram, drawn.

The fresh clone's ``make html`` is shared by the tests that need it (one build per session).
Skipped, saying why, where the wrappers cannot work (no root or no overlayfs).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # fresh clones and venvs

REPO = Path(__file__).resolve().parent.parent
WITHOUT_BROWSER = REPO / ".ci" / "without-browser"
PYTHON_ONLY = REPO / ".ci" / "python-only"
EDITIONS = ("zh_CN", "en", "zh_TW")  # conf.py's seriesbook_editions
TIMEOUT_MS = 30_000
DIAGRAMS_ON_PAGE = """() => ({
  drawn: document.querySelectorAll('.seriesbook-diagram > svg[role=img] text').length > 0
    ? document.querySelectorAll('.seriesbook-diagram > svg[role=img]').length : 0,
  left_to_the_browser: document.querySelectorAll('.mermaid').length,
  unnamed: [...document.querySelectorAll('.seriesbook-diagram > svg')].filter(svg => {
    const title = document.getElementById(svg.getAttribute('aria-labelledby') || '');
    return !title || !title.textContent.trim();
  }).length,
})"""
TEST_TOOLS = ("pytest", "playwright", "mypy", "ruff")
# What the environment of `make test` adds, which a newcomer's shell would not have.
NOT_A_NEWCOMERS = (
    "SERIESBOOK_MERMAID_DIR", "PUPPETEER_EXECUTABLE_PATH", "VIRTUAL_ENV", "PYTHONPATH",
    # `make test` runs pytest inside make: a nested make would print "Entering directory"
    "MAKELEVEL", "MAKEFLAGS", "MFLAGS",
)


def newcomers_environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_A_NEWCOMERS}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    return {**env, **extra}


@functools.cache
def wrapper_problem(wrapper: Path) -> str | None:
    """Why *wrapper* cannot run here, or None when it hides the browser."""
    probe = subprocess.run(
        [str(wrapper), "sh", "-c", "! test -x /usr/bin/chromium"],
        capture_output=True, text=True, check=False,
    )
    if probe.returncode != 0:
        detail = (probe.stderr.strip().splitlines() or ["it hid nothing"])[-1]
        return f".ci/{wrapper.name} cannot hide the browser (needs root, overlayfs): {detail}"
    return None


def require_without_browser(wrapper: Path = WITHOUT_BROWSER) -> None:
    problem = wrapper_problem(wrapper)
    if problem is not None:
        pytest.skip(problem)


@pytest.fixture(scope="session")
def fresh_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this repository, with the work tree's uncommitted changes (what CI would get)."""
    clone = tmp_path_factory.mktemp("newcomer") / "book"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--modified", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    for name in filter(None, listed.split("\0")):
        if (REPO / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, clone / name)
        else:
            (clone / name).unlink(missing_ok=True)  # deleted in the work tree
    return clone


@pytest.fixture(scope="session")
def made_html(fresh_clone: Path) -> Path:
    """``make html`` in the fresh clone with Python alone; the site (one directory per edition)."""
    require_without_browser(PYTHON_ONLY)
    result = subprocess.run(
        [str(PYTHON_ONLY), "make", "html"],
        cwd=fresh_clone, env=newcomers_environment(), capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return fresh_clone / "_build" / "html"


def open_from_disk(browser: Browser, page_file: Path) -> dict[str, Any]:
    """Open *page_file* from disk: its diagrams, the scripts it fetched, its console errors."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        fetched: list[str] = []
        errors: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(page_file.as_uri())
        page.wait_for_load_state("load")
        state: dict[str, Any] = page.evaluate(DIAGRAMS_ON_PAGE)
        state["mermaid_fetched"] = [url for url in fetched if "mermaid" in url.lower()]
        state["errors"] = errors
        return state
    finally:
        context.close()


def written_diagrams(source: Path) -> int:
    return source.read_text(encoding="utf-8").count("{mermaid}")


@pytest.mark.parametrize("edition", EDITIONS)
def test_make_html_with_python_alone_draws_every_diagram(
    made_html: Path, browser: Browser, edition: str
) -> None:
    clone = made_html.parent.parent
    assert not (clone / "node_modules").exists(), "make html ran npm"
    seen = 0
    for source in sorted((clone / "source").glob("*.md")):
        expected = written_diagrams(source)
        if not expected:
            continue
        state = open_from_disk(browser, made_html / edition / f"{source.stem}.html")
        assert state == {
            "drawn": expected, "left_to_the_browser": 0, "unnamed": 0,
            "mermaid_fetched": [], "errors": [],
        }, source.name
        seen += expected
    assert seen >= 40, "the book's diagrams were not found"


def test_make_html_installs_no_test_or_dev_tools(made_html: Path) -> None:
    python = made_html.parent.parent / ".venv" / "bin" / "python"
    found = subprocess.run(
        [str(python), "-c",
         "import importlib.util, sys; "
         "print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m)))",
         *TEST_TOOLS, "sphinx_autobuild", "seriesbook"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert found == ["seriesbook"]


def test_make_epub_with_python_alone_uses_the_sites_drawings(fresh_clone: Path) -> None:
    require_without_browser(PYTHON_ONLY)
    result = subprocess.run(
        [str(PYTHON_ONLY), "make", "epub"],
        cwd=fresh_clone, env=newcomers_environment(), capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    assert not (fresh_clone / "node_modules").exists(), "make epub ran npm"
    books = list((fresh_clone / "_build" / "epub").glob("*/*.epub"))
    assert len(books) == len(EDITIONS)
    with zipfile.ZipFile(books[0]) as archive:
        drawings = [name for name in archive.namelist() if name.endswith(".svg")]
    assert len(drawings) >= 40


@pytest.mark.parametrize("target", ["latexpdf"])
def test_offline_edition_without_a_browser_stops_with_one_line(
    fresh_clone: Path, target: str, tmp_path: Path
) -> None:
    require_without_browser()
    # and no Chrome fetched earlier into puppeteer's cache
    env = newcomers_environment(PUPPETEER_CACHE_DIR=str(tmp_path))
    result = subprocess.run(
        [str(WITHOUT_BROWSER), "make", target],
        cwd=fresh_clone, env=env, capture_output=True, text=True, check=False,
    )
    assert result.returncode != 0
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    assert "apt-get install" in lines[0] and "chromium" in lines[0]
    assert "PUPPETEER_EXECUTABLE_PATH" in lines[0]
    assert not (fresh_clone / "node_modules").exists()


SIBLING_CONF = """\
project = "姊妹卷"
author = "测试作者"
copyright = "2026，测试作者"
language = "zh_CN"
extensions = ["seriesbook"]
html_theme = "sphinx_book_theme"
exclude_patterns = ["_build"]
"""
# Drafts: the chapter gates (length, diagrams, excerpts) are the book's, not this test's.
SIBLING_PAGES = {
    "index.md": "# 姊妹卷\n\n```{toctree}\nch01\nch02\n```\n",
    "ch01.md": (
        "---\nstatus: draft\n---\n# 第1章 调度\n\n## §1.1 分派键\n\n调度器按分派键选择内核。\n\n"
        '```{mermaid}\nflowchart LR\n    A["张量"] --> B["内核"]\n```\n'
    ),
    "ch02.md": (
        "---\nstatus: draft\n---\n# 第2章 自动求导\n\n## §2.1 反向\n\n反向传播沿用§1.1的分派键。\n"
    ),
}


@pytest.fixture(scope="session")
def sibling_site(fresh_clone: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sibling volume: a fresh venv, ``pip install <this repository>``, ``sphinx-build -W``."""
    work = tmp_path_factory.mktemp("sibling")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{fresh_clone}[theme]"],
        env=newcomers_environment(), capture_output=True, text=True, check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    volume = work / "volume"
    volume.mkdir()
    (volume / "conf.py").write_text(SIBLING_CONF, encoding="utf-8")
    for name, text in SIBLING_PAGES.items():
        (volume / name).write_text(text, encoding="utf-8")
    # Only the venv on PATH: no node, no npm.
    env = newcomers_environment(PATH=str(venv / "bin"))
    build = subprocess.run(
        [str(venv / "bin" / "sphinx-build"), "-W", "--keep-going", "-q", "-b", "html",
         str(volume), str(volume / "_build" / "html")],
        cwd=volume, env=env, capture_output=True, text=True, check=False,
    )
    assert build.returncode == 0, build.stderr
    assert not (volume / "node_modules").exists()
    packaged = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "from seriesbook.site import packaged_mermaid; print(packaged_mermaid())"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert Path(packaged).is_relative_to(venv), "not the installed wheel's copy"
    assert (Path(packaged) / "LICENSE").is_file() and (Path(packaged) / "manifest.json").is_file()
    return volume / "_build" / "html"


def test_sibling_volume_with_pip_alone_draws_its_diagram(
    sibling_site: Path, browser: Browser
) -> None:
    # the browser's fallback stays shipped, for diagrams an author leaves to it
    assert (sibling_site / "_static" / "mermaid" / "mermaid.esm.min.mjs").is_file()
    assert not list((sibling_site / "_static" / "mermaid").rglob("*.map"))
    assert 'href="ch01.html#sec-1-1"' in (sibling_site / "ch02.html").read_text(encoding="utf-8")
    state = open_from_disk(browser, sibling_site / "ch01.html")
    assert state == {
        "drawn": 1, "left_to_the_browser": 0, "unnamed": 0, "mermaid_fetched": [], "errors": [],
    }
