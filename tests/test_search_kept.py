"""The search's kept work (§ parts by text, split words, packed groups, the variants table)
changes no byte: the same book built with ``seriesbook_search_cache`` on and off, step by step
(cold, warm ``-E -a``, an edited page, a removed page, ``-j 2``), writes the same files and the
same warnings. A Latin word whose stem depends on the Latin terms seen before its page (``ops``:
``op`` unless seen) is in two pages, and taken out of the first, so a kept part must be scanned
again because of it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from seriesbook.search.kept_groups import STORE_NAME as GROUPS_NAME
from seriesbook.search.kept_groups import KeptGroups
from seriesbook.search.kept_parts import STORE_NAME as PARTS_NAME
from seriesbook.search.kept_parts import KeptParts, PartsCache, fingerprint
from seriesbook.search.sections import SectionText

ROOT = Path(__file__).parent / "roots" / "test-search-ranking"
OPS = "\n算子 ops 的调度在这里。\n"
JIEBA = ("Building prefix dict", "Loading model", "Prefix dict", "Dumping model", "Dump cache")


def _build(book: Path, *options: str, cache: bool = True) -> str:
    command = [
        sys.executable, "-m", "sphinx", "-b", "html", "-q", *options,
        "-D", f"seriesbook_search_cache={int(cache)}",
        str(book), str(book / "_build" / "html"), "-d", str(book / "_build" / "doctrees"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return "".join(
        line.replace(str(book), "BOOK")
        for line in done.stderr.splitlines(keepends=True)
        if not line.startswith(JIEBA)  # jieba's own progress and timings (a cold segmenter)
    )


def _files(book: Path) -> dict[str, bytes]:
    html = book / "_build" / "html"
    return {
        str(path.relative_to(html)): path.read_bytes()
        for path in sorted(html.rglob("*"))
        if path.is_file() and path.name != ".buildinfo"  # holds the hash of the config
    }


def _edit(book: Path, name: str, old: str, new: str) -> None:
    page = book / name
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")


def _same(kept: Path, plain: Path, *options: str) -> None:
    warnings = _build(kept, *options), _build(plain, *options, cache=False)
    assert warnings[0] == warnings[1]
    ours, theirs = _files(kept), _files(plain)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []


def _depends(doctrees: Path, page: str) -> tuple[tuple[str, bool], ...]:
    (entry,) = PartsCache.open(doctrees).pages[page].values()
    return entry.depends


@pytest.mark.slow  # twelve builds of a small book
def test_kept_search_work_writes_the_same_bytes(tmp_path: Path) -> None:
    kept, plain = tmp_path / "kept", tmp_path / "plain"
    for book in (kept, plain):
        shutil.copytree(ROOT, book)
        for name in ("ch01.md", "ch02.md"):
            (book / name).write_text((book / name).read_text("utf-8") + OPS, "utf-8")
    _same(kept, plain)  # cold
    doctrees = kept / "_build" / "doctrees"
    assert (doctrees / PARTS_NAME).is_file() and (doctrees / GROUPS_NAME).is_file()
    assert not (plain / "_build" / "doctrees" / PARTS_NAME).exists()
    assert _depends(doctrees, "ch02") == (("ops", True),)  # ch01 was indexed first
    _same(kept, plain, "-E", "-a")  # warm: every part, text and group kept
    for book in (kept, plain):  # one page edited: ops no longer seen before ch02
        _edit(book, "ch01.md", OPS, "\n算子的调度在这里，碎片整理也是。\n")
    _same(kept, plain)
    _same(kept, plain, "-E", "-a")  # ch02's kept part depended on ops: scanned again
    assert _depends(doctrees, "ch02") == (("ops", False),)
    for book in (kept, plain):  # a page removed
        (book / "notes.md").unlink()
        _edit(book, "index.md", "notes\n", "")
    _same(kept, plain)
    assert set(PartsCache.open(doctrees).pages) == {"ch01", "ch02"}  # index: no §
    _same(kept, plain, "-E", "-a", "-j", "2")
    one = _files(kept)
    _build(kept, "-E", "-a")
    assert _files(kept) == one  # -j 2 and -j 1 alike


def test_a_kept_part_is_used_only_while_its_stems_would_come_out_alike(tmp_path: Path) -> None:
    from seriesbook.search.zh import SearchChinese

    lang = SearchChinese({})
    texts = (("", ("它的 ops 很多",), False),)
    cache = PartsCache(tmp_path / PARTS_NAME, ("test",))
    unseen = cache.parts("p", texts, lang)
    assert "op" in unseen[0].keys
    assert cache.lookup[fingerprint(texts)].depends == (("ops", False),)
    lang.latin_terms.add("ops")  # seen as a Latin term before the page: the stem is the word
    seen = cache.parts("p", texts, lang)
    assert "ops" in seen[0].keys and "op" not in seen[0].keys
    stale = KeptParts((("ops", False),), (SectionText("", 1, ("stale",)),))
    cache.lookup[fingerprint(texts)] = stale
    assert cache.parts("p", texts, lang) == seen  # the kept entry no longer applies


def test_a_damaged_group_store_is_an_empty_one(tmp_path: Path) -> None:
    (tmp_path / GROUPS_NAME).write_bytes(b"not a pickle")
    kept = KeptGroups.open(tmp_path)
    assert kept.groups == {} and kept.variants is None
    assert kept.group(("input",), lambda: "packed") == "packed" and kept.misses == 1
    kept.save()
    again = KeptGroups.open(tmp_path)
    assert again.group(("input",), lambda: "other") == "packed" and again.hits == 1


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=0x80), min_size=1, max_size=12))
def test_a_word_without_ascii_is_its_own_english_stem(word: str) -> None:
    from seriesbook.search.zh import ASCII, SearchChinese

    lang = SearchChinese({})
    lowered = word.lower()
    assume(ASCII.search(lowered) is None)
    assert lang.stemmer.stemWord(lowered) == lowered == lang.stem(word)


@pytest.mark.parametrize("word", ["缓存分配器", "ΣΟΦΙΑ", "Straße", "ÉTÉ", "İstanbul", "\u212a"])
def test_stems_come_out_as_the_stemmer_gives_them(word: str) -> None:
    from seriesbook.search.zh import SearchChinese

    lang = SearchChinese({})
    assert lang.stem(word) == lang.stemmer.stemWord(word.lower())


def test_the_variants_table_is_made_again_when_its_input_differs(tmp_path: Path) -> None:
    made: list[int] = []

    def make(is_term: Callable[[str], bool]) -> dict[str, Any]:
        made.append(1)
        return {"asked": is_term("缓存")}

    terms = {"缓存"}
    kept = KeptGroups(tmp_path / GROUPS_NAME)
    first = kept.table(frozenset("缓存"), ("v1",), terms.__contains__, make)
    kept.group(("g",), lambda: "g")
    kept.save()
    again = KeptGroups.open(tmp_path)
    assert again.table(frozenset("缓存"), ("v1",), terms.__contains__, make) == first
    assert len(made) == 1  # same characters, source and answers: kept
    assert again.table(frozenset("缓存"), ("v2",), terms.__contains__, make) == first
    assert len(made) == 2  # another OpenCC
    assert again.table(frozenset("缓存"), ("v1",), set().__contains__, make) == {"asked": False}
    assert len(made) == 3  # the index answers otherwise
