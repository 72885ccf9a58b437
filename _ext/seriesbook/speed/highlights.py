"""Code blocks' highlighted HTML kept across builds, in the doctree directory.

Sphinx highlights every code block of every page it writes with Pygments (a lexer made for the
block, its rules compiled once per process, a formatter made for the block), although a block's
code rarely changes between builds. What :meth:`PygmentsBridge.highlight_block` returns depends
only on its arguments (the code, the language, the lexer's options, the formatter's arguments,
``force``), on the bridge (HTML, its formatter class and style), on the lexer a language names
(Pygments, the lexers installed beside it, a lexer registered with ``app.add_lexer``) and on
Sphinx's own choice of lexer; ``location`` is only named in warnings. So the HTML builders'
``highlighter`` is this module's :class:`KeptHighlighter`, which keeps each page's blocks in
``seriesbook-highlights.pickle`` by those arguments under a :func:`fingerprint` of the rest,
with the rules of :class:`~seriesbook.core.pagestore.PageStore` (a page written in this build
keeps exactly the blocks it showed, an unwritten page keeps its own, a page gone loses them).

A block is highlighted afresh, and not kept, when it could depend on something outside the key:
a language served by a lexer registered in the project (its code is the project's), arguments
that are not plain values. A highlighting that warned (an unknown language, a lexing error
retried in relaxed mode) or raised a Python warning is not kept either, so the warning is
reported in every build, as without the store. ``seriesbook_speedups = False`` highlights every
block afresh. A bridge some other extension put there (a subclass) is left alone.

Under ``-j`` the pages are written by forked processes, which see the store as loaded; each
appends what its pages used (and what it highlighted) to a file of its own beside the store,
which the main process reads when the build finishes and then deletes.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import secrets
import sys
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pygments
import sphinx
from sphinx.highlighting import PygmentsBridge, lexer_classes, lexers

from seriesbook import __version__
from seriesbook.core.config import get_config
from seriesbook.core.pagestore import PageStore, installed_packages
from seriesbook.core.watch import watch_warnings

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.util.typing import ExtensionMetadata

CACHE_NAME = "seriesbook-highlights.pickle"
FORMAT = 1
#: What a ``-j`` writer appends its pages' blocks to: ``<CACHE_NAME>.<build>.<pid>.part``.
PART_SUFFIX = ".part"

#: (language, lexer options, formatter arguments with ``force``, code)
Key = tuple[str, str, str, str]
#: Languages Sphinx serves with the Python lexers (``PygmentsBridge.get_lexer``).
_PYTHON = frozenset({"py", "python", "py3", "python3", "default", "pycon3"})


def _qualified(value: object) -> str:
    return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', '?')}"


def fingerprint(bridge: PygmentsBridge) -> tuple[Any, ...]:
    """What every block's HTML depends on besides its own arguments: the versions, the
    installed packages, this module, and the bridge (its output, formatter and style)."""
    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    style = hashlib.sha256(bridge.get_stylesheet().encode("utf-8", "surrogatepass")).hexdigest()
    return (
        FORMAT, sys.version, sphinx.__version__, pygments.__version__, __version__, code,
        installed_packages(), bridge.dest, bridge.latex_engine, _qualified(bridge.formatter),
        _qualified(bridge.formatter_args.get("style")), style,
    )


_PLAIN_TYPES = (str, int, float, bool, type(None))


def _plain(value: object) -> bool:
    """Whether *value*'s ``repr`` says all of it (strings, numbers, and lists, tuples and
    string-keyed dicts of them)."""
    if isinstance(value, _PLAIN_TYPES):
        return True
    if isinstance(value, list | tuple):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def _stock_lexers(lang: str) -> bool:
    """Whether the lexer Sphinx would choose for *lang* is Pygments' own: not an instance
    registered in ``sphinx.highlighting.lexers``, nor a class from outside Pygments."""
    names = (lang, "python", "pycon") if lang in _PYTHON else (lang,)
    for name in names:
        if name in lexers:
            return False
        made = lexer_classes.get(name)
        if made is None:
            continue
        if not _qualified(made.func if isinstance(made, partial) else made).startswith(
            "pygments."
        ):
            return False
    return True


def block_key(
    source: object, lang: str, opts: dict[str, Any] | None, force: bool, kwargs: dict[str, Any]
) -> Key | None:
    """The key a block is kept under, or None if it must be highlighted afresh."""
    if not isinstance(source, str) or not isinstance(lang, str) or not _stock_lexers(lang):
        return None
    options = opts or {}
    arguments = {**kwargs, "force": force}
    if not (_plain(options) and _plain(arguments)):
        return None
    return (lang, repr(sorted(options.items())), repr(sorted(arguments.items())), source)


class KeptBlocks(PageStore[Key, str]):
    """Each page's highlighted blocks (:class:`~seriesbook.core.pagestore.PageStore`);
    ``used`` holds the pages written in this build."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        super().__init__(path, key)
        self.used: dict[str, dict[Key, str]] = {}
        self.owner = os.getpid()
        self.build = f"{self.owner}-{secrets.token_hex(4)}"
        self._part: IO[bytes] | None = None

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, str)

    def _parts(self, build: str = "*") -> list[Path]:
        return sorted(self.path.parent.glob(f"{self.path.name}.{build}.*{PART_SUFFIX}"))

    def get(self, docname: str, key: Key) -> str | None:
        """The kept HTML of *key*, noted as used by *docname*."""
        html = self.lookup.get(key)
        if html is not None:
            self.used.setdefault(docname, {})[key] = html
            self._tell(docname, key, None)
        return html

    def put(self, docname: str, key: Key, html: str) -> None:
        self.lookup[key] = html
        self.used.setdefault(docname, {})[key] = html
        self._tell(docname, key, html)

    def _tell(self, docname: str, key: Key, html: str | None) -> None:
        """In a ``-j`` writer, append the use (and a new block's HTML) to its part file."""
        if os.getpid() == self.owner:
            return
        try:
            if self._part is None:
                name = f"{self.path.name}.{self.build}.{os.getpid()}{PART_SUFFIX}"
                self._part = (self.path.parent / name).open("ab")
            pickle.dump((docname, key, html), self._part, pickle.HIGHEST_PROTOCOL)
            self._part.flush()  # a writer process ends without closing its files
        except OSError:
            return  # the page is kept as it was; its blocks are highlighted again next time

    def gather(self) -> None:
        """Take in what the ``-j`` writers of this build used, and delete every part file."""
        ours = set(self._parts(self.build))
        for part in self._parts():
            if part in ours:
                self._read_part(part)
            part.unlink(missing_ok=True)

    def _read_part(self, part: Path) -> None:
        try:
            with part.open("rb") as stream:
                while True:
                    docname, key, html = pickle.load(stream)
                    if html is not None:
                        self.lookup[key] = html
                    elif key in self.lookup:
                        html = self.lookup[key]
                    else:
                        continue
                    self.used.setdefault(docname, {})[key] = html
        except (EOFError, OSError, pickle.UnpicklingError, ValueError, TypeError):
            return  # the end of the file, or a record cut short


class KeptHighlighter(PygmentsBridge):
    """Sphinx's bridge to Pygments (the builder's own, copied), keeping each block's HTML."""

    def __init__(self, bridge: PygmentsBridge, builder: Builder, store: KeptBlocks) -> None:
        # the same bridge: its output, formatter class and arguments (the style, which the
        # bridge knows only as a class)
        super().__init__(bridge.dest, "sphinx", bridge.latex_engine)
        self.formatter = bridge.formatter
        self.formatter_args = dict(bridge.formatter_args)
        self.builder = builder
        self.store = store

    def highlight_block(
        self,
        source: str,
        lang: str,
        opts: dict[str, Any] | None = None,
        force: bool = False,
        location: Any = None,
        **kwargs: Any,
    ) -> str:
        key = block_key(source, lang, opts, force, kwargs)
        if key is None:
            return super().highlight_block(source, lang, opts, force, location, **kwargs)
        docname = str(getattr(self.builder, "current_docname", ""))
        kept = self.store.get(docname, key)
        if kept is not None:
            return kept
        with watch_warnings() as warned:
            html = super().highlight_block(source, lang, opts, force, location, **kwargs)
        if not warned.seen and isinstance(html, str):
            self.store.put(docname, key, html)
        return html


def _keep(app: Sphinx) -> None:
    """``builder-inited``: an HTML builder's own bridge becomes a :class:`KeptHighlighter`."""
    bridge = getattr(app.builder, "highlighter", None)
    if type(bridge) is not PygmentsBridge or not get_config(app.config).speedups:
        return
    store = KeptBlocks.read(Path(app.doctreedir) / CACHE_NAME, fingerprint(bridge))
    app.builder.highlighter = KeptHighlighter(bridge, app.builder, store)  # type: ignore[attr-defined]


def _save(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: keep what this build's pages showed (nothing after an error)."""
    highlighter = getattr(app.builder, "highlighter", None)
    if not isinstance(highlighter, KeptHighlighter):
        return
    store = highlighter.store
    store.gather()
    if exception is None:
        try:
            store.save(store.used, set(app.env.all_docs))
        except OSError:
            return  # a read-only build directory: nothing kept
    store.used = {}


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("seriesbook.core.config")  # seriesbook_speedups
    app.connect("builder-inited", _keep)
    app.connect("build-finished", _save)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
