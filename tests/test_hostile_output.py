"""Output that cannot be hijacked (issue 31): pages read with a browser's HTML parser, command
output read as a terminal would, the escape functions one per context."""

from __future__ import annotations

import contextlib
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.core.escape import CONTROL, html_attribute, html_text, script_json, terminal
from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-hostile-labels"


def assert_terminal_safe(text: str) -> None:
    """What a terminal would be given: no C0/C1 control character but newline and tab."""
    found = CONTROL.findall(text)
    assert not found, f"control characters {found!r} in {text!r}"


def parsed(path: Path) -> BeautifulSoup:
    """*path* as a browser parses it (html5lib follows the HTML standard, script states too)."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html5lib")


def english_build(book: Path) -> Path:
    """The English edition of *book*, built; its output directory."""
    app = SphinxTestApp(
        "html", srcdir=book, builddir=book / "_build" / "en", confoverrides={"language": "en"},
        status=StringIO(), warning=StringIO(),
    )
    try:
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir)


@pytest.fixture
def english(tmp_path: Path) -> Path:
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    return english_build(book)


def test_an_untranslated_label_with_markup_keeps_the_page_after_the_diagram(
    english: Path,
) -> None:
    page = parsed(english / "ch01.html")
    paragraphs = [p.get_text() for p in page.select("div.body p")]
    assert "The paragraph after the diagram." in paragraphs  # was inside the label script
    # drawn at build time: the label is text of the drawing and of its source, never markup
    (drawn,) = page.select("div.seriesbook-diagram")
    assert "<!--<script>" in drawn.select_one("svg").get_text()
    assert not drawn.select("script")
    (source,) = page.select("pre.seriesbook-diagram-source-code")
    assert "<!--<script>" in source.get_text()
    assert page.select_one("div.footer") is not None  # the page goes on to its end


@given(st.text())
def test_script_json_never_leaves_its_script_and_reads_back(text: str) -> None:
    data = script_json({"label": text})
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.loads(data) == {"label": text}
    page = BeautifulSoup(f"<script type='application/json'>{data}</script><p>after</p>", "html5lib")
    assert page.select_one("p") is not None and page.select_one("p").get_text() == "after"


@given(st.text())
def test_html_escapes_keep_the_structure(text: str) -> None:
    page = BeautifulSoup(
        f'<p title="{html_attribute(text)}">{html_text(text)}</p><p>after</p>', "html5lib"
    )
    first, after = page.select("p")
    assert after.get_text() == "after" and not first.find_all(True)


@given(st.text())
def test_terminal_escape_leaves_no_control_character(text: str) -> None:
    shown = terminal(text)
    assert_terminal_safe(shown)
    assert json.loads(terminal(json.dumps(text, ensure_ascii=False))) == text  # JSON stays JSON


# A § title and a diagram's :alt: holding markup, quotes, an ampersand and U+2028 (the
# title's markup escaped in the Markdown, so it is text; an option's value ends at U+2028).
HOSTILE_TITLE = "<!--<script> </script> \"'& \u2028 分配器"
HOSTILE_ALT = "<!--<script> </script> \"'&"
PREVIEWS_ROOT = Path(__file__).parent / "roots" / "test-previews"


@pytest.fixture
def hostile_previews(tmp_path: Path) -> Path:
    book = tmp_path / "book"
    shutil.copytree(PREVIEWS_ROOT, book)
    chapter = book / "ch02.md"
    markdown = HOSTILE_TITLE.replace("<", "\\<")
    diagram = f"```{{mermaid}}\n:alt: {HOSTILE_ALT}\ngraph LR\n  A --> B\n```\n\n"
    text = chapter.read_text(encoding="utf-8").replace("分配器 & 缓存", markdown)
    chapter.write_text(text.replace("分配器先查缓存", diagram + "分配器先查缓存"), "utf-8")
    app = SphinxTestApp("html", srcdir=book, status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir)


def test_a_preview_of_a_title_with_markup_keeps_every_structure(hostile_previews: Path) -> None:
    """The title is text on its page, on the linking page, in the preview's data file (read
    by node, as the page's script element reads it, and inlined in a page) and in the file
    published for sibling volumes; nothing of it is markup anywhere."""
    import subprocess

    target = parsed(hostile_previews / "ch02.html")
    (heading,) = target.select("section#sec-2-1 > h2")
    assert heading.get_text().rstrip("#¶") == f"§2.1 {HOSTILE_TITLE}"
    assert not heading.select("script") and target.select_one("div.footer") is not None
    linking = parsed(hostile_previews / "ch01.html")
    assert linking.select_one("meta[name='seriesbook-previews']")["content"] == "_previews/ch01.js"
    assert linking.select_one("div.footer") is not None
    data_file = hostile_previews / "_previews" / "ch01.js"
    script = data_file.read_text(encoding="utf-8")
    assert not {"<", ">", "\u2028", "\u2029"} & set(script)
    stub = "let got; const seriesbookPreviews = (d) => { got = d; };"
    read = subprocess.run(
        ["node", "-e", f"{stub}\n{script}\nprocess.stdout.write(JSON.stringify(got));"],
        capture_output=True, text=True, check=True,
    )
    preview = json.loads(read.stdout)["p"]["ch02.html#sec-2-1"]
    assert preview["t"] == f"§2.1 {HOSTILE_TITLE}"
    assert preview["b"][0] == ["d", HOSTILE_ALT]
    inlined = BeautifulSoup(f"<script>{script}</script><p>after</p>", "html5lib")
    assert [p.get_text() for p in inlined.select("p")] == ["after"]
    published = json.loads((hostile_previews / "seriesbook-previews.json").read_text("utf-8"))
    assert published["previews"]["sec-2-1"]["t"] == f"§2.1 {HOSTILE_TITLE}"


def test_a_title_with_markup_is_text_on_its_page_and_the_status_page(tmp_path: Path) -> None:
    """An untranslated § title ``<!--<script> </script> "'&`` (its markup escaped in the
    Markdown): the English page, its table of contents and the translation status page keep
    it as text and go on to their end."""
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    with (book / "ch01.md").open("a", encoding="utf-8") as chapter:
        chapter.write('\n## §1.1 \\<!--\\<script> \\</script> "\'& 标题\n\n未译的段落。\n')
    site = english_build(book)
    for name in ("ch01.html", "translation-status.html"):
        page = parsed(site / name)
        # as the page shows it: text (smart quotes: "<!–<script> </script> “’& 标题")
        shown = [element for element in page.select("h2, td, a")
                 if "<script> </script>" in element.get_text() and "& 标题" in element.get_text()]
        assert shown, name
        assert not page.select("body script:-soup-contains('</script>')"), name
        assert page.select_one("div.footer") is not None, name  # the page goes on to its end


def _hand_made_escape(node: object) -> bool:
    """``from html import escape``, ``html.escape(…)``, ``….replace("</", …)``."""
    import ast

    if isinstance(node, ast.ImportFrom):
        return node.module in {"html", "markupsafe"} and any(
            alias.name == "escape" for alias in node.names)
    if isinstance(node, ast.Attribute):
        return (node.attr == "escape" and isinstance(node.value, ast.Name)
                and node.value.id in {"html", "markupsafe"})
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "replace" and bool(node.args)
            and isinstance(node.args[0], ast.Constant)
            and str(node.args[0].value).startswith(("</", "<!--")))


def test_pages_and_scripts_are_escaped_only_by_core_escape() -> None:
    """One function per context (read from the code's AST): no module but ``core.escape``
    escapes HTML itself (``html.escape``) or patches JSON for a script (``.replace("</"``)."""
    import ast

    import seriesbook

    package = Path(seriesbook.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        if path == package / "core" / "escape.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _hand_made_escape(node):
                found.append(f"{path.relative_to(package)}:{getattr(node, 'lineno', 0)}")
    assert not found, found


# --- command output a terminal can trust ------------------------------------------------------

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b1m\r"


@pytest.fixture
def hostile_book(tmp_path: Path) -> Path:
    """The labels book with control characters in its directory's name (every file:line
    shows it), the chapter title, a source heading (one that leaves a gap, so check names it)
    and a msgstr."""
    book = tmp_path / f"book{HOSTILE}"
    shutil.copytree(ROOT, book)
    chapter = book / "ch01.md"
    title = "# 第1章 图之后"
    text = chapter.read_text(encoding="utf-8").replace(title, f"{title}{HOSTILE}", 1)
    text += f"\n## §1.1 控制{HOSTILE}字符\n\n未译的段落。\n\n## §1.3 跳号\n\n正文。\n"
    chapter.write_text(text, encoding="utf-8")
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(
        text.replace('"Kernel"', '"Kernel\\033]0;pwned\\007"'), encoding="utf-8"
    )
    return book


# (editions prints only language codes: the hostile path below covers it)
@pytest.mark.parametrize("command", [["translations"], ["stats"], ["check"], ["renumber"]])
def test_command_text_output_reaches_the_terminal_escaped(
    hostile_book: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    from seriesbook.commands.cli import main

    main([*command, str(hostile_book)])
    captured = capsys.readouterr()
    assert_terminal_safe(captured.out)
    assert_terminal_safe(captured.err)
    assert "\\u001b]0;pwned\\u0007" in captured.out + captured.err  # shown, escaped
    if command == ["translations"]:
        assert "控制\\u001b]0;pwned\\u0007" in captured.out  # shown, escaped, not dropped


def test_json_output_stays_json_and_terminal_safe(
    hostile_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from seriesbook.commands.cli import main

    main(["translations", str(hostile_book), "--format", "json"])
    out = capsys.readouterr().out
    assert_terminal_safe(out)
    assert "\\u001b]0;pwned\\u0007" in json.dumps(json.loads(out))  # the text, read back


def test_a_closed_pipe_ends_the_command_without_a_traceback(tmp_path: Path) -> None:
    """``seriesbook update-po | head -1``: more output than a pipe holds, the reader gone."""
    import subprocess
    import sys

    templates = tmp_path / "gettext"
    templates.mkdir()
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    for number in range(1500):
        (templates / f"page-with-a-long-name-{number:05}.pot").write_text(header, "utf-8")
    (tmp_path / "locale" / "en" / "LC_MESSAGES").mkdir(parents=True)
    script = Path(sys.executable).parent / "seriesbook"
    result = subprocess.run(
        f"'{script}' update-po -p gettext -d locale | head -1",
        shell=True, cwd=tmp_path, capture_output=True, text=True, check=False,
    )
    assert result.stdout.startswith("Create: ")
    assert "Traceback" not in result.stderr and "BrokenPipeError" not in result.stderr, (
        result.stderr
    )


def test_a_translation_adding_markup_is_a_mismatch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A msgstr ``<!--`` would hide the rest of the page (MyST passes raw HTML through)."""
    from seriesbook.commands.cli import main

    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace(
        '"The paragraph after the diagram."', '"The paragraph <!-- after the diagram."'
    ), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", str(book)]) == 1
    out = capsys.readouterr().out
    assert "i18n-mismatch" in out and "raw HTML: added <!--" in out, out


def test_update_po_and_new_print_hostile_names_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The names these commands print come from the user's files and flags: a template named
    with an escape sequence, a volume titled with one."""
    from seriesbook.commands.cli import main

    templates = tmp_path / "gettext"
    templates.mkdir()
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    (templates / f"ch{HOSTILE}01.pot").write_text(header, "utf-8")
    (tmp_path / "locale" / "en" / "LC_MESSAGES").mkdir(parents=True)
    assert main(["update-po", "-p", str(templates), "-d", str(tmp_path / "locale")]) == 0
    assert main(["new", str(tmp_path / f"vol{HOSTILE}"), "--title", f"卷{HOSTILE}"]) == 0
    captured = capsys.readouterr()
    assert_terminal_safe(captured.out)
    assert_terminal_safe(captured.err)
    assert "ch\\u001b]0;pwned\\u0007" in captured.out  # named, escaped, not dropped


def _subcommands() -> list[str]:
    import argparse

    from seriesbook.commands.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices)


@pytest.mark.parametrize("command", sorted(set(_subcommands()) - {"serve", "new"}))
def test_every_command_names_a_hostile_path_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A path the user typed is printed back (not found, not a book): escaped, whatever the
    command (``serve`` would serve, ``new`` is tested above with a hostile name)."""
    from seriesbook.commands.cli import main

    hostile = str(tmp_path / f"book{HOSTILE}")
    args = {
        "convert": ["convert", "zh_TW", "-p", hostile],
        "update-po": ["update-po", "-p", hostile],
        "repin": ["repin", hostile, "--to", "torch=v2.12.0"],
    }.get(command, [command, hostile])
    with contextlib.suppress(SystemExit):  # argparse's own usage errors
        main(args)
    captured = capsys.readouterr()
    assert_terminal_safe(captured.out)
    assert_terminal_safe(captured.err)
    assert "book\\u001b]0;pwned\\u0007" in captured.out + captured.err  # named, escaped
