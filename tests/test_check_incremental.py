"""``seriesbook check`` keeps its environment in _build/check/ and answers as a fresh check does.

One copy of the book is checked after every edit with its kept environment, another copy, with
the same edits, afresh; the answers must be equal line for line, and the kept check must re-read
only what the edit changed. The book has problems of every phase: found while reading
(a missing cited file, verified right after reading), while resolving (an unresolved §), and in
the consistency checks (§ order, chapter gates).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from seriesbook.commands import kept
from seriesbook.commands.cli import main
from seriesbook.commands.reading import Reported
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

Edit = Callable[[Path], None]


def _replace(name: str, old: str, new: str) -> Edit:
    def edit(book: Path) -> None:
        path = book / name
        text = path.read_text(encoding="utf-8")
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _append(name: str, text: str) -> Edit:
    def edit(book: Path) -> None:
        with (book / name).open("a", encoding="utf-8") as file:
            file.write(text)

    return edit


def _remove(name: str) -> Edit:
    def edit(book: Path) -> None:
        (book / name).unlink()

    return edit


# (edits, the documents a kept check must re-read, and those it must resolve again; None: all)
# A page is resolved again when it is re-read, when a re-read page is in its toctree (index),
# when anything its references can reach changed, or when a reference of it left the book last
# time (ch03's unresolved §); the others' resolving problems are replayed.
STEPS: list[tuple[list[Edit], set[str] | None, set[str] | None]] = [
    ([], set(), {"ch03"}),
    # a new citation: the citations' data changed, so every page is resolved again
    ([_append("ch01.md", "\n新的一段引用 `pkg/gone.py:1`。\n")], {"ch01"}, None),
    # ch01 and ch03 keep their reading problems although only ch02 is re-read; only text changed
    ([_append("ch02.md", "\n又一段。\n")], {"ch02"}, {"ch02", "ch03", "index"}),
    # a paragraph inserted above a § heading moves its line, not what links to it resolve to
    ([_replace("ch02.md", "## §2.1 概览", "插入的一段。\n\n## §2.1 概览")], {"ch02"},
     {"ch02", "ch03", "index"}),
    ([_replace("ch03.md", "`pkg/missing.py:3`", "`pkg/engine.py:3`")], {"ch03"}, None),
    # § links change meaning: the referrer ch01 is resolved again, not re-read
    ([_replace("ch02.md", "## §2.1 概览", "## §2.3 概览")], {"ch02"}, None),
    ([_replace("ch02.md", "## §2.3 概览", "## §2.1 概览")], {"ch02"}, None),
    # a changed conf.py: Sphinx would not re-read for suppress_warnings; the check reads afresh
    ([_append("conf.py", '\nsuppress_warnings = ["seriesbook.cite-missing-file"]\n')], None, None),
    ([_replace("index.md", "ch03\n", ""), _remove("ch03.md")], {"index"}, None),
]


def _check(book: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    status = main(["check", str(book)])
    lines = capsys.readouterr().out.replace(str(book), "<book>").splitlines()
    assert status == (1 if lines else 0)
    return lines


def test_kept_check_answers_as_a_fresh_check(
    tmp_path: Path,
    rootdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept_book, fresh_book = tmp_path / "kept", tmp_path / "fresh"
    for book in (kept_book, fresh_book):
        shutil.copytree(rootdir / "test-check-incremental", book)
    read: list[str] = []
    reading = kept.ReadProblems._reading

    def note_reading(
        self: kept.ReadProblems, app: Sphinx, env: BuildEnvironment, docnames: list[str]
    ) -> None:
        read.extend(docnames)
        reading(self, app, env, docnames)

    monkeypatch.setattr(kept.ReadProblems, "_reading", note_reading)
    resolved: list[set[str]] = []
    replayed = kept.KeptResolution.replayed

    def note_resolved(self: kept.KeptResolution) -> list[Reported]:
        resolved.append(set(self.now))
        return replayed(self)

    monkeypatch.setattr(kept.KeptResolution, "replayed", note_resolved)
    assert _check(kept_book, capsys) == _check(fresh_book, capsys)  # the first, fresh
    assert (kept.check_dir(kept_book, None) / kept.STAMP).is_file()
    seen = set()
    for edits, rereads, resolves in STEPS:
        for edit in edits:
            edit(kept_book)
            edit(fresh_book)
        shutil.rmtree(fresh_book / "_build")
        read.clear()
        answer = _check(kept_book, capsys)
        documents = {p.stem for p in kept_book.glob("*.md")}
        assert set(read) == (documents if rereads is None else rereads)
        assert resolved[-1] == (documents if resolves is None else resolves)
        assert answer == _check(fresh_book, capsys)
        seen |= {line.split(": ")[1] for line in answer}
    assert {"cite-missing-file", "sec-unresolved", "sec-order", "gate-han"} <= seen


def test_the_resolution_digest_sees_contents_not_order_or_sharing() -> None:
    """The digest must not change when an incremental read re-inserts a page's entries at the
    end of a dict, nor across a pickle round trip (which changes which equal objects are
    shared), and must change when any value does."""
    import hashlib
    import pickle

    from docutils import nodes

    def digest(value: object) -> str:
        sha = hashlib.sha256()
        kept._feed(sha, value)
        return sha.hexdigest()

    title = nodes.title("", "", nodes.Text("第1章 引擎"))
    data = {"labels": {"a": ("ch01", "sec-1-1", "运行"), "b": ("ch02", "sec-2-1", "概览")},
            "found": {"ch01", "ch02"}, "titles": {"ch01": title}}
    reordered = {"titles": {"ch01": title.deepcopy()}, "found": {"ch02", "ch01"},
                 "labels": {"b": ("ch02", "sec-2-1", "概览"), "a": ("ch01", "sec-1-1", "运行")}}
    assert digest(data) == digest(reordered) == digest(pickle.loads(pickle.dumps(data)))
    changed = pickle.loads(pickle.dumps(data))
    changed["labels"]["b"] = ("ch02", "sec-2-1", "总览")
    assert digest(changed) != digest(data)
    renamed = pickle.loads(pickle.dumps(data))
    renamed["titles"]["ch01"][0].parent.children[0] = nodes.Text("第1章 引擎与调度")
    assert digest(renamed) != digest(data)
    long = nodes.title("", "", nodes.Text("第1章 " + "引擎" * 40 + "的结尾"))
    longer = nodes.title("", "", nodes.Text("第1章 " + "引擎" * 40 + "的新结尾"))
    assert digest({"titles": {"ch01": long}}) != digest({"titles": {"ch01": longer}})


def test_problems_of_no_page_are_answered_again_and_a_moved_copy_reads_afresh(
    tmp_path: Path, rootdir: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bad ``--source`` or an unusable copy is judged while citations are verified, which a
    run that re-reads nothing does not do: the kept check must still report it; and pointing
    ``$SERIESBOOK_SOURCE_DEMO`` elsewhere (not in conf.py) must not keep the old verdicts."""
    kept_book, fresh_book = tmp_path / "kept", tmp_path / "fresh"
    for book in (kept_book, fresh_book):
        shutil.copytree(rootdir / "test-check-incremental", book)

    def check(book: Path, *args: str) -> list[str]:
        status = main(["check", str(book), *args])
        lines = capsys.readouterr().out.replace(str(book), "<book>").splitlines()
        assert status == (1 if lines else 0)
        return lines

    def fresh(*args: str) -> list[str]:
        shutil.rmtree(fresh_book / "_build", ignore_errors=True)
        return check(fresh_book, *args)

    bad = ("--source", "nosuch=/nowhere")
    first = check(kept_book, *bad)
    assert any("no source 'nosuch' in conf.py" in line for line in first)
    assert check(kept_book, *bad) == first == fresh(*bad)  # nothing re-read the second time

    monkeypatch.setenv("SERIESBOOK_SOURCE_DEMO", str(tmp_path / "no-copy-here"))
    moved = fresh()
    assert any("cite-source" in line for line in moved)
    assert check(kept_book) == moved
    assert check(kept_book) == moved


def test_check_reads_with_its_own_registered_builder(tmp_path: Path) -> None:
    """Guard: a kept check resolves through ``CheckBuilder``'s overrides (the public builder
    API), not methods swapped on Sphinx's builder; a run where Sphinx re-reads nothing still
    resolves what the resolution chooses (``finish``), as the first step above shows."""
    from seriesbook.commands.checker import CheckBuilder
    from seriesbook.commands.reading import read_book

    book = tmp_path / "book"
    shutil.copytree(Path(__file__).parent / "roots" / "test-check-incremental", book)
    with read_book(book, book, keep=True) as run:
        builder = run.app.builder
        assert type(builder) is CheckBuilder and builder.name == "seriesbook-check"
        assert builder.resolution is not None
        assert not {"get_outdated_docs", "prepare_writing", "write_documents"} & set(vars(builder))
