"""The drawings, kept by content: ``<doctreedir>/seriesbook-svg/<hash>.svg``.

The hash covers the diagram's code (as the edition has it, translated labels included) and
:func:`._draw.renderer_version` (merman's version and our settings), so a rebuild draws only
diagrams whose code changed and an upgrade redraws all; after a build it keeps only the drawings
of the book's diagrams (:mod:`._book`). Files are written whole (a temporary file renamed), so
two builds drawing the same diagram never leave half a file. Deleting the directory (or
``make clean``) forgets every drawing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path

from seriesbook.diagrams._draw import draw, renderer_version

STORE_SUBDIR = "seriesbook-svg"


@cache
def _version() -> str:
    return renderer_version()


def drawing_path(store: Path, code: str) -> Path:
    digest = hashlib.sha256(json.dumps([code, _version()]).encode()).hexdigest()[:32]
    return store / f"{digest}.svg"


def drawing(store: Path, code: str) -> str:
    """The SVG of *code*: from the store, else drawn and kept (:class:`._draw.DrawError`)."""
    path = drawing_path(store, code)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        pass
    svg = draw(code)
    store.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=store, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(svg)
    os.replace(temporary, path)
    return svg
