"""Shared fixtures: Sphinx's testing fixtures with the test books under tests/roots/."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser
    from sphinx.testing.util import SphinxTestApp

pytest_plugins = ["sphinx.testing.fixtures"]

REPO = Path(__file__).resolve().parent.parent
MERMAID_DIST = REPO / "node_modules" / "mermaid" / "dist"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where sphinx.testing finds the ``testroot=`` books."""
    return REPO / "tests" / "roots"


@pytest.fixture(autouse=True, scope="session")
def _local_mermaid() -> None:
    """Test books are copied to temporary directories: where `npm ci` has run (`make test` runs
    it), point them at the repository's npm mermaid, so the PDF and EPUB tests find mermaid-cli
    next to it (the site would otherwise serve the packaged copy, the same version)."""
    if MERMAID_DIST.is_dir():
        os.environ.setdefault("SERIESBOOK_MERMAID_DIR", str(MERMAID_DIST))


class QuietHTTPServer(ThreadingHTTPServer):
    """A test's local web server that says nothing when the browser drops a connection (a
    closed page, an aborted fetch): socketserver prints such a traceback to stderr, where it
    lands in whatever test runs next, and the tests that forbid tracebacks would fail."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves a built site; ES modules need a JavaScript MIME type on every platform."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extensions_map = {**self.extensions_map, ".mjs": "text/javascript"}
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(directory: Path) -> Iterator[str]:
    """*directory* on a local web server for the browser tests; yields its base URL."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = QuietHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip without *condition*, saying why; in CI (``CI=true``) fail, as .ci/run installs it."""
    if not condition:
        if in_ci():
            pytest.fail(f"{reason} (CI=true: .ci/run should have installed it)")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium through Playwright, one per session (Playwright's sync API allows one)."""
    require(CHROMIUM.is_file(), f"{CHROMIUM} is missing: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "Playwright for Python is missing: pip install -e '.[test]'")
        raise
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# The browser's twin: seriesbook-search.js run by node, answering one JSON line at a time.
SEARCH_TWIN = Path(__file__).parent / "search_twin.mjs"


@pytest.fixture(scope="module")
def twin() -> Iterator[subprocess.Popen[str]]:
    from seriesbook.search.zh import SEARCH_SCRIPT

    node = shutil.which("node")
    require(node is not None, "node is missing")
    assert node is not None
    process = subprocess.Popen(
        [node, str(SEARCH_TWIN), str(SEARCH_SCRIPT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=10)


def ask(twin: subprocess.Popen[str], request: dict[str, Any]) -> Any:
    """One request to the search script's twin, its JSON answer."""
    assert twin.stdin is not None and twin.stdout is not None
    twin.stdin.write(json.dumps(request) + "\n")
    twin.stdin.flush()
    return json.loads(twin.stdout.readline())


def warning_lines(app: SphinxTestApp) -> list[str]:
    """The app's warnings, a line each, its source directory written ``<src>``."""
    return app.warning.getvalue().replace(str(app.srcdir), "<src>").splitlines()


def assert_same_files(expected: dict[str, bytes], actual: dict[str, bytes]) -> None:
    """The same file names, and none whose bytes differ (named when one does)."""
    assert expected.keys() == actual.keys()
    assert [name for name in expected if expected[name] != actual[name]] == []
