"""Every page shows the book's navigation: a page whose title or toctrees change is news to all.

Each HTML page carries the book's navigation: the sidebar's chapter titles and the toctrees
they hang from, the previous and next links with their pages' titles. Sphinx's incremental
build writes the pages that were read again and their dependents only, so after an author
renames a chapter or adds a page to a toctree every other page would keep the old sidebar
until the next full build (in ``seriesbook serve`` too, which builds incrementally on every save).

Here, before the pages are read (``env-before-read-docs``), each page about to be read again
leaves a digest of what other pages show of it: its title, the part of its table of contents
the titles-only sidebar can show (:func:`seriesbook.speed.sidebar.titles_only_toc`: the title
entries and the branches that hold a toctree), the pages its toctrees include and its
``tocdepth``. After reading (``env-get-updated``), if any of them changed, every page is
written again, as a full build would write it; an edit of a paragraph changes none of them and
writes what it wrote before. The digests live in this process only (they describe the
environment before this build's reading), never in the pickled environment.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from seriesbook.core.builders import is_website
from seriesbook.speed.sidebar import titles_only_toc

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

#: env → {page read again in this build: the digest of its navigation before reading}
_BEFORE: WeakKeyDictionary[BuildEnvironment, dict[str, str | None]] = WeakKeyDictionary()


def navigation_digest(env: BuildEnvironment, docname: str) -> str | None:
    """What other pages show of *docname*, as a digest; None if the page has not been read."""
    title = env.titles.get(docname)
    toc = env.tocs.get(docname)
    if title is None or toc is None:
        return None
    shown = (
        title.pformat(),
        titles_only_toc(toc).pformat(),
        tuple(env.toctree_includes.get(docname, ())),
        env.metadata.get(docname, {}).get("tocdepth"),
    )
    return hashlib.blake2b(repr(shown).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def note_before_reading(
    app: Sphinx, env: BuildEnvironment, docnames: list[str]
) -> None:
    """``env-before-read-docs``: the navigation of each page about to be read again."""
    if not is_website(app):
        return
    _BEFORE[env] = {docname: navigation_digest(env, docname) for docname in docnames}


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> Iterable[str]:
    """``env-get-updated``: every page, if a page read again shows other pages something new."""
    before = _BEFORE.pop(env, {})
    changed = any(
        digest is not None and digest != navigation_digest(env, docname)
        for docname, digest in before.items()
    )
    return sorted(env.found_docs) if changed else ()


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    # after the other listeners, which may still add pages to the list
    app.connect("env-before-read-docs", note_before_reading, priority=900)
    app.connect("env-get-updated", pages_to_rewrite)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
