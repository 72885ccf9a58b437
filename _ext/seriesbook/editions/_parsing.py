"""Parse translated messages without rebuilding MyST's machinery for each one.

A translated edition makes Sphinx's ``Locale`` transform publish every translated message as a
small Markdown document (twice: once to find titles, once to translate). For each, MyST 5.2
builds a new markdown-it parser with all its plugins (``create_md_parser``) and, in
``setup_render``, a throwaway docutils document with default settings (its
``options.get("document", make_document())`` evaluates the default although a document is always
given). Profiled, those two are most of ``Locale``'s time, and so of a translated edition's
(the figures are in ``benchmarks/RESULTS.md``).

:class:`MystParser` is MyST's Sphinx parser with two changes: a text without front matter (every
message; the book's pages have front matter and keep MyST's own path) is parsed with one
markdown-it parser kept per build environment and configuration, and its renderer takes the
document it is given. The output is the same doctree; ``tests/test_editions_parsing.py`` checks
the renderer's state against MyST's own ``setup_render``, so a MyST release that adds state
there fails the tests instead of rendering differently.

``Locale`` publishes a message that is not a title twice with the same text, source and line (a
first pass looking for titles, then the translation), and only the second result is used.
:class:`MystParser` keeps each message's parse for the page being read (keyed by the page's
docutils settings, which Sphinx makes anew for every document) and gives the second publish a
deep copy: half the Markdown parsing of a translated edition. A parse that logged a warning is
not kept, so every warning is reported exactly as before. A message whose parse is plain prose
is also kept across builds (:mod:`._kept_messages`): :meth:`MystParser.parse` asks that first,
and on a hit records what MyST's end of rendering records (the page's settings and word count)
and adds the kept nodes.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from docutils.nodes import Element
from docutils.parsers.rst import roles
from docutils.parsers.rst.languages import get_language as get_language_rst
from myst_parser.config.main import TopmatterReadError, read_topmatter
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.parsers.mdit import create_md_parser
from myst_parser.parsers.sphinx_ import MystParser as _MystParser

from seriesbook.core.config import get_config
from seriesbook.core.watch import watch_warnings
from seriesbook.editions import _kept_messages

if TYPE_CHECKING:
    from collections.abc import MutableMapping

    from docutils import nodes
    from docutils.frontend import Values
    from markdown_it import MarkdownIt
    from myst_parser.config.main import MdParserConfig
    from sphinx.environment import BuildEnvironment

# One markdown-it parser per build environment, dropped with it. Not environment data: a parser
# must never be pickled with the environment (or sent between -j processes, which each make
# their own).
_PARSERS: weakref.WeakKeyDictionary[BuildEnvironment, tuple[MdParserConfig, MarkdownIt]] = (
    weakref.WeakKeyDictionary()
)

# How sphinx.transforms.i18n._publish_msgstr names a message's document: path:line:<translated>
TRANSLATED_SOURCE_SUFFIX = ":<translated>"


class _PageMessages:
    """The parsed messages of the page being read, forgotten when the next page begins.

    A page is known by its docutils settings (unhashable, so held by a weak reference), which
    every message of the page is published with.
    """

    def __init__(self) -> None:
        self._settings: weakref.ref[Values] | None = None
        self._parsed: dict[tuple[str, str], list[nodes.Node]] = {}

    def of(self, settings: Values) -> dict[tuple[str, str], list[nodes.Node]]:
        if self._settings is None or self._settings() is not settings:
            self._settings, self._parsed = weakref.ref(settings), {}
        return self._parsed


_PAGE_MESSAGES = _PageMessages()


class MessageRenderer(SphinxRenderer):
    """MyST's Sphinx renderer, minus the throwaway document of ``setup_render``."""

    def setup_render(self, options: dict[str, Any], env: MutableMapping[str, Any]) -> None:
        if "document" not in options:
            super().setup_render(options, env)
            return
        # The same state as MyST 5.2's setup_render, with the given document.
        self.md_env = env
        self.md_options = options
        self.md_config = options["myst_config"]
        self.document = options["document"]
        self.current_node = options.get("current_node", self.document)
        self.reporter = self.document.reporter
        # docutils.parsers.rst.languages returns a module-like object, typed apart in the stubs
        self.language_module_rst = get_language_rst(  # type: ignore[assignment]
            self.document.settings.language_code
        )
        self._heading_offset = 0
        self._level_to_section = {0: self.document}
        self._heading_slugs = {}


def _has_front_matter(text: str) -> bool:
    try:
        return bool(read_topmatter(text))
    except TopmatterReadError:
        return True  # MyST's own path reports it


class MystParser(_MystParser):
    """MyST's Sphinx parser, reusing one markdown-it parser for texts without front matter."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        if _has_front_matter(inputstring):
            super().parse(inputstring, document)
            return
        source = str(document.get("source", ""))
        if not source.endswith(TRANSLATED_SOURCE_SUFFIX):  # a page: once
            self._parse_message(inputstring, document)
            return
        env = document.settings.env
        key = (inputstring, source)
        if (kept := _kept_messages.lookup(env, key)) is not None:
            self._replay(document, *kept)
            return
        reuse = get_config(env.config).speedups
        parsed = _PAGE_MESSAGES.of(document.settings) if reuse else {}
        if key in parsed:
            document.extend(node.deepcopy() for node in parsed[key])
            return
        with watch_warnings() as warned:
            pure = self._parse_message(inputstring, document, pure_only=True)
        if warned.seen:
            return
        if pure is not None and _kept_messages.keeping(env):  # Locale's second publish
            md_env, roles = pure  # finds it
            _kept_messages.keep(env, key, document.children, md_env.get("wordcount"), roles)
        elif reuse:
            parsed[key] = [node.deepcopy() for node in document.children]

    def _kept_parser(self, env: BuildEnvironment) -> MarkdownIt:
        config: MdParserConfig = env.myst_config  # type: ignore[attr-defined]
        cached = _PARSERS.get(env)
        if cached is None or cached[0] is not config:
            cached = _PARSERS[env] = (config, create_md_parser(config, MessageRenderer))
        return cached[1]

    def _parse_message(
        self, inputstring: str, document: nodes.document, *, pure_only: bool = False
    ) -> tuple[dict[str, Any], bool] | None:
        """Parse *inputstring* into *document*; with *pure_only*, markdown-it's environment and
        whether the parse holds roles if it may be kept across builds
        (:func:`._kept_messages.is_pure`), else None."""
        env = document.settings.env
        parser = self._kept_parser(env)
        if parser.options.get("document") is not None:  # re-entered while rendering: be safe
            super().parse(inputstring, document)
            return None
        meta = parser.options["myst_config"].html_meta  # MyST adds it to every document
        keepable = pure_only and not meta and _kept_messages.keeping(env)
        parser.options["document"] = document
        md_env: dict[str, Any] = {}

        def resolve(name: str) -> object:  # as the renderer will (Sphinx's lookup, then docutils')
            language = get_language_rst(document.settings.language_code)
            return roles.role(name, language, 0, document.reporter)[0]  # type: ignore[arg-type]

        def role_ok(name: str) -> bool:
            return _kept_messages.pure_role(env, name, resolve)

        try:
            tokens = parser.parse(inputstring, md_env)
            pure = keepable and _kept_messages.is_pure(tokens, role_ok)
            parser.renderer.render(tokens, parser.options, md_env)
        finally:
            parser.options["document"] = None
        return (md_env, _kept_messages.has_roles(tokens)) if pure else None

    @staticmethod
    def _replay(document: nodes.document, top: list[nodes.Node], words: Any) -> None:
        """Give *document* a kept parse: what MyST's ``_render_finalise`` records outside the
        message's own document (the page's settings, the page's word count), then the nodes.

        Its heading slugs and word-count substitutions go on the message's document, of which
        Locale keeps the first node only; ``test_a_kept_parse_leaves_what_a_parse_leaves``
        compares the settings and metadata a parse leaves with the replay's."""
        _record(document.settings, words)
        document.extend(top)


def _record(settings: Values, words: Any) -> None:
    """What MyST's end of rendering records outside the message's document."""
    env = settings.env
    config: MdParserConfig = env.myst_config
    settings.myst_heading_anchors_html_ids = config.heading_anchors_html_ids
    settings.myst_footnote_transition = config.footnote_transition
    settings.myst_footnote_sort = config.footnote_sort
    if words:
        env.metadata.setdefault(env.current_document.docname, {})["wordcount"] = dict(words)


def kept_patch(
    parses: _kept_messages.PageParses, settings: Values, key: tuple[str, str]
) -> nodes.Element | None:
    """The first node Sphinx's publish of the kept message *key* returns (its children are what
    ``Locale`` keeps), with what the publish records outside the message's document; None if
    the parse is not kept or is empty (then it is published)."""
    kept = parses.nodes(key)
    if kept is None or not kept[0]:
        return None
    top, words = kept
    first = top[0]
    if not isinstance(first, Element):
        return None
    _record(settings, words)
    return first
