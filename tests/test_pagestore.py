"""seriesbook.core.pagestore: the rules both kept caches (search segmentation, messages) share."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from seriesbook.core.pagestore import PageStore


class _Counts(PageStore[str, int]):
    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, int)


def _store(path: Path, key: tuple[object, ...] = ("v1",)) -> _Counts:
    return _Counts.read(path, key)


def test_the_file_holds_the_current_book_and_is_rewritten_only_when_it_changed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.pickle"
    first = _store(path)
    first.save({"ch01": {"a": 1}, "ch02": {"b": 2}}, {"ch01", "ch02"})
    again = _store(path)
    assert again.pages == {"ch01": {"a": 1}, "ch02": {"b": 2}} and again.lookup == {"a": 1, "b": 2}
    written = path.stat().st_mtime_ns
    again.save({"ch01": {"a": 1}}, {"ch01", "ch02"})  # the same: not written
    assert path.stat().st_mtime_ns == written
    # ch01 used something else, ch02 was not used (keeps its own), ch03 left the book
    again.save({"ch01": {"c": 3}, "ch03": {"d": 4}}, {"ch01", "ch02"})
    assert _store(path).pages == {"ch01": {"c": 3}, "ch02": {"b": 2}}
    assert not path.with_name(path.name + ".tmp").exists()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not a pickle",
        pickle.dumps(["a list"]),
        pickle.dumps({"key": ("v0",), "pages": {"ch01": {"a": 1}}}),  # another key
        pickle.dumps({"key": ("v1",)}),  # no pages
        pickle.dumps({"key": ("v1",), "pages": {"ch01": ["a"]}}),
        pickle.dumps({"key": ("v1",), "pages": {"ch01": {"a": "not an int"}}}),
    ],
)
def test_anything_but_a_good_file_of_this_key_is_an_empty_store(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "store.pickle"
    path.write_bytes(content)
    store = _store(path)
    assert store.pages == {} and store.lookup == {}
