"""§ sections: stable anchors, every § mention linked and checked, targets for sibling volumes.

Authoring syntax (MyST):

* ``## §12.3 Guard 的生成`` is a numbered section: its id is ``sec-12-3`` in every language
  edition (the number is read from the source heading, before translation); a page title
  ``# 第12章 …`` gets ``ch-12``. Both are ``std:label`` targets (``{ref}`sec-12-3```, in
  ``objects.inv``, so a sibling volume links in with ``{external+<volume>:ref}`sec-12-3```).
* In prose every ``§12.3.4`` links to its section anywhere in the book, as do lists
  (``§4.2、§4.3``) and ranges (``§4.2–§4.5``, ``§4.2-4.5``), and chapter mentions written with
  ``seriesbook_chapter_patterns`` for the build's language (``第12章``, ``Chapter 12``). Code,
  diagrams, headings and existing links are left alone. The link text stays as written; the
  target's ``§12.3 title`` is the tooltip.
* ``{sec}`12.3.4``` links explicitly; ``{sec}`vllm:3.2``` links into the intersphinx inventory
  ``vllm``.

Configuration: ``seriesbook_chapter_patterns`` (language or its prefix → regex with a
``chapter`` group). Links resolve at write time from the ``sec`` domain; after an edit, the
pages that mention a section or chapter whose target changed are rewritten (``env-updated``),
so their links follow and a removed number warns where it is mentioned.

Problems (warnings ``seriesbook.<code>``): ``sec-unresolved``, ``chapter-unresolved``,
``sec-duplicate``, ``sec-chapter``, ``sec-nesting``, ``sec-order``, ``sec-section-ref``.

Other capabilities use :func:`section_counts` (stats) and :func:`find_mentions` /
:func:`section_numbers` / :func:`section_number_of` (editions); ``seriesbook renumber`` and
the shared rewrite layer use the heading and mention patterns and the link markers, so they edit
exactly what the build links.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seriesbook import __version__
from seriesbook.sections._domain import (
    SectionCounts,
    SectionsDomain,
    get_domain,
    publish_labels,
    section_counts,
)
from seriesbook.sections._parse import (
    HEADING,
    NEW_HEADING,
    Mention,
    MentionKind,
    chapter_number,
    edition_chapter_patterns,
    find_mentions,
    heading_number,
    is_new_heading,
    section_id,
    section_number,
    section_numbers,
)
from seriesbook.sections._records import Target
from seriesbook.sections._transforms import (
    MENTION,
    MENTION_INVENTORY,
    MENTION_NUMBER,
    NO_LINK_TAGNAMES,
    NO_LINKS,
    SEC_NUMBER,
    LinkSections,
    NoteNumbers,
    SecRole,
    heading_levels,
    resolve_sibling,
    sec_role_target,
    section_number_of,
    warn_section_ref,
    warn_unresolved,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

__all__ = [
    "HEADING",
    "MENTION",
    "MENTION_INVENTORY",
    "MENTION_NUMBER",
    "NEW_HEADING",
    "NO_LINKS",
    "NO_LINK_TAGNAMES",
    "SEC_NUMBER",
    "Mention",
    "MentionKind",
    "SecRole",
    "SectionCounts",
    "Target",
    "chapter_number",
    "edition_chapter_patterns",
    "find_mentions",
    "get_domain",
    "heading_levels",
    "heading_number",
    "is_new_heading",
    "sec_role_target",
    "section_counts",
    "section_id",
    "section_number",
    "section_number_of",
    "section_numbers",
]


def _on_env_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Index the merged registry; rewrite the pages whose § links changed meaning."""
    domain = get_domain(env)
    changed = domain.rebuild_index()
    publish_labels(env, domain)
    return sorted(domain.referrers(changed))


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")
    app.setup_extension("seriesbook.core.lines")  # a problem in a table cell: at its row
    app.add_domain(SectionsDomain)
    app.add_role("sec", SecRole())
    app.add_transform(NoteNumbers)
    app.add_transform(LinkSections)
    app.connect("builder-inited", warn_section_ref)
    app.connect("env-updated", _on_env_updated)
    app.connect("missing-reference", resolve_sibling, priority=400)  # before intersphinx
    # before the std domain's own handler (500), which would add a second, `ref.ref` warning
    app.connect("warn-missing-reference", warn_unresolved, priority=400)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
