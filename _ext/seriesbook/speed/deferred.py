"""Modules a build imports but does not use, their code run when first used instead.

pydata-sphinx-theme (under sphinx-book-theme) imports BeautifulSoup, and BeautifulSoup imports
soupsieve, its CSS selector engine, which compiles some hundred regular expressions while it is
imported: in every process, a one-chapter rebuild's too. :mod:`seriesbook.speed.navigation`
makes the theme's edits without BeautifulSoup, so the selectors are only used where the theme's
own function answers (and BeautifulSoup's ``bs4.css`` looks the module up only inside its
methods). The deferred module is created, put in ``sys.modules`` and bound by the importer as
Python's import would; its code runs the first time a name it does not hold yet is looked up on
it, which is when Python would first have needed it. Nothing else changes: what it defines, its
``__spec__``, ``__file__`` and ``__path__``, and an error its code raises (the module is then
dropped from ``sys.modules``, as a failed import drops it).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.core.config import get_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

#: What is deferred: imported by a build's theme, used by none of seriesbook's paths.
DEFERRED = ("soupsieve",)


class DeferredModule(types.ModuleType):
    """A module whose code runs when a name it lacks is first looked up on it."""

    def __getattr__(self, name: str) -> Any:
        spec = self.__spec__  # a module always has one (None until the import system sets it)
        loader = getattr(spec, "loader", None)
        if spec is None or not isinstance(loader, _DeferringLoader) or not loader.imported:
            # the import system setting the module up (its __path__ …): not its code's names
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        self.__class__ = types.ModuleType  # type: ignore[assignment]  # a module like any other
        self.__loader__ = spec.loader = loader.loader
        try:
            loader.loader.exec_module(self)
        except BaseException:
            sys.modules.pop(self.__name__, None)
            raise
        return getattr(self, name)


class _DeferringLoader(importlib.abc.Loader):
    """Creates the module as a :class:`DeferredModule`; its own loader runs its code later."""

    def __init__(self, loader: importlib.machinery.SourceFileLoader) -> None:
        self.loader = loader
        self.imported = False  # the import system done with the module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return DeferredModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing yet: :class:`DeferredModule` runs the code."""
        self.imported = True


class _Deferring(importlib.abc.MetaPathFinder):
    """Finds each of *names* as the finders after it do, to be run when first used."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = set(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        self.names.discard(fullname)
        spec: importlib.machinery.ModuleSpec | None = None
        for finder in [finder for finder in sys.meta_path if finder is not self]:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader:
            return spec  # another kind of module (or none): imported as it is
        spec.loader = _DeferringLoader(spec.loader)
        if not self.names:
            stop_deferring()
        return spec


def defer(names: Sequence[str] = DEFERRED) -> None:
    """Defer the code of *names* not imported yet, from their first import on."""
    waiting = [name for name in names if name not in sys.modules]
    if waiting and not any(isinstance(finder, _Deferring) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Deferring(waiting))


def stop_deferring(*args: object) -> None:
    """Imports as usual again (a module already deferred stays so until first used)."""
    for finder in [finder for finder in sys.meta_path if isinstance(finder, _Deferring)]:
        sys.meta_path.remove(finder)


def _defer(app: Sphinx, config: Config) -> None:
    if get_config(config).speedups:
        defer()


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    # config-inited comes before the builder is made, which imports the theme
    app.connect("config-inited", _defer)
    app.connect("build-finished", stop_deferring)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
