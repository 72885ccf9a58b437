"""Sphinx's ``Locale`` title mapping, linear in the page instead of once per translated title.

For every translated section title, ``_NodeUpdater.update_title_mapping`` (Sphinx 9.0) renames
the targets that referred to the old title (``target`` nodes with ``refname`` equal to the old
name) by walking the whole page: a page pays its size × its translated titles (measured in
``benchmarks/RESULTS.md``).

:class:`IndexedNodeUpdater` does the same renaming from an index of the page's targets by
``refname``, built at the first translated title of the page and kept up to date by the
renaming itself. It replaces ``_NodeUpdater`` in ``sphinx.transforms.i18n`` (``Locale`` looks
the name up there for every message) and behaves as Sphinx's own except between
:class:`OpenTitleIndex` and :class:`CloseTitleIndex`, the two transforms around ``Locale``
(priority 20): any other use of ``_NodeUpdater`` (another Sphinx application in the process,
``Locale`` applied by hand) gets Sphinx's walk. The index is dropped whenever ``Locale``
patches a node whose old or new content holds a ``target`` (a title with an embedded alias),
so it never misses one; between two titles nothing else in ``Locale`` touches targets.

``tests/test_editions_titles.py`` compares the renaming with Sphinx's own on documents full of
aliases and chains of renamed titles, checks that Sphinx's method is still the one this copies
(its source is pinned), and builds the English editions of the test books byte for byte with
the index switched off and on.
"""

from __future__ import annotations

import hashlib
import inspect
import weakref
from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util.nodes import NodeMatcher

from seriesbook import compat
from seriesbook.core.config import get_config

# Sphinx's update_title_mapping, as of Sphinx 9.0 (sha256 of inspect.getsource): the method
# whose target renaming IndexedNodeUpdater reproduces. A test fails when Sphinx changes it.
SPHINX_UPDATE_TITLE_MAPPING_SHA256 = (
    "562795a8e7a9ff4c458e549ccb74e548566d4cf3a32344c334cfd42c92be3867"
)

_SphinxNodeUpdater = compat.SphinxNodeUpdater

# The pages inside Locale: None until the page's first translated title builds the index.
_OPEN: weakref.WeakKeyDictionary[nodes.document, dict[str, list[nodes.target]] | None] = (
    weakref.WeakKeyDictionary()
)


def _targets_by_refname(document: nodes.document) -> dict[str, list[nodes.target]] | None:
    """The page's targets by ``refname``; None if a refname is not a plain string."""
    index: dict[str, list[nodes.target]] = {}
    for target in document.findall(nodes.target):
        if "refname" not in target:
            continue
        refname = target["refname"]
        if type(refname) is not str:
            return None  # Sphinx compares with !=; keep its walk for anything unusual
        index.setdefault(refname, []).append(target)
    return index


def _rename_targets(document: nodes.document, old_name: str, new_name: str) -> None:
    """Every target of the page referring to ``old_name`` now refers to ``new_name``."""
    index = _OPEN.get(document)
    if index is None:
        index = _targets_by_refname(document)
        if index is None:  # Sphinx's walk
            for old_target in NodeMatcher(nodes.target, refname=old_name).findall(document):
                old_target["refname"] = new_name
            return
        _OPEN[document] = index
    renamed = index.pop(old_name, [])
    for old_target in renamed:
        old_target["refname"] = new_name
    if renamed:
        index.setdefault(new_name, []).extend(renamed)


def _has_target(node: nodes.Node) -> bool:
    """Whether *node* is or holds a ``target`` (``findall(nodes.target)`` finds one)."""
    stack = [node]
    while stack:
        found = stack.pop()
        if isinstance(found, nodes.target):
            return True
        stack.extend(child for child in found.children if isinstance(child, nodes.Element))
    return False


class IndexedNodeUpdater(_SphinxNodeUpdater):
    """Sphinx's ``_NodeUpdater``; inside ``Locale``, titles rename targets through an index."""

    def update_title_mapping(self) -> bool:
        document = self.document
        if document not in _OPEN:
            return bool(super().update_title_mapping())
        # Sphinx's method step by step (its comments say why), the last step through the index.
        if not (isinstance(self.node, nodes.title) and isinstance(self.node.parent, nodes.section)):
            return False
        section_node = self.node.parent
        new_name = nodes.fully_normalize_name(self.patch.astext())
        old_name = nodes.fully_normalize_name(self.node.astext())
        if old_name == new_name:
            return False
        names: list[str] = section_node.setdefault("names", [])
        names.append(new_name)
        _id = document.nameids.get(old_name, None)
        explicit = document.nametypes.get(old_name, None)
        if _id:
            if not explicit:
                document.nameids.pop(old_name, None)
                document.nametypes.pop(old_name, None)
                document.ids.pop(_id, None)
            document.note_implicit_target(section_node)
        _rename_targets(document, old_name, new_name)
        return True

    def update_leaves(self) -> None:
        if _OPEN.get(self.document) is not None and (
            _has_target(self.node) or _has_target(self.patch)
        ):
            _OPEN[self.document] = None  # rebuilt at the next title
        super().update_leaves()


class OpenTitleIndex(SphinxTransform):
    """Just before ``Locale``: its title mapping may index this page."""

    default_priority = 19

    def apply(self, **kwargs: Any) -> None:
        if get_config(self.config).speedups:  # else Sphinx's own walk of the page per title
            _OPEN[self.document] = None


class CloseTitleIndex(SphinxTransform):
    """Just after ``Locale``: the index is forgotten."""

    default_priority = 21

    def apply(self, **kwargs: Any) -> None:
        _OPEN.pop(self.document, None)


def sphinx_method_is_pinned() -> bool:
    """Whether Sphinx's ``update_title_mapping`` is the one :class:`IndexedNodeUpdater` copies."""
    try:
        source = inspect.getsource(_SphinxNodeUpdater.update_title_mapping)
    except (OSError, TypeError):
        return False
    return hashlib.sha256(source.encode()).hexdigest() == SPHINX_UPDATE_TITLE_MAPPING_SHA256
