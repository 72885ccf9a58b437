"""Source citations: ``path:LINE`` becomes a link pinned to a release, verified against it.

Forms (``[source:]path:LINE[-END]``; a path has a ``/`` or a source suffix):

* an inline literal that is a whole citation: `` `torch/csrc/autograd/engine.h:153` ``;
* the role ``{src}`Engine::execute <torch/csrc/autograd/engine.h:153>``` — the symbol is shown
  and must occur in the cited lines;
* a code block whose ``:caption:`` is a citation: an excerpt, compared with those lines.

Links go to ``{repo}/blob/{ref}/{path}#L{START}[-L{END}]``. Verification uses a local copy of
each source (``--source NAME=PATH``, ``$SERIESBOOK_SOURCE_<NAME>``, or ``path`` in the source's
config): a git repository read at the pinned ref, or a plain directory; without one, the lock
(:mod:`seriesbook.citations.lockfile`). Problems are ``seriesbook.cite-*`` warnings.

The names below are what other packages use: the ``seriesbook`` commands read and repin
citations with the same parser, source copies and line splitting as the build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook.citations._data import (
    CitationCounts,
    CitationRecord,
    CitationsDomain,
    citation_counts,
    citations_domain,
)
from seriesbook.citations._links import (
    LINK_CLASS,
    ROLE_ATTRIBUTE,
    LinkCitations,
    SourceRole,
    citation_url,
)
from seriesbook.citations._parse import _IN_TEXT as IN_TEXT
from seriesbook.citations._parse import (
    CITATION,
    EXPLICIT,
    Citation,
    find_citations,
    parse_citation,
)
from seriesbook.citations._sources import (
    GitCopy,
    Refusal,
    SourceCopy,
    SourceError,
    git_environment,
    is_git_repository,
    open_copy,
)
from seriesbook.citations._verify import (
    local_copy_path,
    split_lines,
    symbol_occurs,
    verify_pending,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "CITATION",
    "EXPLICIT",
    "IN_TEXT",
    "LINK_CLASS",
    "ROLE_ATTRIBUTE",
    "Citation",
    "CitationCounts",
    "CitationRecord",
    "GitCopy",
    "Refusal",
    "SourceCopy",
    "SourceError",
    "SourceRole",
    "citation_counts",
    "citation_url",
    "citations_domain",
    "find_citations",
    "git_environment",
    "is_git_repository",
    "local_copy_path",
    "open_copy",
    "parse_citation",
    "split_lines",
    "symbol_occurs",
]


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    app.setup_extension("seriesbook.core.config")
    app.setup_extension("seriesbook.core.lines")  # a problem in a table cell: at its row
    app.add_domain(CitationsDomain)
    app.add_role("src", SourceRole())
    app.add_transform(LinkCitations)
    # Before other listeners (default 500), so they see every citation's result.
    app.connect("env-updated", verify_pending, priority=400)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
