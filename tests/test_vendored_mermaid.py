"""The mermaid vendored in the package (``.ci/vendor-mermaid``) is the pinned one, file for file.

One truth for the version: ``package.json`` pins it (npm installs it for mermaid-cli, which draws
the PDF's and EPUB's diagrams); the vendored copy's manifest must name the same version and the
tarball integrity ``package-lock.json`` records, and every vendored file must have the sha256 the
manifest lists (so a hand edit or a partial update fails here).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from seriesbook.site import MERMAID_CHUNKS, MERMAID_ENTRY, packaged_mermaid

REPO = Path(__file__).resolve().parent.parent
VENDORED = REPO / "_ext" / "seriesbook" / "vendor" / "mermaid"
MANIFEST = VENDORED / "manifest.json"


def manifest() -> dict[str, object]:
    data: dict[str, object] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return data


def test_the_site_uses_the_vendored_copy() -> None:
    assert packaged_mermaid() == VENDORED.resolve()


def test_manifest_names_the_pinned_version_and_locked_integrity() -> None:
    pin = json.loads((REPO / "package.json").read_text("utf-8"))["dependencies"]["mermaid"]
    locked = json.loads((REPO / "package-lock.json").read_text("utf-8"))["packages"]
    assert manifest()["version"] == pin == locked["node_modules/mermaid"]["version"]
    assert manifest()["integrity"] == locked["node_modules/mermaid"]["integrity"]


def test_every_vendored_file_matches_the_manifest() -> None:
    files = manifest()["files"]
    assert isinstance(files, dict)
    present = {
        path.relative_to(VENDORED).as_posix()
        for path in VENDORED.rglob("*")
        if path.is_file() and path != MANIFEST
    }
    assert present == set(files), "files added or removed by hand: rerun .ci/vendor-mermaid"
    for name, digest in files.items():
        assert hashlib.sha256((VENDORED / name).read_bytes()).hexdigest() == digest, name


def test_what_the_site_needs_and_its_license_and_no_source_maps() -> None:
    files = manifest()["files"]
    assert isinstance(files, dict)
    assert MERMAID_ENTRY in files
    assert any(name.startswith(f"{MERMAID_CHUNKS.as_posix()}/") for name in files)
    assert "LICENSE" in files and "The MIT License" in (VENDORED / "LICENSE").read_text("utf-8")
    assert not [name for name in files if name.endswith(".map")]
