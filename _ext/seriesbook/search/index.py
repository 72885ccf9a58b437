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

#: What Sphinx did to the indexer: a page fed (name, file name, title, what it added) or a prune.
Step = tuple[str, str, str, compat.FedPage] | frozenset[str]


class KeptIndex:
    """The indexer's feeds and prunes noted; its freeze made from the index loaded."""

    def __init__(
        self,
        indexer: IndexBuilder,
        loaded: dict[str, Any] | None,
        feed: Callable[[str, str, str, nodes.document], compat.FedPage],
    ) -> None:
        self.indexer = indexer
        #: The index Sphinx loaded (whole; Sphinx's mappings of it empty), if it took it.
        self.loaded = loaded if compat.loads(indexer, loaded) else None
        self.kept = compat.pages_of(indexer)  # the pages the first prune left
        self.steps: list[Step] = []
        self.played = False
        self._feed = feed
        self._sphinx_prune: Callable[[Iterable[str]], None] | None = None
        compat.route_index(indexer, self.feed, self.prune, self.freeze)

    def feed(self, docname: str, filename: str, title: str, doctree: nodes.document) -> None:
        """The indexer's ``feed``: what the page adds (*feed* says), noted or given."""
        self.add(docname, filename, title, self._feed(docname, filename, title, doctree))

    def add(self, docname: str, filename: str, title: str, page: compat.FedPage) -> None:
        if self.played:
            compat.restore_page(self.indexer, docname, filename, title, page)
        else:
            self.steps.append((docname, filename, title, page))

    def prune(self, sphinx_prune: Callable[[Iterable[str]], None], docnames: Iterable[str]) -> None:
        self._sphinx_prune = sphinx_prune
        if self.played:
            sphinx_prune(docnames)
        else:
            self.steps.append(frozenset(docnames))

    def freeze(self, sphinx_freeze: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if not self.played:
            frozen = self._frozen()
            if frozen is not None:
                return frozen
            self.play()
        return sphinx_freeze()

    def _frozen(self) -> dict[str, Any] | None:
        """The index frozen from the one loaded, if Sphinx fed some pages, then pruned."""
        if self.loaded is None or not self.steps or not isinstance(self.steps[-1], frozenset):
            return None
        fed: dict[str, tuple[str, str, compat.FedPage]] = {}
        for step in self.steps[:-1]:
            if isinstance(step, frozenset) or step[0] in fed:
                return None
            fed[step[0]] = step[1:]
        return compat.freeze_with(self.indexer, self.loaded, self.kept, fed, self.steps[-1])

    def play(self) -> None:
        """Leave Sphinx's indexer as Sphinx's own steps would have."""
        self.played = True
        if self.loaded is not None:
            compat.fill_mappings(self.indexer, self.loaded, self.kept)
        for step in self.steps:
            if isinstance(step, frozenset):
                assert self._sphinx_prune is not None
                self._sphinx_prune(step)
            else:
                compat.restore_page(self.indexer, *step)
        self.steps = []
