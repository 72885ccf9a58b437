"""Each page's Chinese characters and English words kept across builds by its text.

Counting a page (:func:`~._count.count_text`) scans every character of its rendered text with
two patterns; a ``-E`` build starts from a fresh environment and counted every page again,
although the text rarely changes. The counts depend on the text alone (and on the counting
rules: :mod:`._count` and :mod:`seriesbook.core.text`), so ``seriesbook-stats-counts.pickle``
in the doctree directory keeps each page's counts by a digest of its rendered text under a
:func:`fingerprint` of the rules, with the rules of :class:`~seriesbook.core.pagestore.PageStore`
(a page read in this build keeps the text it has now, a page not read keeps its own, a page gone
loses it). The text is still gathered from the doctree every time; only the counting is kept.
``seriesbook_speedups = False`` counts every page.

Under ``-j`` the forked readers see the loaded file; what each page used travels back in an
environment attribute merged at ``env-merge-info`` and taken out of the environment at
``env-updated`` (so it is never pickled into ``environment.pickle``), when the file is written.
"""

from __future__ import annotations

import hashlib
import sys
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.core import text as core_text
from seriesbook.core.config import get_config
from seriesbook.core.pagestore import PageStore, digest
from seriesbook.stats import _count

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

CACHE_NAME = "seriesbook-stats-counts.pickle"
FORMAT = 1
#: The counts each page read in this build used, by page (merged back from -j readers).
USED_ATTRIBUTE = "seriesbook_stats_kept"

Counts = tuple[int, int]  # (Han characters, English words)


def fingerprint() -> tuple[Any, ...]:
    """What the counts depend on besides the text: the counting rules' code."""
    rules = hashlib.sha256()
    for module in (_count, core_text):
        rules.update(Path(str(module.__file__)).read_bytes())
    return (FORMAT, sys.version, __version__, rules.hexdigest())


class KeptCounts(PageStore[str, Counts]):
    """Each page's counts by its text's digest (:class:`~seriesbook.core.pagestore.PageStore`)."""

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return (isinstance(entry, tuple) and len(entry) == 2
                and all(isinstance(n, int) for n in entry))


# The loaded counts of each build environment being read (forked -j readers inherit them), and
# the pages it reads.
_KEPT: weakref.WeakKeyDictionary[BuildEnvironment, KeptCounts] = weakref.WeakKeyDictionary()
_READ_NOW: weakref.WeakKeyDictionary[BuildEnvironment, list[str]] = weakref.WeakKeyDictionary()


def _used(env: BuildEnvironment) -> dict[str, dict[str, Counts]]:
    if not hasattr(env, USED_ATTRIBUTE):
        setattr(env, USED_ATTRIBUTE, {})
    used: dict[str, dict[str, Counts]] = getattr(env, USED_ATTRIBUTE)
    return used


def text_counts(env: BuildEnvironment, text: str) -> Counts:
    """The Han characters and English words of *text*, the page being read's: kept or
    counted, and noted as what the page uses."""
    kept = _KEPT.get(env)
    if kept is None:
        counts = _count.count_text(text)
        return counts.han, counts.english
    key = digest(text)
    found = kept.lookup.get(key)
    if found is None:
        counts = _count.count_text(text)
        found = kept.lookup[key] = (counts.han, counts.english)
    _used(env)[env.current_document.docname] = {key: found}
    return found


def _forget_used(env: BuildEnvironment) -> None:
    if hasattr(env, USED_ATTRIBUTE):
        delattr(env, USED_ATTRIBUTE)


def load(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: the kept counts, if anything is read and speedups are on."""
    _forget_used(env)
    if not get_config(app.config).speedups or not docnames:
        _KEPT.pop(env, None)
        _READ_NOW.pop(env, None)
        return
    _KEPT[env] = KeptCounts.read(Path(app.doctreedir) / CACHE_NAME, fingerprint())
    _READ_NOW[env] = docnames
    setattr(env, USED_ATTRIBUTE, {})


def merge(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    """``env-merge-info``: what a ``-j`` reader's pages used."""
    theirs: dict[str, dict[str, Counts]] = getattr(other, USED_ATTRIBUTE, {})
    _used(env).update({name: theirs[name] for name in docnames if name in theirs})


def save(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: every page read keeps the counts of its text now; the file is
    written if that changed it."""
    used: dict[str, dict[str, Counts]] = getattr(env, USED_ATTRIBUTE, {})
    _forget_used(env)
    read_now = _READ_NOW.pop(env, [])
    kept = _KEPT.pop(env, None)
    if kept is None:
        return
    try:
        kept.save({name: used.get(name, {}) for name in read_now}, set(env.all_docs))
    except OSError:
        return  # a read-only build directory: the pages are counted again next time
