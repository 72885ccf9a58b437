"""What the build knows about citations: one record per citation, kept by a Domain.

Records are made while reading (in worker processes under ``-j``), merged into the main
process by the Domain, and verified there once everything is read; the result (``verified`` or a
problem code) and the facts behind it stay on the record, so counts and the lock need no
second look at the sources.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from sphinx.domains import Domain

from seriesbook.citations._parse import Citation

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

PENDING, VERIFIED = "", "verified"


@dataclass(frozen=True)
class FileFact:
    """A cited file at the pinned version: its line count and hash, or why it is unreadable."""

    lines: int = 0
    sha256: str = ""
    problem: str = ""


@dataclass(frozen=True)
class SourceId:
    """Which release a fact is about (the lock only vouches for the release it was made from)."""

    repo: str
    ref: str
    commit: str


#: How many of a citation's lines are kept (lock, previews): a longer range shows these and
#: says how many more there are.
SHOWN_LINES = 12


@dataclass(frozen=True)
class Facts:
    """Everything a check of one citation found, as the lock stores it.

    ``text`` is the first :data:`SHOWN_LINES` cited lines as the source has them (UTF-8, an
    undecodable byte replaced), so a build without the source previews the same lines.
    """

    source: SourceId
    file: FileFact | None
    range_hash: str = ""
    symbol_ok: bool | None = None
    excerpt_hash: str = ""
    excerpt_ok: bool | None = None
    text: str | None = None


@dataclass
class CitationRecord:
    """One citation as written in a document, and what verification made of it."""

    citation: Citation | None  #: None when a ``{src}`` role holds no citation
    text: str
    source: str  #: the source name, after applying the default
    kind: str  #: ``literal``, ``role`` or ``excerpt``
    line: int | None
    excerpt: str | None = None  #: a code block's text, for excerpts
    status: str = PENDING  #: ``verified`` or a problem code
    facts: Facts | None = None


@dataclass(frozen=True)
class CitationCounts:
    """A document's citations, for the stats capability."""

    citations: int = 0
    with_symbol: int = 0
    excerpts: int = 0
    verified: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    by_problem: dict[str, int] = field(default_factory=dict)


class CitationsDomain(Domain):
    """Holds every document's citation records; no directives or roles of its own."""

    name = "seriesbook-citations"
    label = "seriesbook citations"
    initial_data: ClassVar[dict[str, Any]] = {"records": {}}
    data_version = 1

    @property
    def records(self) -> dict[str, list[CitationRecord]]:
        records: dict[str, list[CitationRecord]] = self.data["records"]
        return records

    def set_records(self, docname: str, records: list[CitationRecord]) -> None:
        if records:
            self.records[docname] = records
        else:
            self.records.pop(docname, None)

    def clear_doc(self, docname: str) -> None:
        self.records.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname, records in otherdata["records"].items():
            if docname in docnames:
                self.records[docname] = records

    def all_records(self) -> Iterator[tuple[str, CitationRecord]]:
        for docname in sorted(self.records):
            for record in self.records[docname]:
                yield docname, record

    def resolve_any_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
        node: addnodes.pending_xref, contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        """Nothing: this domain names nothing a link can point at. Said explicitly, because
        MyST asks every domain about a plain ``[text](#sec-3-1)`` link and warns
        ``myst.domains`` (failing a ``-W`` build) about a domain that does not answer."""
        return []


def citations_domain(env: BuildEnvironment) -> CitationsDomain:
    domain = env.domains[CitationsDomain.name]
    assert isinstance(domain, CitationsDomain)
    return domain


def citation_counts(env: BuildEnvironment, docname: str) -> CitationCounts:
    """Citations of *docname*: total, with symbol, excerpts, verified, by source and problem."""
    records = citations_domain(env).records.get(docname, [])
    problems = Counter(r.status for r in records if r.status not in (PENDING, VERIFIED))
    return CitationCounts(
        citations=len(records),
        with_symbol=sum(1 for r in records if r.citation is not None and r.citation.symbol),
        excerpts=sum(1 for r in records if r.kind == "excerpt"),
        verified=sum(1 for r in records if r.status == VERIFIED),
        by_source=dict(sorted(Counter(r.source for r in records).items())),
        by_problem=dict(sorted(problems.items())),
    )
