"""The author's loop, measured: save → reloaded page in Chromium, and check after an edit.

usage: python benchmarks/serve.py [--book sample|corpus] [--scale S] [--repeat N]
                                  [--workdir DIR] [--chapter NAME]

* **save → reload** — from the write of a chapter's file (a paragraph gets a new sentence) to
  that sentence in the DOM of the chapter's page open in Chromium (Playwright polls every
  animation frame). *before*: ``make livehtml`` as of 61fbe53, sphinx-autobuild (a fresh
  ``sphinx-build`` per save, its own reload script); *after*: ``seriesbook serve``. Both on the
  same copy of the book, the same edits, the page open the same way.
* **check after an edit** — *before*: ``seriesbook check`` (a fresh process on its kept
  environment, as 61fbe53 has it) after the same edit; *after*: ``seriesbook check --watch``, from
  the write to its summary line. Both as a share of a full build (``sphinx-build -E -a``),
  measured alternately with them.

``--book sample`` is this repository's book (``git archive HEAD``: conf.py, source, locale, the
lock); ``--book corpus`` the synthetic book of ``make_corpus.py`` at ``--scale``. Medians of N.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests"))

from make_corpus import write_book  # noqa: E402
from serving import Running, serve  # noqa: E402

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 120_000


@dataclass
class Book:
    srcdir: Path
    confdir: Path
    chapter: str  # the page edited and watched, e.g. "ch04"

    @property
    def file(self) -> Path:
        return self.srcdir / f"{self.chapter}.md"


def sample_book(workdir: Path, chapter: str) -> Book:
    root = workdir / "sample"
    root.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "HEAD", "conf.py", "source", "locale",
         "citations.lock.json"], capture_output=True, check=True,
    )
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    return Book(root / "source", root, chapter)


def corpus_book(workdir: Path, scale: float, chapter: str) -> Book:
    root = workdir / "corpus"
    write_book(root, scale)
    return Book(root, root, chapter)


class Edits:
    """One new sentence at the end of the chapter's first paragraph per edit, each unique."""

    def __init__(self, book: Book) -> None:
        self.book = book
        self.original = book.file.read_text(encoding="utf-8")
        self.count = 0

    def make(self) -> str:
        self.count += 1
        marker = f"这是第{self.count}次保存后的新句子{time.monotonic_ns()}。"
        lines = self.book.file.read_text(encoding="utf-8").splitlines(keepends=True)
        for index, line in enumerate(lines):
            if len(line) > 40 and not line.startswith(("#", "`", ":", "-", "|", " ", ">", "{")):
                lines[index] = line.rstrip("\n") + marker + "\n"
                break
        self.book.file.write_text("".join(lines), encoding="utf-8")
        return marker

    def restore(self) -> None:
        self.book.file.write_text(self.original, encoding="utf-8")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def autobuild(book: Book) -> Iterator[str]:
    """``make livehtml`` as of 61fbe53 (sphinx-autobuild), on *book*; yields the page's URL."""
    port = free_port()
    out = book.confdir / "_build" / "html" / "zh_CN"
    command = [
        str(BIN / "sphinx-autobuild"), "-b", "html", "-c", str(book.confdir), "-D",
        "language=zh_CN", "-d", str(book.confdir / "_build" / "doctrees" / "live-zh_CN"),
        "--port", str(port), "--watch", str(book.confdir / "conf.py"), str(book.srcdir), str(out),
    ]
    process = subprocess.Popen(command, cwd=book.confdir, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while not (out / f"{book.chapter}.html").is_file() or not _listening(port):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("sphinx-autobuild did not start")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/{book.chapter}.html"
    finally:
        process.terminate()
        process.wait(30)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def reloads(url: str, edits: Edits, repeat: int, settle: Callable[[], None]) -> list[float]:
    """Seconds from each save to its sentence in the open page's DOM."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_load_state("load")
        time.sleep(2)
        for _ in range(repeat):
            start = time.perf_counter()
            marker = edits.make()
            page.wait_for_function(
                "m => document.body && document.body.textContent.includes(m)", arg=marker,
                polling="raf",
            )
            times.append(time.perf_counter() - start)
            settle()
        browser.close()
    return times


def check_once(book: Book, edits: Edits) -> float:
    edits.make()
    start = time.perf_counter()
    subprocess.run([str(BIN / "seriesbook"), "check", str(book.srcdir), "-c", str(book.confdir)],
                   cwd=book.confdir, capture_output=True, check=False)
    return time.perf_counter() - start


def full_build(book: Book) -> float:
    start = time.perf_counter()
    subprocess.run(
        [str(BIN / "sphinx-build"), "-q", "-E", "-a", "-b", "html", "-c", str(book.confdir),
         str(book.srcdir), str(book.confdir / "_build" / "full")],
        cwd=book.confdir, capture_output=True, check=False,
    )
    return time.perf_counter() - start


def watch_checks(book: Book, edits: Edits, repeat: int) -> list[float]:
    """Seconds from each save to ``check --watch``'s summary line (the configured edition)."""
    times = []
    args = ["check", "--watch", "--language", "zh_CN", str(book.srcdir), "-c", str(book.confdir)]
    with Running(args, book.confdir) as running:
        running.wait_for(r"^check: zh_CN: \d+ problems? in ", timeout=900)
        for _ in range(repeat):
            start = time.perf_counter()
            edits.make()
            running.wait_for(r"^check: zh_CN: \d+ problems? in ", timeout=300)
            times.append(time.perf_counter() - start)
    return times


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}–{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", choices=("sample", "corpus"), default="sample")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chapter", default=None, help="default ch04 (sample), ch12 (corpus)")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--skip-before", action="store_true")
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="seriesbook-serve-bench-"))
    if args.book == "sample":
        book = sample_book(workdir, args.chapter or "ch04")
    else:
        book = corpus_book(workdir, args.scale, args.chapter or "ch12")
    if not book.file.is_file():
        parser.error(f"no {book.chapter} in the book ({book.file}): name one with --chapter")
    edits = Edits(book)
    rows: list[tuple[str, str, str, str]] = []

    running, url = serve(book.srcdir, "-c", str(book.confdir))
    with running:
        after = reloads(f"{url}{book.chapter}.html", edits, args.repeat,
                        lambda: running.wait_for(r"^serve: \S+: \d+ problems?, ", timeout=300))
    edits.restore()
    before: list[float] = []
    if not args.skip_before:
        with autobuild(book) as page_url:
            before = reloads(page_url, edits, args.repeat, lambda: time.sleep(4))
        edits.restore()
    rows.append(("save → reloaded page", _median(before) if before else "–", _median(after),
                 f"{statistics.median(after) / statistics.median(before):.2f}×" if before else ""))

    watched = watch_checks(book, edits, args.repeat)
    edits.restore()
    checks, fulls = [], []
    for _ in range(max(1, args.repeat // 2)):  # A B A B: a fresh check, a full build
        checks.append(check_once(book, edits))
        fulls.append(full_build(book))
    edits.restore()
    full = statistics.median(fulls)
    rows.append(("check after an edit", _median(checks), _median(watched),
                 f"{statistics.median(checks) / full:.2f} → {statistics.median(watched) / full:.2f}"
                 " of a full build"))
    rows.append(("full build, `-E -a`", _median(fulls), "", ""))
    print(f"book: {args.book}" + (f" scale {args.scale}" if args.book == "corpus" else "")
          + f", page {book.chapter}, median of {args.repeat} (min–max)\n")
    print("| measurement | before | after | result |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
