"""Rewrites you can trust blind (issue 24): hostile inputs for ``renumber``, ``repin`` and the
shared write layer. Each test fails before the change it names."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from seriesbook.commands.cli import main
from seriesbook.commands.rewrite import Plan, PlanError, entry_span, literal_span, read_text

ROOT = Path(__file__).parent / "roots"
PO_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _book(tmp_path: Path, files: dict[str, str]) -> Path:
    book = tmp_path / "book"
    for name, text in files.items():
        path = book / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return book


def _authored(book: Path) -> dict[str, bytes]:
    return {str(p.relative_to(book)): p.read_bytes() for p in sorted(book.rglob("*"))
            if p.is_file() and "_build" not in p.relative_to(book).parts}


CONF = '''extensions = ["seriesbook"]
exclude_patterns = ["_build", "locale"]
language = "zh_CN"
release = "2.0"
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_editions = ["zh_CN", "en"]
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
'''
INDEX = "# 书\n\n```{toctree}\nch01\nch02\n```\n"


def _small(tmp_path: Path, **files: str) -> Path:
    base = {
        "conf.py": CONF, "index.md": INDEX,
        "ch01.md": "# 第1章 张量\n\n## §1.1 存储\n\n## §1.2 视图\n\n见 §1.2。\n",
        "ch02.md": "# 第2章 调度\n\n## §2.1 键集\n\n参见 §1.2。\n",
    }
    return _book(tmp_path, base | {k.replace("__", "/").replace("_dot_", "."): v
                                   for k, v in files.items()})



def _immutable(directory: Path) -> Iterator[None]:
    """Make *directory* unwritable even for root (tests run as root here and in CI): chmod for
    other users, ``chattr +i`` for root (ext4 and friends); skip where neither takes."""
    os.chmod(directory, 0o555)
    probe = directory / ".probe"
    flagged = False
    try:
        probe.touch()
    except OSError:
        pass
    else:
        probe.unlink()
        chattr = shutil.which("chattr")
        done = chattr and subprocess.run([chattr, "+i", str(directory)],
                                         capture_output=True).returncode == 0
        if not done:
            os.chmod(directory, 0o755)
            pytest.skip("no way to make a directory unwritable for this user here")
        flagged = True
    try:
        yield
    finally:
        if flagged:
            subprocess.run(["chattr", "-i", str(directory)], check=True)
        os.chmod(directory, 0o755)


def _stale_book(tmp_path: Path) -> Path:
    """§1.1 was deleted: §1.2 and §1.3 are left, and §1.1 is still mentioned (in prose, in a
    {sec} role, in a translation)."""
    return _small(
        tmp_path,
        ch01_dot_md="# 第1章 张量\n\n## §1.2 视图\n\n见 §1.3。\n\n## §1.3 步长\n\n"
                    "旧的 §1.1 已删。\n",
        ch02_dot_md="# 第2章 调度\n\n## §2.1 键集\n\n参见 {sec}`1.1` 与 §1.2。\n",
        locale__en__LC_MESSAGES__ch01_dot_po=PO_HEAD
        + 'msgid "旧的 §1.1 已删。"\nmsgstr "The old §1.1 is gone."\n',
    )


def test_a_deleted_sections_mentions_are_reported_on_every_run_until_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _stale_book(tmp_path)
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    report = json.loads(out)
    assert status == 1 and report["map"] == {"1.2": "1.1", "1.3": "1.2"}
    stale = {(s["file"], s["line"], s["number"]) for s in report["stale"]}
    po = "locale/en/LC_MESSAGES/ch01.po"
    assert stale == {("ch01.md", 9, "1.1"), ("ch02.md", 5, "1.1"), (po, 5, "1.1"), (po, 6, "1.1")}

    status, out, _ = _run(capsys, "renumber", str(book), "--write")
    assert status == 1, out  # written, and the stale mentions are still to edit
    assert "## §1.1 视图" in read_text(book / "ch01.md")
    assert "旧的 §1.1 已删。" in read_text(book / "ch01.md")  # left as written
    history = json.loads(read_text(book / "seriesbook-renumbered.json"))
    assert {p["file"] for p in history["renumberings"][-1]["pending"]} == {
        "ch01.md", "ch02.md", "locale/en/LC_MESSAGES/ch01.po"}

    for _ in range(2):  # every later run, until edited
        status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
        report = json.loads(out)
        assert status == 1 and report["edits"] == [] and report["stale"] == []
        assert {(p["file"], p["line"]) for p in report["pending"]} == {
            ("ch01.md", 9), ("ch02.md", 5), (po, 5), (po, 6)}
    status, out, _ = _run(capsys, "check", str(book), "--format", "json")
    found = {(Path(p["file"]).name, p["line"]) for p in json.loads(out)["problems"]
             if p["code"] == "sec-stale"}
    assert status == 1 and ("ch01.md", 9) in found and ("ch02.md", 5) in found
    assert ("ch01.po", 5) in found and ("ch01.po", 6) in found

    # a line moved by an edit above it is still found; an edited line is done
    ch01 = book / "ch01.md"
    ch01.write_text("# 第1章 张量\n\n前言。\n\n" + read_text(ch01).split("\n\n", 1)[1],
                    encoding="utf-8")
    report = json.loads(_run(capsys, "renumber", str(book), "--format", "json")[1])
    assert ("ch01.md", 11) in {(p["file"], p["line"]) for p in report["pending"]}
    ch01.write_text(read_text(ch01).replace("旧的 §1.1 已删。", "旧的一节已删。"), encoding="utf-8")
    (book / "ch02.md").write_text(read_text(book / "ch02.md").replace("{sec}`1.1` 与 ", ""),
                                  encoding="utf-8")
    po = book / "locale/en/LC_MESSAGES/ch01.po"
    po.write_text(read_text(po).replace("The old §1.1 is gone.", "The old one is gone.")
                  .replace("旧的 §1.1 已删。", "旧的一节已删。"), encoding="utf-8")  # as update-po
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 0, out
    status, out, _ = _run(capsys, "check", str(book), "--format", "json")
    assert "sec-stale" not in out


def test_pending_mentions_survive_a_second_renumbering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _stale_book(tmp_path)
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    ch01 = book / "ch01.md"  # the author inserts a section: the stale line's §1.1 now moves
    ch01.write_text(read_text(ch01).replace("# 第1章 张量\n", "# 第1章 张量\n\n## § 新\n"),
                    encoding="utf-8")
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    assert "旧的 §1.2 已删。" in read_text(ch01)  # it followed its number
    report = json.loads(_run(capsys, "renumber", str(book), "--format", "json")[1])
    assert {(p["file"], p["number"]) for p in report["pending"]} >= {("ch01.md", "1.2")}


def test_the_history_keeps_what_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _small(tmp_path, ch01_dot_md="# 第1章 张量\n\n## §1.2 视图\n\n见 §1.2。\n")
    history = {"format": 3, "owner": "another tool", "renumberings": [
        {"release": "1.0", "map": {"1.1": "1.2"}, "reviewed_by": "x"},
        {"note": "an entry seriesbook does not know"},
    ]}
    (book / "seriesbook-renumbered.json").write_text(json.dumps(history), encoding="utf-8")
    assert _run(capsys, "renumber", str(book), "--write")[0] == 0
    after = json.loads(read_text(book / "seriesbook-renumbered.json"))
    assert after["format"] == 3 and after["owner"] == "another tool"
    assert after["renumberings"][:2] == history["renumberings"]
    assert after["renumberings"][2]["map"] == {"1.2": "1.1"}


def test_a_symlinked_chapter_is_rewritten_through_its_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _small(tmp_path, ch01_dot_md="# 第1章 张量\n\n## §1.2 视图\n\n见 §1.2。\n")
    shared = tmp_path / "shared" / "ch02.md"
    shared.parent.mkdir()
    shutil.move(book / "ch02.md", shared)
    (book / "ch02.md").symlink_to(shared)
    assert _run(capsys, "renumber", str(book), "--write")[0] == 0
    assert (book / "ch02.md").is_symlink()
    assert read_text(shared) == "# 第2章 调度\n\n## §2.1 键集\n\n参见 §1.1。\n"
    assert read_text(book / "ch01.md").endswith("## §1.1 视图\n\n见 §1.1。\n")
    assert _run(capsys, "renumber", str(book))[0] == 0  # nothing left to do


def _moved(tmp_path: Path) -> Path:
    return _small(
        tmp_path, ch01_dot_md="# 第1章 张量\n\n## §1.2 视图\n\n见 §1.2。\n",
        locale__en__LC_MESSAGES__ch01_dot_po=PO_HEAD + 'msgid "见 §1.2。"\nmsgstr "See §1.2."\n',
    )


def test_an_unwritable_catalog_directory_writes_nothing_and_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _moved(tmp_path)
    before = _authored(book)
    for _ in _immutable(book / "locale/en/LC_MESSAGES"):
        status, _, err = _run(capsys, "renumber", str(book), "--write")
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
        assert "LC_MESSAGES" in err and "nothing written" in err
        assert _authored(book) == before


def test_an_unwritable_history_directory_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _moved(tmp_path)
    conf = tmp_path / "conf"
    conf.mkdir()
    shutil.move(book / "conf.py", conf / "conf.py")
    (conf / "conf.py").write_text(CONF.replace('locale_dirs = ["locale"]',
                                               f'locale_dirs = ["{book}/locale"]'))
    before = _authored(book)
    for _ in _immutable(conf):
        status, _, err = _run(capsys, "renumber", str(book), "-c", str(conf), "--write")
        assert status == 2 and err.count("\n") == 1 and "nothing written" in err
        assert _authored(book) == before
        assert not (conf / "seriesbook-renumbered.json").exists()


def test_a_failed_move_puts_back_every_file_already_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError half-way through the moves (simulated at the write layer: the second
    ``os.replace`` of the step fails) leaves the book as it was: one line, exit 2."""
    book = _moved(tmp_path)
    before = _authored(book)
    real = os.replace
    calls = []

    def failing(source: str, target: str) -> None:
        if "_build" in Path(target).parts:  # Sphinx's own files (the kept environment)
            return real(source, target)
        calls.append(target)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", target)
        real(source, target)

    monkeypatch.setattr(os, "replace", failing)
    status, _, err = _run(capsys, "renumber", str(book), "--write")
    monkeypatch.undo()
    assert status == 2 and err.count("\n") == 1 and "No space left on device" in err
    assert f"{Path(calls[1]).name}: cannot be replaced" in err  # the file that failed
    assert _authored(book) == before
    assert not [p for p in book.rglob(".*.tmp")]


def test_each_file_is_read_again_just_before_it_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("§1.1\n", encoding="utf-8")
    second.write_text("§1.1\n", encoding="utf-8")
    plan = Plan()
    plan.replace(first, 0, 4, "§1.2")
    plan.replace(second, 0, 4, "§1.2")
    real = os.replace

    def meanwhile(source: str, target: str) -> None:  # the author saves b.md right then
        real(source, target)
        second.write_text("§1.1 edited\n", encoding="utf-8")

    monkeypatch.setattr(os, "replace", meanwhile)
    with pytest.raises(PlanError, match="changed since it was read"):
        plan.apply()
    monkeypatch.undo()
    assert read_text(first) == "§1.1\n" and read_text(second) == "§1.1 edited\n"


@pytest.mark.parametrize("breaker", ["\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_conf_spans_count_lines_as_python_does(breaker: str) -> None:
    """``str.splitlines`` splits at these, Python does not: the span must not shift."""
    text = (f"# a comment{breaker}with a break\n"
            f"title = 'a{breaker}b'\n"
            'seriesbook_sources = {"pytorch": {"ref": "v2.11.0"}}  # “引号”\n')
    start, end = literal_span(text, "seriesbook_sources", "pytorch", "ref") or (0, 0)
    assert text[start:end] == '"v2.11.0"'


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_conf_spans_with_any_line_ending(newline: str) -> None:
    text = newline.join(["# 注释", "x = 1", 'seriesbook_sources = {"pytorch": {',
                         '    "ref": "v2.11.0"}}', ""])
    start, end = literal_span(text, "seriesbook_sources", "pytorch", "ref") or (0, 0)
    assert text[start:end] == '"v2.11.0"'


@pytest.mark.parametrize("later", [
    'seriesbook_sources["pytorch"]["ref"] = "v2.12.0"',
    'seriesbook_sources.update(other)',
    'sources = seriesbook_sources\nsources["pytorch"]["ref"] = "x"',
    'if True:\n    seriesbook_sources = {"pytorch": {"ref": "y"}}',
    'from settings import *',
    'globals()["seriesbook_sources"] = {}',
])
def test_a_conf_value_changed_later_is_left_for_the_author(later: str) -> None:
    text = f'seriesbook_sources = {{"pytorch": {{"ref": "v2.11.0"}}}}\n{later}\n'
    assert literal_span(text, "seriesbook_sources", "pytorch", "ref") is None


def test_the_conf_key_that_takes_effect_is_the_last_one() -> None:
    text = 'seriesbook_sources = {"pytorch": {"ref": "v1", "ref": "v2.11.0"}}\n'
    start, end = literal_span(text, "seriesbook_sources", "pytorch", "ref") or (0, 0)
    assert text[start:end] == '"v2.11.0"'


# --- repin -------------------------------------------------------------------------------------

def test_a_block_found_twice_in_the_new_release_is_lost_never_a_guess(tmp_path: Path) -> None:
    from seriesbook.commands.repin._map import Cited, Mapper, Status
    from seriesbook.commands.repin._trees import open_pair

    block = ["def unique_helper_name(value):", "    return value * 2"]
    old = ["import os", "", *block, "", "X = 1"]
    moved_twice = ["import os", "", "X = 2", "", "# one", *block, "", "# two", *block]
    inserted_copy = ["import os", "import sys", "", *block, "", "X = 1", "", *block]
    for new in (moved_twice, inserted_copy):
        before, after = tmp_path / "old", tmp_path / "new"
        for root, lines in ((before, old), (after, new)):
            shutil.rmtree(root, ignore_errors=True)
            (root / "pkg").mkdir(parents=True)
            (root / "pkg/mod.py").write_text("\n".join(lines) + "\n")
        pair = open_pair(before, "v1", "", after, "v2", "")
        try:
            result = Mapper(pair).map(Cited("pkg/mod.py", 3, 4))
        finally:
            pair.close()
        assert result.status is Status.LOST and "2 times" in result.reason, result


@pytest.fixture
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import test_repin

    return test_repin.releases.__wrapped__(tmp_path_factory)  # type: ignore[attr-defined]


def _repin(srcdir: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str],
           *extra: str) -> tuple[int, str, str]:
    return _run(capsys, "repin", str(srcdir), "--source", f"demo={releases['git']}",
                "--to", "demo=v2.0", *extra)


def _repin_book(tmp_path: Path, conf: str = "") -> Path:
    srcdir = tmp_path / "book"
    shutil.copytree(ROOT / "test-repin", srcdir)
    if conf:
        path = srcdir / "conf.py"
        path.write_text(path.read_text() + conf)
    return srcdir


def test_an_unwritable_lock_directory_writes_nothing(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = _repin_book(tmp_path, 'seriesbook_lock_file = "lock/citations.lock.json"\n')
    (srcdir / "lock").mkdir()
    before = _authored(srcdir)
    for _ in _immutable(srcdir / "lock"):
        status, _, err = _repin(srcdir, releases, capsys, "--write")
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "nothing written" in err and "lock" in err
        assert _authored(srcdir) == before  # the chapters, catalogs and conf.py put back
    assert _repin(srcdir, releases, capsys)[0] == 1  # still all to do


def test_a_ref_changed_later_in_conf_stops_the_write_with_nothing_written(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = _repin_book(tmp_path, 'seriesbook_sources["demo"]["ref"] = "v1.0"\n')
    before = _authored(srcdir)
    status, out, _ = _repin(srcdir, releases, capsys)
    assert status == 1 and "edit by hand" in out
    status, _, err = _repin(srcdir, releases, capsys, "--write")
    assert status == 2 and err.count("\n") == 1 and "nothing written: conf.py:" in err
    assert _authored(srcdir) == before


@pytest.mark.parametrize("breaker", ["\x0c", "\u2028", "\x85"])
def test_a_line_break_python_does_not_count_leaves_conf_valid(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str], breaker: str
) -> None:
    srcdir = _repin_book(tmp_path)
    conf = srcdir / "conf.py"
    text = conf.read_text().replace("seriesbook_sources = {",
                                    f"# 源{breaker}码\nseriesbook_sources = {{")
    conf.write_text(text)
    _repin(srcdir, releases, capsys, "--write")
    after = conf.read_text()
    compile(after, "conf.py", "exec")
    assert after == text.replace('"ref": "v1.0"', '"ref": "v2.0"')


def test_a_heading_not_written_as_read_is_reported_never_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _small(tmp_path, ch01_dot_md="# 第1章 张量\n\n## §1\\.2 视图\n\n正文。\n")
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    report = json.loads(out)
    assert status == 1 and report["map"] == {"1.2": "1.1"}
    assert {"file": "ch01.md", "line": 3, "text": "heading §1.2 → §1.1"} in report["unlocated"]
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1


# --- chapters ----------------------------------------------------------------------------------

def _chapters(tmp_path: Path, new_title: str) -> Path:
    return _small(
        tmp_path,
        index_dot_md="# 书\n\n```{toctree}\nch01\nnew\nch02\n```\n",
        ch01_dot_md="# 第1章 张量\n\n## §1.1 存储\n\n见第2章与 §2.1，代码 `第2章` 不动。\n",
        new_dot_md=f"# {new_title} 新章\n\n## § 新的一节\n\n下一章是第2章。\n",
        ch02_dot_md="# 第2章 调度\n\n## §2.1 键集\n\n回到第1章。\n",
        locale__en__LC_MESSAGES__ch02_dot_po=PO_HEAD
        + 'msgid "第2章 调度"\nmsgstr "Chapter 2 Dispatch"\n\n'
        + 'msgid "§2.1 键集"\nmsgstr "§2.1 Key sets"\n',
        locale__en__LC_MESSAGES__ch01_dot_po=PO_HEAD
        + 'msgid "见第2章与 §2.1，代码 `第2章` 不动。"\n'
        + 'msgstr "See Chapter 2 and §2.1; code `第2章` stays."\n',
    )


def test_an_inserted_chapter_renumbers_the_chapters_after_it_and_their_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _chapters(tmp_path, "第99章")
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    report = json.loads(out)
    assert status == 1 and report["chapters"] == {"99": "2", "2": "3"}
    assert report["map"] == {"2.1": "3.1"}
    assert _run(capsys, "renumber", str(book), "--write")[0] == 0
    assert read_text(book / "new.md") == "# 第2章 新章\n\n## §2.1 新的一节\n\n下一章是第3章。\n"
    assert read_text(book / "ch02.md") == "# 第3章 调度\n\n## §3.1 键集\n\n回到第1章。\n"
    assert "见第3章与 §3.1，代码 `第2章` 不动。" in read_text(book / "ch01.md")
    po = read_text(book / "locale/en/LC_MESSAGES/ch02.po")
    assert 'msgid "第3章 调度"\nmsgstr "Chapter 3 Dispatch"' in po
    assert 'msgid "§3.1 键集"\nmsgstr "§3.1 Key sets"' in po
    po = read_text(book / "locale/en/LC_MESSAGES/ch01.po")
    assert 'msgstr "See Chapter 3 and §3.1; code `第2章` stays."' in po
    assert _run(capsys, "renumber", str(book))[0] == 0  # a second run has nothing to do
    status, out, _ = _run(capsys, "check", str(book), "--format", "json")
    assert status == 0, out


def test_two_pages_with_one_chapter_number_stop_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _chapters(tmp_path, "第2章")
    before = _authored(book)
    status, _, err = _run(capsys, "renumber", str(book), "--write")
    assert status == 2 and err.count("\n") == 1 and "chapter 2 is the title of two pages" in err
    assert _authored(book) == before


def test_a_deleted_chapters_mentions_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = _small(tmp_path, index_dot_md="# 书\n\n```{toctree}\nch02\n```\n",
                  ch02_dot_md="# 第2章 调度\n\n## §2.1 键集\n\n回到第1章。\n")
    (book / "ch01.md").unlink()
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    report = json.loads(out)
    assert status == 1 and report["chapters"] == {"2": "1"}
    assert report["stale"] == [{"file": "ch02.md", "line": 5, "mention": "第1章",
                                "number": "ch:1"}]
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    assert read_text(book / "ch02.md") == "# 第1章 调度\n\n## §1.1 键集\n\n回到第1章。\n"
    status, out, _ = _run(capsys, "renumber", str(book))
    assert status == 1 and "ch02.md:5: chapter 1 named a deleted one" in out


def test_a_catalog_message_is_rewritten_only_where_the_build_reads_the_citation(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A message and its page move together (a citation in a link's text is read by the build,
    so both move); a message no page gives (a diagram label, an obsolete message) is left."""
    srcdir = _repin_book(tmp_path)
    index, po = srcdir / "index.md", srcdir / "locale/en/LC_MESSAGES/index.po"
    linked = "链接文字 [`pkg/engine.py:8-13`](https://example.org/x)。"
    index.write_text(index.read_text() + f"\n{linked}\n")
    po.write_text(po.read_text() + f'\nmsgid "{linked}"\nmsgstr "A link `pkg/engine.py:8-13`."\n'
                  '\nmsgid "无人使用 `pkg/engine.py:8-13`。"\nmsgstr "Unused."\n')
    status, _, _ = _repin(srcdir, releases, capsys, "--write")
    assert status == 1
    moved = linked.replace("8-13", "11-16")
    assert f"\n{moved}\n" in index.read_text()
    text = po.read_text()
    assert f'msgid "{moved}"\nmsgstr "A link `pkg/engine.py:11-16`."' in text
    assert 'msgid "无人使用 `pkg/engine.py:8-13`。"' in text  # no page gives it: left


@pytest.mark.parametrize("breaker", ["\r", "\r\n", "\x0c\n", "\u2028\n", "\x85\n"])
def test_lines_are_counted_as_markdown_it_counts_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], breaker: str
) -> None:
    """A lone carriage return ends a line for MyST: the mention after it is placed at its own
    line, never at a later identical paragraph (nor left over)."""
    book = _small(tmp_path, ch01_dot_md=f"# 第1章 张量\n\n## §1.2 视图\n\n甲{breaker}乙。\n\n"
                  "见 §1.2。\n\n见 §1.2。\n")
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    report = json.loads(out)
    assert status == 1 and report["unlocated"] == [] and report["unresolved"] == []
    assert _run(capsys, "renumber", str(book), "--write")[0] == 0
    assert read_text(book / "ch01.md") == (f"# 第1章 张量\n\n## §1.1 视图\n\n甲{breaker}乙。\n\n"
                                           "见 §1.1。\n\n见 §1.1。\n")


def test_conf_with_a_byte_order_mark_or_broken_syntax() -> None:
    text = '\ufeffseriesbook_sources = {"pytorch": {"ref": "v2.11.0", "commit": "abc"}}\n'
    start, end = literal_span(text, "seriesbook_sources", "pytorch", "ref") or (0, 0)
    assert text[start:end] == '"v2.11.0"'
    start, end = entry_span(text, "seriesbook_sources", "pytorch", "commit") or (0, 0)
    assert text[start:end] == '"commit": "abc"'
    assert literal_span("seriesbook_sources = {\n", "seriesbook_sources") is None


def test_a_read_only_file_stops_the_write_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read-only for this user (chmod for others; ``chattr +i`` for root): checked first."""
    book = _moved(tmp_path)
    po = book / "locale/en/LC_MESSAGES/ch01.po"
    before = _authored(book)
    os.chmod(po, 0o444)
    flagged = os.access(po, os.W_OK) and subprocess.run(
        ["chattr", "+i", str(po)], capture_output=True).returncode == 0
    if os.access(po, os.W_OK):
        pytest.skip("no way to make a file read-only for this user here")
    try:
        status, _, err = _run(capsys, "renumber", str(book), "--write")
    finally:
        if flagged:
            subprocess.run(["chattr", "-i", str(po)], check=True)
        os.chmod(po, 0o644)
    assert status == 2 and err.count("\n") == 1 and "ch01.po: is read-only" in err
    assert _authored(book) == before


def test_a_message_that_is_also_a_diagram_label_is_left_and_reported(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The build reads the citation in the paragraph but not in the diagram label with the same
    words: rewriting their one message would take the label's translation away."""
    srcdir = _repin_book(tmp_path, 'extensions = ["seriesbook"]\nseriesbook_gates = '
                         '{"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}\n')
    index, po = srcdir / "index.md", srcdir / "locale/en/LC_MESSAGES/index.po"
    index.write_text(index.read_text() + '\n见 `pkg/engine.py:8-13`\n\n```{mermaid}\n'
                     'flowchart LR\n    A["见 `pkg/engine.py:8-13`"] --> B["乙"]\n```\n')
    entry = 'msgid "见 `pkg/engine.py:8-13`"\nmsgstr "See `pkg/engine.py:8-13`"\n'
    po.write_text(po.read_text() + "\n" + entry)
    status, out, _ = _repin(srcdir, releases, capsys, "--format", "json")
    by_hand = [c for c in json.loads(out)["citations"] if c.get("by_hand")]
    assert status == 1 and [(c["file"], c["old"]) for c in by_hand] == [
        ("locale/en/LC_MESSAGES/index.po", "pkg/engine.py:8-13")]
    assert _repin(srcdir, releases, capsys, "--write")[0] == 1
    assert entry in po.read_text()


def test_repin_with_an_unwritable_catalog_directory_writes_nothing(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = _repin_book(tmp_path)
    before = _authored(srcdir)
    for _ in _immutable(srcdir / "locale/en/LC_MESSAGES"):
        status, _, err = _repin(srcdir, releases, capsys, "--write")
        assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
        assert "index.po: cannot be written" in err and "nothing written" in err
        assert _authored(srcdir) == before
