"""The renumbering history: kept beside ``conf.py``, published beside ``objects.inv``.

Renumbering changes ``sec-…`` ids other volumes link to. ``seriesbook renumber --write`` appends
its old → new map to ``seriesbook-renumbered.json`` next to ``conf.py`` (the source of truth,
committed with the book), keyed by the release and the date; an HTML build copies it to its
output beside ``objects.inv``. A seriesbook volume that links ``{sec}`vol:N.M``` reads the
target volume's published file the way intersphinx reads its inventory (same location rules,
same timeout) and warns ``sec-renumbered`` when N.M was renumbered there, so a link that now
lands on a different section is reported, not silently wrong.
"""

from __future__ import annotations

import datetime
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.problems import Problem, warn
from seriesbook.rewrite import PlanError
from seriesbook.sections._transforms import MENTION_INVENTORY, MENTION_NUMBER

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

    from seriesbook.renumber import Report

HISTORY_FILE = "seriesbook-renumbered.json"

# published maps read in this process, by location (a volume's file is read once per build)
_PUBLISHED: dict[str, dict[str, tuple[str, str]]] = {}


def history_path(app: Sphinx) -> Path:
    return Path(app.confdir) / HISTORY_FILE


def _load(text: str) -> list[dict[str, Any]]:
    data = json.loads(text)
    entries = data.get("renumberings", []) if isinstance(data, dict) else []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("map"), dict)]


def record_renumbering(app: Sphinx, report: Report) -> dict[Path, str]:
    """The history file with this renumbering appended (written with the book's edits)."""
    if not report.map:
        return {}
    path = history_path(app)
    try:
        entries = _load(path.read_text(encoding="utf-8")) if path.is_file() else []
    except ValueError as error:  # not JSON, or not UTF-8: the author's file, not ours to replace
        raise PlanError(f"{path.name} cannot be read ({error}); fix or remove it") from None
    entries.append({
        "release": app.config.release or None,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "map": report.map,
    })
    text = json.dumps({"renumberings": entries}, ensure_ascii=False, indent=2) + "\n"
    return {path: text}


def renumbered(entries: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Each number that was renumbered → (its latest new number, when: release or date)."""
    result: dict[str, tuple[str, str]] = {}
    for entry in entries:
        when = str(entry.get("release") or entry.get("date") or "")
        for old, new in entry["map"].items():
            if old != new:
                result[str(old)] = (str(new), when)
    return result


def _publish(app: Sphinx, exception: Exception | None) -> None:
    source = history_path(app)
    if exception is None and app.builder.format == "html" and source.is_file():
        shutil.copyfile(source, Path(app.outdir) / HISTORY_FILE)


def _locations(app: Sphinx, inventory: str) -> list[str]:
    """Where the volume *inventory* publishes its history: beside its objects.inv."""
    mapping = getattr(app.config, "intersphinx_mapping", {}) or {}
    value = mapping.get(inventory)
    if not value:
        return []
    uri, targets = value[1] if isinstance(value[1], tuple) and len(value) == 2 else value
    found: list[str] = []
    for target in targets if isinstance(targets, tuple) else (targets,):
        base = uri if target is None else str(target).rsplit("/", 1)[0]
        found.append(base.rstrip("/") + "/" + HISTORY_FILE)
    return found


def _fetch(app: Sphinx, location: str) -> dict[str, tuple[str, str]]:
    if location not in _PUBLISHED:
        text: str | None = None
        if "://" in location:
            from sphinx.util import requests

            try:
                with requests.get(location, timeout=app.config.intersphinx_timeout) as response:
                    if response.ok:
                        text = response.text
            except OSError:
                text = None
        else:
            path = Path(app.srcdir) / location
            text = path.read_text(encoding="utf-8") if path.is_file() else None
        try:
            _PUBLISHED[location] = renumbered(_load(text)) if text else {}
        except (ValueError, AttributeError):
            _PUBLISHED[location] = {}
    return _PUBLISHED[location]


def check_sibling(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.TextElement
) -> None:
    """``{sec}`vol:N.M```: warn when vol's published history says N.M was renumbered."""
    inventory = node.get(MENTION_INVENTORY)
    if inventory is None:
        return
    number = node[MENTION_NUMBER]
    for location in _locations(app, inventory):
        moved = _fetch(app, location).get(number)
        if moved is not None:
            new, when = moved
            warn(
                Problem.SEC_RENUMBERED,
                f"§{number} of {inventory!r} was renumbered §{new} ({when}): this link now "
                f"lands on whatever is §{number} there; write {{sec}}`{inventory}:{new}` if "
                "the section meant is the renumbered one",
                node,
            )
            return


def _forget(app: Sphinx) -> None:
    _PUBLISHED.clear()


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.sections")
    app.setup_extension("seriesbook.renumber.pending")  # sec-stale: what renumbering left
    app.connect("builder-inited", _forget)
    app.connect("missing-reference", check_sibling, priority=390)  # before resolving
    app.connect("build-finished", _publish)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
