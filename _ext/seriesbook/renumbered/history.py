"""The renumbering history: kept beside ``conf.py``, published beside ``objects.inv``.

Renumbering changes ``sec-…`` ids other volumes link to. ``seriesbook renumber --write`` appends
its old → new map to ``seriesbook-renumbered.json`` next to ``conf.py`` (the source of truth,
committed with the book); an HTML build copies it to its output beside ``objects.inv``. A
seriesbook volume that links ``{sec}`vol:N.M``` reads the target volume's published file with
intersphinx's own fetch and settings (same location rules, timeout, TLS settings and user
agent) and warns ``sec-renumbered`` when N.M was renumbered there, so a link that now lands on a
different section is reported, not silently wrong. A volume that never renumbered publishes no
file (a 404, or no local file): nothing renumbered. Any other failure (network, TLS, not JSON)
is a ``sec-history-unreadable`` warning, once per location: its links were not checked.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import compat
from seriesbook.core.problems import Problem, warn
from seriesbook.sections import MENTION_INVENTORY, MENTION_NUMBER

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

HISTORY_FILE = "seriesbook-renumbered.json"


def history_path(app: Sphinx) -> Path:
    return Path(app.confdir) / HISTORY_FILE


def load(text: str) -> list[dict[str, Any]]:
    """The renumberings of a history file's text (raises ``ValueError`` if it is not JSON)."""
    data = json.loads(text)
    entries = data.get("renumberings", []) if isinstance(data, dict) else []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("map"), dict)]


def renumbered(entries: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    """Each number that was renumbered → (its latest new number, when: release or date)."""
    result: dict[str, tuple[str, str]] = {}
    for entry in entries:
        when = str(entry.get("release") or entry.get("date") or "")
        for old, new in entry["map"].items():
            if old != new:
                result[str(old)] = (str(new), when)
    return result


def publish(app: Sphinx, exception: Exception | None) -> None:
    source = history_path(app)
    if exception is None and app.builder.format == "html" and source.is_file():
        shutil.copyfile(source, Path(app.outdir) / HISTORY_FILE)


def _locations(app: Sphinx, inventory: str) -> list[tuple[str, str]]:
    """Where the volume *inventory* publishes its history (beside its objects.inv), with the
    volume's base URI: intersphinx's own mapping, as it normalised it."""
    mapping = getattr(app.config, "intersphinx_mapping", {}) or {}
    value = mapping.get(inventory)
    if not value:
        return []
    uri, targets = value[1] if isinstance(value[1], tuple) and len(value) == 2 else value
    found: list[tuple[str, str]] = []
    for target in targets if isinstance(targets, tuple) else (targets,):
        base = uri if target is None else str(target).rsplit("/", 1)[0]
        found.append((uri, base.rstrip("/") + "/" + HISTORY_FILE))
    return found


def _not_published(error: BaseException) -> bool:
    """The volume publishes no history (it never renumbered): a 404 or no local file."""
    response = getattr(error, "response", None)
    return isinstance(error, FileNotFoundError) or getattr(response, "status_code", None) == 404


class SiblingHistories:
    """The sibling volumes' published histories, each fetched once per build."""

    def __init__(self) -> None:
        self.published: dict[str, dict[str, tuple[str, str]]] = {}

    def forget(self, app: Sphinx) -> None:
        self.published.clear()

    def fetch(self, app: Sphinx, uri: str, location: str, node: nodes.Node) -> dict[str, Any]:
        if location in self.published:
            return self.published[location]
        self.published[location] = {}
        try:
            text = compat.fetch_like_intersphinx(app, uri, location).decode("utf-8")
            self.published[location] = renumbered(load(text))
        except Exception as error:  # whatever intersphinx's fetch raises: requests, OSError
            if not _not_published(error):
                warn(
                    Problem.SEC_HISTORY_UNREADABLE,
                    f"cannot read the renumbering history {location} ({_reason(error)}): links "
                    "into that volume are not checked against its renumberings",
                    node,
                )
        return self.published[location]

    def check(
        self,
        app: Sphinx,
        env: BuildEnvironment,
        node: addnodes.pending_xref,
        contnode: nodes.TextElement,
    ) -> None:
        """``{sec}`vol:N.M```: warn when vol's published history says N.M was renumbered."""
        inventory = node.get(MENTION_INVENTORY)
        if inventory is None:
            return
        number = node[MENTION_NUMBER]
        for uri, location in _locations(app, inventory):
            moved = self.fetch(app, uri, location, node).get(number)
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


def _reason(error: BaseException) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8"
    if isinstance(error, ValueError):
        return f"not JSON: {error}"
    return f"{type(error).__name__}: {error}"

