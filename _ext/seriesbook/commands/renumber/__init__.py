"""``seriesbook renumber``: number the § sections again, and every reference with them.

Reads the book with Sphinx's own reading (:func:`..reading.read_pages`), numbers every
chapter's § headings by the rule the checks enforce (:mod:`._outline`), and plans, with the
shared rewrite layer (:mod:`..rewrite`), the edits of the headings, of every § mention
and local ``{sec}`` role the build links, and of the same in every catalog's msgid and msgstr
(:mod:`._edits`). A dry run reports; ``--write`` applies every edit atomically and records the
old → new map for sibling volumes (:mod:`seriesbook.renumbered`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import compat
from seriesbook.commands.renumber._edits import CatalogRewrite, Dangling, plan_sources
from seriesbook.commands.renumber._outline import Heading, number_book
from seriesbook.commands.rewrite import (
    Edit,
    Plan,
    catalog_files,
    plan_catalog,
    shown,
)
from seriesbook.speed import heap

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


@dataclass
class Report:
    """What renumber found and (would) change."""

    root: Path
    map: dict[str, str]
    new: list[Heading]
    edits: list[Edit]
    dangling: list[Dangling]
    shared: list[Dangling] = field(default_factory=list)
    unlocated: list[Dangling] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    def _file(self, path: Path) -> str:
        return shown(path, self.root)

    def as_json(self) -> dict[str, Any]:
        return {
            "map": self.map,
            "new": [{"file": self._file(h.path), "line": h.line, "number": h.new}
                    for h in self.new],
            "edits": [e.as_json(self.root) for e in self.edits],
            "unresolved": [{"file": self._file(d.path), "line": d.line, "mention": d.mention}
                           for d in self.dangling],
            "shared": [{"file": self._file(d.path), "line": d.line, "message": d.mention}
                       for d in self.shared],
            "unlocated": [{"file": self._file(d.path), "line": d.line, "text": d.mention}
                          for d in self.unlocated],
        }

    def as_text(self) -> str:
        lines = [f"§{old} → §{new}" for old, new in self.map.items()]
        lines += [f"{self._file(h.path)}:{h.line}: new section §{h.new}" for h in self.new]
        lines += [e.as_text(self.root) for e in self.edits]
        lines += [f"{self._file(d.path)}:{d.line}: {d.mention} names no section: left as written"
                  for d in self.dangling]
        lines += [f"{self._file(d.path)}:{d.line}: the message {d.mention!r} is used by texts "
                  "that renumber differently (a heading and a diagram label?): left as it is; "
                  "edit it by hand" for d in self.shared]
        lines += [f"{self._file(d.path)}:{d.line}: {d.mention!r}: a § mention to renumber is "
                  "not written as the build reads it (an escape inside the number?): left as "
                  "it is; edit it by hand" for d in self.unlocated]
        done = "made" if self.written else "to make"
        lines.append(
            f"{len(self.map)} sections renumbered, {len(self.new)} numbered, "
            f"{len(self.edits)} edits {done} in {len({e.path for e in self.edits})} files, "
            f"{len(self.dangling)} mentions of no section"
            + (f", {len(self.unlocated)} to edit by hand" if self.unlocated else "")
        )
        return "\n".join(lines)


def document_order(env: BuildEnvironment, root_doc: str) -> list[str]:
    """The book's pages in toctree order from the root document, then any others by name."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(docname: str) -> None:
        if docname in seen or docname not in env.all_docs:
            return
        seen.add(docname)
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(root_doc)
    return order + sorted(set(env.all_docs) - seen)


def _read_doctree(env: BuildEnvironment, docname: str) -> nodes.document:
    """The page's doctree as read: the one this run read if Sphinx still holds it (read-only
    here, so no unpickling), else from the environment's pickle (once)."""
    return compat.doctrees_in_memory(env).get(docname) or env.get_doctree(docname)


def renumber(app: Sphinx, root: Path) -> tuple[Report, Plan, dict[Path, list[Any]]]:
    """Plan the renumbering of the book *app* has read; nothing is written."""
    with heap.paused():  # planning frees little while the whole book's doctrees are alive
        return _renumber(app, root)


def _renumber(app: Sphinx, root: Path) -> tuple[Report, Plan, dict[Path, list[Any]]]:
    env = app.env
    docnames = document_order(env, app.config.root_doc)
    doctrees = {docname: _read_doctree(env, docname) for docname in docnames}
    outline = number_book(env, doctrees)
    plan = Plan()
    dangling, unlocated = plan_sources(plan, doctrees, outline)
    numbered = [h for h in outline.headings if h.old is None and h.new is not None]
    catalogs: dict[Path, list[Any]] = {}
    shared: list[Dangling] = []
    if outline.changed() or numbered:  # else no message has anything to rewrite
        rewrite = CatalogRewrite(env, doctrees, outline)
        for path in catalog_files(app):
            rewrite.path = path
            catalogs[path] = plan_catalog(plan, path, rewrite)
        shared, unlocated = rewrite.shared, unlocated + rewrite.unlocated
    report = Report(
        root, outline.changed(), numbered, plan.sorted_edits(), dangling, shared, unlocated
    )
    return report, plan, {p: c for p, c in catalogs.items() if c}
