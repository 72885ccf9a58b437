"""What a preview of a § section or chapter shows, kept per document by a Domain.

Read in worker processes under ``-j``, merged by the Domain, so every page that links to a target
shows the same preview whatever the build's parallelism or which documents were re-read.
"""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from sphinx.domains import Domain

from seriesbook.sections import MentionKind

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx import addnodes
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment


class Block(NamedTuple):
    """One piece of a target's opening: ``p`` text, ``s`` a subsection's title, or ``d``/``c``/``t``
    a diagram, code block or table named (by its caption, if any).

    ``lang`` is set where the text is shown untranslated in a translated edition (a
    paragraph, a title, or the caption, table title or ``:alt:`` naming a block).
    """

    kind: str
    text: str
    lang: str = ""


class TargetPreview(NamedTuple):
    """A § section (``sec``) or chapter (``chapter``): its title and the start of its text."""

    kind: MentionKind
    number: str
    id: str
    title: str
    title_lang: str
    blocks: tuple[Block, ...]

    def to_json(self) -> dict[str, Any]:
        blocks = [[b.kind, b.text, b.lang] if b.lang else [b.kind, b.text] for b in self.blocks]
        entry: dict[str, Any] = {"t": self.title, "b": blocks}
        if self.title_lang:
            entry["tl"] = self.title_lang
        return entry


class PreviewsDomain(Domain):
    """Holds every document's target previews; no directives or roles of its own."""

    name = "seriesbook-previews"
    label = "seriesbook previews"
    initial_data: ClassVar[dict[str, Any]] = {
        "targets": {},  # docname -> {id: TargetPreview} in document order
        "published": {},  # id -> TargetPreview as of the previous build
    }
    data_version = 1

    @property
    def targets(self) -> dict[str, dict[str, TargetPreview]]:
        targets: dict[str, dict[str, TargetPreview]] = self.data["targets"]
        return targets

    def clear_doc(self, docname: str) -> None:
        self.targets.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname, targets in otherdata["targets"].items():
            if docname in docnames:
                self.targets[docname] = targets

    def resolve_any_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
        node: addnodes.pending_xref, contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        """Nothing: previews name nothing a link can point at. Said explicitly, because MyST
        asks every domain about a plain ``[text](#sec-3-1)`` link and warns ``myst.domains``
        (failing a ``-W`` build) about a domain that does not answer."""
        return []

    def changed_since_published(self) -> set[tuple[MentionKind, str]]:
        """(kind, number) of every target whose preview changed since the previous build."""
        current = {p.id: p for docname in sorted(self.targets)
                   for p in self.targets[docname].values()}
        previous: dict[str, TargetPreview] = self.data["published"]
        self.data["published"] = current
        return {(p.kind, p.number) for key in current.keys() | previous.keys()
                if current.get(key) != previous.get(key)
                for p in (current.get(key) or previous[key],)}


def previews_domain(env: BuildEnvironment) -> PreviewsDomain:
    domain = env.domains[PreviewsDomain.name]
    assert isinstance(domain, PreviewsDomain)
    return domain
