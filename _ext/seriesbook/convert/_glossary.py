"""The book's glossary for a converted edition (``locale/zh_TW/glossary.toml``).

Three tables of simplified or traditional terms, every key and value a non-empty string::

    [before]          # simplified term → this book's word; OpenCC never sees the term
    "算子" = "算子"
    [after]           # OpenCC's output → this book's word (a term inside OpenCC's phrases)
    "擴充套件" = "擴充"
    [false-friends]   # simplified term → what OpenCC makes of it that is wrong for this book
    "算子" = "運算元"

A false friend is *decided* when the glossary says what the term becomes: its simplified
term is a ``before`` key, or OpenCC's output is an ``after`` key. An undecided one found in a
converted message is reported (``convert-false-friend``). Without a glossary file the
conversion is OpenCC's alone, and the false friends are :data:`DEFAULT_FALSE_FRIENDS`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

GLOSSARY_FILE = "glossary.toml"
TABLES = ("before", "after", "false-friends")

#: Measured with OpenCC 1.4.2 ``s2twp`` on this book's terms: what it writes is a word, but not
#: the one a reader of a book on PyTorch's internals expects.
DEFAULT_FALSE_FRIENDS = MappingProxyType(
    {
        "算子": "運算元",
        "参数": "引數",
        "进程": "程序",
        "文档": "文件",
        "内核": "核心",
        "视图": "檢視",
        "扩展": "擴充套件",
        "回调": "回撥",
    }
)


class GlossaryError(ValueError):
    """The glossary cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Glossary:
    """What the book decides against OpenCC, and the false friends it watches for."""

    before: dict[str, str] = field(default_factory=dict)
    after: dict[str, str] = field(default_factory=dict)
    false_friends: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_FALSE_FRIENDS))
    path: Path | None = None

    def decides(self, term: str, opencc_output: str) -> bool:
        return term in self.before or opencc_output in self.after


def glossary_path(locale_dir: Path, language: str) -> Path:
    return locale_dir / language / GLOSSARY_FILE


def _table(data: dict[str, Any], name: str, path: Path) -> dict[str, str] | None:
    if name not in data:
        return None
    table = data[name]
    if not isinstance(table, dict):
        raise GlossaryError(f'{path}: [{name}] must be a table of "term" = "word"')
    for key, value in table.items():
        if not key or not isinstance(value, str) or not value:
            raise GlossaryError(
                f"{path}: [{name}] {key!r}: both the term and its word must be non-empty strings"
            )
    return dict(table)


def read_glossary(path: Path) -> Glossary | None:
    """The glossary at *path*, ``None`` if there is none; a broken one raises
    :class:`GlossaryError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise GlossaryError(f"{path}: cannot read: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise GlossaryError(f"{path}: not valid TOML: {error}") from None
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise GlossaryError(
            f"{path}: unknown table [{unknown[0]}] (the tables are {', '.join(TABLES)})"
        )
    friends = _table(data, "false-friends", path)
    return Glossary(
        before=_table(data, "before", path) or {},
        after=_table(data, "after", path) or {},
        false_friends=dict(DEFAULT_FALSE_FRIENDS) if friends is None else friends,
        path=path,
    )
