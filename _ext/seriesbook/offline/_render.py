"""Drawing diagrams: one Node.js process and one Chromium session for every diagram missing.

The cache is ``<doctreedir>/seriesbook-diagrams/<hash>.<format>``; the hash covers the diagram's
code, the format, the Mermaid settings and the versions of mermaid-cli and mermaid, so a
rebuild draws only diagrams that changed, and an upgrade redraws all. After a build the cache
holds only the current book's diagrams of that format.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sphinx.errors import ExtensionError

SCRIPT = Path(__file__).with_name("render_diagrams.mjs")
CACHE_SUBDIR = "seriesbook-diagrams"
CLI_PACKAGE = "@mermaid-js/mermaid-cli"
# Labels in the book's fonts (Chromium measures them, so boxes fit the text).
MERMAID_CONFIG = {
    "theme": "default",
    "fontFamily": '"Noto Sans CJK SC", "Noto Sans", sans-serif',
    "themeVariables": {"fontFamily": '"Noto Sans CJK SC", "Noto Sans", sans-serif'},
}


@dataclass(frozen=True)
class Job:
    code: str
    output: Path


@cache
def _package_version(node_modules: Path, package: str) -> str:
    manifest = node_modules / package / "package.json"
    return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


def renderer_version(node_modules: Path) -> str:
    """What the drawing depends on besides the code: the npm packages and our settings."""
    return json.dumps(
        [
            _package_version(node_modules, CLI_PACKAGE),
            _package_version(node_modules, "mermaid"),
            MERMAID_CONFIG,
        ],
        sort_keys=True,
    )


class RendererUnavailable(ExtensionError):
    """The renderer did not start (no browser it can run): no diagram can be drawn."""


def require_packages(node_modules: Path) -> None:
    """Stop with one clear message when the npm packages that draw are not installed."""
    for package in (CLI_PACKAGE, "mermaid"):
        if not (node_modules / package / "package.json").is_file():
            raise ExtensionError(
                f"seriesbook: {package} is not installed in {node_modules}, so diagrams cannot "
                "be drawn for the PDF and EPUB: run `npm ci` next to conf.py (`make latexpdf` "
                "and `make epub` do; needs Node.js and npm)."
            )


def require_node() -> None:
    """Stop with one clear message when the renderer cannot run at all."""
    if shutil.which("node") is None:
        raise ExtensionError(
            "seriesbook: diagrams in the PDF and EPUB are drawn with Node.js, which is not "
            "installed: install Node.js with npm (apt-get install nodejs npm), then `npm ci`."
        )


def cache_path(cache_dir: Path, code: str, fmt: str, version: str) -> Path:
    digest = hashlib.sha256(json.dumps([code, fmt, version]).encode()).hexdigest()[:32]
    return cache_dir / f"mermaid-{digest}.{fmt}"


def render(node_modules: Path, jobs: list[Job], fmt: str) -> dict[Path, str]:
    """Draw every job; returns output → error message for the diagrams that failed."""
    if not jobs:
        return {}
    payload = {
        "config": MERMAID_CONFIG,
        "jobs": [{"code": job.code, "output": str(job.output), "format": fmt} for job in jobs],
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump(payload, file)
        file.flush()
        process = subprocess.run(
            ["node", str(SCRIPT), str(node_modules), file.name],
            capture_output=True,
            text=True,
            check=False,
        )
    if process.returncode != 0:
        detail = process.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RendererUnavailable(
            f"the diagram renderer could not start ({detail[0]}): it needs Chromium "
            "(apt-get install chromium, or PUPPETEER_EXECUTABLE_PATH) and `npm ci`"
        )
    errors: dict[Path, str] = {}
    done: set[Path] = set()
    for line in process.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            done.add(Path(result["output"]))
            if result["error"]:
                errors[Path(result["output"])] = str(result["error"])
    for job in jobs:
        if job.output not in done or not job.output.is_file():
            errors.setdefault(job.output, "the renderer wrote no file")
    return errors


def prune(cache_dir: Path, fmt: str, keep: set[Path]) -> None:
    """Forget drawings of diagrams no longer in the book (same format only)."""
    for path in cache_dir.glob(f"mermaid-*.{fmt}"):
        if path not in keep:
            path.unlink(missing_ok=True)
