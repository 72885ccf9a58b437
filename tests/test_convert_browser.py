"""The zh_TW edition in a browser: the small converted book's two editions side by side, as
``make html`` lays them out (``<root>/zh_CN/``, ``<root>/zh_TW/``), over http."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import require, served
from playwright.sync_api import Browser, Page
from test_convert import build, copy_book
from test_editions_lang import open_page, platform_font
from test_previews_browser import hover_preview

REPO = Path(__file__).resolve().parent.parent
TC_FONT = "Noto Sans CJK TC"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    book = copy_book(tmp_path_factory.mktemp("convert-site"))

    from seriesbook.commands.cli import main
    from test_convert import gettext_to

    pot = gettext_to(book)
    assert main(["convert", "zh_TW", "-p", str(pot), "-d", str(book / "locale")]) == 0
    root = book / "_build" / "html"
    for language in ("zh_CN", "zh_TW"):
        outdir, warnings = build(book, language)
        assert "WARNING" not in warnings, warnings
        (root / language).parent.mkdir(parents=True, exist_ok=True)
        outdir.rename(root / language)
    with served(root) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    page.set_default_timeout(30_000)
    yield page
    page.close()


def first_results(page: Page, base_url: str, queries: list[str]) -> list[str]:
    sys.path.insert(0, str(REPO / "benchmarks"))
    from search_queries import Query, run_in_page

    answers = run_in_page(page, base_url, [Query("term", text) for text in queries])
    return [
        f"{doc}#{anchor.lstrip('#')}" if answer["shown"] else ""
        for answer in answers
        for doc, anchor in answer["shown"][:1] or [("", "")]
    ]


def test_search_finds_traditional_and_simplified(site: str, page: Page) -> None:
    [wanted] = first_results(page, f"{site}zh_CN/", ["内存"])
    assert wanted.startswith("ch01#"), wanted  # the chapter or one of its §
    assert first_results(page, f"{site}zh_TW/", ["記憶體", "内存", "內存"]) == [wanted] * 3


def test_switcher_keeps_the_section(site: str, page: Page) -> None:
    open_page(page, f"{site}zh_CN/ch01.html#sec-1-2")
    link = page.locator("a.seriesbook-edition", has_text="繁體中文")
    assert link.get_attribute("lang") == "zh-Hant-TW"
    link.click()
    page.wait_for_url("**/zh_TW/ch01.html#sec-1-2")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant-TW"
    assert page.locator("h2", has_text="回呼與擴充").count() == 1


def test_a_preview_in_zh_tw(site: str, page: Page) -> None:
    open_page(page, f"{site}zh_TW/ch01.html")
    mention = page.locator("article p a.reference.internal[href='#sec-1-2']").first
    text = hover_preview(page, mention)
    assert "回呼與擴充" in text


def test_the_text_is_drawn_in_the_tc_font(site: str, page: Page) -> None:
    require(
        TC_FONT in subprocess.run(["fc-list"], capture_output=True, text=True).stdout,
        "fonts-noto-cjk is missing: apt-get install fonts-noto-cjk",
    )
    open_page(page, f"{site}zh_TW/ch01.html")
    assert platform_font(page, "article section > p") == TC_FONT
