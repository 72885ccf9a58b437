"""Previews as a reader meets them: Chromium (Playwright) on a small book and on the sample book.

Hover, Tab and tap show the target's own text (compared with the target page, and for a citation
with the cited file or the lock), Escape closes, ``file://`` works, nothing leaves the host.
The sample book is built once per edition (``zh_CN`` and ``en``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from conftest import served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "tests" / "roots" / "test-previews"
BOX = "#seriesbook-preview"
TIMEOUT_MS = 30_000


def sphinx_build(srcdir: Path, outdir: Path, *options: str) -> Path:
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", *options, str(srcdir),
               str(outdir)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return outdir


@pytest.fixture(scope="module")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    srcdir = tmp_path_factory.mktemp("small") / "src"
    shutil.copytree(ROOT, srcdir)
    return sphinx_build(srcdir, srcdir.parent / "html")


@pytest.fixture(scope="module")
def small_url(small_site: Path) -> Iterator[str]:
    with served(small_site) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


@pytest.fixture
def touch_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(has_touch=True, is_mobile=True,
                                  viewport={"width": 400, "height": 800})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


def watch_requests(page: Page) -> list[str]:
    """Every URL the page asks for; anything off-host is refused at once (and recorded)."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.route(lambda url: urlsplit(url).hostname not in {"127.0.0.1", None, ""},
               lambda route: route.abort())
    return requested


def off_host(requested: list[str]) -> list[str]:
    return [url for url in requested
            if urlsplit(url).scheme not in {"data", "blob", "file"}
            and urlsplit(url).hostname != "127.0.0.1"]


def link(page: Page, href: str) -> Locator:
    return page.locator(f':is(article, div.body) a[href="{href}"]').first


def box_text(page: Page) -> str:
    return page.locator(BOX).inner_text()


def hover_preview(page: Page, target: Locator) -> str:
    target.scroll_into_view_if_needed()
    target.hover()
    page.wait_for_selector(BOX, state="visible")
    return box_text(page)


def tab_to(page: Page, target: Locator) -> None:
    """Focus *target* with the keyboard: focus the link before it, then press Tab."""
    handle = target.element_handle()
    assert handle is not None
    page.evaluate("""(el) => {
        const links = [...document.querySelectorAll(
            ':is(article, div.body) a[href]:not(.headerlink)')];
        const before = links[links.indexOf(el) - 1];
        if (before) before.focus(); else document.body.focus();
    }""", handle)
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("(el) => document.activeElement === el", handle):
            return
    raise AssertionError("Tab never reached the link")


def code_lines(page: Page) -> list[str]:
    """The preview's code as the reader sees it, without the line numbers."""
    lines: list[str] = page.evaluate("""() => {
        const pre = document.querySelector('#seriesbook-preview pre').cloneNode(true);
        pre.querySelectorAll('.linenos').forEach((n) => n.remove());
        return pre.textContent.split('\\n');
    }""")
    return lines


def close_with_escape(page: Page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector(BOX, state="detached")


BOX_SCRIPT = REPO / "_ext" / "seriesbook" / "previews" / "static" / "seriesbook-previews-box.js"
HOSTILE = "<!--<script>document.title='x'</script>\"'&\u2028</p><p>"
UI = {"d": "Diagram", "c": "Code", "t": "Table", "go": "Read it", "gh": "View the source",
      "more": "… {n} more lines", "label": "Preview"}


def test_box_names_a_block_in_its_language_and_shows_markup_as_text(page: Page) -> None:
    """The box as the English edition draws it: 〔Diagram · 调度流程〕 with the name (only) in
    zh-CN; a title or text holding markup is text, never elements or script."""
    page.set_content('<html lang="en"><body><p><a id="to" href="#x">§1.2</a></p></body></html>')
    page.add_script_tag(path=str(BOX_SCRIPT))
    preview = {"t": HOSTILE, "tl": "zh-CN",
               "b": [["d", "调度流程", "zh-CN"], ["c", "Code computing gradients"], ["p", HOSTILE]]}
    page.evaluate("([p, ui]) => seriesbookPreviewBox(document.getElementById('to'), p, ui, 'box')",
                  [preview, UI])
    named = page.locator("#box p.sbp-named")
    assert named.all_inner_texts() == [
        "〔Diagram · 调度流程〕", "〔Code · Code computing gradients〕"]
    assert named.first.evaluate("p => p.lang") == ""
    assert named.first.locator("span").evaluate("s => s.lang") == "zh-CN"
    assert named.nth(1).locator("span").evaluate("s => s.lang") == ""
    assert page.locator("#box .sbp-title").evaluate("p => [p.textContent, p.lang]") == [
        HOSTILE, "zh-CN"]
    assert page.locator("#box").get_attribute("aria-label") == f"Preview: {HOSTILE}"
    assert page.locator("#box script, #box p p").count() == 0
    assert page.title() == ""


# --- the small book ---------------------------------------------------------------------------


def test_hover_focus_and_escape(small_url: str, page: Page) -> None:
    requested = watch_requests(page)
    page.goto(small_url + "ch01.html")
    section = link(page, "ch02.html#sec-2-1")
    text = hover_preview(page, section)
    assert "§2.1 分配器 & 缓存" in text and "分配器先查缓存" in text
    assert section.get_attribute("aria-describedby") == "seriesbook-preview"
    assert page.locator(BOX).get_attribute("role") == "dialog"
    page.locator(BOX).hover()  # the box stays open under the pointer
    page.wait_for_timeout(600)
    assert page.locator(BOX).is_visible()
    close_with_escape(page)

    chapter = link(page, "ch02.html#ch-2")
    tab_to(page, chapter)
    page.wait_for_selector(BOX, state="visible")
    assert "第2章 内存" in box_text(page) and "内存池按块复用显存。" in box_text(page)
    close_with_escape(page)
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == "ch02.html#ch-2"
    assert off_host(requested) == []
    assert sum(url.endswith("_previews/ch01.js") for url in requested) == 1  # once


def test_citation_shows_the_cited_lines(small_url: str, page: Page) -> None:
    page.goto(small_url + "ch01.html")
    github = "https://github.com/pytorch/pytorch/blob/v1.0/pkg/engine.py"
    text = hover_preview(page, link(page, github + "#L1-L15"))
    source = (ROOT / "demo-src" / "pkg" / "engine.py").read_text(encoding="utf-8").split("\n")
    assert code_lines(page) == source[:12]
    assert "3" in page.locator(f"{BOX} .sbp-more").inner_text()
    assert "BSD-3-Clause" in text and "pkg/engine.py:1-15" in text
    assert page.locator(f"{BOX} .linenos").first.inner_text() == "1"
    assert page.locator(f"{BOX} span.k").count() > 0  # highlighted


def test_tap_previews_then_goes(small_url: str, touch_page: Page) -> None:
    page = touch_page
    page.goto(small_url + "ch01.html")
    target = link(page, "ch02.html#sec-2-1")
    target.scroll_into_view_if_needed()
    target.tap()
    page.wait_for_selector(BOX, state="visible")
    assert page.url.endswith("ch01.html")  # the first tap previews
    page.locator(f"{BOX} .sbp-foot a").tap()
    page.wait_for_url("**/ch02.html#sec-2-1")


def test_works_from_file(small_site: Path, page: Page) -> None:
    requested = watch_requests(page)
    page.goto((small_site / "ch02.html").as_uri())
    text = hover_preview(page, link(page, "ch01.html#sec-1-1"))
    assert "§1.1 调度" in text and "〔图〕" in text
    assert off_host(requested) == []


# --- the sample book, both editions -----------------------------------------------------------


@pytest.fixture(scope="module", params=["zh_CN", "en"])
def book_site(request: pytest.FixtureRequest,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    language: str = request.param
    outdir = tmp_path_factory.mktemp(f"book-{language}") / "html"
    sphinx_build(REPO / "source", outdir, "-c", str(REPO), "-D", f"language={language}")
    yield language, outdir


def target_texts(site: Path, href: str) -> tuple[str, str]:
    """The heading and first paragraph of the section *href* points at, as its page has them."""
    page, anchor = href.split("#")
    soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
    section = soup.find(id=anchor)
    assert section is not None
    heading = section.find(["h1", "h2", "h3", "h4"])
    for permalink in heading.find_all("a", class_="headerlink"):
        permalink.decompose()
    paragraph = next(p for p in section.find_all("p", recursive=False))
    return heading.get_text().strip(), " ".join(paragraph.get_text().split())


def first_href(site: Path, page: str, pattern: str) -> str:
    """The first link of the page's text whose href matches *pattern*."""
    soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article")
    assert article is not None
    return next(str(a["href"]) for a in article.find_all("a", href=True)
                if re.match(pattern, str(a["href"])) and "headerlink" not in a.get("class", []))


MEMORY_PY = "https://github.com/pytorch/pytorch/blob/v2.11.0/torch/cuda/memory.py#L513"


def sample_targets(site: Path) -> list[str]:
    """ch04's links to a §, to a chapter and to a cited line."""
    return [first_href(site, "ch04.html", r"ch02\.html#sec-2-4$"),
            first_href(site, "ch04.html", r"ch\d+\.html#ch-\d+$"),
            first_href(site, "ch04.html", re.escape(MEMORY_PY) + "$")]


def check_sample_preview(page: Page, site: Path, language: str, href: str) -> None:
    """The open preview shows *href*'s target: its page's heading and text, or the cited line
    (the lock's text, which `seriesbook lock` took from v2.11.0; and the local copy's, if any)."""
    text = box_text(page)
    if href.startswith("https://"):
        lock = json.loads((REPO / "citations.lock.json").read_text(encoding="utf-8"))
        expected = lock["sources"]["pytorch"]["text"]["torch/cuda/memory.py:513-513"]
        assert code_lines(page) == expected.split("\n")
        copy = os.environ.get("SERIESBOOK_SOURCE_PYTORCH")
        if copy:
            lines = (Path(copy) / "torch/cuda/memory.py").read_text(encoding="utf-8").split("\n")
            assert code_lines(page) == lines[512:513]
        assert "BSD-3-Clause" in text and "torch/cuda/memory.py:513" in text
        return
    heading, paragraph = target_texts(site, href)
    assert heading in text, (href, text)
    assert "".join(paragraph.split())[:20] in "".join(text.split()), (href, text, paragraph)
    if language == "en" and re.search(r"[\u4e00-\u9fff]", heading):  # shown untranslated
        assert page.locator(f"{BOX} .sbp-title").get_attribute("lang") == "zh-CN"


def test_sample_book_previews(book_site: tuple[str, Path], page: Page) -> None:
    language, site = book_site
    requested = watch_requests(page)
    with served(site) as base:
        page.goto(base + "ch04.html")
        for href in sample_targets(site):
            hover_preview(page, link(page, href))
            check_sample_preview(page, site, language, href)
            close_with_escape(page)
            tab_to(page, link(page, href))
            page.wait_for_selector(BOX, state="visible")
            check_sample_preview(page, site, language, href)
            close_with_escape(page)
    assert off_host(requested) == []


def test_sample_book_tap(book_site: tuple[str, Path], touch_page: Page) -> None:
    language, site = book_site
    page = touch_page
    with served(site) as base:
        page.goto(base + "ch04.html")
        for href in sample_targets(site):
            target = link(page, href)
            target.scroll_into_view_if_needed()
            target.tap()
            page.wait_for_selector(BOX, state="visible")
            assert page.url.endswith("ch04.html")
            check_sample_preview(page, site, language, href)
            page.locator("article h1").first.tap()  # elsewhere: the preview closes
            page.wait_for_selector(BOX, state="detached")


def test_sample_book_search_and_diagrams_still_work(
    book_site: tuple[str, Path], page: Page
) -> None:
    """A preview open, then the theme's search and a diagram's full-screen button: both work."""
    _, site = book_site
    with served(site) as base:
        page.goto(base + "ch04.html")
        hover_preview(page, link(page, first_href(site, "ch04.html", r"ch\d+\.html#")))
        button = page.locator(".seriesbook-diagram-fullscreen").first
        button.scroll_into_view_if_needed()
        button.click()  # the pointer leaves the link: the preview goes
        page.wait_for_selector("dialog.seriesbook-diagram-viewer[open]", state="visible")
        page.wait_for_selector(BOX, state="detached")
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog.seriesbook-diagram-viewer[open]", state="detached")
        page.locator("button.search-button__button").first.click()
        page.wait_for_selector("#pst-search-dialog[open] input", state="visible")
