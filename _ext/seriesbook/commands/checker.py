"""The builder ``seriesbook check`` reads and resolves the book with: ``seriesbook-check``.

It is Sphinx's ``dummy`` builder (nothing is written), registered through the public builder
API: by :class:`CheckApplication`, the application the commands start (so a source checkout on
``PYTHONPATH`` works too), and by the ``sphinx.builders`` entry point of an installed seriesbook
(``sphinx-build -b seriesbook-check``).
With a :class:`Resolution` attached (a kept environment, :class:`.kept.KeptResolution`), it
resolves the pages the resolution chooses, each on its own so its problems can be told apart,
instead of every page: Sphinx's own choice (the re-read pages and their toctree parents) is
what it is told in :meth:`CheckBuilder.prepare_writing`, and the resolution widens it. Pages
chosen when Sphinx chose none (nothing changed, but a page has no kept answer) are resolved in
:meth:`CheckBuilder.finish`, since ``Builder.write`` calls ``write_documents`` only for a
non-empty choice.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from typing import TYPE_CHECKING, Protocol

from sphinx.application import Sphinx
from sphinx.builders.dummy import DummyBuilder

from seriesbook import __version__

if TYPE_CHECKING:
    from sphinx.util.typing import ExtensionMetadata

NAME = "seriesbook-check"


class Resolution(Protocol):
    """Which pages to resolve, and what to keep of each one's resolving."""

    def choose(self, sphinx_choice: AbstractSet[str]) -> set[str]:
        """The pages to resolve, given the ones Sphinx would (a superset of them)."""
        ...

    def resolve(self, docname: str, resolve: Callable[[], None]) -> None:
        """Run *resolve* (which resolves *docname*), keeping what it reports."""
        ...


class CheckBuilder(DummyBuilder):
    """Sphinx's non-writing builder, resolving only what an attached :class:`Resolution` picks."""

    name = NAME

    def init(self) -> None:
        super().init()
        self.resolution: Resolution | None = None
        self.chosen: set[str] = set()
        self.resolved = False

    def get_outdated_docs(self) -> set[str]:
        if self.resolution is None:
            return super().get_outdated_docs()
        return set()  # Sphinx adds the re-read pages and their toctree parents

    def prepare_writing(self, docnames: AbstractSet[str]) -> None:
        super().prepare_writing(docnames)
        chosen = set(docnames)
        self.chosen = chosen if self.resolution is None else self.resolution.choose(chosen)
        self.resolved = False

    def write_documents(self, docnames: AbstractSet[str]) -> None:
        self._resolve(self.chosen | set(docnames))

    def finish(self) -> None:
        if not self.resolved and self.chosen:
            self._resolve(self.chosen)
        super().finish()

    def _resolve(self, docnames: AbstractSet[str]) -> None:
        self.resolved = True
        if self.resolution is None:
            super().write_documents(docnames)
            return
        for docname in sorted(docnames):
            self.resolution.resolve(docname, partial(super().write_documents, {docname}))


class CheckApplication(Sphinx):
    """Sphinx, registering the ``seriesbook-check`` builder when asked for it by name."""

    def preload_builder(self, name: str) -> None:
        if name == NAME:
            self.setup_extension(__name__)
        super().preload_builder(name)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_builder(CheckBuilder)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
