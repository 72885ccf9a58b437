"""jieba's dictionary split by first character, so a few new texts load a few hundred entries.

jieba only looks up substrings of the text it segments (the dictionary words starting at each
character, their frequencies, the 2- and 3-grams of long words), so a frequency table holding
every dictionary word whose first character occurs in the text segments it exactly as the full
table does. The full table is prepared once as Sphinx prepares jieba (see
:func:`~seriesbook.search.zh.make_tokenizer`) and stored in the doctree directory
(``seriesbook-search-jieba.sqlite``, one row per first character, about 6,500 rows); after that a
build with a few new texts reads the rows of their characters (milliseconds) instead of loading
the 500,000-entry table (a second or two).
"""

from __future__ import annotations

import marshal
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import compat

if TYPE_CHECKING:
    import jieba

DB_NAME = "seriesbook-search-jieba.sqlite"
_BATCH = 500


def write_table(path: Path, key: tuple[Any, ...], tokenizer: jieba.Tokenizer) -> None:
    """Store *tokenizer*'s frequency table by first character (atomically)."""
    parts: dict[str, dict[str, int]] = {}
    for word, freq in compat.frequencies(tokenizer).items():
        parts.setdefault(word[0], {})[word] = freq
    partial = path.with_name(path.name + ".tmp")
    partial.unlink(missing_ok=True)
    with sqlite3.connect(partial) as db:
        db.execute("CREATE TABLE meta (key TEXT, total INTEGER)")
        db.execute("CREATE TABLE part (ch TEXT PRIMARY KEY, words BLOB)")
        db.execute("INSERT INTO meta VALUES (?, ?)", (repr(key), compat.total(tokenizer)))
        db.executemany(
            "INSERT INTO part VALUES (?, ?)", ((ch, marshal.dumps(w)) for ch, w in parts.items())
        )
    db.close()
    os.replace(partial, path)


class PartialDictionary:
    """A tokenizer whose table is filled from the stored rows as texts bring new characters."""

    def __init__(self, db: sqlite3.Connection, total: int) -> None:
        self.db = db
        self.loaded: set[str] = set()
        self.tokenizer = compat.empty_tokenizer(total)

    @classmethod
    def open(cls, path: Path, key: tuple[Any, ...]) -> PartialDictionary | None:
        """The stored table for *key*, or None if there is none (or it is for another key)."""
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            row = db.execute("SELECT key, total FROM meta").fetchone()
        except sqlite3.Error:
            return None
        if row is None or row[0] != repr(key):
            db.close()
            return None
        return cls(db, int(row[1]))

    def prepare(self, text: str) -> None:
        """Load the entries of the characters of *text* not loaded yet."""
        new = list(set(text) - self.loaded)
        if not new:
            return
        self.loaded.update(new)
        freq = compat.frequencies(self.tokenizer)
        for start in range(0, len(new), _BATCH):
            batch = new[start : start + _BATCH]
            marks = ",".join("?" * len(batch))
            for (words,) in self.db.execute(
                f"SELECT words FROM part WHERE ch IN ({marks})", batch
            ):
                freq.update(marshal.loads(words))

    def close(self) -> None:
        self.db.close()
