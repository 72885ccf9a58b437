"""Every text says its language: the English edition's Chinese is ``zh-CN``, in a reader's browser.

A small two-edition book (``test-editions-lang``: a translated chapter, a partly translated one
with a fuzzy entry, a code block with a Chinese comment and an untranslated diagram, a chapter
without a catalog, an untranslated toctree caption) is built as ``make html`` builds each
edition, served on 127.0.0.1 and read by Debian's Chromium through Playwright: every text node
holding Han characters must be inside an element whose language is ``zh-CN``, the English words
must stay English, and Chromium must draw the untranslated Chinese in the SC font it uses for the
Chinese edition. The same holds for pages of the real book's English edition. The EPUB passes
epubcheck with its ``xml:lang`` marks; the PDF's Han text is set in the SC fonts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from bs4 import BeautifulSoup
from conftest import CHROMIUM, MERMAID_DIST, require, served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "tests" / "roots" / "test-editions-lang"
TIMEOUT_MS = 30_000
SC_FONT = "Noto Sans CJK SC"

# Every text node of the page with a Han character, with the language of its nearest element
# that says one (``closest('[lang]')``); the <head> and scripts are not text a reader sees.
HAN_TEXT_LANGUAGES = """() => {
  const han = /[\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff]/;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!han.test(node.data)) continue;
    const parent = node.parentElement;
    if (parent.closest("script, style, noscript, template")) continue;
    const marked = parent.closest("[lang]");
    const lang = marked ? marked.getAttribute("lang") : "";  // SVG text has no .lang
    found.push({text: node.data.trim().slice(0, 40), lang: lang});
  }
  return found;
}"""


def sphinx_build(
    builder: str, srcdir: Path, outdir: Path, language: str, *extra: str
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sphinx", "-b", builder, "-q", "-D", f"language={language}"]
    command += ["-d", str(outdir.parent / f".doctrees-{builder}-{language}"), *extra]
    env = {**os.environ, "SERIESBOOK_MERMAID_DIR": str(MERMAID_DIST)}
    return subprocess.run(
        [*command, str(srcdir), str(outdir)], capture_output=True, text=True, env=env, cwd=REPO
    )


def copy_of_book(where: Path) -> Path:
    """The test book copied under *where*: a build compiles its catalogs beside them, which must
    not happen in the repository (two test processes would race on the same files)."""
    shutil.copytree(ROOT, where / "book")
    return where / "book"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both editions of the test book, as ``make html`` lays them out (``<language>/``)."""
    base = tmp_path_factory.mktemp("lang")
    out, book = base / "html", copy_of_book(base)
    for language in ("zh_CN", "en"):
        result = sphinx_build("html", book, out / language, language, "-W", "--keep-going")
        assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    with served(site) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


def open_page(page: Page, url: str) -> None:
    """Open *url* and wait for its diagrams' full-screen buttons (the drawings are in the page)."""
    page.goto(url, wait_until="load")
    if page.locator(".seriesbook-diagram").count():
        page.wait_for_selector(".seriesbook-diagram-fullscreen svg")


def platform_font(page: Page, selector: str) -> str:
    """The font Chromium drew most of *selector*'s glyphs with (CDP's platform fonts)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return str(max(fonts, key=lambda font: font["glyphCount"])["familyName"])


def test_marks_in_the_html(site: Path) -> None:
    """What the build writes, without a browser: marks in the English edition, none in Chinese."""
    english = BeautifulSoup((site / "en" / "ch02.html").read_text(), "html.parser")
    article = english.select_one("article")
    assert article is not None
    # a diagram partly translated: its untranslated label says so in the drawing itself
    labels = article.select(".seriesbook-diagram svg text[lang]")
    assert [(label.get_text(), label["lang"]) for label in labels] == [("参数张量", "zh-CN")]
    marked = [mark.get_text(" ", strip=True) for mark in article.select("[lang='zh-CN']")]
    assert any(text.startswith("这一段尚未翻译") for text in marked)  # the fuzzy entry's
    assert "§2.2 未译小节" in marked  # an empty translation; the permalink stays outside
    assert any(text.startswith("def step") for text in marked)  # the code with a Chinese comment
    assert not any(text.startswith("def plain") for text in marked)  # ... and not the other
    assert not article.select("h2 > a.headerlink[lang], h2 span[lang] a.headerlink")
    assert english.select_one("p.caption[lang='zh-CN']") is not None  # the sidebar's caption
    index = BeautifulSoup((site / "en" / "index.html").read_text(), "html.parser")
    captions = index.select("article p.caption")
    assert [caption.get("lang") for caption in captions] == [None, "zh-CN"]
    assert captions[1].get_text() == '第二篇 "原文" & @源码'  # written as Sphinx escapes it
    chinese = BeautifulSoup((site / "zh_CN" / "ch02.html").read_text(), "html.parser")
    assert not chinese.select("article section [lang], .bd-sidebar [lang]")


@pytest.mark.browser
@pytest.mark.parametrize("pagename", ["index", "ch01", "ch02", "ch03"])
def test_english_edition_marks_every_han_text_zh_cn(
    base_url: str, page: Page, pagename: str
) -> None:
    open_page(page, f"{base_url}en/{pagename}.html")
    assert page.evaluate("document.documentElement.lang") == "en"
    texts = page.evaluate(HAN_TEXT_LANGUAGES)
    assert texts or pagename == "ch01"  # ch01 is fully translated: no Chinese left but the switcher
    unmarked = [text for text in texts if text["lang"] != "zh-CN"]
    assert not unmarked, unmarked


@pytest.mark.browser
def test_english_words_stay_english(base_url: str, page: Page) -> None:
    open_page(page, f"{base_url}en/ch02.html")

    def language(selector: str) -> str:
        marked = "e => { const m = e.closest('[lang]'); return m ? m.getAttribute('lang') : ''; }"
        return str(page.eval_on_selector(selector, marked))

    translated = "p:has-text('This paragraph is translated')"
    assert language(translated) == "en"
    assert language(".seriesbook-translation-notice p") == "en"  # the notice, the switcher
    assert language(".seriesbook-translation-notice p span") == "zh-CN"  # names 简体中文
    assert language("nav.seriesbook-editions .seriesbook-editions-label") == "en"
    # a code block without Chinese is not forced into zh-CN; one with a Chinese comment is
    assert language("div.highlight-python:has-text('plain')") == "en"
    assert language("div.highlight-python:has-text('step')") == "zh-CN"
    # the fuzzy entry's paragraph shows the source text, so it is Chinese
    assert language("p:has-text('TorchDynamo')") == "zh-CN"
    # a diagram partly translated: its untranslated label is Chinese, the translated one English
    assert language(".seriesbook-diagram svg text:has-text('参数张量')") == "zh-CN"
    assert language(".seriesbook-diagram svg text:has-text('Optimizer')") == "en"
    # the translated part's caption is English, the untranslated one Chinese (sidebar)
    assert language(".bd-sidebar p.caption:has-text('Part One Translated')") == "en"
    assert language(".bd-sidebar p.caption:has-text('第二篇')") == "zh-CN"


@pytest.mark.browser
def test_chinese_edition_is_zh_cn_and_its_english_names_say_so(base_url: str, page: Page) -> None:
    open_page(page, f"{base_url}zh_CN/ch02.html")
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    texts = page.evaluate(HAN_TEXT_LANGUAGES)
    assert texts and all(text["lang"] == "zh-CN" for text in texts)
    english = page.eval_on_selector("a.seriesbook-edition", "e => e.closest('[lang]').lang")
    assert english == "en"
    # nothing of the book's own text is marked: its language is the page's
    assert page.locator("article section [lang]").count() == 0


@pytest.mark.browser
def test_untranslated_chinese_is_drawn_in_the_sc_font(base_url: str, page: Page) -> None:
    require(
        SC_FONT in subprocess.run(["fc-list"], capture_output=True, text=True).stdout,
        "fonts-noto-cjk is missing: apt-get install fonts-noto-cjk",
    )
    open_page(page, f"{base_url}zh_CN/ch03.html")
    chinese = platform_font(page, "article section > p")
    open_page(page, f"{base_url}en/ch03.html")
    english = platform_font(page, "article section > p[lang='zh-CN']")
    heading = platform_font(page, "article h1 span[lang='zh-CN']")
    sidebar = platform_font(page, ".bd-sidebar p.caption[lang='zh-CN']")
    assert chinese == english == heading == sidebar == SC_FONT, (chinese, english, heading, sidebar)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("language", "name", "close"),
    [
        ("en", "Show the diagram full screen", "Close the full-screen diagram"),
        ("zh_CN", "全屏查看此图", "关闭全屏图"),
    ],
)
def test_fullscreen_button_draws_an_icon_named_in_the_edition(
    base_url: str, page: Page, language: str, name: str, close: str
) -> None:
    open_page(page, f"{base_url}{language}/ch01.html")
    button = page.locator(".seriesbook-diagram-fullscreen").first
    assert button.get_attribute("aria-label") == name
    assert "\u26f6" not in button.inner_text()
    icon = button.locator("svg path")
    box = icon.bounding_box()
    assert box is not None and box["width"] > 4 and box["height"] > 4
    # the full-screen copy keeps the diagram's language and the viewer's words
    button.click()
    viewer = page.locator("dialog.seriesbook-diagram-viewer[open]")
    viewer.wait_for()
    assert viewer.locator(".seriesbook-diagram-full > svg").count() == 1
    assert page.locator(".seriesbook-diagram-close").get_attribute("aria-label") == close
    page.keyboard.press("Escape")
    viewer.wait_for(state="hidden")


@pytest.mark.browser
def test_untranslated_diagram_in_full_screen_stays_zh_cn(base_url: str, page: Page) -> None:
    open_page(page, f"{base_url}en/ch02.html")
    page.locator(".seriesbook-diagram-fullscreen").first.click()
    page.locator("dialog.seriesbook-diagram-viewer[open] svg").wait_for()
    texts = page.evaluate(HAN_TEXT_LANGUAGES)
    assert texts and all(text["lang"] == "zh-CN" for text in texts), texts


# The search page has answered: a summary line, and every result's snippet has arrived.
SEARCH_SETTLED = (
    "document.querySelector('#search-results .search-summary')?.innerText.length > 0"
    " && [...document.querySelectorAll('#search-results li')]"
    ".every((li) => li.dataset.seriesbookParts !== undefined)"
)
# Each result's snippet as runs of (text, language of its nearest element saying one); the
# highlighted query words join the run they stand in when their language is the same.
SNIPPET_LANGUAGES = """() => [...document.querySelectorAll("#search-results p.context")]
  .map((p) => {
  const runs = [];
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const lang = node.parentElement.closest("[lang]").getAttribute("lang");
    const last = runs[runs.length - 1];
    if (last && last[1] === lang) last[0] += node.data;
    else runs.push([node.data, lang]);
  }
  return runs;
})"""


@pytest.mark.browser
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the fuzzy entry's paragraph, shown in Chinese: its snippet is zh-CN
        ("TorchDynamo", [("这一段尚未翻译，讲的是 TorchDynamo 如何截获 Python 帧。", "zh-CN")]),
        # a page without a catalog, found by a Chinese word
        ("cudaMalloc", [("第二段原文，包含 CUDA 与 cudaMalloc 等英文词。", "zh-CN")]),
        # the notice: an English sentence naming 简体中文, which alone is zh-CN (as on the page)
        ("Passages", [("…shown in the original (", "en"), ("简体中文", "zh-CN"), (").", "en")]),
    ],
)
def test_search_snippets_say_the_language_the_page_says(
    base_url: str, page: Page, query: str, expected: list[tuple[str, str]]
) -> None:
    """English edition: a snippet says the language the page says its text is in, piece by
    piece (the search once called any snippet holding a Han character Chinese)."""
    page.goto(f"{base_url}en/search.html?q={query}")
    page.wait_for_function(SEARCH_SETTLED)
    snippets = [[(text, lang) for text, lang in runs] for runs in page.evaluate(SNIPPET_LANGUAGES)]
    assert snippets, query
    han = re.compile(r"[\u4e00-\u9fff]")
    for runs in snippets:  # no Chinese passes for English
        assert all(lang == "zh-CN" for text, lang in runs if han.search(text)), runs
    shown = snippets[0]
    if expected[0][0].startswith("…"):  # the start of a long paragraph is cut off
        head, tail = expected[0][0][1:], shown[0][0]
        assert tail.endswith(head), shown
        shown = [(expected[0][0], shown[0][1]), *shown[1:]]
    assert shown == expected


@pytest.mark.browser
def test_read_the_docs_search_opens_the_books_search(base_url: str, page: Page) -> None:
    open_page(page, f"{base_url}en/ch01.html")
    meta = page.locator("meta[name='readthedocs-addons-api-version']")
    assert meta.get_attribute("content") == "1"
    # the search addon (or its "/" hotkey) asks for its dialog: the book's own opens instead
    opened = page.evaluate("""() => {
      let addonSawIt = false;
      document.addEventListener("readthedocs-search-show", () => { addonSawIt = true; });
      document.dispatchEvent(new CustomEvent("readthedocs-search-show"));
      return !addonSawIt;
    }""")
    assert opened
    page.wait_for_selector("#pst-search-dialog[open]")
    # what the addons' data says is recorded; their link previews are hidden
    page.evaluate("""() => {
      const data = {addons: {search: {enabled: true}, linkpreviews: {enabled: true}}};
      document.dispatchEvent(new CustomEvent("readthedocs-addons-data-ready",
                                             {detail: {data: () => data}}));
      const tip = document.createElement("div");
      tip.setAttribute("data-linkpreview-href", location.href);
      tip.id = "rtd-tip";
      tip.textContent = "preview";
      document.body.append(tip);
    }""")
    html = page.locator("html")
    assert html.get_attribute("data-readthedocs-search") == "redirected"
    assert html.get_attribute("data-readthedocs-linkpreviews") == "hidden"
    assert not page.locator("#rtd-tip").is_visible()


def test_manual_lists_the_read_the_docs_addon_settings() -> None:
    manual = (REPO / "docs" / "readthedocs.md").read_text(encoding="utf-8")
    section = manual.split("## Read the Docs addons", 1)[1].split("\n## ", 1)[0]
    for addon, setting in [("Search", "off"), ("Link previews", "off"), ("Flyout", "on")]:
        assert re.search(rf"\| {addon}[^|]*\| \*\*{setting}\*\*", section, re.I), addon
    assert "readthedocs-addons-data-ready" in section


# --- the real book --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def book_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real book's English edition (``make html``'s ``en``), built once."""
    out = tmp_path_factory.mktemp("book-en") / "en"
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(REPO)]
    command += ["-D", "language=en", str(REPO / "source"), str(out)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def book_url(book_site: Path) -> Iterator[str]:
    with served(book_site) as url:
        yield url


@pytest.mark.browser
@pytest.mark.parametrize("pagename", ["ch03", "ch01", "index"])
def test_book_english_edition_marks_its_chinese(book_url: str, page: Page, pagename: str) -> None:
    """ch03 is not translated yet, ch01 is, the root page partly: every Han text is zh-CN."""
    open_page(page, f"{book_url}{pagename}.html")
    texts = page.evaluate(HAN_TEXT_LANGUAGES)
    # the switcher names the Traditional Chinese edition in its own language
    switcher = {"text": "繁體中文", "lang": "zh-Hant-TW"}
    unmarked = [text for text in texts if text["lang"] != "zh-CN" and text != switcher]
    assert texts and not unmarked, unmarked[:10]
    if pagename == "ch03":
        assert platform_font(page, "article section > p[lang='zh-CN']") == SC_FONT


# --- EPUB and PDF ---------------------------------------------------------------------------


def epubcheck_command() -> list[str]:
    """Debian installs epubcheck as an executable jar, which needs binfmt_misc to run."""
    found = Path(shutil.which("epubcheck") or "epubcheck").resolve()
    return ["java", "-jar", str(found)] if found.suffix == ".jar" else [str(found)]


@pytest.mark.slow  # PDF (XeLaTeX) and EPUB builds
def test_epub_marks_pass_epubcheck(tmp_path: Path) -> None:
    require(shutil.which("epubcheck") is not None, "epubcheck is missing (apt-get install it)")
    require(Path("/usr/bin/chromium").is_file(), "chromium is missing (the diagrams' drawing)")
    book = copy_of_book(tmp_path)
    result = sphinx_build("epub", book, tmp_path / "epub", "en", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    path = next((tmp_path / "epub").glob("*.epub"))
    with zipfile.ZipFile(path) as archive:
        chapter = archive.read("ch02.xhtml").decode()
        untranslated = archive.read("ch03.xhtml").decode()
    assert '<p lang="zh-CN" xml:lang="zh-CN">这一段尚未翻译' in chapter
    assert '<span lang="zh-CN" xml:lang="zh-CN">§2.2 未译小节</span>' in chapter
    assert "This paragraph is translated" in chapter
    assert '<span lang="zh-CN" xml:lang="zh-CN">第3章 没有译本</span>' in untranslated
    assert 'xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">' in chapter
    check = subprocess.run([*epubcheck_command(), str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow  # PDF (XeLaTeX) and EPUB builds
def test_english_pdf_sets_han_in_the_sc_fonts(tmp_path: Path) -> None:
    for tool in ("xelatex", "latexmk", "pdffonts"):
        require(shutil.which(tool) is not None, f"{tool} is missing (TeX Live, poppler-utils)")
    require(CHROMIUM.is_file(), f"{CHROMIUM} is missing: the book's diagrams are drawn for the PDF")
    outdir = tmp_path / "latex"
    result = sphinx_build("latex", copy_of_book(tmp_path), outdir, "en", "-W", "--keep-going")
    assert result.returncode == 0, result.stderr
    tex = next(outdir.glob("*.tex"))
    latexmk = subprocess.run(
        ["latexmk", "-pdf", "-dvi-", "-ps-", "-silent", tex.name],
        cwd=outdir, capture_output=True, text=True,
    )
    assert latexmk.returncode == 0, latexmk.stdout[-3000:]
    pdf = tex.with_suffix(".pdf")
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    names = [line.split()[0] for line in fonts.stdout.splitlines()[2:]]
    # Noto CJK's faces (JP, KR, SC, TC) share one CFF, named after JP: pdffonts shows
    # "NotoSerifCJKjp" whichever face set the text (which face does is the next test's business)
    assert any("NotoSerifCJK" in name for name in names), names
    assert any("NotoSansCJK" in name for name in names), names  # the headings
    assert not [name for name in names if "Kai" in name or "AR PL" in name], names
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "这一段尚未翻译" in text
    assert "Missing character" not in tex.with_suffix(".log").read_text(errors="replace")


def render_han(workdir: Path, name: str, preamble: str) -> bytes:
    """Han characters whose SC and JP forms differ, set by xelatex with *preamble*, as pixels."""
    tex = workdir / f"{name}.tex"
    tex.write_text(
        "\\documentclass{article}\n" + preamble + "\n\\pagestyle{empty}\n"
        "\\begin{document}\\fontsize{40}{48}\\selectfont 骨直遍\\end{document}\n",
        encoding="utf-8",
    )
    subprocess.run(["xelatex", "-interaction=batchmode", tex.name], cwd=workdir,
                   capture_output=True, check=True)
    subprocess.run(["pdftoppm", "-r", "50", "-gray", f"{name}.pdf", name], cwd=workdir,
                   capture_output=True, check=True)
    return next(workdir.glob(f"{name}-*.pgm")).read_bytes()


@pytest.mark.slow  # PDF (XeLaTeX) and EPUB builds
def test_pdf_fonts_set_han_in_the_sc_face(tmp_path: Path) -> None:
    """The PDF's font settings (every edition's) pick the SC face of Debian's Noto CJK
    collection: the same pixels as its SC face by index, not those of its first face (JP)."""
    for tool in ("xelatex", "pdftoppm"):
        require(shutil.which(tool) is not None, f"{tool} is missing (TeX Live, poppler-utils)")
    from seriesbook.offline._settings import latex_elements

    collection = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    require(Path(collection).is_file(), "fonts-noto-cjk is missing")
    elements = latex_elements("en")
    ours = render_han(tmp_path, "ours", elements["fontenc"] + "\n" + elements["fontpkg"])

    def face(index: int) -> str:
        return ("\\usepackage{fontspec}\\usepackage{xeCJK}\\setCJKmainfont{"
                f"{Path(collection).name}}}[Path=/usr/share/fonts/opentype/noto/, "
                f"FontIndex={index}]")

    sc = render_han(tmp_path, "sc", face(2))
    jp = render_han(tmp_path, "jp", face(0))
    assert sc != jp  # the characters do differ between the two faces
    assert ours == sc
