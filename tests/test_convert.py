"""The zh_TW edition by conversion: ``seriesbook convert zh_TW`` on a small book, as a
translator uses it (gettext, convert, edit a .po, edit the source, convert again), and the
edition built from its catalogs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.commands.cli import main
from seriesbook.convert import Glossary, convert_message, pieces, protected
from seriesbook.editions import PreviousParser, is_machine_converted
from sphinx.testing.util import SphinxTestApp
from test_editions_diagram_render import mermaid_page  # noqa: F401 (a fixture)

ROOT = Path(__file__).parent / "roots" / "test-convert-book"


def copy_book(tmp_path: Path) -> Path:
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    return book


def gettext_to(book: Path) -> Path:
    """``make gettext``: the templates in _build/gettext/."""
    app = SphinxTestApp("gettext", srcdir=book, builddir=book / "_build", freshenv=True)
    try:
        app.build(force_all=True)
    finally:
        app.cleanup()
    return Path(app.outdir)


def convert(book: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    pot = gettext_to(book)
    capsys.readouterr()
    status = main(["convert", "zh_TW", "-p", str(pot), "-d", str(book / "locale"), *extra])
    return status, capsys.readouterr().out


def catalog(book: Path, page: str = "ch01") -> Catalog:
    import io

    parsed = Catalog()
    path = book / "locale" / "zh_TW" / "LC_MESSAGES" / f"{page}.po"
    PreviousParser(parsed).parse(io.StringIO(path.read_text("utf-8")))
    return parsed


def entries(book: Path, page: str = "ch01") -> dict[str, Message]:
    return {str(m.id): m for m in catalog(book, page) if m.id}


def po_path(book: Path, page: str = "ch01") -> Path:
    return book / "locale" / "zh_TW" / "LC_MESSAGES" / f"{page}.po"


# --- one message -----------------------------------------------------------------------------


def test_opencc_alone_writes_the_false_friends() -> None:
    converted = convert_message("算子的参数在进程的内存里", Glossary())
    assert converted.text == "運算元的引數在程序的記憶體裡"
    assert ("算子", "運算元") in converted.false_friends


def test_the_glossary_decides_before_and_after_opencc() -> None:
    glossary = Glossary(before={"算子": "算子", "参数": "參數"}, after={"記憶體": "內存"})
    converted = convert_message("算子的参数在内存里", glossary)
    assert converted.text == "算子的參數在內存裡"
    assert converted.false_friends == []
    assert converted.glossary == {("算子", "算子"): 1, ("参数", "參數"): 1, ("記憶體", "內存"): 1}


def test_code_roles_links_and_urls_are_kept_byte_for_byte() -> None:
    message = (
        '调用 `内存()` 与 {src}`内存 <pkg/内存.py:5-9>`，见[内存](#sec-1-2 "内存")、'
        "<https://example.org/内存>、https://example.org/a（内存）和 ``a`内存`b``。"
    )
    converted = convert_message(message, Glossary()).text
    assert protected(converted) == protected(message)
    assert '見[記憶體](#sec-1-2 "内存")' in converted
    assert converted.endswith("和 ``a`内存`b``。")


@settings(deadline=None)  # the first example loads OpenCC's dictionaries
@given(st.text(alphabet=st.sampled_from(list('内存算子`{}[]()<>#:/ab §1.2\n"https')), max_size=60))
def test_pieces_are_the_message(message: str) -> None:
    assert "".join(piece.text for piece in pieces(message)) == message
    assert protected(convert_message(message, Glossary()).text) == protected(message)


MESSAGE = st.lists(
    st.sampled_from(
        ["算子", "参数", "内存", "`内存`", "[视图](#sec-1-1)", "“引号”", "§1.2", " ", "\n"]
    )
    | st.text(max_size=4),
    max_size=8,
).map("".join)


@settings(deadline=None)  # the first example loads OpenCC's dictionaries
@given(st.lists(MESSAGE, min_size=1, max_size=5, unique=True))
def test_a_second_conversion_changes_nothing(msgids: list[str]) -> None:
    from seriesbook.convert import convert_catalog

    catalog = Catalog(locale="zh_TW")
    for msgid in msgids:
        if msgid:
            catalog.add(msgid, "")
    glossary = Glossary(before={"算子": "算子"}, after={"“": "「", "”": "」"})
    convert_catalog(catalog, glossary)
    first = [(m.id, m.string, list(m.user_comments)) for m in catalog]
    again = convert_catalog(catalog, glossary)
    assert again.converted == [] and again.hand_edited == []
    assert [(m.id, m.string, list(m.user_comments)) for m in catalog] == first
    assert all(is_machine_converted(m) for m in catalog if m.id)


# --- the translator's way ----------------------------------------------------------------------


def test_conversion_fills_every_message_with_the_glossary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = copy_book(tmp_path)
    status, out = convert(book, capsys)
    assert status == 0, out
    assert "Create: " in out and "converted" in out
    assert "glossary: 算子 → 算子 ×" in out
    for page in ("index", "ch01"):
        for msgid, message in entries(book, page).items():
            assert message.string, msgid
            assert is_machine_converted(message), msgid
            assert not message.fuzzy
            assert protected(str(message.string)) == protected(msgid)
    translated = {m.id: m.string for m in catalog(book)}
    assert translated["第1章 算子与内存"] == "第1章 算子與記憶體"
    assert translated["§1.1 参数与视图"] == "§1.1 參數與視圖"
    assert translated["§1.2 回调与扩展"] == "§1.2 回呼與擴充"
    assert "後臺行程讀取文件" in "".join(map(str, translated.values()))
    text = po_path(book).read_text("utf-8")
    assert "# machine-converted " in text
    line = text.splitlines().index('msgid "§1.1 参数与视图"') + 1
    # a second run changes nothing
    status, out = convert(book, capsys)
    assert status == 0 and "Not changed: " in out and "converted" not in out.split("glossary")[0]
    # --verbose lists each message converted, at its line
    (book / "ch01.md").write_text(
        (book / "ch01.md").read_text("utf-8").replace("## §1.1 参数与视图", "## §1.1 参数与视图们"),
        "utf-8",
    )
    status, out = convert(book, capsys, "--verbose")
    assert f"ch01.po:{line}: converted: §1.1 参数与视图们" in out, out


def test_a_hand_fix_survives_and_goes_fuzzy_when_its_source_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = copy_book(tmp_path)
    convert(book, capsys)
    path = po_path(book)
    # the translator fixes a title (and leaves the mark: the hash no longer matches)
    text = path.read_text("utf-8")
    text = text.replace('msgstr "§1.2 回呼與擴充"', 'msgstr "§1.2 回呼函式與擴充"')
    path.write_text(text, "utf-8")
    # the author edits another paragraph; conversion again
    source = book / "ch01.md"
    source.write_text(
        source.read_text("utf-8").replace("后台进程读取文档。", "后台进程读取配置文档。"), "utf-8"
    )
    status, out = convert(book, capsys)
    assert status == 0
    assert "1 edited by hand, kept as reviewed" in out
    now = entries(book)
    fixed = now["§1.2 回调与扩展"]
    assert fixed.string == "§1.2 回呼函式與擴充"
    assert not is_machine_converted(fixed)
    assert "machine-converted" not in " ".join(fixed.user_comments)
    edited = next(m for k, m in now.items() if "配置文档" in k)
    assert "後臺行程讀取配置文件" in str(edited.string) and is_machine_converted(edited)
    assert not edited.fuzzy
    # converting again leaves the fix alone
    convert(book, capsys)
    assert entries(book)["§1.2 回调与扩展"].string == "§1.2 回呼函式與擴充"
    # now the author changes that title: the reviewed translation goes fuzzy with #|
    source.write_text(
        source.read_text("utf-8").replace("## §1.2 回调与扩展", "## §1.2 回调函数与扩展"), "utf-8"
    )
    status, out = convert(book, capsys)
    after = entries(book)["§1.2 回调函数与扩展"]
    assert after.fuzzy and after.string == "§1.2 回呼函式與擴充"
    assert '#| msgid "§1.2 回调与扩展"' in po_path(book).read_text("utf-8")


def test_without_the_glossary_false_friends_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = copy_book(tmp_path)
    (book / "locale" / "zh_TW" / "glossary.toml").unlink()
    status, out = convert(book, capsys)
    assert status == 1
    assert "no glossary at " in out
    found = re.findall(r"^(\S+\.po):(\d+): convert-false-friend: (\S+) → (\S+) ", out, re.M)
    assert ("算子", "運算元") in {(term, output) for _, _, term, output in found}
    path, line = next((p, int(n)) for p, n, term, _ in found if term == "算子")
    assert path.endswith("ch01.po")
    assert "算子" in po_path(book).read_text("utf-8").splitlines()[line - 1]


def test_a_broken_glossary_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = copy_book(tmp_path)
    (book / "locale" / "zh_TW" / "glossary.toml").write_text("[before]\n算子 = \n", "utf-8")
    gettext_to(book)
    argv = ["convert", "zh_TW", "-p", str(book / "_build" / "gettext"), "-d", str(book / "locale")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "glossary.toml: not valid TOML" in err and "Traceback" not in err


# --- the edition ---------------------------------------------------------------------------


def build(book: Path, language: str) -> tuple[Path, str]:
    app = SphinxTestApp(
        "html",
        srcdir=book,
        builddir=book / "_build" / language,
        confoverrides={"language": language},
        freshenv=True,
    )
    try:
        app.build(force_all=True)
        return Path(app.outdir), app.warning.getvalue()
    finally:
        app.cleanup()


def diagram_codes(html: str) -> list[str]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    # a diagram drawn at build time keeps its code in its "diagram source" disclosure
    sources = soup.select("pre.seriesbook-diagram-source-code, pre.mermaid")
    return [pre.get_text().strip() for pre in sources]


def section_ids(outdir: Path) -> set[str]:
    found: set[str] = set()
    for page in outdir.glob("*.html"):
        found |= set(re.findall(r'id="(sec-[^"]+)"', page.read_text("utf-8")))
    return found


def test_the_zh_tw_edition_is_built_from_its_catalogs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = copy_book(tmp_path)
    convert(book, capsys)
    zh_tw, warnings = build(book, "zh_TW")
    assert "WARNING" not in warnings, warnings
    zh_cn, warnings = build(book, "zh_CN")
    assert "WARNING" not in warnings, warnings
    assert section_ids(zh_tw) == section_ids(zh_cn) and "sec-1-2" in section_ids(zh_tw)
    page = (zh_tw / "ch01.html").read_text("utf-8")
    source = (zh_cn / "ch01.html").read_text("utf-8")
    assert '<html lang="zh-Hant-TW"' in page
    assert "算子與記憶體" in page and "參數與視圖" in page
    # code blocks and inline code are the source's, byte for byte (the block, untranslated,
    # is marked as the source's language)
    code = re.compile(
        r'<div class="highlight"><pre>.*?</pre>|<code class="docutils literal.*?</code>', re.S
    )
    assert len(code.findall(page)) == 4
    citations = re.compile(r'href="(https://example\.org/demo/[^"]+)"')
    assert citations.findall(page) == citations.findall(source) != []
    assert code.findall(page) == code.findall(source)
    assert '<div class="highlight-python notranslate" lang="zh-CN">' in page
    # the switcher names the edition in its own script and keeps the page
    assert 'hreflang="zh-Hant-TW" lang="zh-Hant-TW">繁體中文</a>' in source
    # the diagram is drawn into the page, its labels converted, its code the source's otherwise
    assert "<svg" in page and "pre.mermaid" not in page and "執行緒" in page
    assert diagram_codes(page) == [
        'flowchart LR\n    A["算子 排程"] --> B["記憶體 分配器"]\n    B --> C("執行緒 與 行程")'
    ]


def packed_index(outdir: Path) -> dict[str, object]:
    import json

    from seriesbook.search.compact import PackedJavaScriptIndex

    text = (outdir / "searchindex.js").read_text("utf-8")
    literal = text[len(PackedJavaScriptIndex.PREFIX) : -len(PackedJavaScriptIndex.SUFFIX)]
    loaded: dict[str, object] = json.loads(re.sub(r"\\(.)", r"\1", literal))
    return loaded


def test_the_zh_tw_search_status_and_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], twin: object
) -> None:
    from conftest import ask

    book = copy_book(tmp_path)
    convert(book, capsys)
    # a reviewed title: the translator deletes its mark
    path = po_path(book)
    text = path.read_text("utf-8")
    head, _, rest = text.partition("# machine-converted ")
    path.write_text(head + rest.split("\n", 1)[1], "utf-8")
    outdir, warnings = build(book, "zh_TW")
    assert "WARNING" not in warnings
    index = packed_index(outdir)
    # a query in simplified characters, with the mainland's word, finds Taiwan's text
    assert ask(twin, {"simplify": "内存", "index": index}) == "記憶體"  # type: ignore[arg-type]
    assert ask(twin, {"simplify": "記憶體", "index": index}) == "記憶體"  # type: ignore[arg-type]
    # traditional characters with the mainland's word, too
    assert ask(twin, {"simplify": "內存", "index": index}) == "記憶體"  # type: ignore[arg-type]
    # the status page counts machine-converted messages apart
    pages = [p for p in outdir.glob("*.html") if "機器轉換，未審閱" in p.read_text("utf-8")]
    assert len(pages) == 1, sorted(p.name for p in outdir.glob("*.html"))
    from bs4 import BeautifulSoup

    table = BeautifulSoup(pages[0].read_text("utf-8"), "html.parser").select_one("table")
    assert table is not None
    headers = [th.get_text() for th in table.select("thead th")]
    assert headers[1:3] == ["已審閱", "機器轉換，未審閱"], headers
    chapter = next(row for row in table.select("tbody tr") if "ch01" in str(row))
    reviewed, machine = (int(td.get_text()) for td in chapter.select("td")[:2])
    assert reviewed == 1 and machine > 1
    capsys.readouterr()
    assert main(["translations", str(book), "--language", "zh_TW"]) == 0
    out = capsys.readouterr().out
    found = re.search(
        r"zh_TW: \d+% translated: (\d+) translated \((\d+) machine-converted, not reviewed\)", out
    )
    assert found is not None, out
    assert int(found.group(1)) == int(found.group(2)) + 1


# --- a zh_TW diagram, by mermaid's own parser and drawn in a browser ----------------------------


def converted_diagrams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    book = copy_book(tmp_path)
    convert(book, capsys)
    outdir, _ = build(book, "zh_TW")
    return diagram_codes((outdir / "ch01.html").read_text("utf-8"))


def test_a_zh_tw_diagram_parses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import require
    from test_editions_diagrams import NODE, mermaid_check

    require(NODE is not None, "node is missing")
    codes = converted_diagrams(tmp_path, capsys)
    assert codes and mermaid_check(codes) == ["OK"] * len(codes)


@pytest.mark.browser
def test_a_zh_tw_diagram_draws(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mermaid_page: object,  # noqa: F811
) -> None:
    from test_editions_diagram_render import render

    codes = converted_diagrams(tmp_path, capsys)
    results = render(mermaid_page, codes)  # type: ignore[arg-type]
    assert [r["ok"] for r in results] == [True] * len(codes), results
    assert "記憶體 分配器" in " ".join(" ".join(r["text"].split()) for r in results)


# --- the real book's edition ---------------------------------------------------------------------


def test_the_books_zh_tw_catalogs_keep_every_protected_piece() -> None:
    """The committed catalogs (the edition): every message translated, and every machine-converted
    one keeps its source's code, roles, link targets and URLs byte for byte."""
    import io

    catalogs = sorted((Path(__file__).parent.parent / "locale" / "zh_TW").glob("LC_MESSAGES/*.po"))
    assert len(catalogs) == len(list((Path(__file__).parent.parent / "source").glob("*.md")))
    for path in catalogs:
        parsed = Catalog()
        PreviousParser(parsed).parse(io.StringIO(path.read_text("utf-8")))
        for message in parsed:
            if not message.id:
                continue
            assert message.string and not message.fuzzy, (path, message.id)
            if is_machine_converted(message):
                assert protected(str(message.string)) == protected(str(message.id)), message.id


def test_text_moved_to_another_page_stays_machine_converted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = copy_book(tmp_path)
    convert(book, capsys)
    moved = "自定义扩展注册回调，后台进程读取文档。内存不足时缓存分配器会释放显存。"
    source = book / "ch01.md"
    source.write_text(source.read_text("utf-8").replace(moved, "这一段移走了。"), "utf-8")
    (book / "ch02.md").write_text("---\nstatus: draft\n---\n\n# 第2章 移来的\n\n" + moved + "\n")
    index = book / "index.md"
    index.write_text(index.read_text("utf-8").replace("ch01\n", "ch01\nch02\n"), "utf-8")
    status, out = convert(book, capsys)
    assert status == 0, out
    copy = entries(book, "ch02")[moved]
    assert is_machine_converted(copy) and not copy.fuzzy


def test_the_zh_tw_pdf_and_epub_speak_traditional_chinese() -> None:
    from seriesbook.core.config import language_tag
    from seriesbook.offline._settings import latex_elements

    fonts = latex_elements("zh_TW")["fontpkg"]
    assert r"\setCJKmainfont{Noto Serif CJK TC}" in fonts and " SC}" not in fonts
    assert r"\setCJKmainfont{Noto Serif CJK SC}" in latex_elements("zh_CN")["fontpkg"]
    assert language_tag("zh_TW") == "zh-Hant-TW"  # the EPUB's dc:language and xml:lang


@pytest.mark.slow
def test_the_books_zh_tw_edition_builds_with_the_zh_cn_anchors(tmp_path: Path) -> None:
    """``make html``'s build of the real book's zh_TW edition (-W): the same ``#sec-`` ids as
    zh_CN's, every page in Traditional Chinese."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parent.parent
    ids = {}
    for language in ("zh_CN", "zh_TW"):
        outdir = tmp_path / language
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going"]
        command += ["-c", str(repo), "-D", f"language={language}"]
        command += ["-d", str(tmp_path / "doctrees" / language), str(repo / "source"), str(outdir)]
        result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=repo)
        assert result.returncode == 0, result.stderr
        ids[language] = section_ids(outdir)
    assert len(ids["zh_CN"]) > 100 and ids["zh_TW"] == ids["zh_CN"]
    page = (tmp_path / "zh_TW" / "ch04.html").read_text("utf-8")
    assert '<html lang="zh-Hant-TW"' in page and "記憶體" in page
