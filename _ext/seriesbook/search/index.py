"""This build's search index, frozen from the one it loaded where only the fed pages changed.

The HTML builder loads the index it wrote last (``searchindex.js``), prunes the pages it will
write, feeds each of them again, prunes the pages no longer in the book and freezes the index to
dump it. Sphinx's ``IndexBuilder`` turns every term's pages into a set to do that, empties the
sets of the pages it writes and fills them again: work in proportion to the whole book, also
when one page changed (and for every page when all of them are written but none changed).

With the cache, :class:`~seriesbook.search.compact.PackedJavaScriptIndex` hands Sphinx the index
it loaded without its terms (their mappings stay empty) and keeps it whole; :class:`KeptIndex`
notes what Sphinx then does to the indexer (the pages left after the first prune, each page fed
and what feeding it adds, the last prune) and gives ``freeze`` the index loaded with only the
fed pages' terms changed (:func:`seriesbook.compat.freeze_with`). Where that cannot be (no index
was loaded, the pages are not those loaded, or Sphinx does something else), it plays what it
noted on Sphinx's indexer (the mappings filled as loading them would have, each page given what
feeding it added, each prune) and lets Sphinx freeze it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from seriesbook import compat

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.search import IndexBuilder

#: What Sphinx did to the indexer: a page fed (name, file name, title, what it added and its
#: terms' digest) or a prune.
Step = tuple[str, str, str, compat.FedPage, str] | frozenset[str]


class KeptIndex:
    """The indexer's feeds and prunes noted; its freeze made from the index loaded."""

    def __init__(
        self,
        indexer: IndexBuilder,
        loaded: dict[str, Any] | None,
        members: dict[str, str],
        feed: Callable[[str, str, str, nodes.document], tuple[compat.FedPage, str]],
    ) -> None:
        self.indexer = indexer
        #: The index Sphinx loaded (whole; Sphinx's mappings of it empty), if it took it, and
        #: each page of it whose terms are known, with their digest.
        self.loaded = loaded if compat.loads(indexer, loaded) else None
        self.members = members if self.loaded is not None else {}
        self.kept = compat.pages_of(indexer)  # the pages the first prune left
        self.steps: list[Step] = []
        self.played = False
        #: The terms whose pages the index frozen changed from the one loaded (when it was
        #: frozen from it; None when Sphinx froze it).
        self.changed_terms: set[str] | None = None
        self._feed = feed
        self._sphinx_prune: Callable[[Iterable[str]], None] | None = None
        compat.route_index(indexer, self.feed, self.prune, self.freeze)

    def feed(self, docname: str, filename: str, title: str, doctree: nodes.document) -> None:
        """The indexer's ``feed``: what the page adds (*feed* says), noted or given."""
        page, terms = self._feed(docname, filename, title, doctree)
        if self.played:
            compat.restore_page(self.indexer, docname, filename, title, page)
        self.steps.append((docname, filename, title, page, terms))

    def prune(self, sphinx_prune: Callable[[Iterable[str]], None], docnames: Iterable[str]) -> None:
        self._sphinx_prune = sphinx_prune
        if self.played:
            sphinx_prune(docnames)
        else:
            self.steps.append(frozenset(docnames))

    def freeze(self, sphinx_freeze: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        self.changed_terms = None
        frozen = None if self.played else self._frozen()
        if frozen is None:
            self.play()
            frozen = sphinx_freeze()
        self._note_members(frozen["docnames"])
        return frozen

    def _fed(self) -> dict[str, tuple[str, str, compat.FedPage, str]] | None:
        """Each page fed once (``None`` if one was fed again)."""
        fed: dict[str, tuple[str, str, compat.FedPage, str]] = {}
        for step in self.steps:
            if not isinstance(step, frozenset):
                if step[0] in fed:
                    return None
                fed[step[0]] = step[1:]
        return fed

    def _frozen(self) -> dict[str, Any] | None:
        """The index frozen from the one loaded, if Sphinx fed some pages, then pruned."""
        steps, fed = self.steps, self._fed()
        if self.loaded is None or fed is None or not steps or not isinstance(steps[-1], frozenset):
            return None
        if any(isinstance(step, frozenset) for step in steps[:-1]):
            return None
        same = {name for name, step in fed.items() if self.members.get(name) == step[3]}
        pages = {name: step[:3] for name, step in fed.items()}
        changed: set[str] = set()
        frozen = compat.freeze_with(
            self.indexer, self.loaded, self.kept, pages, steps[-1], same, changed
        )
        self.changed_terms = changed if frozen is not None else None
        return frozen

    def _note_members(self, docnames: Iterable[str]) -> None:
        """The pages of the index frozen whose terms are known: those fed once (what feeding
        them added), and those loaded and not fed (as they were)."""
        fed = self._fed() or {}
        known = {name: step[3] for name, step in fed.items()}
        self.members = {
            name: known[name] if name in fed else self.members[name]
            for name in docnames
            if name in known or (name not in fed and name in self.members)
        }

    def play(self) -> None:
        """Leave Sphinx's indexer as Sphinx's own steps would have."""
        if self.played:
            return
        self.played = True
        if self.loaded is not None:
            compat.fill_mappings(self.indexer, self.loaded, self.kept)
        for step in self.steps:
            if isinstance(step, frozenset):
                assert self._sphinx_prune is not None
                self._sphinx_prune(step)
            else:
                compat.restore_page(self.indexer, *step[:4])
