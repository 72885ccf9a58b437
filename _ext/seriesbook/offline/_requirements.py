"""The door of the PDF and EPUB: is what draws the diagrams installed?

A volume installed with ``pip`` has no mermaid-cli (npm's, next to ``conf.py``) and maybe no
Node.js. Raising from a build event would end in Sphinx's "Extension error!" report (versions,
loaded extensions, a traceback); instead the build says once, in one line (``offline-tool``),
what to install, and prints each diagram's source in its place, so ``-W`` fails it with that line
and nothing else. A book without diagrams needs none of it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: The npm packages that draw (``npm install`` of this repository's ``package.json`` brings them).
DRAWING_PACKAGES = ("@mermaid-js/mermaid-cli", "mermaid")


def missing_tool(node_modules: Path) -> str | None:
    """What is missing to draw diagrams for the PDF and EPUB, as the fix to run, or None."""
    if shutil.which("node") is None:
        return (
            "Node.js is not installed: install Node.js with npm (apt-get install nodejs npm), "
            f"then run `npm install {' '.join(DRAWING_PACKAGES)}` next to conf.py"
        )
    absent = [p for p in DRAWING_PACKAGES if not (node_modules / p / "package.json").is_file()]
    if absent:
        return (
            f"{' and '.join(absent)} not installed in {node_modules}: run `npm install "
            f"{' '.join(DRAWING_PACKAGES)}` (or `npm ci` with a package-lock.json) next to conf.py"
        )
    return None


def report_missing(app: Sphinx, node_modules: Path, fmt: str) -> bool:
    """Warn once (``offline-tool``) when drawing is impossible; whether it is."""
    missing = missing_tool(node_modules)
    if missing is None:
        return False
    warn(
        Problem.OFFLINE_TOOL,
        f"the {app.builder.name} output's diagrams cannot be drawn as {fmt.upper()}: {missing} "
        "(their sources are printed instead)",
        None,
    )
    return True
