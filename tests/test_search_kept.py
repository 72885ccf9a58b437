"""The search's kept work (each page's record and split texts, the § postings, the index as last
written, the variants table) changes no byte: the same book built with
``seriesbook_search_cache`` on and off, step by step (cold, warm ``-E -a``, an edited page, a
renamed title, a removed page, ``-j 2``, another theme, another language), writes the same files
and the same warnings. A Latin word whose stem depends on the Latin terms seen before its page
(``ops``: ``op`` unless seen) is in two pages, and taken out of the first, so a kept record
must be made again because of it.
"""

from __future__ import annotations

import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from seriesbook.search.compact import _variants
from seriesbook.search.pages import _hold, scan
from seriesbook.search.store import FORMER_NAMES, STORE_NAME, PageRecord, SearchStore

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
        if path.is_file() and not path.name.startswith(".buildinfo")  # the config's hash
    }


def _edit(book: Path, name: str, old: str, new: str) -> None:
    page = book / name
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")


def _verbose(book: Path, *options: str) -> str:
    """What a build says with ``-v`` (the search's count of kept and indexed pages)."""
    command = [
        sys.executable, "-m", "sphinx", "-b", "html", "-v", *options,
        str(book), str(book / "_build" / "html"), "-d", str(book / "_build" / "doctrees"),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _same(kept: Path, plain: Path, *options: str) -> None:
    warnings = _build(kept, *options), _build(plain, *options, cache=False)
    assert warnings[0] == warnings[1]
    ours, theirs = _files(kept), _files(plain)
    assert sorted(ours) == sorted(theirs)
    assert [name for name in ours if ours[name] != theirs[name]] == []


def stored(doctrees: Path) -> dict[str, Any]:
    """The store's file as written (each page's entries still pickled)."""
    with (doctrees / STORE_NAME).open("rb") as stream:
        loaded: dict[str, Any] = pickle.load(stream)
    return loaded


def records(doctrees: Path) -> dict[str, PageRecord | None]:
    return {
        name: pickle.loads(page.record) if page.record else None
        for name, page in stored(doctrees)["pages"].items()
    }


@pytest.mark.slow  # twenty builds of a small book
def test_kept_search_work_writes_the_same_bytes(tmp_path: Path) -> None:
    kept, plain = tmp_path / "kept", tmp_path / "plain"
    for book in (kept, plain):
        shutil.copytree(ROOT, book)
        for name in ("ch01.md", "ch02.md"):
            (book / name).write_text((book / name).read_text("utf-8") + OPS, "utf-8")
    _same(kept, plain)  # cold
    doctrees = kept / "_build" / "doctrees"
    assert set(records(doctrees)) == {"index", "ch01", "ch02", "notes"}
    assert not any(records(plain / "_build" / "doctrees").values())  # § parts only
    ch02 = records(doctrees)["ch02"]
    assert ch02 is not None and ch02.parts_depend == (("ops", True),)  # ch01 came first
    assert ch02.entry is not None and "ops" in ch02.entry.word_keys
    _same(kept, plain, "-E", "-a")  # warm: every page from its record
    assert "4 pages kept, 0 indexed" in _verbose(kept, "-E", "-a")
    for book in (kept, plain):  # one page edited: ops no longer seen before ch02
        _edit(book, "ch01.md", OPS, "\n算子的调度在这里，碎片整理也是。\n")
    _same(kept, plain)
    _same(kept, plain, "-E", "-a")  # ch02's record depended on ops: made again
    ch02 = records(doctrees)["ch02"]
    assert ch02 is not None and ch02.parts_depend == (("ops", False),)
    for book in (kept, plain):  # a renamed title, then a page with another § layout
        _edit(book, "ch02.md", "# 第2章", "# 第2章（修订）")
    _same(kept, plain)
    for book in (kept, plain):
        _edit(book, "ch01.md", "## §1.4 碎片整理", "碎片整理")
    _same(kept, plain)
    for book in (kept, plain):  # a page removed
        (book / "notes.md").unlink()
        _edit(book, "index.md", "notes\n", "")
    _same(kept, plain)
    assert set(records(doctrees)) == {"index", "ch01", "ch02"}
    _same(kept, plain, "-E", "-a", "-j", "2")
    one = _files(kept)
    _build(kept, "-E", "-a")
    assert _files(kept) == one  # -j 2 and -j 1 alike
    _same(kept, plain, "-D", "html_theme=alabaster")  # another theme: every page written
    _same(kept, plain, "-E", "-D", "language=en")  # another language, its titles kept apart
    _same(kept, plain, "-E")


def test_the_former_files_go_when_the_store_is_written(tmp_path: Path) -> None:
    for name in FORMER_NAMES:
        (tmp_path / name).write_bytes(b"old")
    store = SearchStore.open(tmp_path, None)
    store.save(set())
    assert (tmp_path / STORE_NAME).is_file()
    assert not any((tmp_path / name).exists() for name in FORMER_NAMES)


def test_a_scanned_page_notes_the_stems_that_depend_on_the_latin_terms() -> None:
    from seriesbook.search.zh import SearchChinese

    lang = SearchChinese({})
    texts = (("", ("它的 ops 很多",), False),)
    unseen = scan(texts, lang)
    assert "op" in unseen.parts[0].keys and unseen.depends == (("ops", False),)
    lang.latin_terms.add("ops")  # seen as a Latin term before the page: the stem is the word
    seen = scan(texts, lang)
    assert "ops" in seen.parts[0].keys and "op" not in seen.parts[0].keys
    assert seen.depends == (("ops", True),)
    assert _hold(seen.depends, lang.latin_terms) and not _hold(unseen.depends, lang.latin_terms)
    assert _hold(unseen.depends, set()) and _hold(seen.depends, set(), {"ops"})


def test_a_damaged_store_is_an_empty_one(tmp_path: Path) -> None:
    (tmp_path / STORE_NAME).write_bytes(b"not a pickle")
    store = SearchStore.open(tmp_path, lambda: ("key",))
    assert store.record("ch01") is None and store.parts("ch01") == ()
    assert store.kept_index("digest") is None and store.kept_variants() is None
    store.save({"ch01"})
    assert stored(tmp_path)["pages"] == {}


def test_records_of_another_key_are_dropped_and_the_parts_kept(tmp_path: Path) -> None:
    from seriesbook.search.sections import SectionText

    parts = (SectionText("", 3, ("缓存",)),)
    record = PageRecord("digest", (), (), {}, ())
    store = SearchStore.open(tmp_path, lambda: ("one",))
    store.put("ch01", parts, record, {"缓存": ("缓存", "")})
    store.save({"ch01"})
    again = SearchStore.open(tmp_path, lambda: ("one",))
    assert again.record("ch01") == record and again.splits("ch01") == {"缓存": ("缓存", "")}
    other = SearchStore.open(tmp_path, lambda: ("two",))  # jieba or its dictionary changed
    assert other.record("ch01") is None and other.splits("ch01") == {}
    assert other.parts("ch01") == parts  # the § of a page not written again are still known
    other.save({"ch01"})
    assert not stored(tmp_path)["pages"]["ch01"].record
    off = SearchStore.open(tmp_path, None)
    assert off.parts("ch01") == parts


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


def test_the_variants_table_is_made_again_when_its_input_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from seriesbook.search import compact

    made: list[int] = []

    def table_for(
        book: frozenset[str], is_term: Callable[[str], bool], traditional: bool
    ) -> tuple[dict[str, str], dict[str, str]]:
        made.append(1)
        return {}, ({"緩存": "缓存"} if is_term("缓存") else {})

    monkeypatch.setattr(compact, "table_for", table_for)
    data: dict[str, Any] = {"terms": {"缓存": 0}, "titleterms": {}, "alltitles": {}}
    store = SearchStore.open(tmp_path, lambda: ("key",))
    first = _variants(data, False, store)
    store.save(set())
    again = SearchStore.open(tmp_path, lambda: ("key",))
    assert _variants(data, False, again) == first
    assert len(made) == 1  # same characters, source and answers: kept
    opencc = compact.source
    monkeypatch.setattr(compact, "source", lambda traditional: ("another OpenCC",))
    assert _variants(data, False, again) == first
    assert len(made) == 2
    monkeypatch.setattr(compact, "source", opencc)
    data["terms"] = {"缓存": 0, "存器": 1}
    assert _variants(data, False, again) == first
    assert len(made) == 3  # other characters
    again = SearchStore.open(tmp_path, lambda: ("key",))
    data["terms"], data["titleterms"] = {"存": 1}, {"缓": 0}  # the pair is no longer a term
    assert _variants(data, False, again)["phrases"] == {}
    assert len(made) == 4  # the same characters, another answer


@pytest.mark.slow  # four builds of a small book
def test_a_store_lost_has_every_page_written_again(tmp_path: Path) -> None:
    """Without the § parts of the pages an incremental build does not write (the store of an
    earlier format, or none), every page is read and written again: the index is a clean
    build's."""
    book, fresh = tmp_path / "book", tmp_path / "fresh"
    shutil.copytree(ROOT, book)
    _build(book)
    (book / "_build" / "doctrees" / STORE_NAME).write_bytes(b"an earlier format")
    _edit(book, "ch02.md", "# 第2章", "# 第2章（修订）")
    _build(book)
    shutil.copytree(book, fresh, ignore=shutil.ignore_patterns("_build"))
    _build(fresh)
    index = "searchindex.js"
    assert _files(book)[index] == _files(fresh)[index]


def test_builds_in_one_process_keep_nothing_of_each_other(tmp_path: Path) -> None:
    """One application building again and again (``seriesbook serve``) writes the index each
    build writes without the cache, also after the index was removed between two (a build
    that loaded none)."""
    from sphinx.testing.util import SphinxTestApp

    def builds(book: Path, cache: bool) -> list[bytes]:
        shutil.copytree(ROOT, book)
        app = SphinxTestApp("html", srcdir=book, confoverrides={"seriesbook_search_cache": cache})
        index = Path(app.outdir) / "searchindex.js"
        written = []
        try:
            app.build()
            written.append(index.read_bytes())
            _edit(book, "ch02.md", "# 第2章", "# 第2章（修订）")
            app.build()
            written.append(index.read_bytes())
            index.unlink()
            _edit(book, "ch01.md", "# 第1章", "# 第1章（修订）")
            app.build()
            written.append(index.read_bytes())
            app.build()  # nothing changed: the index is loaded and written again
            written.append(index.read_bytes())
        finally:
            app.cleanup()
        return written

    assert builds(tmp_path / "kept", True) == builds(tmp_path / "plain", False)


def test_a_warm_process_reads_only_the_edited_page_after_its_first_build(tmp_path: Path) -> None:
    """``seriesbook serve`` builds one application again and again, the first time with no
    store: once that build has saved every page's § parts, an edit reads that page alone (the
    store loaded before the first build said "none", and every later build read every page)."""
    from sphinx.testing.util import SphinxTestApp

    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    app = SphinxTestApp("html", srcdir=book)
    read: list[list[str]] = []
    app.connect("env-before-read-docs", lambda app, env, docnames: read.append(sorted(docnames)))
    try:
        app.build()
        _edit(book, "ch02.md", "# 第2章", "# 第2章（修订）")
        app.build()
    finally:
        app.cleanup()
    assert len(read[0]) > 2
    assert read[1] == ["ch02"]
