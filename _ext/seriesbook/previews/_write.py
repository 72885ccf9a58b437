"""Write stage: each page's preview data, the page's pointer to it, and the published file.

At ``doctree-resolved`` (main process, also under ``-j``) every link of the page that a preview
can explain is looked up: an internal link to a § or chapter anchor, a citation link, a link into
a sibling volume that publishes previews. What they show goes to ``_previews/<page>.js`` (one
UTF-8 file per page, loaded by a ``<script>`` element on the first gesture, so ``file://`` works),
keyed by the link's ``href`` as the page has it. Pages are written from the environment alone,
so ``-j 1``, ``-j 2`` and incremental builds write the same bytes.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.locale import get_translation
from sphinx.util import logging

from seriesbook.citations import LINK_CLASS, citation_url, citations_domain
from seriesbook.core.config import get_config
from seriesbook.core.escape import html_attribute, script_json
from seriesbook.editions import CATALOG
from seriesbook.previews._code import citation_preview, highlighted_lines
from seriesbook.previews._kept import KeptHighlights
from seriesbook.previews._records import TargetPreview, previews_domain
from seriesbook.previews._siblings import PUBLISHED_FILE, SiblingPreviews
from seriesbook.sections import Target, get_domain

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

_ = get_translation(CATALOG)
logger = logging.getLogger(__name__)

PREVIEW_DIR = "_previews"
PAGE_ATTRIBUTE = "seriesbook_previews"
META_NAME = "seriesbook-previews"


def enabled(app: Sphinx) -> bool:
    """Previews are on, and the builder writes web pages (not EPUB, whose readers vary)."""
    builder = app.builder
    return (get_config(app.config).previews and builder.format == "html"
            and not builder.name.startswith("epub"))


def ui_words() -> dict[str, str]:
    """The preview's own words, in the build's language."""
    return {
        "d": str(_("Diagram")),
        "c": str(_("Code")),
        "t": str(_("Table")),
        "go": str(_("Read it")),
        "gh": str(_("View the source")),
        "more": str(_("… {n} more lines")),
        "label": str(_("Preview")),
    }


def target_index(app: Sphinx) -> dict[str, tuple[str, TargetPreview]]:
    """Label id → (docname, preview) of every § and chapter the book's links resolve to."""
    sections = get_domain(app.env)
    targets = previews_domain(app.env).targets
    index: dict[str, tuple[str, TargetPreview]] = {}
    records: list[Target] = [*sections.section_index.values(), *sections.chapter_index.values()]
    for record in records:
        preview = targets.get(record.docname, {}).get(record.id)
        if preview is not None:
            index[record.id] = (record.docname, preview)
    return index


class PageWriter:
    """Writes each page's preview data; one per build (it holds the siblings' files read and
    the kept highlighted lines)."""

    def __init__(self) -> None:
        self.siblings: SiblingPreviews | None = None
        self.index: dict[str, tuple[str, TargetPreview]] | None = None
        self.kept: KeptHighlights | None = None
        self.uris: dict[str, str] = {}  # the page being written's links to each page

    def reset(self, app: Sphinx, env: BuildEnvironment) -> None:
        """``env-updated``: the targets may have changed; siblings are read again."""
        self.siblings, self.index = None, None

    def page_data(self, app: Sphinx, doctree: nodes.document, docname: str) -> dict[str, Any]:
        if self.index is None:
            self.index = target_index(app)
        if self.siblings is None:
            self.siblings = SiblingPreviews(app)
        config = get_config(app.config)
        if self.kept is None and config.speedups:
            self.kept = KeptHighlights.open(app.doctreedir)
        highlight = highlighted_lines
        if self.kept is not None:
            self.kept.begin_page(docname)
            highlight = partial(self.kept.lines, docname)
        citations: dict[str, dict[str, Any]] = {}
        for record in citations_domain(app.env).records.get(docname, []):
            spec = config.sources.get(record.source)
            if spec is None or record.citation is None:
                continue
            entry = citation_preview(record, spec, highlight)
            if entry is not None:
                citations.setdefault(citation_url(spec, record.citation), entry)
        found: dict[str, dict[str, Any]] = {}
        self.uris = {}
        for reference in doctree.findall(nodes.reference):
            href, entry = self._preview(app, reference, docname, citations)
            if entry is not None:
                found[href] = entry
        return found

    def _preview(
        self, app: Sphinx, reference: nodes.reference, docname: str,
        citations: dict[str, dict[str, Any]],
    ) -> tuple[str, dict[str, Any] | None]:
        refuri, refid = reference.get("refuri"), reference.get("refid")
        if refid:
            return "#" + refid, self._internal(app, docname, "", refid)
        if not refuri:
            return "", None
        if LINK_CLASS in reference["classes"]:
            return refuri, citations.get(refuri)
        page, _, anchor = refuri.partition("#")
        if "://" in refuri or refuri.startswith("/") or not reference.get("internal", True):
            assert self.siblings is not None
            return refuri, self.siblings.preview(refuri) if anchor else None
        return refuri, self._internal(app, docname, page, anchor) if anchor else None

    def _internal(self, app: Sphinx, docname: str, page: str, anchor: str) -> dict[str, Any] | None:
        assert self.index is not None
        found = self.index.get(anchor)
        if found is None:
            return None
        target_doc, preview = found
        if not page:
            return preview.to_json() if target_doc == docname else None
        uri = self.uris.get(target_doc)
        if uri is None:
            uri = self.uris[target_doc] = app.builder.get_relative_uri(docname, target_doc)
        return preview.to_json() if uri == page else None

    def write(self, app: Sphinx, doctree: nodes.document, docname: str) -> None:
        """``doctree-resolved``: write ``_previews/<docname>.js`` when the page has previews."""
        if not enabled(app):
            return
        found = self.page_data(app, doctree, docname)
        path = Path(app.outdir, PREVIEW_DIR, docname + ".js")
        if not found:  # (no longer) anything to preview: as a fresh build would leave it
            path.unlink(missing_ok=True)
            return
        data = {"ui": ui_words(), "p": found}
        text = "seriesbookPreviews(" + _dumps(data) + ");\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        doctree[PAGE_ATTRIBUTE] = True


    def save(self, app: Sphinx, exception: Exception | None) -> None:
        """``build-finished``: keep the highlighted lines of the book's pages for the next build."""
        kept, self.kept = self.kept, None
        if kept is None or exception is not None:
            return
        try:
            kept.save(kept.used, set(app.env.all_docs))
        except OSError as error:  # a file that cannot be written costs speed, nothing else
            logger.info("seriesbook.previews: cannot keep the highlighted lines: %s", error)


def _dumps(data: Any) -> str:
    """JSON for a script (the page's data file; the published file is JSON all the same)."""
    return script_json(data, sort_keys=True, separators=(",", ":"))


def add_pointer(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """``html-page-context``: a page with previews names its data file (relative, for file://)."""
    if doctree is None or not doctree.get(PAGE_ATTRIBUTE):
        return
    uri = context["pathto"](f"{PREVIEW_DIR}/{pagename}.js", resource=True)
    meta = f'<meta name="{META_NAME}" content="{html_attribute(uri)}">\n'
    context["metatags"] = context.get("metatags", "") + meta


def publish(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: every § and chapter preview beside ``objects.inv``, for siblings."""
    if exception is not None or not enabled(app):
        return
    previews = {label: preview.to_json() for label, (_, preview) in target_index(app).items()}
    text = _dumps({"format": 1, "previews": previews}) + "\n"
    Path(app.outdir, PUBLISHED_FILE).write_text(text, encoding="utf-8")
