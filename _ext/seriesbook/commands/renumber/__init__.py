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
    PlanError,
    catalog_files,
    plan_catalog,
    shown,
)
from seriesbook.renumbered import history_path
from seriesbook.renumbered.pending import (
    BY_HAND,
    Left,
    Pending,
    carried,
    label,
    paragraph_lines,
    pending_message,
    read_history,
    recorded,
    still_there,
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
    #: mentions of a number no heading has now but one will have (a deleted section's)
    stale: list[Dangling] = field(default_factory=list)
    #: mentions an earlier renumbering left naming another section, still as they were
    pending: list[tuple[Pending, Path, int]] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    #: old → new chapter number, the chapters renumbered
    chapters: dict[str, str] = field(default_factory=dict)

    def keyed_map(self) -> dict[str, str]:
        """What each mention key becomes (§ numbers, and ``ch:N`` for chapters)."""
        return self.map | {f"ch:{old}": f"ch:{new}" for old, new in self.chapters.items()}

    def needs_hand(self) -> bool:
        """Mentions only the author can fix: the exit status stays 1 until they are edited."""
        return bool(self.unlocated or self.shared or self.dangling or self.stale
                    or self.pending)

    def _file(self, path: Path) -> str:
        return shown(path, self.root)

    def as_json(self) -> dict[str, Any]:
        return {
            "map": self.map,
            "chapters": self.chapters,
            "new": [{"file": self._file(h.path), "line": h.line, "number": h.new}
                    for h in self.new],
            "edits": [e.as_json(self.root) for e in self.edits],
            "unresolved": [{"file": self._file(d.path), "line": d.line, "mention": d.mention}
                           for d in self.dangling],
            "shared": [{"file": self._file(d.path), "line": d.line, "message": d.mention}
                       for d in self.shared],
            "unlocated": [{"file": self._file(d.path), "line": d.line, "text": d.mention}
                          for d in self.unlocated],
            "stale": [{"file": self._file(d.path), "line": d.line, "mention": d.mention,
                       "number": d.number} for d in self.stale],
            "pending": [{"file": self._file(path), "line": line, "number": item.number,
                         "since": item.since} | ({"reason": item.reason} if item.reason else {})
                        for item, path, line in self.pending],
        }

    def as_text(self) -> str:
        lines = [f"chapter {old} → chapter {new}" for old, new in self.chapters.items()]
        lines += [f"§{old} → §{new}" for old, new in self.map.items()]
        lines += [f"{self._file(h.path)}:{h.line}: new section §{h.new}" for h in self.new]
        lines += [e.as_text(self.root) for e in self.edits]
        stale = {(d.path, d.line, d.number) for d in self.stale}
        lines += [f"{self._file(d.path)}:{d.line}: {d.mention} names no section: left as written"
                  for d in self.dangling if (d.path, d.line, d.number) not in stale]
        lines += [f"{self._file(d.path)}:{d.line}: {d.mention} names no section now (deleted?), "
                  f"and once renumbered {label(d.number)} is another one's number: left as "
                  "written and recorded; edit it by hand" for d in self.stale]
        lines += [f"{self._file(path)}:{line}: " + (
                      pending_message(item) if item.reason == BY_HAND else
                      f"{label(item.number)} named a deleted one when it was renumbered "
                      f"({item.since}) and now names another one: edit it by hand")
                  for item, path, line in self.pending]
        lines += [f"{self._file(d.path)}:{d.line}: the message {d.mention!r} is used by texts "
                  "that renumber differently (a heading and a diagram label?): left as it is; "
                  "edit it by hand" for d in self.shared]
        lines += [f"{self._file(d.path)}:{d.line}: {d.mention!r}: a § mention to renumber is "
                  "not written as the build reads it (an escape inside the number? a link's "
                  "anchor with a title?): left as it is; edit it by hand" for d in self.unlocated]
        done = "made" if self.written else "to make"
        by_hand = len(self.unlocated) + len(self.shared) + sum(
            item.reason == BY_HAND for item, _, _ in self.pending)
        deleted = len(self.stale) + len(self.pending) + len(self.unlocated) + len(
            self.shared) - by_hand
        lines.append(
            (f"{len(self.chapters)} chapters and " if self.chapters else "")
            + f"{len(self.map)} sections renumbered, {len(self.new)} numbered, "
            f"{len(self.edits)} edits {done} in {len({e.path for e in self.edits})} files, "
            f"{len(self.dangling)} mentions of no section"
            + (f", {by_hand} to edit by hand" if by_hand else "")
            + (f", {deleted} naming a deleted section" if deleted else "")
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
    stale_numbers = outline.stale()
    stale = [d for d in dangling if d.number in stale_numbers]
    if outline.changed() or numbered or outline.chapters_changed():  # else nothing to rewrite
        rewrite = CatalogRewrite(env, doctrees, outline)
        pages = sorted({Path(doctree["source"]) for doctree in doctrees.values()})
        for page in (page for page in pages if page.suffix == ".md"):
            for start, end, new in rewrite.source_links(page, plan.text(page)):
                plan.replace(page, start, end, new)
        for path in catalog_files(app):
            rewrite.path = path
            catalogs[path] = plan_catalog(plan, path, rewrite)
        shared, unlocated = rewrite.shared, unlocated + rewrite.unlocated
        stale += rewrite.stale
    confdir = Path(app.confdir)
    earlier = still_there(confdir, recorded(history_data(app)))
    report = Report(
        root, outline.changed(), numbered, plan.sorted_edits(), dangling, shared, unlocated,
        stale, earlier, chapters=outline.chapters_changed(),
    )
    return report, plan, {p: c for p, c in catalogs.items() if c}


def history_data(app: Sphinx) -> dict[str, Any]:
    """``seriesbook-renumbered.json`` as written; a file that cannot be read stops the command
    (it is the author's, not ours to replace)."""
    path = history_path(app)
    try:
        return read_history(path)
    except ValueError as error:  # not JSON, or not UTF-8, or not the shape
        raise PlanError(f"{path.name} cannot be read ({error}); fix or remove it") from None
    except OSError as error:
        raise PlanError(f"{path}: cannot be read ({error.strerror or error})") from None


def pending_to_record(app: Sphinx, report: Report, new_texts: dict[Path, str]) -> list[Any]:
    """The pending mentions the history entry of this ``--write`` records: the stale ones it
    leaves, and the earlier ones still there, at their lines as rewritten."""
    items: list[Left] = [(d.path, d.line, d.number, 1, "") for d in report.stale]
    items += [(path, line, item.number, item.text.count("\n") + 1, item.reason)
              for item, path, line in report.pending]
    for left in (*report.unlocated, *report.shared):  # its paragraph or catalog entry, whole
        text = new_texts.get(left.path)
        if text is None:
            try:
                text = left.path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        items.append((left.path, left.line, left.number, paragraph_lines(text, left.line),
                      BY_HAND))
    return carried(Path(app.confdir), items, new_texts, report.keyed_map())
