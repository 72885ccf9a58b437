"""One walk of a page for the translated edition's steps that would each walk it again.

While a page of a translated edition is read, :class:`~._coverage.NoteMessages` walks it for
its messages, :class:`~._diagrams.TranslateLabels` for the diagrams' labels, ``Locale`` for the
messages again (its first pass), :class:`~seriesbook.editions.CheckCatalogs` for the labels again
and :class:`~._marks.MarkSourceText` for the messages, code blocks and diagrams: whole-page walks
a book's own edition does not make. :func:`note` (``NoteMessages``) walks once and keeps what
each of them looks for; each takes it from there instead of walking, as long as every transform
applied to the page since is one of :data:`STILL` (steps known to add, remove and move no message
node, label, code block or diagram: they set attributes, or change what is inside a message, as
``Locale`` does). ``Locale`` patches messages, so it leaves its own record of the page's
messages (:func:`after_locale`) for the steps after it. Where another transform has run between
(another extension's), or with ``seriesbook_speedups = False``, each step walks the page itself.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from docutils import nodes

from seriesbook import compat
from seriesbook.core.config import get_config, is_translated_edition

if TYPE_CHECKING:
    from sphinx.config import Config

#: Transforms that add, remove and move no message node, diagram label, code block or diagram
#: (by module and name: some are other capabilities').
STILL = frozenset({
    "seriesbook.editions._coverage.NoteMessages",
    "seriesbook.editions._diagrams.TranslateLabels",
    "seriesbook.editions._titles.OpenTitleIndex",
    "seriesbook.editions._outdated.NoteOutdated",
    "seriesbook.editions._titles.CloseTitleIndex",
    "sphinx.transforms.i18n.TranslationProgressTotaliser",
    "seriesbook.editions._outdated.KeepOutdated",
    "seriesbook.citations._links.LinkCitations",  # puts a link around a literal or its text
    "seriesbook.editions.CheckCatalogs",  # its notice is no message (it has no source)
})
#: ``Locale`` (as :class:`~._locale.QuickLocale`): it patches messages, nothing else.
LOCALE = "seriesbook.editions._locale.QuickLocale"
_NAMES: dict[type, str] = {}  # a transform class: its module and name


@dataclass
class _Walk:
    noted: int  # how many transforms had been applied to the page when it was walked
    walked: list[compat.Noted]  # the messages' walk (compat.walk_page)
    kinds: tuple[type[nodes.Element], ...]
    found: list[nodes.Element]  # the nodes of those kinds, in document order
    messages: list[nodes.Element] | None = None  # Locale's: the message nodes after it
    located: int = 0  # how many transforms had been applied when Locale began


N = TypeVar("N", bound=nodes.Element)

_WALKS: weakref.WeakKeyDictionary[nodes.document, _Walk] = weakref.WeakKeyDictionary()


def _applied(document: nodes.document) -> Sequence[tuple[object, type, object, object]]:
    applied: Sequence[tuple[object, type, object, object]] = document.transformer.applied
    return applied


def _only(document: nodes.document, since: int, allowed: frozenset[str]) -> bool:
    """Whether every transform applied to *document* from the *since*-th on is *allowed*."""
    for _priority, transform, _pending, _options in _applied(document)[since:]:
        name = _NAMES.get(transform)
        if name is None:
            name = _NAMES[transform] = f"{transform.__module__}.{transform.__qualname__}"
        if name not in allowed:
            return False
    return True


def note(
    document: nodes.document, config: Config, kinds: tuple[type[nodes.Element], ...]
) -> list[compat.Noted] | None:
    """``NoteMessages``: walk the page once, keep its nodes of *kinds* for the later steps,
    and give the messages' walk (:func:`seriesbook.compat.walk_page`); None where nothing is
    kept (the book's own edition, ``seriesbook_speedups = False``)."""
    _WALKS.pop(document, None)
    if not get_config(config).speedups or not is_translated_edition(config):
        return None
    walked, found = compat.walk_page(document, config.verbosity < 2, kinds)
    _WALKS[document] = _Walk(len(_applied(document)), walked, kinds, found)
    return walked


def _still(document: nodes.document, with_locale: bool) -> _Walk | None:
    walk = _WALKS.get(document)
    allowed = STILL | {LOCALE} if with_locale else STILL
    if walk is None or not _only(document, walk.noted, allowed):
        return None
    return walk


def messages_walked(document: nodes.document) -> list[compat.Noted] | None:
    """The messages' walk of the page, for ``Locale``'s first pass; None if it may be stale."""
    walk = _still(document, with_locale=False)
    return walk.walked if walk is not None else None


def after_locale(document: nodes.document, found: list[nodes.Element] | None) -> None:
    """``Locale`` leaves the page's message nodes: *found*, those its second pass walked, or
    if it changed nothing (None: the page has no catalog) the walked ones, if still current."""
    walk = _WALKS.get(document)
    if walk is None:
        return
    walk.located = len(_applied(document))
    if found is None and _only(document, walk.noted, STILL):  # the page as walked
        found = [node for node, _end in walk.walked]
    walk.messages = found


def messages(document: nodes.document) -> list[nodes.Element] | None:
    """The page's message nodes as ``Locale`` left them, in the order ``extract_messages``
    walks them; None if they may be stale or ``Locale`` left none."""
    walk = _WALKS.get(document)
    if walk is None or walk.messages is None:
        return None
    if not _only(document, walk.located, STILL | {LOCALE}):
        return None
    return walk.messages


def found(document: nodes.document, kind: type[N]) -> list[N] | None:
    """The page's nodes of *kind* (one of those :func:`note` kept), in document order; None if
    they may be stale or were not kept."""
    walk = _still(document, with_locale=True)
    if walk is None or kind not in walk.kinds:
        return None
    return [node for node in walk.found if isinstance(node, kind)]
