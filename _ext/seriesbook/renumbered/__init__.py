"""Renumbered sections across volumes: the build publishes this volume's renumbering history
beside ``objects.inv`` and warns when a ``{sec}`` link into a sibling volume names a number that
volume renumbered (:mod:`.history`). ``seriesbook renumber --write`` records the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.renumbered.history import HISTORY_FILE, SiblingHistories, history_path, publish
from seriesbook.renumbered.history import load as load_history

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["HISTORY_FILE", "history_path", "load_history"]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.sections")  # the {sec} links it checks
    app.setup_extension("seriesbook.renumbered.pending")  # sec-stale: what renumbering left
    histories = SiblingHistories()  # fetched once per build, per location
    app.connect("builder-inited", histories.forget)
    app.connect("missing-reference", histories.check, priority=390)  # before resolving
    app.connect("build-finished", publish)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
