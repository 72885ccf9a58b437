"""Plan a re-pin's edits: each citation of the source, in sources and catalogs, to its new place.

Every citation is mapped once (:class:`~seriesbook.repin._map.Mapper`, by path, lines and
symbol) and every place it is written gets the same new text, so a catalog's msgid stays equal
to its paragraph and its msgstr moves with it (no translation turns fuzzy). ``unchanged`` and
``lost`` citations are left as written; ``moved`` and ``changed`` ones are rewritten (``changed``
to the best new range, reported for review).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seriesbook.citations._parse import Citation
from seriesbook.repin._book import Written, in_message
from seriesbook.repin._map import Cited, Mapper, Mapping, Status
from seriesbook.rewrite import EntryRewrite, Plan, PoEntry, Span, line_of, read_entries


@dataclass(frozen=True)
class Reported:
    """One written citation in the report: where, as written before and after, and why."""

    file: str
    line: int
    old: str
    new: str | None
    status: Status
    diff: str = ""
    reason: str = ""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"file": self.file, "line": self.line, "old": self.old,
                                "new": self.new, "status": str(self.status), "diff": self.diff}
        if self.reason:
            data["reason"] = self.reason
        return data

    def as_text(self) -> str:
        where = f"{self.file}:{self.line}: {self.status}: {self.old}"
        if self.status is Status.LOST:
            return f"{where} ({self.reason})"
        head = f"{where} → {self.new}"
        if self.status is Status.CHANGED:
            head += " (review: the cited lines were edited)"
            head += "".join(f"\n    {line}" for line in self.diff.split("\n") if line)
        return head


def new_text(citation: Citation, mapping: Mapping) -> str | None:
    """The citation as it is to be written after the re-pin (None: left as written)."""
    if not mapping.moves or mapping.path is None:
        return None
    prefix = f"{citation.source}:" if citation.source else ""
    lines = f"{mapping.start}" if mapping.start == mapping.end else f"{mapping.start}-{mapping.end}"
    return f"{prefix}{mapping.path}:{lines}"


@dataclass
class BookRepin:
    """One re-pin of one source across a book's files."""

    mapper: Mapper
    name: str  #: the source being re-pinned
    default_source: str
    root: Path  #: paths in the report are relative to it
    reported: list[Reported] = field(default_factory=list)
    _mapped: dict[tuple[str, int, int, str], Mapping] = field(default_factory=dict)

    def ours(self, citation: Citation) -> bool:
        return (citation.source or self.default_source) == self.name

    def prefetch(self, written: Iterable[Written]) -> None:
        self.mapper.prefetch([
            Cited(w.citation.path, w.citation.start, w.citation.end, w.citation.symbol, w.kind)
            for w in written if self.ours(w.citation)
        ])

    def mapping(self, written: Written) -> Mapping:
        c = written.citation
        key = (c.path, c.start, c.end, c.symbol)
        if key not in self._mapped:
            self._mapped[key] = self.mapper.map(Cited(c.path, c.start, c.end, c.symbol,
                                                      written.kind))
        return self._mapped[key]

    def _report(self, path: Path, line: int, written: Written, mapping: Mapping) -> None:
        old = written.citation.normalized()
        new = new_text(written.citation, mapping)
        shown = None if mapping.status is Status.LOST else (new or old)
        self.reported.append(
            Reported(self._shown(path), line, old, shown, mapping.status, mapping.diff,
                     mapping.reason)
        )

    def _shown(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    def plan_source(self, plan: Plan, path: Path, written: Iterable[Written]) -> None:
        text = plan.text(path)
        for item in written:
            if not self.ours(item.citation):
                continue
            mapping = self.mapping(item)
            self._report(path, line_of(text, item.start), item, mapping)
            new = new_text(item.citation, mapping)
            if new is not None:
                plan.replace(path, item.start, item.end, new)

    def catalog_citations(self, plan: Plan, path: Path, suffixes: tuple[str, ...]
                          ) -> list[Written]:
        """Every citation of the catalog's msgids and msgstrs (to read their files at once)."""
        found: list[Written] = []
        for entry in read_entries(plan.text(path)):
            found += in_message(entry.msgid.value, suffixes)
            found += in_message(entry.msgstr.value, suffixes)
        return found

    def catalog_rewrite(self, path: Path, suffixes: tuple[str, ...]) -> EntryRewrite:
        """The callback for :func:`seriesbook.rewrite.plan_catalog` on catalog *path*."""
        def rewrite(entry: PoEntry) -> tuple[list[Span], list[Span]]:
            id_spans = self._spans(path, entry.msgid.line, entry.msgid.value, suffixes, None)
            shown = {w.citation.normalized() for w in in_message(entry.msgid.value, suffixes)}
            str_spans = self._spans(path, entry.msgstr.line, entry.msgstr.value, suffixes, shown)
            return id_spans, str_spans
        return rewrite

    def _spans(self, path: Path, line: int, value: str, suffixes: tuple[str, ...],
               already: set[str] | None) -> list[Span]:
        spans: list[Span] = []
        for item in in_message(value, suffixes):
            if not self.ours(item.citation):
                continue
            mapping = self.mapping(item)
            if already is None or item.citation.normalized() not in already:
                self._report(path, line, item, mapping)
            new = new_text(item.citation, mapping)
            if new is not None:
                spans.append((item.start, item.end, new))
        return spans

    def summary(self) -> dict[str, int]:
        counts = Counter(str(r.status) for r in self.reported)
        return {str(status): counts.get(str(status), 0) for status in Status}

    def needs_work(self) -> bool:
        return any(r.status is not Status.UNCHANGED for r in self.reported)
