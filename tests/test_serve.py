"""The author's loop: ``seriesbook serve`` in a real browser, and ``check --watch``'s terminal.

Each test copies the small book ``tests/roots/test-serve`` to its tmp_path, starts the command
as the author does (its own process, any free port), edits files as an editor saves them, and
waits for what the author waits for: the new text in the browser's page, the overlay, the line
in the terminal. The command is always stopped with Ctrl-C, and no process of it may be left.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from serving import Running, edit, serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).parent / "roots" / "test-serve"
OVERLAY = "#seriesbook-serve-problems"
TIMEOUT_MS = 60_000


@pytest.fixture
def book(tmp_path: Path) -> Path:
    shutil.copytree(ROOT, tmp_path / "book")
    return tmp_path / "book"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 800, "height": 300})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


def _shows(page: Page, text: str) -> None:
    page.wait_for_function("text => document.body.innerText.includes(text)", arg=text)


@pytest.mark.browser
@pytest.mark.slow
def test_an_edited_paragraph_is_in_the_page_at_the_same_section(book: Path, page: Page) -> None:
    running, url = serve(book)
    with running:
        page.goto(f"{url}ch01.html")
        _shows(page, "张量的存储是一块连续的内存。")
        page.evaluate("document.getElementById('sec-1-2').scrollIntoView()")
        before = page.evaluate("document.getElementById('sec-1-2').getBoundingClientRect().top")
        edit(book / "ch01.md", "连续的内存", "新写的内存")
        _shows(page, "张量的存储是一块新写的内存。")
        page.wait_for_function("document.readyState === 'complete'")  # the script has run
        after = page.evaluate("document.getElementById('sec-1-2').getBoundingClientRect().top")
        assert abs(after - before) < 2, "the § in view moved"
        assert page.url == f"{url}ch01.html", "the page keeps its path"
        with urllib.request.urlopen(f"{url}ch01.html") as response:
            assert '<script src="/_seriesbook/serve.js" data-version="' in response.read().decode()
        with pytest.raises(urllib.error.HTTPError) as not_served:
            urllib.request.urlopen(url.replace("/zh_CN/", "/en/") + "ch01.html")
        assert not_served.value.code == 404
        assert "seriesbook serve --language en" in not_served.value.read().decode()
    # the served pages are a normal build's, in their own directory; the script is never written
    served = book / "_build" / "serve" / "zh_CN" / "ch01.html"
    assert "新写的内存" in served.read_text(encoding="utf-8")
    assert "_seriesbook" not in served.read_text(encoding="utf-8")
    assert not (book / "_build" / "html").exists()


@pytest.mark.browser
@pytest.mark.slow
def test_a_broken_mention_is_shown_at_its_line_until_it_is_fixed(book: Path, page: Page) -> None:
    running, url = serve(book)
    with running:
        page.goto(f"{url}ch02.html")
        _shows(page, "键集决定内核")
        assert page.locator(OVERLAY).count() == 0
        edit(book / "ch01.md", "## §1.2 视图", "## §1.3 视图")
        overlay = page.locator(OVERLAY)
        overlay.wait_for(state="visible")
        _shows(page, "ch02.md:9")
        assert "sec-unresolved" in overlay.inner_text()
        running.wait_for(r"ch02\.md:9: sec-unresolved: no section §1\.2")  # and in the terminal
        edit(book / "ch01.md", "## §1.3 视图", "## §1.2 视图")
        overlay.wait_for(state="detached")
        # dismissed, it stays away until the problems change
        edit(book / "ch02.md", "参见 §1.2", "参见 §1.9")
        overlay.wait_for(state="visible")
        page.get_by_role("button", name="Dismiss").click()
        overlay.wait_for(state="detached")


@pytest.mark.browser
@pytest.mark.slow
def test_both_editions_and_an_edited_translation_in_the_english_page(
    book: Path, page: Page
) -> None:
    running, url = serve(book, "--language", "zh_CN", "--language", "en")
    with running:
        running.wait_for(r"^serve: (en|zh_CN): \d+ problems?, ")  # the other edition's pass
        root = url.rstrip("/").rsplit("/", 1)[0]  # either edition's address may come first
        page.goto(f"{root}/zh_CN/ch02.html")
        _shows(page, "键集决定内核")
        page.locator('a.seriesbook-edition[hreflang="en"]').click()  # the language switcher
        page.wait_for_url("**/en/ch02.html")
        _shows(page, "The key set picks the kernel")
        edit(book / "locale" / "en" / "LC_MESSAGES" / "ch02.po",
             '"The key set picks the kernel;', '"The key set chooses the kernel;')
        _shows(page, "The key set chooses the kernel")


@pytest.mark.browser
@pytest.mark.slow
def test_an_edited_conf_py_restarts_cleanly(book: Path, page: Page) -> None:
    running, url = serve(book)
    with running:
        page.goto(f"{url}index.html")
        page.wait_for_function("document.title.includes('服务测试书')")
        edit(book / "conf.py", 'project = "服务测试书"', 'project = "改名的书"')
        running.wait_for(r"^serve: restarting \(changed: .*conf\.py\)")
        page.wait_for_function("document.title.includes('改名的书')")
        running.wait_for(r"^serve: zh_CN: 0 problems, \d+ pages written")
        # a fresh worker: it reads the sources again, edited after the restart too
        edit(book / "ch01.md", "连续的内存", "重启后的内存")
        page.goto(f"{url}ch01.html")
        _shows(page, "重启后的内存")


def _check_lines(book: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "seriesbook", "check", str(book)], cwd=book,
                          capture_output=True, text=True, check=False)
    return done.stdout.splitlines()


def _pass_lines(running: Running, summary: str) -> Iterator[str]:
    """The problem lines of the next pass (up to its summary line, which starts *summary*)."""
    while not (line := running.wait_for(r".*").group(0)).startswith(summary):
        if line.startswith("/"):  # a problem: the file's absolute path first, as check has it
            yield line


@pytest.mark.slow
def test_serve_reports_what_check_reports(book: Path) -> None:
    running, _ = serve(book)
    with running:
        edit(book / "ch01.md", "## §1.2 视图", "## §1.3 视图")
        lines = list(_pass_lines(running, "serve: zh_CN:"))
    assert any(line.endswith("ch02.md:9: sec-unresolved: no section §1.2 in this book")
               for line in lines)
    assert lines == _check_lines(book)


@pytest.mark.slow
def test_check_watch_prints_the_problems_and_a_summary_after_each_save(book: Path) -> None:
    with Running(["check", "--watch", "--language", "zh_CN", str(book)], book) as running:
        running.wait_for(r"^check: zh_CN: 0 problems in \d+\.\d\d s$")
        edit(book / "ch01.md", "## §1.2 视图", "## §1.3 视图")
        lines = list(_pass_lines(running, "check: zh_CN:"))
        assert any(line.endswith("ch02.md:9: sec-unresolved: no section §1.2 in this book")
                   for line in lines)
        # the same problems as `seriesbook check` (which reads the en edition too: the same ones)
        assert lines == _check_lines(book)
        summary = running.lines[-1]
        assert summary.startswith(f"check: zh_CN: {len(lines)} problems in ")
        edit(book / "ch01.md", "## §1.3 视图", "## §1.2 视图")
        running.wait_for(r"^check: zh_CN: 0 problems in ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--port", "70000"], "--port expects 0 to 65535"),
        (["check", "--language", "en"], "--language is for check --watch"),
        (["check", "--watch", "--format", "json"], "check --watch prints text"),
    ],
)
def test_wrong_options_are_one_line(book: Path, args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "seriesbook", *args, str(book)], cwd=book,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("seriesbook: ") and message in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_without_watchfiles_serve_says_what_to_install(
    book: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from seriesbook.commands import cli

    for name in [m for m in sys.modules if m.startswith("seriesbook.commands.serve")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # as where it is not installed
    assert cli.main(["serve", str(book)]) == 2
    error = capsys.readouterr().err
    assert error == ("seriesbook: seriesbook serve needs watchfiles: pip install "
                     "'seriesbook[serve]' (make livehtml installs it)\n")


@pytest.mark.browser
@pytest.mark.slow
def test_the_serve_benchmark_prints_its_table(tmp_path: Path) -> None:
    if not Path("/usr/bin/chromium").is_file():
        pytest.skip("/usr/bin/chromium is missing: apt-get install chromium")
    bench = Path(__file__).parent.parent / "benchmarks" / "serve.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--book", "corpus", "--scale", "0.02", "--repeat", "1",
         "--skip-before", "--chapter", "ch01", "--workdir", str(tmp_path)],
        capture_output=True, text=True, check=False, timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[0] == "| measurement | before | after | result |"
    assert [row.split(" | ")[0] for row in rows[1:]] == [
        "| save → reloaded page", "| check after an edit", "| full build, `-E -a`"
    ]
