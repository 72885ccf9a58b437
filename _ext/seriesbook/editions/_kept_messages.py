"""Translated messages' parses kept across builds, in the doctree directory.

A translated edition publishes every translated message as a small MyST document
(:mod:`._parsing`); on the benchmark corpus that is most of what the English build costs beyond
the Chinese one, and ``make html`` (``-E -a``) parses every message again although the catalogs
rarely change. The file ``seriesbook-messages.pickle`` keeps, per page, the doctree of each
message the page published, keyed by the message's text and its source (``path:line:<translated>``,
which the nodes carry), so the next build unpickles it instead of parsing.

Only a parse that can depend on nothing but its text is kept: it logged no warning, and its
markdown-it tokens are all plain prose (:func:`is_pure`: paragraphs, emphasis, strong,
strikethrough, inline code, breaks, links to absolute ``http``/``https``/``mailto`` URLs, none
with attributes) or seriesbook's own citation and § roles (``{src}``, ``{sec}``: :data:`PURE_ROLES`,
whose nodes are made from the role's text and place alone), where the page resolves them to
those roles and its default domain is the book's ``primary_domain``. Other roles, directives,
footnotes, targets, substitutions, HTML, math, headings and relative links are resolved against
the project, the page or the environment, so they are parsed every build as before. The whole
file is valid for one :func:`fingerprint` (Python, docutils, Sphinx, MyST, markdown-it, its
plugins, seriesbook, the MyST configuration, the language, the primary domain and which domains
and roles answer to the names of :data:`PURE_ROLES`); anything else, or a file that cannot be
read, starts empty. A parse with roles is used only in a page whose default domain is the
primary one (a ``default-domain`` directive could give a role name another meaning).

Like the search's segmentation cache, the file survives ``-E`` (a fresh environment keeps the
doctree directory) and holds the current book, not its history: a page read in a build keeps
exactly the messages it published in that build, a page not read keeps its entries, a page no
longer in the book loses them. Deleting the doctree directory (``make clean``) clears it; there
is no option, because a kept parse is the same doctree as a fresh one (the tests compare them).

Under ``-j`` the forked readers see the loaded file; what each page used travels back in an
environment attribute merged at ``env-merge-info`` and taken out of the environment at
``env-updated`` (so it is never pickled into ``environment.pickle``), when the file is written.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from seriesbook import __version__, compat
from seriesbook.core.config import get_config, is_translated_edition
from seriesbook.core.pagestore import PageStore
from seriesbook.editions._kept_nodes import Plain, as_plain, is_plain, paragraph

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from docutils import nodes
    from markdown_it.token import Token
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

CACHE_NAME = "seriesbook-messages.pickle"
FORMAT = 3
# The messages each page read in this build published, by page (merged back from -j readers).
USED_ATTRIBUTE = "seriesbook_kept_messages"

Key = tuple[str, str]  # (message text, document source)
# The top-level nodes (pickled, or a paragraph of text as its strings: :mod:`._kept_nodes`), the
# markdown-it environment's word count MyST records, and whether the parse holds roles
# (:data:`PURE_ROLES`)
Entry = tuple["bytes | Plain", Any, bool]

# Tokens whose rendering reads nothing but the token (see MyST's render_* methods)
_PURE_TOKENS = frozenset(
    {
        "paragraph_open",
        "paragraph_close",
        "inline",
        "text",
        "softbreak",
        "hardbreak",
        "strong_open",
        "strong_close",
        "em_open",
        "em_close",
        "s_open",
        "s_close",
        "code_inline",
        "link_close",
    }
)
_ABSOLUTE_SCHEMES = ("http://", "https://", "mailto:")


#: The role names a kept parse may hold: seriesbook's citation and § roles, whose nodes are made
#: from the role's text and its place in the message alone (when the page resolves the name to
#: one of :func:`_pure_role_types`).
PURE_ROLES = ("sec", "src")


def _pure_role_types() -> tuple[type, ...]:
    from seriesbook.citations import SourceRole
    from seriesbook.sections import SecRole

    return (SourceRole, SecRole)


def _primary_default(env: BuildEnvironment) -> bool:
    """Whether the page being read has the book's ``primary_domain`` as its default domain."""
    return env.current_document.default_domain is env.domains.get(env.config.primary_domain)


def pure_role(env: BuildEnvironment, name: str, resolve: Callable[[str], object]) -> bool:
    """Whether the role *name* is one of :data:`PURE_ROLES` in the page being read, as
    *resolve* (docutils' ``roles.role``, which Sphinx hands to the page's domains while it is
    read) finds it."""
    return (name.lower() in PURE_ROLES and _primary_default(env)
            and isinstance(resolve(name), _pure_role_types()))


def is_pure(tokens: Sequence[Token], role_ok: Callable[[str], bool] | None = None) -> bool:
    """Whether MyST renders *tokens* (recursively) from their text alone; a role, if
    *role_ok* says so of its name."""
    for token in tokens:
        if token.type == "link_open":
            href = str(token.attrs.get("href", ""))
            if set(token.attrs) - {"href", "title"} or not href.startswith(_ABSOLUTE_SCHEMES):
                return False
        elif token.type == "myst_role":
            if role_ok is None or token.attrs or not role_ok(str(token.meta.get("name", ""))):
                return False
        elif token.type not in _PURE_TOKENS or token.attrs:
            return False
        if token.children and not is_pure(token.children, role_ok):
            return False
    return True


def has_roles(tokens: Sequence[Token]) -> bool:
    return any(token.type == "myst_role" or (token.children and has_roles(token.children))
               for token in tokens)


def _stable(value: Any) -> Any:
    """*value* as plain, ordered data: equal across processes (no set order, no addresses)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        named = tuple((field.name, _stable(getattr(value, field.name))) for field in fields)
        return (type(value).__qualname__, named)
    if isinstance(value, dict):
        items = ((repr(key), _stable(item)) for key, item in value.items())
        return tuple(sorted(items, key=lambda pair: pair[0]))
    if isinstance(value, set | frozenset):
        return tuple(sorted(repr(_stable(item)) for item in value))
    if isinstance(value, list | tuple):
        return tuple(_stable(item) for item in value)
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
    return repr(value)


def fingerprint(env: BuildEnvironment) -> tuple[Any, ...]:
    """What a kept parse depends on besides its text and source."""
    import docutils
    import markdown_it
    import mdit_py_plugins
    import myst_parser
    import sphinx

    return (
        FORMAT,
        sys.version,
        docutils.__version__,
        sphinx.__version__,
        myst_parser.__version__,
        markdown_it.__version__,
        mdit_py_plugins.__version__,
        __version__,
        _stable(env.myst_config),  # type: ignore[attr-defined]
        str(env.config.language),
        str(env.config.primary_domain),
        _role_names(env),
    )


def _role_names(env: BuildEnvironment) -> tuple[Any, ...]:
    """What answers to each name of :data:`PURE_ROLES`: the domains having a role of that name,
    and the role docutils has registered under it."""
    from docutils.parsers.rst import languages, roles
    from docutils.utils import Reporter

    quiet = Reporter("", Reporter.SEVERE_LEVEL + 1, Reporter.SEVERE_LEVEL + 1)
    found = []
    for name in PURE_ROLES:
        domains = tuple(sorted(domain.name for domain in env.domains.sorted()
                               if domain.role(name) is not None))
        language = languages.get_language("en")  # the stubs type it apart from roles.role's
        registered = roles.role(name, language, 0, quiet)[0]  # type: ignore[arg-type]
        kind = type(registered)
        found.append((name, domains, f"{kind.__module__}.{kind.__qualname__}"))
    return tuple(found)


class KeptMessages(PageStore[Key, Entry]):
    """The parses loaded from the file (:class:`~seriesbook.core.pagestore.PageStore`)."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        super().__init__(path, key)
        self.loaded: frozenset[Key] = frozenset()

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, tuple) and len(entry) == 3 and (
            isinstance(entry[0], bytes) or is_plain(entry[0]))

    def load(self) -> None:
        super().load()
        self.loaded = frozenset(self.lookup)

    def save_read(self, read: dict[str, dict[Key, Entry]], docnames: set[str]) -> tuple[int, int]:
        """Keep the book's pages, those read with what they used; how many of *read*'s
        entries were loaded, and how many are new."""
        self.save(read, docnames)
        used = [key for entries in read.values() for key in entries]
        hits = sum(1 for key in used if key in self.loaded)
        return hits, len(used) - hits


# The loaded parses of each build environment being read (forked -j readers inherit them), and
# the pages it reads: Sphinx's own list, which env-before-read-docs handlers may still extend.
_KEPT: weakref.WeakKeyDictionary[BuildEnvironment, KeptMessages] = weakref.WeakKeyDictionary()
_READ_NOW: weakref.WeakKeyDictionary[BuildEnvironment, list[str]] = weakref.WeakKeyDictionary()


def _used(env: BuildEnvironment) -> dict[str, dict[Key, Entry]]:
    if not hasattr(env, USED_ATTRIBUTE):
        setattr(env, USED_ATTRIBUTE, {})
    used: dict[str, dict[Key, Entry]] = getattr(env, USED_ATTRIBUTE)
    return used


class PageParses:
    """The kept parses as the page being read asks for them: the store and the page's record
    of what it used are looked up once per page, not once per message."""

    def __init__(self, env: BuildEnvironment, kept: KeptMessages) -> None:
        self._env = env
        self._lookup = kept.lookup
        self._used = _used(env).setdefault(env.current_document.docname, {})

    def settled(self, key: Key) -> bool:
        """Whether *key*'s parse is kept: it warned nothing and depends on its text alone."""
        entry = self._lookup.get(key)
        return entry is not None and (not entry[2] or _primary_default(self._env))

    def nodes(self, key: Key) -> tuple[list[nodes.Node], Any] | None:
        """The kept parse of *key* as fresh nodes, with its word count, noted as used by the
        page; None if there is none."""
        entry = self._lookup.get(key)
        if entry is None or (entry[2] and not _primary_default(self._env)):
            return None  # none, or its roles may mean others here
        self._used[key] = entry
        payload = entry[0]
        if isinstance(payload, bytes):
            found: list[nodes.Node] = pickle.loads(payload)
            return found, entry[1]
        return [paragraph(payload)], entry[1]


def page_parses(env: BuildEnvironment) -> PageParses | None:
    """The kept parses for the page being read, or None if none are kept for this build."""
    kept = _KEPT.get(env)
    return None if kept is None else PageParses(env, kept)


def lookup(env: BuildEnvironment, key: Key) -> tuple[list[nodes.Node], Any] | None:
    """:meth:`PageParses.nodes` for the page being read."""
    parses = page_parses(env)
    return None if parses is None else parses.nodes(key)


def settled(env: BuildEnvironment, key: Key) -> bool:
    """:meth:`PageParses.settled` for the page being read."""
    parses = page_parses(env)
    return parses is not None and parses.settled(key)


def keeping(env: BuildEnvironment) -> bool:
    """Whether parses are being kept for *env*'s build."""
    return env in _KEPT


def keep(
    env: BuildEnvironment, key: Key, top: Sequence[nodes.Node], words: Any, roles: bool = False
) -> None:
    """Keep the parse of *key* (its top-level nodes, copied; *roles*: whether it holds roles)
    for the page being read."""
    kept = _KEPT.get(env)
    if kept is None:
        return
    copies = [node.deepcopy() for node in top]
    for copy in copies:
        for node in copy.findall():  # Sphinx's deepcopy gives children the original's document
            compat.detach_document(node)  # (and with it the settings and environment)
    plain = as_plain(copies)
    payload = pickle.dumps(copies, pickle.HIGHEST_PROTOCOL) if plain is None else plain
    entry = kept.lookup[key] = (payload, words, roles)
    _used(env).setdefault(env.current_document.docname, {})[key] = entry


def _forget_used(env: BuildEnvironment) -> None:
    if hasattr(env, USED_ATTRIBUTE):
        delattr(env, USED_ATTRIBUTE)


def load(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    _forget_used(env)
    if not get_config(app.config).speedups or not docnames or not is_translated_edition(app.config):
        _KEPT.pop(env, None)
        _READ_NOW.pop(env, None)
        return
    _KEPT[env] = KeptMessages.read(app.doctreedir / CACHE_NAME, fingerprint(env))
    _READ_NOW[env] = docnames
    setattr(env, USED_ATTRIBUTE, {})


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    theirs: dict[str, dict[Key, Entry]] = getattr(other, USED_ATTRIBUTE, {})
    _used(env).update({name: theirs[name] for name in docnames if name in theirs})


def save(app: Sphinx, env: BuildEnvironment) -> None:
    used: dict[str, dict[Key, Entry]] = getattr(env, USED_ATTRIBUTE, {})
    _forget_used(env)
    read_now = _READ_NOW.pop(env, [])
    kept = _KEPT.pop(env, None)
    if kept is None:
        return
    # Every page read in this build keeps exactly what it used: nothing, if it used nothing
    read = {name: used.get(name, {}) for name in read_now}
    try:
        hits, new = kept.save_read(read, set(env.all_docs))
    except OSError as error:  # a file that cannot be written costs speed, nothing else
        logger.info("seriesbook.editions: cannot save the kept message parses: %s", error)
        return
    logger.info("seriesbook.editions: %d messages from the kept parses, %d kept anew", hits, new)
