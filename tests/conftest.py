"""Shared fixtures: Sphinx's testing fixtures with the test books under tests/roots/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["sphinx.testing.fixtures"]

REPO = Path(__file__).resolve().parent.parent
MERMAID_DIST = REPO / "node_modules" / "mermaid" / "dist"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where sphinx.testing finds the ``testroot=`` books."""
    return REPO / "tests" / "roots"


@pytest.fixture(autouse=True, scope="session")
def _local_mermaid() -> None:
    """Test books are copied to temporary directories: point them at the repository's mermaid."""
    os.environ.setdefault("SERIESBOOK_MERMAID_DIR", str(MERMAID_DIST))
