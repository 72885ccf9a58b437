"""Mermaid diagrams as images in the PDF and EPUB, drawn from the code the reader's edition has.

sphinxcontrib-mermaid's own LaTeX output starts one ``mmdc`` (one Chromium) per diagram while
writing, drops a diagram it cannot draw with a warning that has no location, and its EPUB
output is the raw Mermaid source (the EPUB reader runs no mermaid). Instead:

1. :class:`DiagramCollector` keeps each document's diagrams in the environment at
   ``doctree-read``, after translation (the editions capability has rewritten the labels by
   then), so ``-j`` and incremental builds know every diagram of the book.
2. At ``env-updated`` every diagram not in the cache is drawn: for the EPUB, the site's own
   drawing (:mod:`seriesbook.diagrams`, Python alone) as an SVG file with its light colours; for
   the PDF, all in one batch by mermaid-cli in Chromium (:mod:`._render`), as LaTeX takes no
   SVG. Each failure is ``diagram-render`` at the diagram's file and line.
3. :class:`PlaceDiagrams` replaces each ``mermaid`` node by an ordinary image of its drawing
   (figures, captions, sizing and copying are Sphinx's), or by its source when it failed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinxcontrib.mermaid import mermaid

from seriesbook import compat
from seriesbook.core.config import get_config
from seriesbook.core.problems import Problem, source_line, warn
from seriesbook.diagrams import STORE_SUBDIR, DrawError, drawing_path, standalone
from seriesbook.diagrams import drawing as site_drawing
from seriesbook.editions import diagram_label
from seriesbook.offline import _render, _requirements
from seriesbook.site import find_mermaid_dist, mermaid_override

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

DIAGRAMS_ATTR = "seriesbook_offline_diagrams"
# Chromium draws 1 CSS px as 0.75 pt; 80% of that sets 16 px labels near the 10 pt text.
PDF_SCALE = 80
_SVG_WIDTH = re.compile(r"max-width:\s*([\d.]+)px")


class DiagramUse(NamedTuple):
    code: str
    line: int | None


def output_format(builder: Builder | type[Builder]) -> str | None:
    """The image format a builder's diagrams are drawn in, or None when it draws none."""
    if builder.format == "latex":
        return "pdf"
    if builder.name.startswith("epub"):
        return "svg"
    return None


def _needs_npm(fmt: str) -> bool:
    """Whether drawing in *fmt* needs mermaid-cli (the PDF); the EPUB's SVG is drawn in Python."""
    return fmt != "svg"


def book_diagrams(env: BuildEnvironment) -> dict[str, list[DiagramUse]]:
    """Docname → its diagrams' code and line, as read (created empty on first use)."""
    found: dict[str, list[DiagramUse]] | None = getattr(env, DIAGRAMS_ATTR, None)
    if found is None:
        found = {}
        setattr(env, DIAGRAMS_ATTR, found)
    return found


class DiagramCollector(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        book_diagrams(env).pop(docname, None)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        ours, theirs = book_diagrams(env), book_diagrams(other)
        for docname in docnames & theirs.keys():
            ours[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        uses = [DiagramUse(node["code"], source_line(node)) for node in doctree.findall(mermaid)]
        if uses:
            book_diagrams(app.env)[app.env.current_document.docname] = uses


def node_modules(app: Sphinx) -> Path:
    """The npm packages that draw the diagrams (mermaid-cli, puppeteer, the pinned mermaid).

    Those of an overriding mermaid (``seriesbook_mermaid_dir``, ``$SERIESBOOK_MERMAID_DIR``) that
    is npm's ``node_modules/mermaid/dist``, so the drawings use the site's mermaid; else
    ``node_modules`` next to ``conf.py`` (``npm ci`` there: ``make latexpdf`` and ``make epub``
    run it). The site's packaged mermaid is the same version (its manifest is tested against
    ``package.json``).
    """
    confdir = Path(app.confdir)
    if mermaid_override(confdir, get_config(app.config).mermaid_dir) is not None:
        dist = find_mermaid_dist(confdir, get_config(app.config).mermaid_dir)
        if dist.parent.parent.name == "node_modules":
            return dist.parent.parent
    return confdir / "node_modules"


class _Drawing:
    """Where one build's drawings live (the cache) and how they are named."""

    def __init__(self, app: Sphinx, fmt: str) -> None:
        self.fmt = fmt
        self.cache_dir = Path(app.doctreedir) / _render.CACHE_SUBDIR
        self.store = Path(app.doctreedir) / STORE_SUBDIR  # the site's drawings (SVG)
        if fmt == "svg":
            return  # drawn in Python: no npm, no browser
        self.node_modules = node_modules(app)
        _render.require_packages(self.node_modules)
        self.version = _render.renderer_version(self.node_modules)

    def path(self, code: str) -> Path:
        if self.fmt == "svg":  # named like the site's drawing it is made from
            return self.cache_dir / f"mermaid-{drawing_path(self.store, code).stem}.svg"
        return _render.cache_path(self.cache_dir, code, self.fmt, self.version)

    def draw(self, jobs: list[_render.Job]) -> dict[Path, str]:
        """Draw every job; output → error message for the diagrams that failed."""
        if self.fmt != "svg":
            if jobs:
                _render.require_node()
            return _render.render(self.node_modules, jobs, self.fmt)
        errors: dict[Path, str] = {}
        for job in jobs:
            try:
                svg = standalone(site_drawing(self.store, job.code))
            except DrawError as error:
                errors[job.output] = str(error)
                continue
            job.output.parent.mkdir(parents=True, exist_ok=True)
            job.output.write_text(svg, encoding="utf-8")
        return errors


def draw_missing(app: Sphinx, env: BuildEnvironment) -> None:
    """Draw every diagram of the book that the cache lacks, in one batch; report failures."""
    fmt = output_format(app.builder)
    uses = book_diagrams(env)
    if fmt is None or not uses:
        return  # a book without diagrams needs neither npm nor a browser
    if _needs_npm(fmt) and _requirements.report_missing(app, node_modules(app), fmt):
        return  # one line said what to install; PlaceDiagrams prints the sources
    drawing = _Drawing(app, fmt)
    wanted = {drawing.path(use.code): use.code for docname in sorted(uses) for use in uses[docname]}
    jobs = [_render.Job(code, path) for path, code in wanted.items() if not path.is_file()]
    if jobs:
        logger.info("seriesbook: drawing %d Mermaid diagram(s) as %s", len(jobs), fmt.upper())
    try:
        errors = drawing.draw(jobs)
    except _render.RendererUnavailable as unavailable:
        # one line, as for a missing tool; PlaceDiagrams prints the undrawn diagrams' sources
        warn(
            Problem.OFFLINE_TOOL,
            f"the {app.builder.name} output's diagrams cannot be drawn as {fmt.upper()}: "
            f"{unavailable} (their sources are printed instead)",
            None,
        )
        return
    for docname in sorted(uses) if errors else ():
        for use in uses[docname]:
            error = errors.get(drawing.path(use.code))
            if error is not None:
                warn(
                    Problem.DIAGRAM_RENDER,
                    f"Mermaid diagram could not be drawn for the {app.builder.name} output: "
                    f"{error}; its source is printed instead",
                    (docname, use.line),
                )
    _render.prune(drawing.cache_dir, fmt, set(wanted))


def _alt_text(node: mermaid) -> str:
    """The diagram's alt text: its ``:alt:``, else its labels as the reader's edition has them."""
    if node.get("alt"):
        return str(node["alt"])
    labels = [str(label["text"]) for label in node.findall(diagram_label)]
    return " · ".join(labels) if labels else "Mermaid diagram"


def _svg_width(path: Path) -> str | None:
    """The drawing's natural width in CSS px (its ``max-width``)."""
    found = _SVG_WIDTH.search(path.read_text(encoding="utf-8")[:2000])
    return f"{round(float(found.group(1)))}px" if found else None


def _source_block(node: mermaid) -> nodes.literal_block:
    """What stands for a diagram that could not be drawn: its source."""
    return nodes.literal_block(node["code"], node["code"], language="text")


class PlaceDiagrams(SphinxPostTransform):
    """Replace each ``mermaid`` node by an image of its drawing (or its source, if it failed)."""

    default_priority = 100

    def is_supported(self) -> bool:
        # The builder and application as Sphinx's own post-transforms reach them (Sphinx 9
        # deprecates ``SphinxTransform.app``).
        builder = compat.builder_class(self.env)
        return builder is not None and output_format(builder) is not None

    def run(self, **kwargs: Any) -> None:
        builder = compat.builder_class(self.env)
        fmt = output_format(builder) if builder is not None else None
        diagrams = list(self.document.findall(mermaid))
        if fmt is None or not diagrams:
            return
        app = compat.application(self.env)
        if _needs_npm(fmt) and _requirements.missing_tool(node_modules(app)) is not None:
            # said by draw_missing
            for node in diagrams:
                node.replace_self(_source_block(node))
            return
        drawing = _Drawing(app, fmt)
        for node in diagrams:
            path = drawing.path(node["code"])
            if not path.is_file():  # reported by draw_missing
                node.replace_self(_source_block(node))
                continue
            uri = str(path)
            image = nodes.image(uri=uri, candidates={"*": uri}, alt=_alt_text(node))
            image["ids"] = list(node["ids"])
            if node.get("align"):
                image["align"] = node["align"]
            if fmt == "pdf":
                image["scale"] = PDF_SCALE
            elif (width := _svg_width(path)) is not None:
                image["width"] = width
            self.env.images.add_file(self.env.current_document.docname, uri)
            node.replace_self(image)
