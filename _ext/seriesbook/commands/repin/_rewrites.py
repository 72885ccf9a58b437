"""Plan a re-pin's edits: each citation of the source, in sources and catalogs, to its new place.

Every citation is mapped once (:class:`~seriesbook.commands.repin._map.Mapper`, by path, lines and
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

from seriesbook.citations import Citation
from seriesbook.commands.repin._book import Written, in_message
from seriesbook.commands.repin._map import Cited, Mapper, Mapping, Status
from seriesbook.commands.rewrite import (
    EntryRewrite,
    Plan,
    PoEntry,
    Span,
    catalog_entries,
    line_of,
    shown,
)


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
    by_hand: bool = False  #: a move that could not be written everywhere: the author makes it

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"file": self.file, "line": self.line, "old": self.old,
                                "new": self.new, "status": str(self.status), "diff": self.diff}
        if self.reason:
            data["reason"] = self.reason
        if self.by_hand:
            data["by_hand"] = True
        return data

    def as_text(self) -> str:
        where = f"{self.file}:{self.line}: {self.status}: {self.old}"
        if self.status is Status.LOST:
            return f"{where} ({self.reason})"
        head = f"{where} → {self.new}"
        if self.by_hand:
            head += f" (by hand: {self.reason})"
        if self.status is Status.CHANGED:
            head += f" (review: {self.reason})"
            head += "".join(f"\n    {line}" for line in self.diff.split("\n") if line)
        return head


def new_text(citation: Citation, mapping: Mapping) -> str | None:
    """The citation as it is to be written after the re-pin (None: left as written)."""
    if not mapping.moves or mapping.path is None:
        return None
    prefix = f"{citation.source}:" if citation.source else ""
    lines = f"{mapping.start}" if mapping.start == mapping.end else f"{mapping.start}-{mapping.end}"
    return f"{prefix}{mapping.path}:{lines}"


Key = tuple[str, int, int, str]


def key_of(citation: Citation) -> Key:
    """What a citation is mapped by: path, lines and ``{src}`` symbol."""
    return citation.path, citation.start, citation.end, citation.symbol


@dataclass
class BookRepin:
    """One re-pin of one source across a book's files."""

    mapper: Mapper
    name: str  #: the source being re-pinned
    default_source: str
    root: Path  #: paths in the report are relative to it
    reported: list[Reported] = field(default_factory=list)
    #: citations the build read but that were not found in the text (key → "file:line" places):
    #: never rewritten anywhere, so sources and catalogs stay in step; reported for the author
    unlocated: dict[Key, list[str]] = field(default_factory=dict)
    _mapped: dict[Key, Mapping] = field(default_factory=dict)

    def ours(self, citation: Citation) -> bool:
        return (citation.source or self.default_source) == self.name

    def prefetch(self, written: Iterable[Written]) -> None:
        self.mapper.prefetch({w.citation.path for w in written if self.ours(w.citation)})

    def mapping(self, citation: Citation) -> Mapping:
        key = key_of(citation)
        if key not in self._mapped:
            c = citation
            self._mapped[key] = self.mapper.map(Cited(c.path, c.start, c.end, c.symbol))
        return self._mapped[key]

    def rewritten(self, written: Written) -> str | None:
        """The citation's new text, or None when it stays as written."""
        mapping = self.mapping(written.citation)
        if key_of(written.citation) in self.unlocated:
            return None
        return new_text(written.citation, mapping)

    def report_unlocated(self, path: Path, line: int, citation: Citation, kind: str) -> None:
        """A citation the build read but that was not found in *path*'s text."""
        self._report(path, line, Written(citation, 0, 0, kind), self.mapping(citation))

    def _report_by_hand(self, path: Path, line: int, written: Written) -> None:
        """A catalog citation left as it is because the message is also a text where the build
        reads no citation (a diagram label): the author edits it, or splits the message."""
        mapping = self.mapping(written.citation)
        new = new_text(written.citation, mapping)
        if new is not None:
            self.reported.append(Reported(
                self.shown(path), line, written.citation.normalized(), new, mapping.status,
                mapping.diff, "not rewritten: the message is also used where the build reads "
                "no citation (a diagram label?); edit it by hand", by_hand=True))

    def _report(self, path: Path, line: int, written: Written, mapping: Mapping) -> None:
        old = written.citation.normalized()
        new = new_text(written.citation, mapping)
        places = self.unlocated.get(key_of(written.citation))
        if places and new is not None:
            reason = (f"not rewritten: it is also written at {', '.join(places)}, where it "
                      "could not be located; make this edit everywhere")
            self.reported.append(Reported(self.shown(path), line, old, new, mapping.status,
                                          mapping.diff, reason, by_hand=True))
            return
        shown = None if mapping.status is Status.LOST else (new or old)
        reason = mapping.reason
        if written.kind == "excerpt" and mapping.status is Status.CHANGED:
            reason += "; the excerpt's code no longer matches them: update it by hand"
        self.reported.append(
            Reported(self.shown(path), line, old, shown, mapping.status, mapping.diff, reason)
        )

    def shown(self, path: Path) -> str:
        return shown(path, self.root)

    def plan_source(self, plan: Plan, path: Path, written: Iterable[Written]) -> None:
        text = plan.text(path)
        for item in written:
            if not self.ours(item.citation):
                continue
            self._report(path, line_of(text, item.start), item,
                         self.mapping(item.citation))
            new = self.rewritten(item)
            if new is not None:
                plan.replace(path, item.start, item.end, new)

    def catalog_citations(self, plan: Plan, path: Path, suffixes: tuple[str, ...]
                          ) -> list[Written]:
        """Every citation of the catalog's msgids and msgstrs (to read their files at once)."""
        found: list[Written] = []
        for entry in catalog_entries(plan, path):
            found += in_message(entry.msgid.value, suffixes)
            found += in_message(entry.msgstr.value, suffixes)
        return found

    def catalog_rewrite(self, path: Path, suffixes: tuple[str, ...],
                        read: dict[str, tuple[set[str], set[str]]] | None = None
                        ) -> EntryRewrite:
        """The callback for :func:`seriesbook.commands.rewrite.plan_catalog` on catalog *path*.

        With *read* (:func:`~seriesbook.commands.repin._book.read_in_messages`), a message is
        rewritten only where the build reads a citation: its msgid's citations that the build
        read in every text giving it (the source is rewritten there too), and its translation;
        a message no page gives (an obsolete message) is left as it is.
        """
        def rewrite(entry: PoEntry) -> tuple[list[Span], list[Span]]:
            if read is not None and entry.msgid.value in read:
                every, some = read[entry.msgid.value]
                strays = [w for w in in_message(entry.msgid.value, suffixes)
                          if self.ours(w.citation) and w.citation.normalized() not in every]
                if strays:  # not a citation everywhere the message is used: not ours to guess
                    for stray in strays:
                        if stray.citation.normalized() in some:
                            self._report_by_hand(path, entry.msgid.line, stray)
                    return [], []
            elif read is not None:
                return [], []  # no page gives this message: the build reads nothing in it
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
            if already is None or item.citation.normalized() not in already:
                self._report(path, line, item, self.mapping(item.citation))
            new = self.rewritten(item)
            if new is not None:
                spans.append((item.start, item.end, new))
        return spans

    def summary(self) -> dict[str, int]:
        counts = Counter(str(r.status) for r in self.reported)
        return {str(status): counts.get(str(status), 0) for status in Status}

    def needs_work(self) -> bool:
        return any(r.status is not Status.UNCHANGED for r in self.reported)
