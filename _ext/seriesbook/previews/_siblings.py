"""Sibling volumes' previews, read at build time from beside their ``objects.inv``.

Every seriesbook volume publishes ``seriesbook-previews.json`` (label id → preview) next to its
inventory. A link into a sibling (``{sec}`vllm:3.2```, ``{external+vllm:ref}`sec-3-2```)
previews when that file is there: it is read the way intersphinx reads the inventory (same
locations, Sphinx's HTTP session and ``intersphinx_timeout``), once per volume per build, so a
reader's browser never makes a cross-site request. A volume without the file (stock Sphinx, an
older build) just has no previews; a file that is not JSON of its shape is ``preview-sibling``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx

PUBLISHED_FILE = "seriesbook-previews.json"


def _volumes(app: Sphinx) -> list[tuple[str, str, list[str]]]:
    """(name, base URI, where its previews file may be) for every ``intersphinx_mapping`` entry,
    in either shape Sphinx accepts (normalized ``(name, (uri, locations))`` or ``(uri, inv)``)."""
    mapping = getattr(app.config, "intersphinx_mapping", None) or {}
    volumes = []
    for name, value in sorted(mapping.items()):
        uri, targets = value[1] if isinstance(value[1], tuple) and len(value) == 2 else value
        locations = []
        for target in targets if isinstance(targets, tuple) else (targets,):
            base = uri if target is None else str(target).rsplit("/", 1)[0]
            locations.append(base.rstrip("/") + "/" + PUBLISHED_FILE)
        volumes.append((str(name), str(uri).rstrip("/") + "/", locations))
    return volumes


def _read(app: Sphinx, location: str) -> str | None:
    """The file at *location* (None: there is none to read, as for a stock Sphinx volume)."""
    if "://" not in location:
        path = Path(app.srcdir) / location
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            return None
    from sphinx.util import requests

    try:
        with requests.get(location, timeout=app.config.intersphinx_timeout) as response:
            return response.text if response.ok else None
    except OSError:
        return None


def _entry(value: Any) -> dict[str, Any] | None:
    """A published preview, keeping only fields of the right shape (the text is shown as text)."""
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        return None
    blocks = [b for b in value.get("b", []) if isinstance(b, list) and 2 <= len(b) <= 3
              and all(isinstance(part, str) for part in b)]
    entry: dict[str, Any] = {"t": value["t"], "b": blocks}
    if isinstance(value.get("tl"), str) and value["tl"]:
        entry["tl"] = value["tl"]
    return entry


class SiblingPreviews:
    """One build's view of its siblings' published previews, each volume read once."""

    def __init__(self, app: Sphinx) -> None:
        self.app = app
        self.volumes = _volumes(app)
        self._read: dict[str, dict[str, dict[str, Any]]] = {}

    def preview(self, uri: str) -> dict[str, Any] | None:
        """The preview of the link *uri* into a sibling volume, or None."""
        page, _, anchor = uri.partition("#")
        if not anchor:
            return None
        for name, base, locations in self.volumes:
            if page.startswith(base):
                return self._published(name, locations).get(anchor)
        return None

    def _published(self, name: str, locations: list[str]) -> dict[str, dict[str, Any]]:
        if name not in self._read:
            found: dict[str, dict[str, Any]] = {}
            for location in locations:
                try:
                    text = _read(self.app, location)
                    if text is None:
                        continue
                    data = json.loads(text)
                except ValueError as error:  # also a file that is not UTF-8
                    data, why = None, f"not JSON ({error})"
                else:
                    why = 'not {"previews": {label: preview}}'
                if isinstance(data, dict) and isinstance(data.get("previews"), dict):
                    found = {k: e for k, v in data["previews"].items() if (e := _entry(v))}
                    break
                warn(Problem.PREVIEW_SIBLING, f"the previews volume {name!r} publishes at "
                     f"{location} are {why}; its links are not previewed", None)
            self._read[name] = found
        return self._read[name]
