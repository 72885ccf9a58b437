"""PDF and EPUB editions (seriesbook.offline): built the user's way, read as a reader's tools do.

Each test book is built with ``python -m sphinx`` (as ``make latexpdf``/``make epub`` do) and, for
the PDF, ``latexmk``; the PDF is read with poppler (``pdftotext``, ``pdffonts``) and pypdf, the
EPUB checked with epubcheck. The system packages are those ``.ci/offline-packages tests`` names;
CI installs them (``.ci/run``), elsewhere their absence skips these tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import in_ci, require
from pypdf import PdfReader
from pypdf.generic import Destination
from seriesbook.core.problems import Problem

REPO = Path(__file__).resolve().parent.parent
ROOTS = REPO / "tests" / "roots"
BOOK = "test-offline-book"


def _missing_packages() -> str:
    result = subprocess.run(
        [str(REPO / ".ci" / "offline-packages"), "tests"], capture_output=True, text=True
    )
    return result.stdout.strip()


MISSING = _missing_packages()
if MISSING and in_ci():
    raise RuntimeError(f"CI lacks the offline editions' packages: apt-get install {MISSING}")
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"apt-get install {MISSING}")
SLOW = pytest.mark.slow  # PDF (XeLaTeX) and EPUB builds, diagrams drawn in Chromium


def sphinx(builder: str, src: Path, out: Path, language: str, *extra: str) -> str:
    """Run sphinx-build like the Makefile; returns its output and warnings."""
    quiet = [] if "-v" in extra else ["-q"]
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", builder, *quiet, "-D", f"language={language}",
         "-d", str(out.parent / f"doctrees-{builder}-{language}"), *extra, str(src), str(out)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO / "_ext")},
    )
    assert result.returncode == 0 or "-W" not in extra, result.stderr
    return result.stdout + result.stderr


def copy_root(name: str, target: Path) -> Path:
    shutil.copytree(ROOTS / name, target)
    return target


def build_pdf(workdir: Path, language: str) -> Path:
    outdir = workdir / f"latex-{language}"
    sphinx("latex", workdir / "src", outdir, language, "-W", "--keep-going")
    latexmk = subprocess.run(
        ["latexmk", "-pdf", "-dvi-", "-ps-", "-silent", "offline.tex"],
        cwd=outdir, capture_output=True, text=True,
    )
    assert latexmk.returncode == 0, latexmk.stdout[-3000:]
    return outdir / "offline.pdf"


@pytest.fixture(scope="module")
def offline_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workdir = tmp_path_factory.mktemp("offline")
    copy_root(BOOK, workdir / "src")
    return workdir


@pytest.fixture(scope="module", params=["zh_CN", "en"])
def pdf(request: pytest.FixtureRequest, offline_book: Path) -> tuple[str, Path]:
    return request.param, build_pdf(offline_book, request.param)


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def outline_titles(reader: PdfReader) -> list[str]:
    titles: list[str] = []

    def walk(items: list[object]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            elif isinstance(item, Destination):
                titles.append(str(item.title))

    walk(reader.outline)
    return titles


def link_actions(reader: PdfReader) -> list[tuple[int, str, str]]:
    """(page, action type, URI or destination) of every link annotation."""
    links = []
    for number, page in enumerate(reader.pages):
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is not None:
                target = action.get("/URI") or action.get("/D")
                links.append((number, str(action["/S"]), str(target)))
    return links


@SLOW
def test_pdf_fonts_embedded_and_no_missing_characters(pdf: tuple[str, Path]) -> None:
    _language, path = pdf
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert fonts
    assert all(re.search(r"\byes\b", line.split("Identity-H")[-1]) for line in fonts), fonts
    assert any("NotoSerifCJK" in line for line in fonts)
    assert "Missing character" not in path.with_suffix(".log").read_text(errors="replace")
    # what Noto CJK lacks is printed with the fallbacks: CJK Extension B, emoji
    assert any("HanaMinB" in line for line in fonts) and any("Symbola" in line for line in fonts)
    assert "罕见字𠀀与表情😀" in pdf_text(path).replace("\n", "")


@SLOW
def test_a_character_no_font_has_is_reported_at_its_line(tmp_path: Path) -> None:
    """Never dropped silently: ``pdf-glyph`` at the file and line (the LaTeX writer only)."""
    src = copy_root(BOOK, tmp_path / "src")
    chapter = src / "ch02.md"
    chapter.write_text(chapter.read_text() + "\n象形文字𓀀（U+13000）无字体可印。\n")
    line = chapter.read_text().count("\n")
    output = sphinx("latex", src, tmp_path / "latex", "zh_CN")
    found = [w for w in output.splitlines() if Problem.PDF_GLYPH.code in w]
    assert len(found) == 1 and f"ch02.md:{line}:" in found[0] and "U+13000" in found[0], output


@SLOW
def test_pdf_text_of_titles_sections_and_diagram_labels(pdf: tuple[str, Path]) -> None:
    language, path = pdf
    text = pdf_text(path)
    assert "§1.1" in text and "§2.1 调度" in text
    if language == "en":
        assert "Chapter 1 Tensors" in text and "§1.1 Storage" in text
        assert "Tensor handle" in text and "Storage buffer" in text  # translated diagram labels
        assert "句柄" not in text
    else:
        assert "第1章" in text and "张量" in text
        assert "张量 句柄" in text and "存储 缓冲区" in text  # the diagram's labels, as text
    assert "调用方" in text  # the untranslated chapter's diagram, in both editions


@SLOW
def test_pdf_parts_chapters_sections_in_outline(pdf: tuple[str, Path]) -> None:
    language, path = pdf
    titles = outline_titles(PdfReader(path))
    chapter = "Chapter 1 Tensors" if language == "en" else "第1章\u3000张量"
    section = "§1.1 Storage" if language == "en" else "§1.1 存储"
    assert titles.index("第一篇\u3000基础") < titles.index(chapter) < titles.index(section)
    assert titles.index(section) < titles.index("第二篇\u3000引擎") < titles.index("§2.1 调度")


@SLOW
def test_pdf_named_destinations_and_links(pdf: tuple[str, Path]) -> None:
    _language, path = pdf
    reader = PdfReader(path)
    assert {"sec-1-1", "sec-1-2", "sec-2-1", "ch-1", "ch-2"} <= set(reader.named_destinations)
    links = link_actions(reader)
    citation = "https://example.org/demo/blob/v1.0/pkg/engine.py#L5"
    (citation_page,) = [page for page, kind, target in links if target == citation]
    # the § mention next to the citation (§1.2) is an internal link on the same page
    assert any(page == citation_page and kind == "/GoTo" for page, kind, _ in links)
    assert not re.search(r"\\footnote|\\sphinxfootnotemark",
                         path.with_suffix(".tex").read_text(encoding="utf-8"))


@SLOW
def test_pdf_title_page_chapter_and_contents_name(pdf: tuple[str, Path]) -> None:
    language, path = pdf
    tex = path.with_suffix(".tex").read_text(encoding="utf-8")
    assert "\\part{第一篇\u3000基础}" in tex
    assert re.search(r"\\chapter\{离线测试书\}", tex)  # the root page's own text
    assert ("目录" in tex) == (language == "zh_CN")
    assert "\\usepackage{xeCJK}" in tex and "Noto Serif CJK SC" in tex


@pytest.fixture(scope="module")
def epub(offline_book: Path) -> tuple[Path, str]:
    outdir = offline_book / "epub-zh_CN"
    warnings = sphinx("epub", offline_book / "src", outdir, "zh_CN", "-W", "--keep-going")
    return outdir / "offline.epub", warnings


def epubcheck_command() -> list[str]:
    """Debian installs epubcheck as an executable jar, which needs binfmt_misc to run."""
    found = Path(shutil.which("epubcheck") or "epubcheck").resolve()
    return ["java", "-jar", str(found)] if found.suffix == ".jar" else [str(found)]


@SLOW
def test_epub_passes_epubcheck(epub: tuple[Path, str]) -> None:
    path, _warnings = epub
    result = subprocess.run([*epubcheck_command(), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout + result.stderr or "No errors" in result.stdout


@SLOW
def test_epub_diagrams_are_images_and_anchors_stay(epub: tuple[Path, str]) -> None:
    path, _warnings = epub
    with zipfile.ZipFile(path) as archive:
        chapter = archive.read("ch01.xhtml").decode()
        images = [name for name in archive.namelist() if name.startswith("_images/")]
        assert len(images) == 2
        # the site's drawings (Python alone, no browser), in their light colours
        drawings = [archive.read(name).decode() for name in images]
        assert all(svg.startswith("<svg") and "var(" not in svg for svg in drawings)
        assert any("<text" in svg and "指向" in svg for svg in drawings)
        names = archive.namelist()
    assert re.search(r'<img alt="张量 句柄 · 指向 · 存储 缓冲区" src="_images/mermaid-\w+\.svg"',
                     chapter)
    assert 'class="mermaid"' not in chapter and "flowchart LR" not in chapter
    assert 'id="sec-1-1"' in chapter and 'href="ch02.xhtml#sec-2-1"' in chapter
    assert not any("mermaid" in name for name in names if not name.startswith("_images/"))
    assert "<script" not in chapter
    assert 'class="seriesbook-editions"' not in chapter  # no switcher to pages not in the book


@SLOW
def test_diagram_cache_draws_only_changed_diagrams(tmp_path: Path) -> None:
    src = copy_root(BOOK, tmp_path / "src")
    first = sphinx("epub", src, tmp_path / "epub", "zh_CN", "-v")
    assert "drawing 2 Mermaid diagram(s) as SVG" in first
    again = sphinx("epub", src, tmp_path / "epub", "zh_CN", "-v", "-E")
    assert "drawing" not in again
    chapter = src / "ch02.md"
    chapter.write_text(chapter.read_text().replace("调用 add", "调用 mul"), encoding="utf-8")
    changed = sphinx("epub", src, tmp_path / "epub", "zh_CN", "-v")
    assert "drawing 1 Mermaid diagram(s) as SVG" in changed
    cache = tmp_path / "doctrees-epub-zh_CN" / "seriesbook-diagrams"
    assert len(list(cache.glob("*.svg"))) == 2  # the old drawing of ch02's diagram is gone


@SLOW
def test_diagram_that_fails_is_reported_at_its_line(tmp_path: Path) -> None:
    src = copy_root("test-offline-diagram-error", tmp_path / "src")
    warnings = sphinx("latex", src, tmp_path / "latex", "zh_CN")
    code = Problem.DIAGRAM_RENDER.code
    expected = rf"index\.md:3: WARNING: Mermaid diagram could not be drawn .*\[seriesbook\.{code}\]"
    assert re.search(expected, warnings), warnings
    tex = next((tmp_path / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "flowchart LR" in tex  # its source is printed instead of a silently missing figure


def test_without_npm_packages_the_build_says_so_in_one_line(tmp_path: Path) -> None:
    """No override and no node_modules next to conf.py: the site would serve the packaged
    mermaid, but drawing needs mermaid-cli; one offline-tool line says where to install it
    (the diagrams' sources are printed), never Sphinx's crash report."""
    src = copy_root(BOOK, tmp_path / "src")
    env = {k: v for k, v in os.environ.items() if k != "SERIESBOOK_MERMAID_DIR"}
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "latex", "-q", "-W", "-d", str(tmp_path / "dt"),
         str(src), str(tmp_path / "out")],
        capture_output=True, text=True, env={**env, "PYTHONPATH": str(REPO / "_ext")},
    )
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "[seriesbook.offline-tool]" in lines[0], result.stderr
    missing = f"@mermaid-js/mermaid-cli and mermaid not installed in {src / 'node_modules'}"
    assert missing in lines[0]
    assert "`npm ci`" in lines[0] and "Extension error" not in result.stderr


def test_a_renderer_without_a_browser_says_so_in_one_line(tmp_path: Path) -> None:
    """The npm packages are there but no browser can start (none installed, none at
    PUPPETEER_EXECUTABLE_PATH): one offline-tool line names what is missing and the diagrams'
    sources are printed, as for a missing package; never Sphinx's "Extension error!" report."""
    require(shutil.which("node") is not None, "Node.js is missing")
    require((REPO / "node_modules" / "@mermaid-js" / "mermaid-cli").is_dir(), "run `npm ci`")
    src = copy_root(BOOK, tmp_path / "src")
    env = {**os.environ, "PYTHONPATH": str(REPO / "_ext"),
           "PUPPETEER_EXECUTABLE_PATH": str(tmp_path / "no-such-browser")}
    command = [sys.executable, "-m", "sphinx", "-b", "latex", "-q", "-d", str(tmp_path / "dt"),
               str(src), str(tmp_path / "out")]
    warned = subprocess.run([*command, "-W"], capture_output=True, text=True, env=env)
    assert warned.returncode == 1
    lines = [line for line in warned.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "[seriesbook.offline-tool]" in lines[0], warned.stderr
    assert "could not start" in lines[0] and "Chromium" in lines[0]
    assert "Extension error" not in warned.stderr and "Traceback" not in warned.stderr
    built = subprocess.run([*command, "-E"], capture_output=True, text=True, env=env)
    assert built.returncode == 0, built.stderr
    tex = next((tmp_path / "out").glob("*.tex")).read_text(encoding="utf-8")
    assert "flowchart" in tex  # the sources stand where the drawings would
