"""Turn citations in the doctree into links pinned to the source's release, and record them.

Runs as a transform after Sphinx's i18n ``Locale`` transform (priority 20), so a translated
document is linked exactly like the original. Links are doctree nodes (the writer escapes them);
the path is percent-encoded in the URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxRole

from seriesbook.citations._data import CitationRecord, citations_domain
from seriesbook.citations._generated import generated_instead
from seriesbook.citations._parse import (
    EXPLICIT,
    MAX_LINE,
    Citation,
    parse_citation,
    parse_role,
    unsafe_path,
)
from seriesbook.core.config import SeriesbookConfig, default_source, get_config
from seriesbook.core.problems import source_line

if TYPE_CHECKING:
    from docutils.nodes import Node, system_message

ROLE_ATTRIBUTE = "seriesbook_src"
LINK_CLASS = "seriesbook-citation"


def citation_url(spec: dict[str, str], citation: Citation) -> str:
    """GitHub's ``{repo}/blob/{ref}/{path}#L{START}[-L{END}]``."""
    anchor = f"#L{citation.start}" if citation.end == citation.start else (
        f"#L{citation.start}-L{citation.end}"
    )
    repo, ref = spec.get("repo", "").rstrip("/"), spec.get("ref", "") or spec.get("commit", "")
    return f"{repo}/blob/{quote(ref, safe='/')}/{quote(citation.path, safe='/')}{anchor}"


class SourceRole(SphinxRole):
    """``{src}`path:LINE``` or ``{src}`Symbol <path:LINE>```: a literal the transform links."""

    def run(self) -> tuple[list[Node], list[system_message]]:
        explicit = EXPLICIT.match(self.text.strip())
        shown = explicit["symbol"].strip() if explicit else self.text
        node = nodes.literal(self.rawtext, shown, classes=["seriesbook-src"])
        node[ROLE_ATTRIBUTE] = self.text
        self.set_source_info(node)
        return [node], []


def _linkable(node: nodes.Element) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.reference | addnodes.pending_xref):
            return False
        parent = parent.parent
    return True


class LinkCitations(SphinxTransform):
    """Link every citation of the document and record it for verification."""

    default_priority = 30  # after Locale (20): translated text is what gets linked

    def apply(self) -> None:
        config = get_config(self.config)
        records: list[CitationRecord] = []
        candidates = self.document.findall(_is_candidate)
        for node in [n for n in candidates if isinstance(n, nodes.Element)]:
            record = self._record(node, config)
            if record is None:
                continue
            records.append(record)
            spec = config.sources.get(record.source)
            citation = record.citation
            if (spec is not None and citation is not None and _linkable_citation(citation)
                    and generated_instead(spec, citation.path) is None):
                _wrap(node, citation_url(spec, citation))
        citations_domain(self.env).set_records(self.env.docname, records)

    def _record(self, node: nodes.Element, config: SeriesbookConfig) -> CitationRecord | None:
        suffixes = tuple(config.source_suffixes)
        excerpt = None
        if isinstance(node, nodes.caption):
            text, kind = node.astext().strip(), "excerpt"
            citation = parse_citation(text, suffixes)
            excerpt = "".join(b.astext() for b in node.parent.findall(nodes.literal_block))
        elif ROLE_ATTRIBUTE in node:
            text, kind = node[ROLE_ATTRIBUTE], "role"
            citation = parse_role(text, suffixes)
            if citation is None:
                return CitationRecord(None, text, config.default_source, kind, source_line(node))
        else:
            text, kind = node.astext().strip(), "literal"
            citation = parse_citation(text, suffixes)
        if citation is None or not _linkable(node):
            return None
        source = citation.source or default_source(config)
        return CitationRecord(citation, text, source, kind, source_line(node), excerpt)


def _linkable_citation(citation: Citation) -> bool:
    """A safe path and line numbers that can be in a file (the others are only reported)."""
    return not unsafe_path(citation.path) and max(citation.start, citation.end) <= MAX_LINE



def _is_candidate(node: Node) -> bool:
    if isinstance(node, nodes.literal):
        return True
    return (
        isinstance(node, nodes.caption)
        and isinstance(node.parent, nodes.container)
        and bool(node.parent.get("literal_block"))
    )


def _wrap(node: nodes.Element, url: str) -> None:
    """Put a link around the literal, or inside the caption around its text."""
    link = nodes.reference("", "", refuri=url, internal=False, classes=[LINK_CLASS])
    if isinstance(node, nodes.caption):
        link.extend(node.children)
        node.children = []
        node.append(link)
    else:
        node.parent.replace(node, link)  # not replace_self: the literal keeps its classes and ids
        link.append(node)
