"""A page's markdown-it token stream kept across builds, by its text.

MyST renders a page from the tokens markdown-it parses from the page's text with an empty
environment; on the benchmark book that parse is a large part of reading, every ``-E`` build,
although a page's text rarely changes. What :meth:`MarkdownIt.parse` returns, and what it leaves
in its environment (link references and the duplicates MyST warns about, footnotes, the word
count), depends only on the text, on the parser's rules and options (which MyST's
``create_md_parser`` makes from the MyST configuration, the page's front matter merged in: the
configuration is in the parser's options) and on the code: markdown-it-py, mdit-py-plugins,
MyST, linkify-it-py where installed, Python (its Unicode tables). No rule reads the docutils
document MyST puts into the options, nor anything else of the build; no rule logs.
``seriesbook.compat`` pins the code this rests on (``MarkdownIt.parse``, ``create_md_parser``).

So :func:`kept_parse` keeps the tokens and the environment, pickled together (shared objects stay
shared), in ``<doctreedir>/seriesbook-parses/<digest>.pickle``, the digest covering the text and
a :func:`fingerprint` of the parser and the code; each use unpickles a fresh copy (the renderer
changes the tokens it renders). A parse is not kept if it warned, or if its tokens or environment
hold anything but plain data (strings, numbers, lists, dicts, tokens), which a copy might not
reproduce. Each page read records its parse's digest in the environment (merged from
``-j`` readers), and after reading the directory keeps the book's pages' parses only.
``seriesbook_speedups = False`` parses every page.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
import weakref
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markdown_it.token import Token
from sphinx.environment.collectors import EnvironmentCollector

from seriesbook import __version__
from seriesbook.core.config import get_config
from seriesbook.core.pagestore import digest, dump_atomically
from seriesbook.core.watch import watch_warnings

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from markdown_it import MarkdownIt
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

STORE_SUBDIR = "seriesbook-parses"
FORMAT = 1
#: Docname → the digest of its kept parse (pages read with the store on).
DIGESTS_ATTR = "seriesbook_parse_digests"

_TOKEN_FIELDS = tuple(field.name for field in dataclasses.fields(Token))
_PLAIN = (str, int, float, bool, type(None))


def _stable(value: Any) -> Any:
    """*value* as plain, ordered data, the same in every process (no set order, no address)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        named = tuple((f.name, _stable(getattr(value, f.name))) for f in dataclasses.fields(value))
        return (type(value).__qualname__, named)
    if isinstance(value, dict):
        return tuple(sorted((repr(key), _stable(item)) for key, item in value.items()))
    if isinstance(value, set | frozenset):
        return tuple(sorted(repr(_stable(item)) for item in value))
    if isinstance(value, list | tuple):
        return tuple(_stable(item) for item in value)
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
    return repr(value)


def _versions() -> tuple[str, ...]:
    import markdown_it
    import mdit_py_plugins
    import myst_parser

    try:  # the linkify extension's matcher, where installed
        linkify = metadata.version("linkify-it-py")
    except metadata.PackageNotFoundError:
        linkify = ""
    return (sys.version, markdown_it.__version__, mdit_py_plugins.__version__,
            myst_parser.__version__, linkify, __version__)


_FINGERPRINTS: weakref.WeakKeyDictionary[MarkdownIt, str] = weakref.WeakKeyDictionary()


def fingerprint(md: MarkdownIt) -> str:
    """What *md*'s parse depends on besides the text: its options (the MyST configuration
    among them; not the document MyST puts there), its active rules and the code."""
    found = _FINGERPRINTS.get(md)
    if found is None:
        options = {key: value for key, value in md.options.items() if key != "document"}
        found = digest((FORMAT, _versions(), _stable(options), _stable(md.get_active_rules())))
        _FINGERPRINTS[md] = found
    return found


def plain(value: Any) -> bool:
    """Whether a pickled copy of *value* is the same data: tokens, strings, numbers, lists and
    tuples of them, and dicts with such keys (footnotes are numbered)."""
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, Token):
        return all(plain(getattr(value, name)) for name in _TOKEN_FIELDS)
    if isinstance(value, list | tuple):
        return all(map(plain, value))
    if isinstance(value, dict):
        return all(isinstance(key, _PLAIN) and plain(item) for key, item in value.items())
    return False


# The store's directory for each build environment being read (-j readers inherit it).
_STORES: weakref.WeakKeyDictionary[BuildEnvironment, Path] = weakref.WeakKeyDictionary()


def _read(path: Path) -> tuple[list[Token], dict[str, Any]] | None:
    try:
        with path.open("rb") as stream:
            kept = pickle.load(stream)
    except Exception:  # a missing, unreadable or foreign file: parse afresh
        return None
    if (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], list)
            and isinstance(kept[1], dict)):
        return kept
    return None


def kept_parse(
    md: MarkdownIt, text: str, md_env: dict[str, Any], env: BuildEnvironment
) -> list[Token]:
    """``md.parse(text, md_env)`` for a page read in *env*'s build: a kept copy when there is
    one (its environment put into the empty *md_env*), else parsed and kept."""
    store = _STORES.get(env)
    if store is None or md_env:
        return md.parse(text, md_env)
    key = digest((fingerprint(md), text))
    path = store / f"{key}.pickle"
    kept = _read(path)
    if kept is not None:
        tokens, kept_env = kept
        md_env.update(kept_env)
    else:
        with watch_warnings() as warned:
            tokens = md.parse(text, md_env)
        if warned.seen or not (plain(tokens) and plain(md_env)):
            return tokens
        try:
            dump_atomically(path, (tokens, md_env))
        except (OSError, pickle.PicklingError):
            return tokens
    _digests(env)[env.current_document.docname] = key
    return tokens


def _digests(env: BuildEnvironment) -> dict[str, str]:
    found: dict[str, str] | None = getattr(env, DIGESTS_ATTR, None)
    if found is None:
        found = {}
        setattr(env, DIGESTS_ATTR, found)
    return found


class KeptParses(EnvironmentCollector):
    """Which kept parse each page used, across ``-j`` and incremental builds."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _digests(env).pop(docname, None)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        theirs = _digests(other)
        _digests(env).update({name: theirs[name] for name in docnames if name in theirs})

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        pass


def open_store(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: keep parses while this build reads (speedups on)."""
    if get_config(app.config).speedups and docnames:
        _STORES[env] = Path(app.doctreedir) / STORE_SUBDIR
    else:
        _STORES.pop(env, None)


def prune(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: the store keeps the parses of the book's pages only."""
    store = _STORES.pop(env, None)
    if store is None or not store.is_dir():
        return
    digests = _digests(env)
    keep = {f"{digests[name]}.pickle" for name in env.all_docs if name in digests}
    for path in store.glob("*.pickle"):
        if path.name not in keep:
            path.unlink(missing_ok=True)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    app.add_env_collector(KeptParses)
    app.connect("env-before-read-docs", open_store)
    app.connect("env-updated", prune)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
