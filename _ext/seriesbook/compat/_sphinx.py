"""Doors to Sphinx internals: each a small named function, so an upgrade breaks in one place.

Every door is listed in :data:`seriesbook.compat.INTERNALS` with the upstream code it relies on;
``tests/test_compat.py`` pins that code and fails when Sphinx changes it.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

import sphinx.locale
from sphinx.transforms import i18n
from sphinx.util import logging as sphinx_logging

if TYPE_CHECKING:
    from docutils import nodes
    from docutils.transforms import Transform
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.search import IndexBuilder, SearchLanguage


#: The private attributes of Sphinx's environment that are its own bookkeeping (the application,
#: directories, doctree caches): a check's fingerprint of what references resolve against
#: leaves them out. A new private attribute is fed to the fingerprint (a full resolve, never a
#: missed problem); the guard test pins ``BuildEnvironment.__init__`` that sets these.
ENVIRONMENT_BOOKKEEPING = frozenset({
    "_app", "_pickled_doctree_cache", "_write_doc_doctree_cache",
})


def builder_class(env: BuildEnvironment) -> type[Builder] | None:
    """The builder class of this build, as Sphinx's own transforms reach it (none while
    unpickling). Post-transforms run in ``-j`` worker processes too, where ``app.builder`` is
    not at hand and ``SphinxTransform.app`` is deprecated."""
    builder: type[Builder] | None = getattr(env, "_builder_cls", None)
    return builder


def application(env: BuildEnvironment) -> Sphinx:
    """The application of this build, for a transform (``SphinxTransform.app`` is deprecated)."""
    app: Sphinx = env._app
    return app


def doctrees_in_memory(env: BuildEnvironment) -> Mapping[str, nodes.document]:
    """The doctrees this run read and Sphinx still holds (no unpickling); read-only."""
    kept: Mapping[str, nodes.document] = getattr(env, "_write_doc_doctree_cache", {})
    return kept


def conf_py_values(config: Config) -> dict[str, Any]:
    """What conf.py itself set, before ``-D`` overrides."""
    raw: dict[str, Any] = getattr(config, "_raw_config", {})
    return raw


def forget_translations(catalog: str | None = None, namespace: str = "general") -> None:
    """Drop Sphinx's process-wide translators (all, or *catalog*'s one in *namespace*).

    Sphinx keeps one translator per catalog for the process and adds later languages to it as
    fallbacks: a second build in the same process must start from its own language.
    """
    if catalog is None:
        sphinx.locale.translators.clear()
    else:
        sphinx.locale.translators.pop((namespace, catalog), None)


@contextmanager
def after_logging_setup(attach: Callable[[Sphinx], None]) -> Iterator[None]:
    """Call *attach* right after ``Sphinx()`` sets up its logging, before it reads conf.py.

    ``Sphinx()`` replaces every handler of its logger while starting and warns (option types,
    extensions, ``builder-inited``) before it returns: a handler added afterwards misses those.
    """
    setup = sphinx_logging.setup

    def setup_and_attach(
        app: Sphinx, status: IO[str], warning: IO[str], *, verbosity: int = 0
    ) -> None:
        setup(app, status, warning, verbosity=verbosity)
        attach(app)

    sphinx_logging.setup = setup_and_attach
    try:
        yield
    finally:
        sphinx_logging.setup = setup


def sphinx_logger() -> logging.Logger:
    """The logger every Sphinx warning passes through."""
    return logging.getLogger(sphinx_logging.NAMESPACE)


#: Sphinx's ``_NodeUpdater`` as shipped, which ``Locale`` looks up in ``sphinx.transforms.i18n``
#: (for a subclass: :func:`replace_node_updater` swaps what ``Locale`` finds, not this).
SphinxNodeUpdater = i18n._NodeUpdater


def replace_node_updater(updater: type[SphinxNodeUpdater]) -> None:
    """Make ``Locale`` use *updater* (a subclass of :data:`SphinxNodeUpdater`)."""
    i18n._NodeUpdater = updater  # type: ignore[misc]


def filter_compiled_catalogs(
    builder: Builder,
    compile_usable: Callable[[Callable[[set[Any], str], None], set[Any], str], None],
) -> None:
    """Route the builder's ``compile_catalogs(catalogs, message)`` through *compile_usable*,
    which gets Sphinx's own method, the catalogs Sphinx chose and its message.

    Sphinx compiles every ``.po`` it finds before reading (``gettext_auto_build``) and offers
    no event between choosing the catalogs (all, the outdated ones, a page's) and compiling
    them; a catalog Babel cannot read must never be compiled, and every builder (html, latex,
    epub, the checker …) compiles. So the builder *instance*'s method is wrapped, the class
    left alone: one of the stated exceptions in :data:`seriesbook.compat.REASSIGNED`.
    """
    compile_catalogs = builder.compile_catalogs

    def compile_chosen(catalogs: set[Any], message: str) -> None:
        compile_usable(compile_catalogs, catalogs, message)

    setattr(builder, "compile_catalogs", compile_chosen)  # noqa: B010 (a method of the instance)


def init_search_language(language: SearchLanguage, options: dict[str, str]) -> None:
    """``SearchLanguage.__init__`` for a subclass of Sphinx's ``SearchChinese`` that skips its
    ``__init__`` (which loads jieba's whole dictionary) and does the rest itself."""
    from sphinx.search import SearchLanguage

    SearchLanguage.__init__(language, options)


def route_index(
    indexer: IndexBuilder,
    feed: Callable[[str, str, str, nodes.document], None],
    prune: Callable[[Callable[[Iterable[str]], None], Iterable[str]], None],
    freeze: Callable[[Callable[[], dict[str, Any]]], dict[str, Any]],
) -> None:
    """Send *indexer*'s ``feed(docname, filename, title, doctree)``, ``prune(docnames)`` and
    ``freeze()`` calls through *feed*, *prune* and *freeze* (the last two get Sphinx's own
    method first).

    The HTML builder loads the index it wrote last, prunes the pages it writes, feeds them
    and freezes the index to dump it; no hook lets an extension give the index a page's words
    it kept from an earlier build, nor freeze it without the mappings of sets Sphinx fills,
    empties and fills again. So the indexer *instance*'s methods are wrapped (the class
    untouched), for this build's indexer only: stated exceptions in
    :data:`seriesbook.compat.REASSIGNED`.
    """
    sphinx_prune, sphinx_freeze = indexer.prune, indexer.freeze

    def routed_feed(docname: str, filename: str, title: str, doctree: nodes.document) -> None:
        feed(docname, filename, title, doctree)

    def routed_prune(docnames: Iterable[str]) -> None:
        prune(sphinx_prune, docnames)

    def routed_freeze() -> dict[str, Any]:
        return freeze(sphinx_freeze)

    setattr(indexer, "feed", routed_feed)  # noqa: B010 (methods of the instance)
    setattr(indexer, "prune", routed_prune)  # noqa: B010
    setattr(indexer, "freeze", routed_freeze)  # noqa: B010


def fetch_like_intersphinx(app: Sphinx, target_uri: str, location: str) -> bytes:
    """The bytes at *location* (a URL, or a path from the source directory), fetched as
    intersphinx fetches an inventory: its timeout, TLS settings, user agent and auth stripping.

    Raises what intersphinx's fetch raises (``OSError``, ``requests`` errors) on failure.
    """
    from sphinx.ext.intersphinx._load import _fetch_inventory_data, _InvConfig

    data, _ = _fetch_inventory_data(
        target_uri=target_uri, inv_location=location, config=_InvConfig.from_config(app.config),
        srcdir=app.srcdir, cache_path=None,
    )
    return data


def replace_transform(app: Sphinx, old: type[Transform], new: type[Transform]) -> None:
    """Read with *new* where Sphinx registered *old* (a subclass of it, same priority, same place
    in the list): ``get_transforms`` hands out the registry's own list, and Sphinx offers no way
    to remove a transform. Nothing happens if *old* is not registered."""
    transforms = app.registry.get_transforms()
    for index, transform in enumerate(transforms):
        if transform is old:
            transforms[index] = new


def replace_listener(
    app: Sphinx,
    event: str,
    handler: Callable[..., Any],
    make_handler: Callable[[Callable[..., Any]], Callable[..., Any]],
) -> bool:
    """Give the listener of *event* whose handler is *handler* (or wraps it, as a profiler's
    timer does) the handler ``make_handler(its handler)``, in the same place: the same id and
    priority, the same turn among listeners of equal priority. Sphinx can disconnect a listener
    (by the id ``connect`` gave its owner) and connect another, but only after every listener
    of the same priority. False when no listener has that handler."""
    listeners = app.events.listeners[event]
    for index, listener in enumerate(listeners):
        if inspect.unwrap(listener.handler) is handler:
            listeners[index] = listener._replace(handler=make_handler(listener.handler))
            return True
    return False


def replace_post_transform(app: Sphinx, old: type[Transform], new: type[Transform]) -> None:
    """Resolve with *new* where Sphinx registered the post-transform *old* (a subclass of it,
    the same place in the list): ``get_post_transforms`` hands out the registry's own list, and
    Sphinx offers no way to remove a post-transform. Nothing happens if *old* is not there."""
    transforms = app.registry.get_post_transforms()
    for index, transform in enumerate(transforms):
        if transform is old:
            transforms[index] = new
