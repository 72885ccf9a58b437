"""Translators see what changed: ``seriesbook update-po`` (previous text ``#|``, moved text keeps
its translation), ``seriesbook translations``, fuzzy translations shown marked, the status page.

The book (``test-translations-book``) is Chinese with a complete English translation; each test
edits its sources as an author would, runs the update as ``make update-po`` does (Sphinx's
gettext builder, then ``seriesbook update-po``), and reads catalogs, reports and HTML.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from bs4 import BeautifulSoup
from conftest import served
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.commands.cli import main
from seriesbook.editions import PreviousParser, marked_change, write_catalog
from sphinx.testing.util import SphinxTestApp

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).parent / "roots" / "test-translations-book"
BIN = Path(sys.executable).parent
MOVED = "转置只交换步长，不复制任何数据。"
MOVED_EN = "A transpose only swaps the strides and copies no data."
EDITED_OLD = "步长决定了索引如何映射到存储中的偏移量。"
EDITED_NEW = "步长决定了每个索引如何映射到存储中的偏移量。"
EDITED_EN = "Strides decide how an index maps to an offset in the storage."
SIMILAR_OLD = "视图与原张量共享存储，修改一个会影响另一个。"
SIMILAR_NEW = "视图与原张量共享同一块存储，修改一个会影响另一个。"
SIMILAR_EN = "A view shares its storage with the original tensor: changing one changes the other."


@pytest.fixture
def book(tmp_path: Path) -> Path:
    srcdir = tmp_path / "book"
    shutil.copytree(ROOT, srcdir)
    return srcdir


def po(book: Path, page: str) -> Path:
    return book / "locale" / "en" / "LC_MESSAGES" / f"{page}.po"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def update_po(book: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``make update-po``: extract the templates afresh, then ``seriesbook update-po``."""
    pot = book / "_build" / "gettext"
    shutil.rmtree(pot, ignore_errors=True)
    subprocess.run(
        [str(BIN / "sphinx-build"), "-q", "-b", "gettext", str(book), str(pot)],
        check=True, capture_output=True,
    )
    capsys.readouterr()
    assert main(["update-po", "-p", str(pot), "-d", str(book / "locale"), *args]) == 0
    return capsys.readouterr().out


def entry(catalog: Path, msgid: str) -> str:
    """The catalog's lines for *msgid*: its comments and flags, msgid and msgstr."""
    blocks = catalog.read_text(encoding="utf-8").split("\n\n")
    found = [block for block in blocks if f'\nmsgid "{msgid}"\n' in f"\n{block}\n"]
    assert len(found) == 1, f"{msgid!r} in {catalog.name}: {found}"
    return found[0]


def assert_msgfmt_check(book: Path) -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is missing: apt-get install gettext")
    for path in sorted((book / "locale").rglob("*.po")):
        result = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
        )
        assert result.returncode == 0, f"{path}: {result.stderr}"


def build(book: Path, language: str, **overrides: object) -> SphinxTestApp:
    app = SphinxTestApp(
        "html", srcdir=book, builddir=book / "_build" / language,
        confoverrides={"language": language, **overrides}, status=StringIO(), warning=StringIO(),
    )
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def warnings(app: SphinxTestApp) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    # a second app in one process re-registers nodes and roles: Sphinx says so, harmlessly
    return [
        line for line in text.splitlines()
        if ("WARNING" in line or "ERROR" in line) and "while setting up extension" not in line
    ]


def html(app: SphinxTestApp, name: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / name).read_text(encoding="utf-8"), "html.parser")


def translations(book: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert main(["translations", str(book), "--format", "json", *args]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


# --- update-po: the previous text ------------------------------------------------------------


def test_an_edited_message_keeps_its_previous_text_until_the_flag_goes(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    out = update_po(book, capsys, "-l", "en")
    assert "ch01.po +1, -1 (1 fuzzy with the previous text (#|))" in out
    assert entry(po(book, "ch01"), EDITED_NEW) == (
        f'#, fuzzy\n#| msgid "{EDITED_OLD}"\nmsgid "{EDITED_NEW}"\nmsgstr "{EDITED_EN}"'
    )
    assert_msgfmt_check(book)

    # another edit rewrites the catalog: the fuzzy entry keeps its #| lines
    edit(book / "ch01.md", "本章介绍张量的存储与视图。", "本章介绍张量的存储、步长与视图。")
    update_po(book, capsys, "-l", "en")
    assert f'#| msgid "{EDITED_OLD}"' in entry(po(book, "ch01"), EDITED_NEW)

    # the translator checks it and clears the flag: the next update drops the #| lines
    edit(po(book, "ch01"), f'#, fuzzy\n#| msgid "{EDITED_OLD}"\n', "")
    edit(po(book, "ch01"), f'msgstr "{EDITED_EN}"', 'msgstr "Strides decide how each index maps."')
    edit(book / "ch02.md", "每个运算", "每一个运算")
    edit(book / "ch01.md", "本章介绍张量的存储、步长与视图。", "本章介绍张量的存储与视图。")
    update_po(book, capsys, "-l", "en")
    assert entry(po(book, "ch01"), EDITED_NEW) == (
        f'msgid "{EDITED_NEW}"\nmsgstr "Strides decide how each index maps."'
    )
    # the undone edit of the first paragraph: still fuzzy (the translator may have touched
    # the msgstr meanwhile), its #| now the very text: one glance, one flag to remove
    intro_en = "This chapter introduces a tensor's storage and views."
    assert entry(po(book, "ch01"), "本章介绍张量的存储与视图。") == (
        '#, fuzzy\n#| msgid "本章介绍张量的存储与视图。"\n'
        f'msgid "本章介绍张量的存储与视图。"\nmsgstr "{intro_en}"'
    )
    assert_msgfmt_check(book)


def test_a_long_previous_text_is_one_unwrapped_line(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Babel would wrap #| lines at 76 columns without quotes, which msgfmt rejects."""
    old = "一段" * 120 + '，引号 "x"。'
    edit(book / "ch02.md", "每个运算都在计算图中留下一个节点。", old)
    update_po(book, capsys, "-l", "en")
    catalog = po(book, "ch02")
    written = old.replace('"', '\\"')
    edit(catalog, f'msgid "{written}"\nmsgstr ""', f'msgid "{written}"\nmsgstr "Long."')
    edit(book / "ch02.md", old, "新" + old)
    update_po(book, capsys, "-l", "en")
    assert entry(catalog, "新" + written).splitlines() == [
        "#, fuzzy", f'#| msgid "{written}"', f'msgid "新{written}"', 'msgstr "Long."'
    ]
    assert_msgfmt_check(book)
    report = translations(book, capsys)
    (stale,) = report["chapters"][2]["stale"]  # type: ignore[index]
    assert (stale["old"], stale["diff"], stale["translation"]) == (old, "{+新+}" + old, "Long.")


def test_a_multiline_previous_text_round_trips(tmp_path: Path) -> None:
    """Previous text with line breaks, quotes, backslashes: one quoted #| line per line,
    read back as written, accepted by msgfmt."""
    catalog = Catalog(locale="en")
    message = catalog.add('new "a"\nsecond \\ line', "translation", flags=["fuzzy"])
    message.previous_id = ['old "a"\nsecond \\ line']
    catalog.add("translated", "done").previous_id = ["dropped: not fuzzy"]
    text = write_catalog(catalog).decode("utf-8")
    assert '#| msgid ""\n#| "old \\"a\\"\\n"\n#| "second \\\\ line"\nmsgid ""\n' in text
    assert "dropped" not in text
    read = Catalog()
    PreviousParser(read, abort_invalid=True).parse(StringIO(text))
    assert read.get('new "a"\nsecond \\ line').previous_id == ['old "a"\nsecond \\ line']
    assert read.get("translated").previous_id == []
    path = tmp_path / "x.po"
    path.write_text(text, encoding="utf-8")
    if shutil.which("msgfmt") is not None:
        subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], check=True)


def test_gnu_previous_lines_of_obsolete_entries_are_read(tmp_path: Path) -> None:
    """``#~|`` (msgmerge writes it; Babel alone rejects the catalog) is read and dropped."""
    text = (
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\n#| msgid "old"\nmsgid "new"\nmsgstr "x"\n\n'
        '#~| msgid "older"\n#~ msgid "gone"\n#~ msgstr "y"\n'
    )
    catalog = Catalog()
    PreviousParser(catalog, abort_invalid=True).parse(StringIO(text))
    assert catalog.get("new").previous_id == ["old"]
    assert [str(m.id) for m in catalog.obsolete.values()] == ["gone"]


def test_a_second_update_changes_nothing(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys, "-l", "en")
    before = {path: path.read_bytes() for path in (book / "locale").rglob("*.po")}
    out = update_po(book, capsys)  # every language of the locale directory
    assert out.count("Not changed:") == 3
    assert {path: path.read_bytes() for path in (book / "locale").rglob("*.po")} == before


# --- update-po: moved text -------------------------------------------------------------------


def test_moved_and_deleted_text(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A paragraph moved to another page keeps its translation; an edited one moved comes as
    fuzzy, naming its origin; a § section moved to a new page keeps its paragraph; a deleted
    paragraph stays as an obsolete entry."""
    ch01 = book / "ch01.md"
    edit(ch01, f"\n{MOVED}\n", "\n")
    edit(ch01, "\n## §1.2 视图\n\n" + SIMILAR_OLD + "\n", "\n")
    edit(ch01, "\n存储是一块连续的内存，张量只是它的一个视图。\n", "\n")  # deleted
    with (book / "ch02.md").open("a", encoding="utf-8") as stream:
        stream.write(f"\n{MOVED}\n\n{SIMILAR_NEW}\n")
    (book / "ch03.md").write_text(
        f"# 第3章 视图\n\n## §3.1 视图\n\n{SIMILAR_OLD}\n", encoding="utf-8"
    )
    edit(book / "index.md", "ch02\n", "ch02\nch03\n")
    out = update_po(book, capsys, "-l", "en")
    assert "Create: " in out and "ch03.po" in out

    # carried from elsewhere: fuzzy, naming where it came from, until a human confirms it
    moved = entry(po(book, "ch02"), MOVED)
    assert moved == (
        f'# seriesbook: translation carried from ch01.po\n#, fuzzy\nmsgid "{MOVED}"\n'
        f'msgstr "{MOVED_EN}"'
    )
    similar = entry(po(book, "ch02"), SIMILAR_NEW)
    assert similar.splitlines() == [
        "# seriesbook: the translation of a similar message in ch01.po (93% alike)",
        "#, fuzzy",
        f'#| msgid "{SIMILAR_OLD}"',
        f'msgid "{SIMILAR_NEW}"',
        f'msgstr "{SIMILAR_EN}"',
    ]
    # the section moved to a new page: its paragraph carried (fuzzy)
    assert entry(po(book, "ch03"), SIMILAR_OLD) == (
        f'# seriesbook: translation carried from ch01.po\n#, fuzzy\nmsgid "{SIMILAR_OLD}"\n'
        f'msgstr "{SIMILAR_EN}"'
    )
    # its renumbered heading is too unlike "§1.2 视图" (71% < 80%) to be offered
    assert entry(po(book, "ch03"), "§3.1 视图") == 'msgid "§3.1 视图"\nmsgstr ""'
    # what left ch01 stays there as obsolete entries
    ch01_po = po(book, "ch01").read_text(encoding="utf-8")
    assert f'#~ msgid "{MOVED}"\n#~ msgstr "{MOVED_EN}"' in ch01_po
    assert '#~ msgid "存储是一块连续的内存，张量只是它的一个视图。"' in ch01_po
    assert_msgfmt_check(book)

    # the translator confirms the fuzzy one: #| goes with the flag, the comment stays (only
    # the translator removes a comment)
    edit(po(book, "ch02"), similar, similar.replace("#, fuzzy\n", "").replace(
        f'msgstr "{SIMILAR_EN}"', 'msgstr "A view shares one storage."'))
    edit(book / "ch02.md", "每个运算", "每一个运算")
    update_po(book, capsys, "-l", "en")
    assert entry(po(book, "ch02"), SIMILAR_NEW) == (
        "# seriesbook: the translation of a similar message in ch01.po (93% alike)\n"
        f'msgid "{SIMILAR_NEW}"\nmsgstr "A view shares one storage."'
    )


def test_similarity_threshold(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Below --similarity a new message stays untranslated."""
    edit(book / "ch01.md", f"\n{SIMILAR_OLD}\n", "\n")
    with (book / "ch02.md").open("a", encoding="utf-8") as stream:
        stream.write(f"\n{SIMILAR_NEW}\n")
    update_po(book, capsys, "-l", "en", "--similarity", "0.95")
    assert entry(po(book, "ch02"), SIMILAR_NEW) == f'msgid "{SIMILAR_NEW}"\nmsgstr ""'


def test_update_po_usage_errors(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["update-po", "-p", str(book / "nothing"), "-d", str(book / "locale")]) == 2
    assert "run `make gettext` first" in capsys.readouterr().err
    update_po(book, capsys, "-l", "en")
    pot = str(book / "_build" / "gettext")
    assert main(["update-po", "-p", pot, "-d", str(book / "locale"), "--similarity", "2"]) == 2
    assert "--similarity" in capsys.readouterr().err
    broken = po(book, "ch02")
    broken.write_text(broken.read_text(encoding="utf-8") + '\nmsgid "x"\nmsgstring "y"\n',
                      encoding="utf-8")
    before = po(book, "ch01").read_bytes()
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    status = main(["update-po", "-p", pot, "-d", str(book / "locale")])
    err = capsys.readouterr().err
    assert status == 2 and f"{broken}:" in err and "nothing was written" in err
    assert "Traceback" not in err
    assert po(book, "ch01").read_bytes() == before


# --- seriesbook translations -----------------------------------------------------------------


def test_marked_change_is_per_character_in_chinese_and_per_word_in_english() -> None:
    marked = "步长决定了{+每个+}索引如何映射到存储中的偏移量。"
    assert marked_change(EDITED_OLD, EDITED_NEW) == marked
    assert marked_change("the old storage", "the new storage") == "the [-old-]{+new+} storage"


def test_translations_report(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    with (book / "ch02.md").open("a", encoding="utf-8") as stream:
        stream.write("\n## §2.2 新的一节\n\n这一段还没有翻译。\n")
    update_po(book, capsys, "-l", "en")
    report = translations(book, capsys)
    assert {key: report[key] for key in ("language", "translated", "fuzzy", "untranslated")} == {
        "language": "en", "translated": 12, "fuzzy": 1, "untranslated": 2,
    }
    chapters = report["chapters"]
    assert isinstance(chapters, list)
    assert [c["docname"] for c in chapters] == ["index", "ch01", "ch02"]
    ch01, ch02 = chapters[1], chapters[2]
    assert ch01["title"] == "第1章 张量"
    assert [(s["number"], s["title"], s["translated"], s["fuzzy"], s["untranslated"],
             s["todo_chars"]) for s in ch01["sections"]] == [
        (None, "第1章 张量", 2, 0, 0, 0),
        ("1.1", "§1.1 存储", 2, 1, 0, len(EDITED_NEW)),
        ("1.2", "§1.2 视图", 3, 0, 0, 0),
    ]
    assert ch01["stale"] == [{
        "file": str(po(book, "ch01")),
        "line": ch01["stale"][0]["line"],
        "section": "1.1",
        "old": EDITED_OLD,
        "new": EDITED_NEW,
        "translation": EDITED_EN,
        "diff": "步长决定了{+每个+}索引如何映射到存储中的偏移量。",
    }]
    line = po(book, "ch01").read_text(encoding="utf-8").splitlines()[ch01["stale"][0]["line"] - 1]
    assert line == f'msgid "{EDITED_NEW}"'
    assert ch02["sections"][-1] == {
        "number": "2.2", "title": "§2.2 新的一节", "translated": 0, "machine_converted": 0,
        "fuzzy": 0, "untranslated": 2,
        "todo_chars": len("§2.2 新的一节") + len("这一段还没有翻译。"),
    }
    # the text report names the same things
    assert main(["translations", str(book)]) == 0
    text = capsys.readouterr().out
    assert "§1.1 存储: 2 translated, 1 fuzzy, 0 untranslated" in text
    assert "change:      步长决定了{+每个+}索引" in text and f"translation: {EDITED_EN}" in text


def test_translations_usage_errors(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translations", str(book), "--language", "de"]) == 2
    assert "'de' is not a translated edition" in capsys.readouterr().err
    po(book, "ch01").write_text('msgid "x"\nmsgstring "y"\n', encoding="utf-8")
    assert main(["translations", str(book)]) == 2
    err = capsys.readouterr().err
    assert f"{po(book, 'ch01')}:" in err and "not a valid .po file" in err


def test_check_lists_fuzzy_entries_under_their_own_key(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys, "-l", "en")
    assert main(["check", str(book)]) == 0
    assert capsys.readouterr().out == ""  # fuzzy entries are work, not problems
    assert main(["check", str(book), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == []
    assert [(f["language"], f["docname"], f["section"], f["old"], f["new"])
            for f in report["fuzzy"]] == [("en", "ch01", "1.1", EDITED_OLD, EDITED_NEW)]


# --- readers: outdated translations, the status page -----------------------------------------


def test_outdated_translation_is_shown_marked(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    edit(book / "ch01.md", "## §1.2 视图", "## §1.2 张量视图")
    # a fuzzy translation that would link elsewhere (§1.1, now §1.2) is not shown, nor is a
    # similar message's translation (a suggestion for the translator)
    edit(book / "ch02.md", "见 §1.1。", "见 §1.2。")
    with (book / "ch02.md").open("a", encoding="utf-8") as stream:
        stream.write(f"\n{SIMILAR_NEW}\n")
    update_po(book, capsys, "-l", "en")
    assert "#, fuzzy" in entry(po(book, "ch02"), "自动求导记录运算并反向传播梯度，见 §1.2。")
    assert "# seriesbook: the translation of" in entry(po(book, "ch02"), SIMILAR_NEW)
    app = build(book, "en")
    assert warnings(app) == []
    ch02 = html(app, "ch02.html")
    ch02_texts = [p.get_text() for p in ch02.select("p")]
    assert "自动求导记录运算并反向传播梯度，见 §1.2。" in ch02_texts and SIMILAR_NEW in ch02_texts
    assert not ch02.select(".seriesbook-outdated")
    assert "“possibly outdated”" not in ch02.select_one(".seriesbook-translation-notice").get_text()
    soup = html(app, "ch01.html")
    outdated = soup.select("p.seriesbook-outdated")
    assert len(outdated) == 1
    assert outdated[0].get_text().startswith(EDITED_EN)
    mark = outdated[0].select_one("a.seriesbook-outdated-mark")
    assert mark is not None and mark.get_text() == "possibly outdated"
    assert mark["href"] == "../zh_CN/ch01.html#sec-1-1"
    assert "简体中文" in str(mark["title"])
    # a retitled section keeps its translated title, its mark follows it (not in the toc)
    heading = soup.select_one("section#sec-1-2 > h2")
    assert heading is not None and heading.get_text().startswith("§1.2 Views")
    assert "possibly outdated" not in heading.get_text()
    title_mark = heading.find_next_sibling("p")
    assert title_mark is not None and title_mark.get_text() == "possibly outdated"
    # the notice counts them apart and links to the status page
    notice = soup.select_one(".seriesbook-translation-notice")
    assert notice is not None
    assert "This page is 75% translated." in notice.get_text()
    assert "“possibly outdated” (2)" in notice.get_text()
    link = notice.select_one("a")
    assert link is not None and link["href"] == "translation-status.html"
    # the outdated text is the edition's language: nothing of it is marked Chinese
    assert outdated[0].get("lang") is None
    # the Chinese edition has neither marks nor a status page
    zh = build(book, "zh_CN")
    assert not html(zh, "ch01.html").select(".seriesbook-outdated, .seriesbook-outdated-mark")
    assert not (Path(zh.outdir) / "translation-status.html").exists()

    # switched off, the next `make html`: the source text, no marks (the .mo compiled with the
    # fuzzy entries is compiled again without them)
    out = Path(app.outdir)
    subprocess.run(
        [str(BIN / "sphinx-build"), "-q", "-b", "html", "-D", "language=en", "-D",
         "seriesbook_outdated_translations=0", "-d", str(Path(app.doctreedir)), str(book),
         str(out)],
        check=True, capture_output=True,
    )
    with po(book, "ch01").with_suffix(".mo").open("rb") as stream:
        assert EDITED_NEW not in read_mo(stream)
    soup = BeautifulSoup((out / "ch01.html").read_text(encoding="utf-8"), "html.parser")
    assert not soup.select(".seriesbook-outdated, .seriesbook-outdated-mark")
    assert any(p.get_text() == EDITED_NEW for p in soup.select("p"))
    notice = soup.select_one(".seriesbook-translation-notice")
    assert notice is not None and "possibly outdated" not in notice.get_text()


def test_status_page(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys, "-l", "en")
    app = build(book, "en", html_theme="sphinx_book_theme")
    soup = html(app, "translation-status.html")
    assert soup.title is not None and soup.title.get_text().startswith("Translation status")
    table = soup.select_one("table.seriesbook-translation-status")
    assert table is not None
    rows = [[cell.get_text() for cell in row.select("th, td")] for row in table.select("tr")]
    assert rows == [
        ["Chapter or section", "Translated", "Possibly outdated", "Not translated",
         "Characters to do"],
        ["A Book for Translators", "1", "0", "0", "0"],
        ["Chapter 1 Tensors", "7", "1", "0", str(len(EDITED_NEW))],
        ["§1.1 Storage", "2", "1", "0", str(len(EDITED_NEW))],
        ["§1.2 Views", "3", "0", "0", "0"],
        ["Chapter 2 Autograd", "4", "0", "0", "0"],
        ["§2.1 The graph", "2", "0", "0", "0"],
    ]
    links = [a["href"] for a in table.select("a")]
    assert links[:3] == ["index.html", "ch01.html", "ch01.html#sec-1-1"]
    assert "92.3% translated: 12 of 13 passages." in soup.get_text()
    assert html(app, "ch01.html").select_one(".seriesbook-translation-notice a[href]")[
        "href"] == "translation-status.html"


# --- the translator's whole way --------------------------------------------------------------


def test_translator_whole_way(book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The author edits; the translator updates, reads what changed, edits the .po, builds."""
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys, "-l", "en")
    # what to do, where
    report = translations(book, capsys)
    (stale,) = report["chapters"][1]["stale"]  # type: ignore[index]
    assert stale["section"] == "1.1" and stale["diff"] == marked_change(EDITED_OLD, EDITED_NEW)
    # the translator edits the entry at the line the report names, and clears the flag
    catalog = Path(stale["file"])
    lines = catalog.read_text(encoding="utf-8").split("\n")
    at = stale["line"] - 1
    assert lines[at - 2 : at + 2] == [
        "#, fuzzy", f'#| msgid "{EDITED_OLD}"', f'msgid "{EDITED_NEW}"', f'msgstr "{EDITED_EN}"'
    ]
    lines[at - 2 : at + 2] = [
        f'msgid "{EDITED_NEW}"', 'msgstr "Strides decide how each index maps to a storage offset."'
    ]
    catalog.write_text("\n".join(lines), encoding="utf-8")
    assert_msgfmt_check(book)
    assert translations(book, capsys)["fuzzy"] == 0
    # the next update keeps the work; the build shows it, unmarked, the page complete
    update_po(book, capsys, "-l", "en")
    assert "#|" not in catalog.read_text(encoding="utf-8")
    app = build(book, "en")
    soup = html(app, "ch01.html")
    assert not soup.select(".seriesbook-translation-notice, .seriesbook-outdated")
    texts = [p.get_text() for p in soup.select("p")]
    assert "Strides decide how each index maps to a storage offset." in texts
    assert not any(re.search("[\u4e00-\u9fff]", text) for text in texts)


# --- the reader's way, in Chromium -----------------------------------------------------------


@pytest.mark.browser
def test_reader_follows_the_outdated_mark_to_the_original(
    book: Path, capsys: pytest.CaptureFixture[str], browser: Browser
) -> None:
    """Both editions built as `make html` builds them (-W), served; the reader sees the mark,
    its tooltip, follows it to the Chinese §, and finds the status page from the notice."""
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys, "-l", "en")
    site = book / "_build" / "html"
    for language in ("zh_CN", "en"):
        subprocess.run(
            [str(BIN / "sphinx-build"), "-q", "-W", "-b", "html", "-D", f"language={language}",
             "-D", "html_theme=sphinx_book_theme", str(book), str(site / language)],
            check=True, capture_output=True,
        )
    with served(site) as base:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(base + "en/ch01.html")
            mark = page.locator("p.seriesbook-outdated a.seriesbook-outdated-mark")
            assert mark.is_visible() and mark.inner_text() == "possibly outdated"
            assert "简体中文" in (mark.get_attribute("title") or "")
            assert page.locator("p.seriesbook-outdated").inner_text().startswith(EDITED_EN)
            mark.hover()
            mark.click()
            page.wait_for_url("**/zh_CN/ch01.html#sec-1-1")
            assert page.get_by_text(EDITED_NEW).is_visible()
            page.goto(base + "en/ch01.html")
            page.locator(".seriesbook-translation-notice a", has_text="Translation status").click()
            page.wait_for_url("**/en/translation-status.html")
            row = page.locator("table.seriesbook-translation-status tr", has_text="§1.1 Storage")
            assert row.locator("td").all_inner_texts()[1:] == ["2", "1", "0", str(len(EDITED_NEW))]
        finally:
            context.close()


# --- free text -------------------------------------------------------------------------------

TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1
)


@settings(max_examples=150, deadline=None)
@given(old=TEXT, new=TEXT)
def test_previous_text_round_trips_any_text(old: str, new: str) -> None:
    """Whatever the texts (quotes, backslashes, line breaks, U+2028, CJK), the #| lines read
    back as the previous text and the entry is intact."""
    if old == new:
        new += "x"
    catalog = Catalog(locale="en")
    catalog.add(new, "translation", flags=["fuzzy"]).previous_id = [old]
    read = Catalog()
    PreviousParser(read, abort_invalid=True).parse(
        StringIO(write_catalog(catalog).decode("utf-8"))
    )
    message = read.get(new)
    assert message is not None and message.fuzzy and message.string == "translation"
    assert message.previous_id == [old] and message.user_comments == []


@settings(max_examples=200, deadline=None)
@given(
    old=st.text(st.sampled_from("张量存储视图 ab\ncd。，x"), max_size=30),
    new=st.text(st.sampled_from("张量存储视图 ab\ncd。，x"), max_size=30),
)
def test_marked_change_keeps_both_texts(old: str, new: str) -> None:
    marked = marked_change(old, new)
    assert re.sub(r"\[-.*?-\]", "", marked, flags=re.S).replace("{+", "").replace("+}", "") == new
    assert re.sub(r"\{\+.*?\+\}", "", marked, flags=re.S).replace("[-", "").replace("-]", "") == old
