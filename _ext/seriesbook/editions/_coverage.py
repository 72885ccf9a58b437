"""How much of each page a translated edition has: the page's messages looked up in its catalog.

The messages are the page's own, as the build reads them (noted before Sphinx's ``Locale``
transform translates the page), so a catalog that lags behind an edited chapter cannot claim more
than the reader sees. With ``gettext_compact = False`` every page ``<docname>`` has its own
catalog ``<locale_dir>/<language>/LC_MESSAGES/<docname>.po``. A message is *translated* when the
catalog has a translation that is not fuzzy (Sphinx ignores fuzzy translations), *fuzzy* when it
is marked so (``make update-po`` marks changed messages fuzzy), *untranslated* otherwise,
including when the catalog or the entry is missing. In the book's own language every page is
complete.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinxcontrib.mermaid import mermaid

from seriesbook import compat
from seriesbook.core.config import source_language
from seriesbook.core.percent import floor_percent
from seriesbook.editions import _walked
from seriesbook.editions._catalogs import catalog_path
from seriesbook.editions._diagrams import diagram_label
from seriesbook.editions._facts import NO_ENTRY, CatalogFacts, catalog_facts
from seriesbook.editions._messages import page_messages_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

__all__ = ["catalog_path"]  # here since the coverage rules read catalogs by page


@dataclass(frozen=True)
class Coverage:
    """The messages of one page in one language's catalog."""

    total: int
    translated: int
    fuzzy: int
    untranslated: int
    percent: float

    @classmethod
    def of(cls, total: int, translated: int, fuzzy: int) -> Coverage:
        percent = floor_percent(translated, total)
        return cls(total, translated, fuzzy, total - translated - fuzzy, percent)


TRANSLATED, FUZZY, UNTRANSLATED = "translated", "fuzzy", "untranslated"


class _Entry(Protocol):
    @property
    def fuzzy(self) -> bool: ...
    @property
    def string(self) -> Any: ...


class Lookup(Protocol):
    """A catalog as the rules read it: Babel's, or its :class:`~._facts.CatalogFacts`."""

    def get(self, id: str) -> _Entry | None: ...


def message_state(msgid: str, catalog: Lookup | None) -> str:
    """*msgid*'s state in *catalog*: ``translated``, ``fuzzy`` or ``untranslated`` (the rules of
    the module's docstring; every count of the editions uses this one function)."""
    return entry_state(catalog.get(msgid) if catalog is not None else None)


def entry_state(entry: _Entry | None) -> str:
    """:func:`message_state` of a message whose catalog entry is *entry* (None: none)."""
    return UNTRANSLATED if entry is None else string_state(entry.string, entry.fuzzy)


def string_state(string: Any, fuzzy: bool) -> str:
    """:func:`message_state` of a message whose entry has translation *string* (an empty one
    for no entry), marked *fuzzy* or not: the rules for callers that read the entries' tuples
    (:attr:`~._facts.CatalogFacts.entries`) without making an entry per message."""
    if fuzzy:
        return FUZZY
    return TRANSLATED if string else UNTRANSLATED


def count_messages(messages: Iterable[str], catalog: Lookup | None) -> Coverage:
    """How many of *messages* *catalog* translates (see the module's docstring for the rules);
    a catalog's facts are read from their entries' tuples (no entry made per message)."""
    if isinstance(catalog, CatalogFacts):
        entries = catalog.entries
        states = [string_state((entry := entries.get(msgid, NO_ENTRY))[0], entry[1])
                  for msgid in messages]
    else:
        states = [message_state(msgid, catalog) for msgid in messages]
    return Coverage.of(len(states), states.count(TRANSLATED), states.count(FUZZY))


#: What the translated edition's steps after :class:`NoteMessages` look for in the page.
_WALKED_KINDS = (diagram_label, nodes.literal_block, mermaid)

MESSAGES_ATTR = "seriesbook_page_messages"
SECTIONS_ATTR = "seriesbook_message_sections"


def page_messages(env: BuildEnvironment) -> dict[str, tuple[str, ...]]:
    """Each page's catalog messages, in the author's language (env data)."""
    if not hasattr(env, MESSAGES_ATTR):
        setattr(env, MESSAGES_ATTR, {})
    messages: dict[str, tuple[str, ...]] = getattr(env, MESSAGES_ATTR)
    return messages


def message_sections(env: BuildEnvironment) -> dict[str, dict[str, str | None]]:
    """Each page's messages → the § number of the section each first appears in, or None
    (env data; numbers from ``seriesbook.sections``, None everywhere without it)."""
    if not hasattr(env, SECTIONS_ATTR):
        setattr(env, SECTIONS_ATTR, {})
    sections: dict[str, dict[str, str | None]] = getattr(env, SECTIONS_ATTR)
    return sections


class NoteMessages(SphinxTransform):
    """Note the page's messages, and the § each is in, before ``Locale`` (priority 20)
    replaces them by translations (and after ``seriesbook.sections`` read the § numbers, 15)."""

    default_priority = 18

    def apply(self, **kwargs: object) -> None:
        from seriesbook.sections import section_number_of

        front_matter = _front_matter(self.document)
        found: dict[str, str | None] = {}
        # once, for the steps after it too: their labels, code blocks and diagrams
        walked = _walked.note(self.document, self.config, _WALKED_KINDS)
        pairs = (page_messages_of(self.document, self.config) if walked is None
                 else compat.messages_of(node for node, _end in walked))
        for node, message in pairs:
            if front_matter is None or not _within(node, front_matter):
                found.setdefault(message, section_number_of(node))
        docname = self.env.current_document.docname
        page_messages(self.env)[docname] = tuple(found)
        message_sections(self.env)[docname] = found


def _front_matter(document: nodes.document) -> nodes.Element | None:
    """The field list docutils will turn into docinfo (front matter): metadata, not messages.

    The same rule as ``docutils.transforms.frontmatter.DocInfo``, which runs after us.
    """
    # a mixin class, which the stubs do not accept; docutils itself calls it the same way
    index = document.first_child_not_matching_class(nodes.PreBibliographic)  # type: ignore[arg-type]
    candidate = document[index] if index is not None else None
    return candidate if isinstance(candidate, nodes.field_list | nodes.docinfo) else None


def _within(node: nodes.Node, ancestor: nodes.Element) -> bool:
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False


def purge_messages(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    page_messages(env).pop(docname, None)
    message_sections(env).pop(docname, None)


def merge_messages(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    theirs = page_messages(other)
    page_messages(env).update({d: theirs[d] for d in docnames if d in theirs})
    their_sections = message_sections(other)
    message_sections(env).update({d: their_sections[d] for d in docnames if d in their_sections})


def page_coverage(env: BuildEnvironment, language: str, docname: str) -> Coverage:
    """*docname*'s coverage in *language* (see the module's docstring for the rules)."""
    messages = page_messages(env).get(docname, ())
    if language == source_language(env.config):
        return Coverage.of(len(messages), len(messages), 0)
    path = catalog_path(env, language, docname)
    facts = catalog_facts(env.config, path, language) if path is not None else None
    return count_messages(messages, facts if facts is not None and facts.usable else None)


def catalog_coverage(app: Sphinx, language: str) -> dict[str, Coverage]:
    """Every page's coverage in *language*, by docname, from the ``locale_dirs`` catalogs."""
    env = app.env
    return {docname: page_coverage(env, language, docname) for docname in sorted(env.all_docs)}
