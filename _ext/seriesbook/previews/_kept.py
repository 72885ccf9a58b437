"""Highlighted citation lines kept across builds, in the doctree directory.

A citation's preview is its cited lines highlighted by Pygments (:mod:`._code`), which costs a
lexer lookup per file name (a pattern search over every lexer, the lexer's rules compiled) and a
lexing per citation, for every page written, although the cited text rarely changes between
builds. What :func:`~._code.highlighted_lines` returns depends only on the file's name (which
chooses the lexer), the cited text, Pygments (its version and the lexers installed beside it)
and :mod:`._code` itself; so ``seriesbook-previews-code.pickle`` keeps each page's lines by
``(file name, text)`` under a :func:`fingerprint` of the rest, with the rules of
:class:`~seriesbook.core.pagestore.PageStore` (a page written in this build keeps exactly the
citations it showed, an unwritten page keeps its own, a page gone loses them; any other file is
an empty store). ``seriesbook_speedups = False`` highlights every citation afresh.

Pages are written, and their previews made, in the main process even under ``-j``, so what each
page used needs no merging.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pygments

from seriesbook import __version__
from seriesbook.core.pagestore import PageStore, installed_packages
from seriesbook.previews import _code

CACHE_NAME = "seriesbook-previews-code.pickle"
FORMAT = 1

Key = tuple[str, str]  # (the cited file's name, the cited text)
Lines = tuple[str, ...]


def fingerprint() -> tuple[Any, ...]:
    """What the highlighted lines depend on besides the file's name and the text."""
    code = hashlib.sha256(Path(_code.__file__).read_bytes()).hexdigest()
    return (FORMAT, pygments.__version__, __version__, code, installed_packages())


class KeptHighlights(PageStore[Key, Lines]):
    """Each page's highlighted citations (:class:`~seriesbook.core.pagestore.PageStore`);
    ``used`` holds the pages written in this build."""

    def __init__(self, path: Path, key: tuple[Any, ...]) -> None:
        super().__init__(path, key)
        self.used: dict[str, dict[Key, Lines]] = {}

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, tuple) and all(isinstance(line, str) for line in entry)

    @classmethod
    def open(cls, doctreedir: str | Path) -> KeptHighlights:
        return cls.read(Path(doctreedir) / CACHE_NAME, fingerprint())

    def begin_page(self, docname: str) -> None:
        """The page *docname* is being written: it keeps what it uses from now on."""
        self.used[docname] = {}

    def lines(self, docname: str, path: str, text: str) -> list[str]:
        """:func:`~._code.highlighted_lines` of *path*'s *text*, kept or made, used by
        *docname*."""
        key = (path.rsplit("/", 1)[-1], text)
        lines = self.lookup.get(key)
        if lines is None:
            lines = self.lookup[key] = tuple(_code.highlighted_lines(path, text))
        self.used.setdefault(docname, {})[key] = lines
        return list(lines)
