""".readthedocs.yaml: its build commands, run with Read the Docs' environment, build one edition.

The install commands (``pip``, ``npm``, puppeteer's browser install) are not re-run here: the test
already runs inside the installed virtual environment with node_modules in place and the system
Chromium, reinstalling would take minutes, and no browser can be downloaded here. Every other
command runs exactly as written, with that environment's ``bin`` first on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import CHROMIUM, require
from test_site import off_site_references, search_index

HAN_WORD = re.compile(r"^[\u4e00-\u9fff]{2,}$")

REPO = Path(__file__).resolve().parent.parent
INSTALL_COMMAND = re.compile(r"^(?:[A-Z_]+=\S* )*(?:python3? -m )?(?:pip|npm|npx)\b")
BROWSER_INSTALL = "npx --no-install puppeteer browsers install"
# What .ci/offline-packages asks for only for the tests, and the browser, which Read the Docs
# gets from puppeteer (Ubuntu 24.04's chromium package is a snap, which a build cannot run).
NOT_ON_READTHEDOCS = {"chromium", "epubcheck", "poppler-utils", "qpdf"}


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
    assert all(INSTALL_COMMAND.match(command) for command in commands[:-1])


def test_browser_is_fetched_on_purpose_after_npm_ci() -> None:
    """`npm ci` downloads no browser (.puppeteerrc.cjs); Read the Docs asks for puppeteer's own."""
    commands = build_commands()
    (browser,) = [command for command in commands if BROWSER_INSTALL in command]
    assert "PUPPETEER_SKIP_DOWNLOAD=false" in browser
    assert commands.index(browser) > next(
        index for index, command in enumerate(commands) if command.startswith("npm ci")
    )
    assert "skipDownload: true" in (REPO / ".puppeteerrc.cjs").read_text("utf-8")


def test_apt_packages_cover_what_the_offline_editions_need() -> None:
    """Every package .ci/offline-packages checks for the PDF and EPUB, and Chrome's libraries."""
    build = rtd_config()["build"]
    assert isinstance(build, dict)
    declared = set(build["apt_packages"])
    script = (REPO / ".ci" / "offline-packages").read_text("utf-8")
    needed = set(re.findall(r"^\s*need ([a-z0-9.+-]+) ", script, flags=re.MULTILINE))
    assert {"texlive-xetex", "fonts-noto-cjk", "chromium"} <= needed  # the parse finds them
    assert needed - NOT_ON_READTHEDOCS <= declared
    assert {"libnss3", "libgbm1", "libasound2t64", "libatk-bridge2.0-0t64"} <= declared


@dataclass(frozen=True)
class RtdBuild:
    language: str  # as Read the Docs names it
    canonical: str
    html: Path
    output: Path


def missing_for_the_pdf() -> list[str]:
    """What the English PDF needs (TeX, the diagrams' browser, pdftotext) and this machine
    lacks: without it the English edition is built with its EPUB alone."""
    missing = [tool for tool in ("xelatex", "latexmk", "pdftotext") if shutil.which(tool) is None]
    return missing if CHROMIUM.is_file() else [*missing, str(CHROMIUM)]


@pytest.fixture(scope="module", params=["zh-cn", "en", "zh-tw"])
def rtd_build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> RtdBuild:
    """``.readthedocs.yaml``'s build commands, run as Read the Docs runs them, for one language."""
    language: str = request.param
    output = tmp_path_factory.mktemp(f"rtd-{language}")
    canonical = f"https://example.org/{language}/latest/"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "READTHEDOCS": "True",
        "READTHEDOCS_OUTPUT": str(output),
        "READTHEDOCS_LANGUAGE": language,
        "READTHEDOCS_CANONICAL_URL": canonical,
        "SERIESBOOK_OFFLINE_FORMATS": (
            "" if language != "en" else "epub" if missing_for_the_pdf() else "pdf epub"
        ),
    }
    for command in build_commands():
        if INSTALL_COMMAND.match(command):
            continue
        result = subprocess.run(
            command, shell=True, cwd=REPO, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return RtdBuild(language, canonical, output / "html", output)


@pytest.mark.slow  # the whole book, as Read the Docs builds it
def test_edition_has_its_language_and_canonical_links(rtd_build: RtdBuild) -> None:
    html_lang = {"zh-cn": "zh-CN", "en": "en", "zh-tw": "zh-Hant-TW"}[rtd_build.language]
    for page in ("index.html", "ch01.html"):
        soup = BeautifulSoup((rtd_build.html / page).read_text("utf-8"), "html.parser")
        assert soup.html is not None and soup.html["lang"] == html_lang
        links = [str(link["href"]) for link in soup.find_all("link", rel="canonical")]
        assert links == [f"{rtd_build.canonical}{page}"]


@pytest.mark.slow  # the whole book, as Read the Docs builds it
def test_site_is_self_contained(rtd_build: RtdBuild) -> None:
    assert (rtd_build.html / "_static" / "mermaid" / "mermaid.esm.min.mjs").is_file()
    assert list(off_site_references(rtd_build.html)) == []
    assert not (rtd_build.html / ".doctrees").exists()


@pytest.mark.slow  # the whole book, as Read the Docs builds it
def test_every_chapter_is_built_and_indexed(rtd_build: RtdBuild) -> None:
    """The preface and 23 chapters each get a page, and Chinese words of each are searchable."""
    if rtd_build.language != "zh-cn":
        pytest.skip("Chinese words are the Chinese edition's")
    chapters = sorted(p.stem for p in (REPO / "source").glob("*.md") if p.stem != "index")
    assert len(chapters) == 24
    index = search_index(rtd_build.html)
    indexed: set[str] = set()
    for word, pages in index["terms"].items():
        if HAN_WORD.match(word):
            for page in pages if isinstance(pages, list) else [pages]:
                indexed.add(index["docnames"][page])
    for chapter in chapters:
        assert (rtd_build.html / f"{chapter}.html").is_file()
        assert chapter in indexed, f"no Chinese word of {chapter} in the search index"


@pytest.mark.slow  # the whole book, as Read the Docs builds it
def test_downloads_are_built_and_linked(rtd_build: RtdBuild) -> None:
    """The English edition's PDF and EPUB, one file each, linked from the download menu."""
    if rtd_build.language != "en":
        pytest.skip("the Chinese edition is built without downloads here (CI time)")
    missing = missing_for_the_pdf()
    require(not missing, f"the PDF needs {', '.join(missing)} (TeX Live, Chromium, poppler-utils)")
    (pdf,) = (rtd_build.output / "pdf").iterdir()
    (epub,) = (rtd_build.output / "epub").iterdir()
    assert pdf.name == "pytorch-internals.pdf" and epub.name == "pytorch-internals.epub"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Binding layer" in text and "绑定层" not in text  # ch01's diagram, translated
    soup = BeautifulSoup((rtd_build.html / "ch01.html").read_text("utf-8"), "html.parser")
    links = {str(a["href"]) for a in soup.select("a[href*='/_/downloads/']")}
    assert links == {"/_/downloads/en/latest/pdf/", "/_/downloads/en/latest/epub/"}
