"""``seriesbook renumber``: a three-chapter book with an English catalog, the whole way round."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from seriesbook.commands.cli import main
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
ROOT = Path(__file__).parent / "roots" / "test-renumber"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    shutil.copytree(ROOT, tmp_path / "book")
    return tmp_path / "book"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _authored(book: Path) -> dict[Path, bytes]:
    """Every file of the book but the build's (``_build/``: renumber keeps its environment)."""
    return {p: p.read_bytes() for p in book.rglob("*")
            if p.is_file() and "_build" not in p.relative_to(book).parts}


EXPECTED_MAP = {
    "1.1": "1.2", "1.1.1": "1.2.1", "1.2": "1.4", "3.2": "2.2", "2.2": "2.3", "3.3": "3.2",
}


def test_renumber_rewrites_sources_and_catalogs(
    book: Path, capsys: pytest.CaptureFixture[str], make_app: MakeApp
) -> None:
    before = _authored(book)
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1  # dry run: changes needed, nothing of the author's written
    assert _authored(book) == before
    assert (book / "_build/renumber/doctrees/environment.pickle").is_file()  # kept for next time
    report = json.loads(out)
    assert report["map"] == EXPECTED_MAP
    assert report["new"] == [{"file": "ch01.md", "line": 7, "number": "1.1"}]
    assert report["unresolved"] == [{"file": "ch02.md", "line": 17, "mention": "§9.9"}]
    assert {"file": "ch02.md", "line": 9, "old": "{sec}`3.2`", "new": "{sec}`2.2`"} in (
        report["edits"]
    )

    status, out, _ = _run(capsys, "renumber", str(book), "--write")
    assert status == 1  # written; §9.9 (ch02.md:17) names no section: still to edit
    ch01 = (book / "ch01.md").read_text(encoding="utf-8")
    assert "## §1.1 新插入的一节\n\n新的一节提到 §1.4 与 §1.2.1。" in ch01  # inserted section
    assert "## §1.2 存储" in ch01 and "### §1.2.1 步长" in ch01  # subsection follows parent
    assert "存储见 §1.2.1 和 §1.3；范围 §1.2–§1.3、§1.2-1.3；列表 §1.2、§1.3。" in ch01
    assert "代码里的 `§1.1` 与链接 [§1.1](https://example.org/§1.1) 不动。" in ch01
    assert "## §1.3 视图" in ch01 and "## §1.4 分配器" in ch01  # moved up / pushed down
    ch02 = (book / "ch02.md").read_text(encoding="utf-8")
    assert "分发键决定 §2.3 与 {sec}`2.2`，见 {sec}`那一节 <1.4>`。" in ch02
    assert "## §2.2 从第3章移来的一节" in ch02 and "## §2.3 内核注册" in ch02
    assert "已删除的 §9.9 保持原样。" in ch02 and "# §2.2 in a code block" in ch02
    ch03 = (book / "ch03.md").read_text(encoding="utf-8")
    assert "计算图之后原来是 §2.2，现在是 §3.2。" in ch03
    assert 'A["引擎 §3.3"]' in ch03 and "## §3.2 引擎" in ch03  # the diagram is not prose
    po = (book / "locale/en/LC_MESSAGES/ch02.po").read_text(encoding="utf-8")
    assert (
        'msgid "分发键决定 §2.3 与 {sec}`2.2`，见 {sec}`那一节 <1.4>`。"\n'
        'msgstr "Dispatch keys decide §2.3 and {sec}`2.2`; see {sec}`that section <1.4>`."'
    ) in po
    # only the numbers changed: same lines, same lengths apart from the digits
    for path, old in before.items():
        if path.suffix in (".md", ".po"):
            new = path.read_bytes()
            assert new.count(b"\n") == old.count(b"\n")
            assert re.sub(rb"[\d.]", b"", new).replace(b"\xc2\xa7 ", b"\xc2\xa7") == re.sub(
                rb"[\d.]", b"", old).replace(b"\xc2\xa7 ", b"\xc2\xa7")
    for catalog in (book / "locale").rglob("*.po"):
        assert "#, fuzzy\nmsgid \"\"" in catalog.read_text(encoding="utf-8")  # header only
        assert catalog.read_text(encoding="utf-8").count("fuzzy") == 1
        subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(catalog)], check=True)
    history = json.loads((book / "seriesbook-renumbered.json").read_text(encoding="utf-8"))
    assert history["renumberings"][0]["map"] == EXPECTED_MAP
    assert history["renumberings"][0]["release"] == "2.0"

    # a second run has nothing to do
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1 and json.loads(out)["edits"] == [] and json.loads(out)["map"] == {}
    # and the book checks clean but for the mention of the deleted section
    status, out, _ = _run(capsys, "check", str(book), "--format", "json")
    assert [(p["file"].rsplit("/", 1)[-1], p["code"]) for p in json.loads(out)["problems"]] == [
        ("ch02.md", "sec-unresolved")
    ]

    # both editions: the ids follow the new numbers; English keeps every translation
    for language in ("zh_CN", "en"):
        app = make_app("html", srcdir=book, confoverrides={"language": language},
                       freshenv=True)
        app.build()
        out_dir = Path(app.outdir)
        ids = [s["id"] for s in _soup(out_dir / "ch01.html").find_all("section")]
        assert ids == ["ch-1", "sec-1-1", "sec-1-2", "sec-1-2-1", "sec-1-3", "sec-1-4"]
        assert (out_dir / "seriesbook-renumbered.json").is_file()  # published for siblings
        if language == "en":
            for page in ("ch01", "ch02", "ch03"):
                main_text = _soup(out_dir / f"{page}.html").find(attrs={"role": "main"})
                assert main_text is not None
                for block in main_text.find_all(["p", "h1", "h2", "h3"]):
                    assert not re.search(r"[\u4e00-\u9fff]", block.get_text()), block
            heading = _soup(out_dir / "ch01.html").find("section", id="sec-1-1").h2
            assert heading.get_text().startswith("§1.1 A newly inserted section")


def test_duplicate_number_is_a_usage_error(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch03 = book / "ch03.md"
    ch03.write_text(ch03.read_text(encoding="utf-8").replace("## §3.3 引擎", "## §3.1 引擎"),
                    encoding="utf-8")
    status, _, err = _run(capsys, "renumber", str(book))
    assert status == 2
    assert "§3.1 is the number of two headings" in err
    assert "ch03.md:7" in err and "ch03.md:16" in err


def test_sibling_link_to_a_renumbered_section_warns(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], make_app: MakeApp
) -> None:
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    volume = make_app("html", srcdir=book, freshenv=True)
    volume.build()
    inventory = Path(volume.outdir)
    sibling = tmp_path / "sibling"
    sibling.mkdir()
    (sibling / "conf.py").write_text(
        'extensions = ["sphinx.ext.intersphinx", "seriesbook"]\nlanguage = "zh_CN"\n',
        encoding="utf-8",
    )
    (sibling / "index.md").write_text(
        "# 兄弟卷\n\n旧链接 {sec}`vol:1.1` 与未变的 {sec}`vol:1.3`。\n", encoding="utf-8"
    )
    app = make_app("html", srcdir=sibling, freshenv=True, confoverrides={
        "intersphinx_mapping": {"vol": (str(inventory), str(inventory / "objects.inv"))}
    })
    app.build()
    warnings = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
                .splitlines() if "[seriesbook." in line]
    assert len(warnings) == 1
    assert "index.md:3" in warnings[0] and "[seriesbook.sec-renumbered]" in warnings[0]
    assert "§1.1 of 'vol' was renumbered §1.2 (2.0)" in warnings[0]


def test_a_run_after_an_edit_rereads_that_page_and_plans_as_a_fresh_read(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = book / "_build" / "renumber" / "doctrees"
    status, first, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1
    read_at = {p.name: p.stat().st_mtime_ns for p in kept.glob("*.doctree")}
    assert set(read_at) == {"index.doctree", "ch01.doctree", "ch02.doctree", "ch03.doctree"}

    ch03 = book / "ch03.md"
    ch03.write_text(ch03.read_text(encoding="utf-8").replace(
        "## §3.1 计算图", "## § 又一节\n\n又一节提到 §3.3 与 §2.2。\n\n## §3.1 计算图"
    ), encoding="utf-8")
    status, warm, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1
    reread = {p.name for p in kept.glob("*.doctree") if p.stat().st_mtime_ns != read_at[p.name]}
    assert reread == {"ch03.doctree"}  # the other pages came from the kept environment
    status, fresh, _ = _run(capsys, "renumber", str(book), "--format", "json", "--fresh")
    assert status == 1
    assert json.loads(warm) == json.loads(fresh) != json.loads(first)
    assert json.loads(warm)["map"]["3.1"] == "3.2"  # the new section comes first in ch03

    # what Sphinx's own rules miss (here a conf.py edit that changes no value; likewise a new
    # seriesbook or citation lock) starts a fresh environment, as for `seriesbook check`
    read_at = {p.name: p.stat().st_mtime_ns for p in kept.glob("*.doctree")}
    (book / "conf.py").write_text(
        (book / "conf.py").read_text(encoding="utf-8") + "\n# 只是一条注释\n", encoding="utf-8"
    )
    status, again, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1 and json.loads(again) == json.loads(warm)
    assert all(p.stat().st_mtime_ns != read_at[p.name] for p in kept.glob("*.doctree"))

    # written through the kept environment, the book is renumbered exactly as a fresh run would
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    for args in ((), ("--fresh",)):
        status, out, _ = _run(capsys, "renumber", str(book), "--format", "json", *args)
        assert status == 1 and json.loads(out)["edits"] == [] and json.loads(out)["map"] == {}


def test_a_mention_not_written_as_read_is_reported_never_skipped(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch01 = book / "ch01.md"
    ch01.write_text(ch01.read_text(encoding="utf-8") + (
        "\n转义 \\*§1.1\\* 与 §1\\.1。\n\n译文里有转义 §1.1。\n"
    ), encoding="utf-8")
    catalog = book / "locale/en/LC_MESSAGES/ch01.po"
    entries = (
        'msgid "转义 \\\\*§1.1\\\\* 与 §1\\\\.1。"\n'
        'msgstr "Escaped \\\\*§1.1\\\\* and §1\\\\.1."\n\n'
        'msgid "译文里有转义 §1.1。"\nmsgstr "An escape in the translation: §1\\\\.1."\n'
    )
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\n" + entries, encoding="utf-8")

    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1
    report = json.loads(out)
    lines = ch01.read_text(encoding="utf-8").splitlines()
    escaped = lines.index("转义 \\*§1.1\\* 与 §1\\.1。") + 1
    assert {"file": "ch01.md", "line": escaped, "old": "§1.1", "new": "§1.2"} in report["edits"]
    assert [(u["file"], u["text"]) for u in report["unlocated"]] == [
        ("ch01.md", "§1.1"),  # §1\.1: the number itself is escaped
        ("locale/en/LC_MESSAGES/ch01.po", "转义 \\*§1.1\\* 与 §1\\.1。"),
        ("locale/en/LC_MESSAGES/ch01.po", "译文里有转义 §1.1。"),  # its msgstr
    ]
    assert report["unlocated"][0]["line"] == escaped

    status, out, _ = _run(capsys, "renumber", str(book), "--write")
    assert status == 1  # written, but some mentions are left to edit by hand
    assert "edit it by hand" in out
    assert "转义 \\*§1.2\\* 与 §1\\.1。" in ch01.read_text(encoding="utf-8")
    assert entries in catalog.read_text(encoding="utf-8")  # the messages are left whole

    # issue 31: the mention left for a hand edit keeps the exit status 1 until it is edited
    for args in ((), ("--fresh",)):
        status, out, _ = _run(capsys, "renumber", str(book), *args)
        assert status == 1, out


def _without_dangling(book: Path) -> None:
    """The book without its mention of a deleted §9.9 (which alone keeps every exit status 1)."""
    entry = 'msgid "已删除的 §9.9 保持原样。"\nmsgstr "The deleted §9.9 stays as written."\n\n'
    for path, text in ((book / "ch02.md", "已删除的 §9.9 保持原样。\n\n"),
                       (book / "locale/en/LC_MESSAGES/ch02.po", entry)):
        written = path.read_text(encoding="utf-8")
        assert text in written
        path.write_text(written.replace(text, ""), encoding="utf-8")


def _translate(book: Path, *pairs: tuple[str, str]) -> Path:
    catalog = book / "locale/en/LC_MESSAGES/ch01.po"
    text = catalog.read_text(encoding="utf-8")
    for old, new in pairs:
        assert f'msgstr "{old}"' in text, old
        text = text.replace(f'msgstr "{old}"', f'msgstr "{new}"')
    catalog.write_text(text, encoding="utf-8")
    return catalog


def test_a_translation_writing_its_numbers_otherwise_is_renumbered(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: a heading's translation with its number elsewhere (``Strides (§1.1.1)`` for
    ``§1.1.1 步长``) and a Markdown link to a § (``[§1.1](#sec-1-1)``: text and anchor, in a
    msgstr and in a page) are renumbered with the rest; the book then checks clean."""
    _without_dangling(book)
    ch01 = book / "ch01.md"
    links = "\n见 [§1.1](#sec-1-1) 与 [存储](ch01.md#sec-1-1)，[别处](https://example.org/#sec-1-1)。\n"
    ch01.write_text(ch01.read_text(encoding="utf-8") + links, encoding="utf-8")
    catalog = _translate(
        book,
        ("§1.1.1 Strides", "Strides (§1.1.1)"),
        ("Views moved up; they depend on §1.1.",
         "Views moved up; they depend on [§1.1](#sec-1-1)."),
    )
    status, out, _ = _run(capsys, "renumber", str(book), "--write")
    assert status == 0, out
    text = catalog.read_text(encoding="utf-8")
    assert 'msgid "§1.2.1 步长"\nmsgstr "Strides (§1.2.1)"' in text
    assert 'msgstr "Views moved up; they depend on [§1.2](#sec-1-2)."' in text
    assert ch01.read_text(encoding="utf-8").endswith(
        "\n见 [§1.2](#sec-1-2) 与 [存储](ch01.md#sec-1-2)，[别处](https://example.org/#sec-1-1)。\n")
    status, out, _ = _run(capsys, "check", str(book))
    assert status == 0, out
    assert _run(capsys, "renumber", str(book))[0] == 0  # and nothing is left to do


def _problems(capsys: pytest.CaptureFixture[str], book: Path) -> list[tuple[str, str]]:
    status, out, _ = _run(capsys, "check", str(book), "--format", "json")
    found = [(p["file"].rsplit("/", 1)[-1], p["code"]) for p in json.loads(out)["problems"]]
    assert status == (1 if found else 0), out
    return found


def test_what_renumber_leaves_for_a_hand_edit_keeps_exit_1_until_edited(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: an escaped mention (source and catalog), a message shared by a heading and a
    diagram label, a link whose anchor has a title: each is reported with its file and line,
    and renumber (kept or fresh) and check exit 1 on every run until the author edits it (the
    book has no other mention of a deleted section, so nothing else keeps the status 1)."""
    _without_dangling(book)
    ch01 = book / "ch01.md"
    ch01.write_text(ch01.read_text(encoding="utf-8") + (
        "\n转义 §1\\.1。\n\n```{mermaid}\nflowchart LR\n    A[\"§1.1 存储\"] --> B[\"图\"]\n```\n"
        '\n带标题的 [§1.1](#sec-1-1 "旧") 留给作者。\n'
    ), encoding="utf-8")
    catalog = _translate(book, ("Views moved up; they depend on §1.1.",
                                'Views moved up; they depend on [§1.1](#sec-1-1 \\"old\\").'))
    catalog.write_text(catalog.read_text(encoding="utf-8")
                       + '\nmsgid "转义 §1\\\\.1。"\nmsgstr "Escaped §1\\\\.1."\n', "utf-8")
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1
    report = json.loads(out)
    po = "locale/en/LC_MESSAGES/ch01.po"
    assert {(u["file"], u["text"]) for u in report["unlocated"]} == {
        ("ch01.md", "§1.1"), (po, "视图被移到了前面，它依赖 §1.1。"),
        ("ch01.md", '带标题的 [§1.1](#sec-1-1 "旧") 留给作者。')}
    assert [(s["file"], s["message"]) for s in report["shared"]] == [(po, "§1.1 存储")]

    status, out, _ = _run(capsys, "renumber", str(book), "--write")
    assert status == 1 and out.count("edit it by hand") == 4, out
    assert '带标题的 [§1.1](#sec-1-1 "旧") 留给作者。' in ch01.read_text(encoding="utf-8")
    for args in ((), ("--fresh",), ()):  # every later run, kept or fresh
        status, out, _ = _run(capsys, "renumber", str(book), "--format", "json", *args)
        report = json.loads(out)
        assert status == 1 and report["edits"] == [], out
        assert {(p["file"], p["reason"]) for p in report["pending"]} == {
            ("ch01.md", "hand"), (po, "hand")}
        assert len(report["pending"]) == 4
    stale = [("ch01.md", "sec-stale")] * 2 + [("ch01.po", "sec-stale")] * 2
    assert sorted(_problems(capsys, book)) == stale

    # the author edits each: the sources and the catalog say what they mean now
    text = ch01.read_text(encoding="utf-8")
    ch01.write_text(text.replace("转义 §1\\.1。", "转义 §1.2。").replace(
        'A["§1.1 存储"]', 'A["§1.2 存储"]').replace('(#sec-1-1 "旧")', "(#sec-1-2)").replace(
        "[§1.1](#sec-1-2)", "[§1.2](#sec-1-2)"), encoding="utf-8")
    text = catalog.read_text(encoding="utf-8")
    for old, new in (('msgid "转义 §1\\\\.1。"\nmsgstr "Escaped §1\\\\.1."',
                      'msgid "转义 §1.2。"\nmsgstr "Escaped §1.2."'),
                     ('msgid "§1.1 存储"\nmsgstr "§1.1 Storage"',
                      'msgid "§1.2 存储"\nmsgstr "§1.2 Storage"'),
                     ('msgid "视图被移到了前面，它依赖 §1.1。"',
                      'msgid "视图被移到了前面，它依赖 §1.2。"'),
                     ('[§1.1](#sec-1-1 \\"old\\")', "[§1.2](#sec-1-2)")):
        assert old in text, old
        text = text.replace(old, new)
    catalog.write_text(text, encoding="utf-8")
    status, out, _ = _run(capsys, "check", str(book))
    assert status == 0, out
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 0 and json.loads(out)["pending"] == [], out


def test_a_catalog_with_a_duplicate_msgid_is_renumbered_as_the_build_reads_it(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The build warns about a duplicate msgid and uses the first; renumber plans around it."""
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    duplicate = '\nmsgid "重复的一句"\nmsgstr "first"\n\nmsgid "重复的一句"\nmsgstr "second"\n'
    catalog.write_text(catalog.read_text(encoding="utf-8") + duplicate, encoding="utf-8")
    status, out, err = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1, err
    assert json.loads(out)["map"]


@pytest.mark.parametrize(
    ("damage", "said"),
    [(b'\nmsgid "x"\ngarbage line\n', "not a valid .po file"), (b"\n# \xff\n", "UTF-8")],
)
def test_a_catalog_that_cannot_be_read_stops_renumber_with_one_line(
    book: Path, capsys: pytest.CaptureFixture[str], damage: bytes, said: str
) -> None:
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch02.po"
    catalog.write_bytes(catalog.read_bytes() + damage)
    before = _authored(book)
    status, _, err = _run(capsys, "renumber", str(book), "--write")
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "ch02.po" in err and said in err
    assert _authored(book) == before


def test_a_new_last_section_is_numbered_in_the_catalog_too(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The only change is a section to number (no number moves): msgid and msgstr still are."""
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    ch01, po = book / "ch01.md", book / "locale/en/LC_MESSAGES/ch01.po"
    ch01.write_text(ch01.read_text(encoding="utf-8") + "\n## § 新的一节\n\n新的一节的正文。\n",
                    encoding="utf-8")
    entry = '\nmsgid "§ 新的一节"\nmsgstr "§ A new section"\n'
    po.write_text(po.read_text(encoding="utf-8") + entry, encoding="utf-8")
    status, out, _ = _run(capsys, "renumber", str(book), "--format", "json")
    assert status == 1
    report = json.loads(out)
    assert report["map"] == {} and [n["number"] for n in report["new"]] == ["1.5"]
    assert _run(capsys, "renumber", str(book), "--write")[0] == 1
    assert "## §1.5 新的一节" in ch01.read_text(encoding="utf-8")
    catalog = po.read_text(encoding="utf-8")
    assert 'msgid "§1.5 新的一节"\nmsgstr "§1.5 A new section"' in catalog
    assert "§ 新的一节" not in catalog


def test_a_broken_history_file_stops_the_write_with_one_line(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (book / "seriesbook-renumbered.json").write_text("{not json", encoding="utf-8")
    before = _authored(book)
    status, _, err = _run(capsys, "renumber", str(book), "--write")
    assert status == 2 and _authored(book) == before
    assert err.count("\n") == 1 and "seriesbook-renumbered.json cannot be read" in err


def _sibling_warnings(tmp_path: Path, make_app: MakeApp, volume: str, inventory: str) -> list[str]:
    sibling = tmp_path / "sibling"
    sibling.mkdir()
    (sibling / "conf.py").write_text(
        'extensions = ["sphinx.ext.intersphinx", "seriesbook"]\nlanguage = "zh_CN"\n'
        "intersphinx_timeout = 2\n",
        encoding="utf-8",
    )
    (sibling / "index.md").write_text("# 兄弟卷\n\n旧链接 {sec}`vol:1.1`。\n", encoding="utf-8")
    app = make_app("html", srcdir=sibling, freshenv=True, confoverrides={
        "intersphinx_mapping": {"vol": (volume, inventory)}
    })
    app.build()
    # the sibling's objects.inv is missing: its links are unresolved, which is not asked here
    return [line for line in re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()).splitlines()
            if "[seriesbook.sec-history" in line or "[seriesbook.sec-renumbered" in line]


def test_an_unreadable_sibling_history_is_a_warning_not_nothing_renumbered(
    tmp_path: Path, make_app: MakeApp
) -> None:
    volume = tmp_path / "volume"
    volume.mkdir()
    (volume / "seriesbook-renumbered.json").write_text("{not json", encoding="utf-8")
    warnings = _sibling_warnings(tmp_path, make_app, str(volume), str(volume / "objects.inv"))
    assert len(warnings) == 1, warnings
    assert "index.md:3" in warnings[0] and "[seriesbook.sec-history-unreadable]" in warnings[0]
    assert "seriesbook-renumbered.json (not JSON" in warnings[0]


def test_a_sibling_that_cannot_be_reached_is_a_warning(tmp_path: Path, make_app: MakeApp) -> None:
    """Fetched as intersphinx fetches (here: a refused connection), failed loudly."""
    url = "http://127.0.0.1:9/vol"
    warnings = _sibling_warnings(tmp_path, make_app, url, f"{url}/objects.inv")
    assert len(warnings) == 1, warnings
    assert "[seriesbook.sec-history-unreadable]" in warnings[0]
    assert f"{url}/seriesbook-renumbered.json" in warnings[0]


def test_a_sibling_that_never_renumbered_publishes_nothing_and_is_fine(
    tmp_path: Path, make_app: MakeApp
) -> None:
    volume = tmp_path / "volume"
    volume.mkdir()
    assert _sibling_warnings(tmp_path, make_app, str(volume), str(volume / "objects.inv")) == []
