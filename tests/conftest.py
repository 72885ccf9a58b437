"""Shared fixtures: Sphinx's testing fixtures with the test books under tests/roots/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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
