"""Which diagrams the book holds, across ``-j`` and incremental builds: so the store keeps
exactly their drawings and forgets the rest once a build has finished."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.environment.collectors import EnvironmentCollector
from sphinxcontrib.mermaid import mermaid

from seriesbook.diagrams._store import STORE_SUBDIR, drawing_path

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

CODES_ATTR = "seriesbook_diagram_codes"


def book_codes(env: BuildEnvironment) -> dict[str, list[str]]:
    """Docname → the code of each of its diagrams, as read (created empty on first use)."""
    found: dict[str, list[str]] | None = getattr(env, CODES_ATTR, None)
    if found is None:
        found = {}
        setattr(env, CODES_ATTR, found)
    return found


class DiagramCodes(EnvironmentCollector):
    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        book_codes(env).pop(docname, None)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        ours, theirs = book_codes(env), book_codes(other)
        for docname in docnames & theirs.keys():
            ours[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        codes = [str(node["code"]) for node in doctree.findall(mermaid)]
        if codes:
            book_codes(app.env)[app.env.current_document.docname] = codes


def prune_store(app: Sphinx, exception: BaseException | None) -> None:
    """After a good build: the store holds the drawings of the book's diagrams, no others."""
    store = Path(app.doctreedir) / STORE_SUBDIR
    if exception is not None or not store.is_dir():
        return
    keep = {drawing_path(store, code) for codes in book_codes(app.env).values() for code in codes}
    for path in store.glob("*.svg"):
        if path not in keep:
            path.unlink(missing_ok=True)
