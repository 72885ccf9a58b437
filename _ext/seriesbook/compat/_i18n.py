"""Sphinx's ``Locale`` transform with hooks: a door to its private helpers.

:func:`translate_page` is ``sphinx.transforms.i18n.Locale.apply`` (Sphinx 9.0) step by step,
with four changes that leave the page as Sphinx makes it:

* messages are extracted by :func:`extract_messages`, Sphinx's own function walking the page
  as docutils' ``findall`` does, live (children replaced by a patch are walked, as docutils
  walks them), without entering texts, and asking ``is_translatable`` only about nodes whose
  answer its first tests do not give (nor, in a build that shows no debug lines, about the
  text elements it would refuse after rendering them as XML for a debug line); the second
  pass walks the nodes the first one found, and afresh only under a node it patches
  (:func:`_walk_again`: the first pass leaves the page as the second finds it); given what an
  earlier walk of the page as it is noted (:func:`walk_page`), the first pass too walks only
  those nodes, and afresh under what it patches (:func:`_walk_again_noting`);
* the first pass (titles and glossary terms) does not publish a message whose node is neither,
  and whose parse *settled* says needs no publishing now (its parse is known to warn nothing and
  to depend on its text alone): that publish is thrown away for such a node, which the second
  pass publishes with the same text, source and line;
* the second pass takes such a settled message's patch from *kept* (the first node of the
  parse, and what the publish does outside its own document) instead of publishing a throwaway
  document for it: Sphinx keeps that node's children and drops the node and its document; so
  does the first pass for a title whose parse is settled (its text is what the title mapping
  reads, its children what the title keeps);
* the five reference updates of a patch are skipped where neither the node nor its patch holds
  a reference of any kind (each would find two empty lists).

Upstream: Sphinx offers no hook into ``Locale`` (sphinx-doc/sphinx#13670 simplified
``_publish_msgstr``; sphinx-doc/sphinx#11713 asks for several languages in one build). What
``Locale`` could do instead, which would make this copy unnecessary (the proposal to make on
sphinx-doc/sphinx#13670's line): walk the page once, keeping the ``(node, msgid)`` pairs for the
second pass and walking afresh only under a node the first pass patched; publish a message in
the first pass only for a title or a glossary term, the nodes whose publish it uses, and not
publish the same text, source and line again in the second; and publish through one
overridable seam (a ``Locale.publish_message(msgstr, source, line)`` method, or an event
returning a patch) so that an extension can give the parse of a message that depends on its
text alone from a cache, as seriesbook does across builds. And ``is_translatable`` could log
its skip lines lazily: each walk renders every literal block as XML for a debug line only
``-vv`` shows.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from gettext import GNUTranslations, NullTranslations, c2py, find
from textwrap import indent
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.domains.std import make_glossary_term, split_term_classifiers
from sphinx.locale import init as init_locale
from sphinx.transforms import i18n
from sphinx.util.i18n import docname_to_domain
from sphinx.util.index_entries import split_index_msg
from sphinx.util.nodes import (
    IGNORED_NODES,
    IMAGE_TYPE_NODES,
    LITERAL_TYPE_NODES,
    _clean_extracted_message,
    is_translatable,
    traverse_translatable_index,
)

from seriesbook.compat._sphinx import forget_translations

if TYPE_CHECKING:
    from sphinx.transforms import SphinxTransform
    from sphinx.transforms.i18n import Locale

#: ``Settled(text, source)``: whether the parse of *text* published as *source*
#: (``path:line:<translated>``) is known to warn nothing and to depend on its text alone.
Settled = Callable[[str, str], bool]
#: ``Kept(text, source)``: for a settled parse, the first node ``_publish_msgstr`` would return,
#: with the publish's effects outside the message's document done; None to publish it.
Kept = Callable[[str, str], "nodes.Element | None"]

#: Nodes whose first-pass publish Sphinx uses (titles, terms) or whose second pass publishes
#: nothing (translatable nodes, meta, images): their first pass is Sphinx's own.
_FIRST_PASS_OWN = (nodes.title, nodes.term, addnodes.translatable, nodes.meta, nodes.image)
#: What the reference updates of ``_NodeUpdater`` look for.
_REFERENCES = (nodes.footnote_reference, nodes.reference, nodes.citation_reference,
               addnodes.pending_xref)


#: The nodes ``is_translatable`` may answer yes for: the walk asks about these alone.
_CANDIDATES = (nodes.TextElement, addnodes.translatable, nodes.image, nodes.meta)


def _translatable(node: nodes.Node, quiet: bool = False) -> bool:
    """``is_translatable(node)``, its answer for the nodes that are most of a page (text,
    structure, inline markup) given without calling it: the same answer, and it logs nothing
    for those. *quiet* (the build shows no debug lines: ``-vv`` does) answers for every text
    element as ``is_translatable`` does, without the debug lines it logs for those it refuses
    (a literal block's renders the block as XML)."""
    if isinstance(node, (addnodes.translatable, nodes.image)):
        return is_translatable(node)
    if isinstance(node, nodes.Inline):  # not translatable unless it says so
        return "translatable" in getattr(node, "attributes", ()) and is_translatable(node)
    if isinstance(node, nodes.TextElement):
        if not quiet:
            return is_translatable(node)
        attributes = node.attributes  # is_translatable's tests for a text element, in order:
        if not node.source:
            return False  # built-in message
        if isinstance(node, IGNORED_NODES) and "translatable" not in attributes:
            return False
        if not attributes.get("translatable", True):
            return False
        if isinstance(node, nodes.field_name):  # <field_name>orphan</field_name>: docinfo
            first = node.children[0]  # (only a text, a str, can equal one)
            return not (isinstance(first, str) and first == "orphan")
        return True
    return isinstance(node, nodes.meta)  # text, sections, lists, tables: is_translatable's last


def _walk(node: nodes.Node, quiet: bool = False) -> Iterator[nodes.Element]:
    """``node.findall(is_translatable)``, node for node and as live: docutils' own recursion
    (a node's children are looked up after the node is yielded, by the list's own iterator),
    asking only about the nodes that can be translatable, and not entering texts."""
    if isinstance(node, _CANDIDATES) and _translatable(node, quiet):
        yield node  # type: ignore[misc]
    for child in node.children:
        if type(child) is not nodes.Text:
            yield from _walk(child, quiet)


#: A node :func:`_walk_noted` yielded, and where the nodes it yielded under it end in the list.
Noted = list[Any]


def _walk_noted(node: nodes.Node, quiet: bool, walked: list[Noted]) -> Iterator[nodes.Element]:
    """:func:`_walk`, noting in *walked* each node yielded and the end of those under it."""
    noted = None
    if isinstance(node, _CANDIDATES) and _translatable(node, quiet):
        noted = [node, 0]
        walked.append(noted)
        yield node  # type: ignore[misc]
    for child in node.children:
        if type(child) is not nodes.Text:
            yield from _walk_noted(child, quiet, walked)
    if noted is not None:
        noted[1] = len(walked)


def _walk_again(walked: list[Noted], quiet: bool) -> Iterator[nodes.Element]:
    """:func:`_walk` of the page :func:`_walk_noted` walked, which nothing changed since but the
    nodes yielded: the noted nodes, and where a node yielded gets new children (``Locale``
    patches it), the walk of those instead of the noted nodes under it."""
    index = 0
    while index < len(walked):
        node, end = walked[index]
        index += 1
        children = node.children
        yield node
        if node.children is not children:
            index = end  # the nodes under it went with its old children
            for child in node.children:
                if type(child) is not nodes.Text:
                    yield from _walk(child, quiet)


def _walk_again_noting(
    walked: list[Noted], quiet: bool, noting: list[Noted]
) -> Iterator[nodes.Element]:
    """:func:`_walk_again`, noting in *noting* what :func:`_walk_noted` notes walking the page
    as it is then: each node yielded, with the end of those under it."""
    open_notes: list[tuple[Noted, int]] = []  # noted, not closed: with its end in *walked*
    index = 0
    while index < len(walked):
        node, end = walked[index]
        while open_notes and open_notes[-1][1] <= index:
            open_notes.pop()[0][1] = len(noting)
        noted: Noted = [node, 0]
        noting.append(noted)
        children = node.children
        yield node
        if node.children is not children:
            for child in node.children:
                if type(child) is not nodes.Text:
                    yield from _walk_noted(child, quiet, noting)
            noted[1] = len(noting)
            index = end  # the nodes under it went with its old children
        else:
            open_notes.append((noted, end))
            index += 1
    while open_notes:
        open_notes.pop()[0][1] = len(noting)


def _kept(found: Iterator[nodes.Element], into: list[nodes.Element]) -> Iterator[nodes.Element]:
    for node in found:
        into.append(node)
        yield node


def _note_page(
    node: nodes.Node,
    quiet: bool,
    walked: list[Noted],
    kinds: tuple[type[nodes.Element], ...],
    found: list[nodes.Element],
) -> None:
    noted = None
    if isinstance(node, _CANDIDATES) and _translatable(node, quiet):
        noted = [node, 0]
        walked.append(noted)
    if isinstance(node, kinds):
        found.append(node)
    for child in node.children:
        if type(child) is not nodes.Text:
            _note_page(child, quiet, walked, kinds, found)
    if noted is not None:
        noted[1] = len(walked)


def walk_page(
    document: nodes.document, quiet: bool, kinds: tuple[type[nodes.Element], ...]
) -> tuple[list[Noted], list[nodes.Element]]:
    """What :func:`_walk_noted` notes walking *document* to its end (a page nothing changes
    meanwhile), and the nodes of *kinds* in document order, in one walk: for
    :func:`translate_page`'s first pass (*walked*) and the editions' other walks."""
    walked: list[Noted] = []
    found: list[nodes.Element] = []
    _note_page(document, quiet, walked, kinds, found)
    return walked, found


def messages_of(found: Iterable[nodes.Element]) -> Iterator[tuple[nodes.Element, str]]:
    """``extract_messages``' messages of the nodes *found* (which its walk of the page as it is
    now would yield, in that order)."""
    return _messages(iter(found))


def _messages(nodes_walked: Iterator[nodes.Element]) -> Iterator[tuple[nodes.Element, str]]:
    """``sphinx.util.nodes.extract_messages``'s messages of the nodes it walks."""
    for node in nodes_walked:
        if isinstance(node, addnodes.translatable):
            for msg in node.extract_original_messages():
                yield node, msg
            continue
        if isinstance(node, LITERAL_TYPE_NODES):
            msg = node.rawsource
            if not msg:
                msg = node.astext()
        elif isinstance(node, nodes.image):
            if node.get("alt"):
                yield node, node["alt"]
            if node.get("translatable"):
                image_uri = node.get("original_uri", node["uri"])
                msg = f".. image:: {image_uri}"
            else:
                msg = ""
        elif isinstance(node, nodes.meta):
            msg = node["content"]
        else:
            msg = _clean_extracted_message(node.rawsource)
        if msg:
            yield node, msg


def extract_messages(
    doctree: nodes.Element, quiet: bool = False
) -> Iterator[tuple[nodes.Element, str]]:
    """``sphinx.util.nodes.extract_messages`` over :func:`_walk` (*quiet*: without Sphinx's
    debug lines about skipped nodes, for a build that does not show them)."""
    return _messages(_walk(doctree, quiet))


def _parse_noqa(msgstr: str) -> tuple[str, bool]:
    """``parse_noqa(msgstr)``; a text without ``noqa`` (every message but a few) without its
    regular expression, which backtracks from the end of the text to every ``#``."""
    if "noqa" not in msgstr:
        return msgstr, False
    return i18n.parse_noqa(msgstr)


def _has_reference(node: nodes.Element) -> bool:
    """Whether *node* or an element under it is one the reference updates look for (what
    ``any(isinstance(n, _REFERENCES) for n in node.findall(nodes.Element))`` says)."""
    stack: list[nodes.Node] = [node]
    while stack:
        found = stack.pop()
        if isinstance(found, _REFERENCES):
            return True
        stack.extend(child for child in found.children if isinstance(child, nodes.Element))
    return False


def _as_block(node: nodes.Element, msgstr: str) -> str:
    """*msgstr* as both passes publish it: no "Literal block expected" for a trailing ``::``
    (the dummy literal is dropped with everything after the first node), a literal block kept
    one."""
    if msgstr.strip().endswith("::"):
        msgstr += "\n\n   dummy literal"
    if isinstance(node, LITERAL_TYPE_NODES):
        msgstr = "::\n\n" + indent(msgstr, " " * 3)
    return msgstr


_PAGE_CATALOGS: weakref.WeakKeyDictionary[nodes.document, tuple[NullTranslations, bool]] = (
    weakref.WeakKeyDictionary()
)
#: Where Sphinx keeps the pages' catalogs we look up: apart from the ``general`` namespace of
#: Sphinx's, the themes' and seriesbook's own interface catalogs, which a page's domain (its
#: docname, say ``sphinx``) could otherwise name.
PAGE_NAMESPACE = "seriesbook-pages"

#: ``Compiled(mo_path)``: the translations gettext reads from the ``.mo`` at *mo_path*, given
#: without reading it (its bytes are known: :func:`compiled_state` of them was kept), or None
#: for gettext to read it.
Compiled = Callable[[str], "GNUTranslations | None"]
#: What gettext's parse of a ``.mo`` leaves in its translations object, but the plural function.
CompiledState = dict[str, Any]


@cache
def _plural(forms: str | None) -> Callable[[int], int]:
    """The plural function ``GNUTranslations._parse`` makes of a ``Plural-Forms`` header."""
    if forms is None:
        return lambda n: int(n != 1)  # gettext's default (germanic)
    return c2py(forms.split(";")[1].split("plural=")[1])


def compiled_state(data: bytes) -> CompiledState | None:
    """What gettext's translations object holds after reading the ``.mo`` bytes *data* (its
    catalog, header, charsets), as data to keep; None where its plural function is not the one
    :func:`translations_of` makes from the header (a header line continued after it)."""
    try:
        parsed = GNUTranslations(io.BytesIO(data))
        state = dict(vars(parsed))
        plural = state.pop("plural")
        again = _plural(state["_info"].get("plural-forms"))
        if any(again(n) != plural(n) for n in range(1000)):
            return None
    except Exception:  # whatever gettext's parse or plural raise: gettext reads the file
        return None
    return state


def translations_of(state: CompiledState) -> GNUTranslations:
    """The translations gettext would read from the ``.mo`` whose :func:`compiled_state` is
    *state*, without reading it. Its catalog and header are *state*'s, shared as gettext shares
    them between the copies of a ``.mo`` it has read."""
    translations = GNUTranslations()
    translations.__dict__.update(state)
    translations.plural = _plural(state["_info"].get("plural-forms"))  # type: ignore[attr-defined]
    return translations


def _known_catalog(
    dirs: Iterable[str], language: str, domain: str, compiled: Compiled
) -> tuple[NullTranslations, bool] | None:
    """``sphinx.locale.init(dirs, language, domain)`` of a fresh namespace (``gettext.translation``
    in each directory, each ``.mo`` after the first a fallback) from *compiled*; None if a
    ``.mo`` it finds is not known, or none is (``init`` then reads them, or finds none)."""
    translator: NullTranslations | None = None
    for directory in dirs:
        for mofile in find(domain, directory, [language], all=True):
            translations = compiled(mofile)
            if translations is None:
                return None
            if translator is None:
                translator = translations
            else:
                translator.add_fallback(translations)
    return None if translator is None else (translator, True)


def page_catalog(
    transform: SphinxTransform, compiled: Compiled | None = None
) -> tuple[NullTranslations, bool]:
    """The page's catalog as ``Locale.apply`` gets it (``sphinx.locale.init`` of the page's
    domain), and whether there is one: once per page read, for every step that needs it.
    *compiled* gives the ``.mo`` files whose bytes are known without reading them.

    Sphinx keeps the translator of each domain for the process and appends what every later
    ``init`` finds to it as one more fallback, so each read of a page (each build of a warm
    process, each step asking) made its chain one catalog longer; the domain's translator is
    dropped first (:func:`forget_translations`, in :data:`PAGE_NAMESPACE`), so the chain is
    what the locale directories hold, whatever was read before."""
    document = transform.document
    found = _PAGE_CATALOGS.get(document)
    if found is None:
        env, config = transform.env, transform.config
        domain = docname_to_domain(env.current_document.docname, config.gettext_compact)
        dirs = [env.srcdir / directory for directory in config.locale_dirs]
        forget_translations(domain, PAGE_NAMESPACE)
        if compiled is not None and config.language:
            found = _known_catalog(map(str, dirs), config.language, domain, compiled)
        if found is None:
            found = init_locale(dirs, config.language, domain, PAGE_NAMESPACE)
        _PAGE_CATALOGS[document] = found
    return found


def translate_page(
    transform: Locale,
    settled: Settled,
    kept: Kept,
    walked: list[Noted] | None = None,
    compiled: Compiled | None = None,
) -> list[nodes.Element] | None:
    """``Locale.apply``, with the changes the module docstring lists; *walked*: what
    :func:`walk_page` noted of the page as it is (the first pass walks it again only under
    what it patches); *compiled*: :func:`page_catalog`'s. The nodes the second pass walked
    (those ``extract_messages`` finds in the page it leaves), or None if the page has no
    catalog (the page is as it was)."""
    self = transform
    settings, source = self.document.settings, self.document["source"]
    msgstr = ""

    # fetch translations
    catalog, has_catalog = page_catalog(self, compiled)
    if not has_catalog:
        return None

    catalogues = [getattr(catalog, "_catalog", None)]
    while (catalog := catalog._fallback) is not None:  # type: ignore[attr-defined]
        catalogues.append(getattr(catalog, "_catalog", None))
    merged: dict[str, str] = {}
    for catalogue in filter(None, reversed(catalogues)):  # type: dict[str, str]
        merged |= catalogue

    quiet = self.config.verbosity < 2  # Sphinx shows its debug lines from -vv

    def publish(text: str, node: nodes.Element) -> nodes.Element:
        return i18n._publish_msgstr(
            text, source, node.line,  # type: ignore[arg-type]
            config=self.config, env=self.env, registry=self.env._registry, settings=settings,
        )

    # phase1: replace reference ids with translated names
    noting: list[Noted] = []
    first_walk = (_walk_noted(self.document, quiet, noting) if walked is None
                  else _walk_again_noting(walked, quiet, noting))
    for node, msg in _messages(first_walk):
        msgstr = merged.get(msg, "")
        if not isinstance(node, LITERAL_TYPE_NODES):
            msgstr, _ = _parse_noqa(msgstr)
        if not msgstr.strip():
            node["translated"] = False
            continue
        if msgstr == msg:
            node["translated"] = True
            continue
        msgstr = _as_block(node, msgstr)
        where = f"{source}:{node.line}:<translated>"
        found = None
        if not isinstance(node, _FIRST_PASS_OWN) and settled(msgstr, where):
            # (a second walk of the same text, source and line in phase 2)
            # the publish would be thrown away: not a title, not a term (so no title mapping),
            # and phase 2 publishes the same text; what Sphinx leaves on a paragraph patch:
            node["translated"] = False
            continue
        if isinstance(node, nodes.title) and settled(msgstr, where):
            found = kept(msgstr, where)  # its publish's first node: what the title keeps
        patch = publish(msgstr, node) if found is None else found
        if not isinstance(patch, nodes.paragraph):
            continue  # skip for now

        updater = i18n._NodeUpdater(node, patch, self.document, noqa=False)
        processed = updater.update_title_mapping()

        # glossary terms update refid
        if isinstance(node, nodes.term):
            for _id in node["ids"]:
                term, first_classifier = split_term_classifiers(msgstr)
                patch = publish(term or "", node)
                updater.patch = make_glossary_term(
                    self.env, patch, first_classifier, source,
                    node.line,  # type: ignore[arg-type]
                    _id, self.document,
                )
                processed = True

        if processed:
            updater.update_leaves()
            node["translated"] = True
        else:
            node["translated"] = False

    # phase2: translation
    after: list[nodes.Element] = []
    for node, msg in _messages(_kept(_walk_again(noting, quiet), after)):
        if node.setdefault("translated", False):
            continue

        msgstr = merged.get(msg, "")
        noqa = False
        if not isinstance(node, LITERAL_TYPE_NODES):
            msgstr, noqa = _parse_noqa(msgstr)

        if not msgstr or msgstr == msg:
            node["translated"] = False
            continue

        if isinstance(node, addnodes.translatable):
            node.apply_translated_message(msg, msgstr)
            continue

        if isinstance(node, nodes.meta):
            node["content"] = msgstr
            node["translated"] = True
            continue

        if isinstance(node, nodes.image) and node.get("alt") == msg:
            node["alt"] = msgstr
            continue

        msgstr = _as_block(node, msgstr)
        if isinstance(node, nodes.title):
            msgstr = msgstr + "\n" + "=" * len(msgstr) * 2

        where = f"{source}:{node.line}:<translated>"
        found = None
        if not isinstance(node, _FIRST_PASS_OWN) and settled(msgstr, where):
            found = kept(msgstr, where)
        patch = publish(msgstr, node) if found is None else found
        if isinstance(node, nodes.title):
            patch = patch.next_node()  # type: ignore[assignment]

        unexpected: tuple[type[nodes.Element], ...] = (nodes.paragraph, nodes.title)
        unexpected += LITERAL_TYPE_NODES
        unexpected += IMAGE_TYPE_NODES
        if not isinstance(patch, unexpected):
            continue

        updater = i18n._NodeUpdater(node, patch, self.document, noqa)
        if _has_reference(node) or _has_reference(patch):
            updater.update_autofootnote_references()
            updater.update_refnamed_references()
            updater.update_refnamed_footnote_references()
            updater.update_citation_references()
            updater.update_pending_xrefs()
        updater.update_leaves()

        if isinstance(node, LITERAL_TYPE_NODES):
            node.rawsource = node.astext()

        if isinstance(node, nodes.image) and node.get("alt") != msg:
            node["uri"] = patch["uri"]
            node["translated"] = False
            continue

        node["translated"] = True

    if "index" in self.config.gettext_additional_targets:
        for node, entries in traverse_translatable_index(self.document):
            new_entries: list[tuple[str, str, str, str, str | None]] = []
            for entry_type, value, target_id, main, _category_key in entries:
                msg_parts = split_index_msg(entry_type, value)
                msgstr_parts = []
                for part in msg_parts:
                    msgstr = merged.get(part, "")
                    if not msgstr:
                        msgstr = part
                    msgstr_parts.append(msgstr)
                new_entries.append((entry_type, ";".join(msgstr_parts), target_id, main, None))
            node["raw_entries"] = entries
            node["entries"] = new_entries
    return after
