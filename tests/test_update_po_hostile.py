"""``seriesbook update-po`` against a hostile translator's catalogs (issue 31).

Each case of the sweep is one test on templates and catalogs written by hand (no Sphinx
build: ``update-po`` reads only ``.pot`` and ``.po`` files), then a Hypothesis run of random
edits, moves, deletes, restores, flags and comments: after every update ``msgfmt --check``
passes, no msgstr or comment is lost, and nothing is left non-fuzzy that a human did not
confirm.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seriesbook.commands.cli import main

HEADER = """\
# SOME DESCRIPTIVE TITLE.
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: Book \\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2026-12-02 10:28+0000\\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"
"Language-Team: LANGUAGE <LL@li.org>\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset={charset}\\n"
"Content-Transfer-Encoding: 8bit\\n"

"""

PO_HEADER = """\
msgid ""
msgstr ""
"Project-Id-Version: Book \\n"
"Report-Msgid-Bugs-To: \\n"
"POT-Creation-Date: 2026-12-02 10:28+0000\\n"
"PO-Revision-Date: 2026-12-02 10:27+0000\\n"
"Last-Translator: seriesbook\\n"
"Language: en\\n"
"Language-Team: en <LL@li.org>\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset={charset}\\n"
"Content-Transfer-Encoding: 8bit\\n"

"""

LONG_A = "步长决定了索引如何映射到存储中的偏移量。"
LONG_A2 = "步长决定了每个索引如何映射到存储中的偏移量。"
LONG_B = "视图与原张量共享存储，修改一个会影响另一个。"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def pot(tmp_path: Path, pages: dict[str, list[str]]) -> Path:
    """Templates as ``make gettext`` writes them, one per page."""
    directory = tmp_path / "gettext"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir()
    for page, msgids in pages.items():
        body = "".join(
            f"#: ../../{page}.md:{line}\nmsgid {_quote(msgid)}\nmsgstr \"\"\n\n"
            for line, msgid in enumerate(msgids, 1)
        )
        (directory / f"{page}.pot").write_text(HEADER.format(charset="UTF-8") + body, "utf-8")
    return directory


def po(tmp_path: Path, page: str, body: str, language: str = "en", charset: str = "utf-8") -> Path:
    path = tmp_path / "locale" / language / "LC_MESSAGES" / f"{page}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PO_HEADER.format(charset=charset) + body, "utf-8")
    return path


def run(tmp_path: Path, templates: Path, capsys: pytest.CaptureFixture[str], *args: str) -> int:
    capsys.readouterr()
    return main(["update-po", "-p", str(templates), "-d", str(tmp_path / "locale"), *args])


def read(path: Path) -> Catalog:
    from seriesbook.editions import PreviousParser

    catalog = Catalog()
    with path.open(encoding="utf-8") as stream:
        PreviousParser(catalog, abort_invalid=True).parse(stream)
    return catalog


def live(path: Path, msgid: str) -> Message:
    message = read(path).get(msgid)
    assert message is not None, f"{msgid!r} not live in {path.name}"
    return message


def msgfmt_check(path: Path) -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("gettext's msgfmt is missing: apt-get install gettext")
    for catalog in sorted(path.rglob("*.po")):
        result = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(catalog)], capture_output=True, text=True
        )
        assert result.returncode == 0, f"{catalog}: {result.stderr}\n{catalog.read_text()}"


def second_run_is_a_no_op(tmp_path: Path, templates: Path, capsys: pytest.CaptureFixture[str]):
    before = {p: p.read_bytes() for p in (tmp_path / "locale").rglob("*.po")}
    assert run(tmp_path, templates, capsys) == 0
    after = {p: p.read_bytes() for p in (tmp_path / "locale").rglob("*.po")}
    assert after == before
    assert "Update:" not in capsys.readouterr().out


# --- an outdated translation never comes back as correct --------------------------------------


def test_a_fuzzy_paragraph_moved_to_another_page_stays_fuzzy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch01 = po(tmp_path, "ch01", f'#, fuzzy\n#| msgid "{LONG_A}"\nmsgid "{LONG_A2}"\n'
              'msgstr "Strides map an index."\n')
    po(tmp_path, "ch02", "")
    templates = pot(tmp_path, {"ch01": [], "ch02": [LONG_A2]})
    assert run(tmp_path, templates, capsys) == 0
    moved = live(ch01.parent / "ch02.po", LONG_A2)
    assert moved.fuzzy and moved.string == "Strides map an index."
    assert moved.previous_id == [LONG_A]  # the text its translation was made from
    assert "seriesbook: translation carried from ch01.po" in moved.user_comments
    (kept,) = read(ch01).obsolete.values()  # and kept where it was, flag and all
    assert kept.fuzzy and kept.string == "Strides map an index."
    msgfmt_check(tmp_path)
    second_run_is_a_no_op(tmp_path, templates, capsys)


def test_a_fuzzy_paragraph_deleted_then_restored_is_still_fuzzy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch01 = po(tmp_path, "ch01", f'# my note\n#, fuzzy, no-python-format\n#| msgid "{LONG_A}"\n'
              f'msgid "{LONG_A2}"\nmsgstr "Strides map 100% of an index."\n')
    assert run(tmp_path, pot(tmp_path, {"ch01": []}), capsys) == 0  # deleted
    text = ch01.read_text("utf-8")
    assert f'# my note\n#, fuzzy, no-python-format\n#~| msgid "{LONG_A}"\n#~ msgid' in text
    templates = pot(tmp_path, {"ch01": [LONG_A2]})
    assert run(tmp_path, templates, capsys) == 0  # restored
    restored = live(ch01, LONG_A2)
    assert restored.fuzzy and "no-python-format" in restored.flags
    assert restored.previous_id == [LONG_A] and "my note" in restored.user_comments
    assert not read(ch01).obsolete
    msgfmt_check(tmp_path)
    second_run_is_a_no_op(tmp_path, templates, capsys)


def test_a_confirmed_paragraph_restored_from_obsolete_is_fuzzy_naming_its_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Babel's ``write_po`` drops the flags of ``#~`` entries: what comes back from one cannot be
    trusted, so it comes back fuzzy with a comment."""
    ch01 = po(tmp_path, "ch01", f'#~ msgid "{LONG_B}"\n#~ msgstr "A view shares storage."\n')
    templates = pot(tmp_path, {"ch01": [LONG_B]})
    assert run(tmp_path, templates, capsys) == 0
    restored = live(ch01, LONG_B)
    assert restored.fuzzy and restored.string == "A view shares storage."
    assert any("obsolete" in comment for comment in restored.user_comments)
    second_run_is_a_no_op(tmp_path, templates, capsys)


def test_a_fuzzy_msgstr_survives_an_exact_match_in_another_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch01 = po(tmp_path, "ch01", f'#, fuzzy\n#| msgid "{LONG_B}"\nmsgid "{LONG_A}"\n'
              'msgstr "My half-done work."\n')
    po(tmp_path, "ch02", f'msgid "{LONG_A2}"\nmsgstr "Strides map each index."\n')
    templates = pot(tmp_path, {"ch01": [LONG_A2], "ch02": [LONG_A2]})
    assert run(tmp_path, templates, capsys) == 0
    carried = live(ch01, LONG_A2)
    assert carried.fuzzy and carried.string == "Strides map each index."
    assert "seriesbook: translation carried from ch02.po" in carried.user_comments
    (kept,) = read(ch01).obsolete.values()
    assert kept.string == "My half-done work." and kept.fuzzy and kept.previous_id == [LONG_B]
    msgfmt_check(tmp_path)
    second_run_is_a_no_op(tmp_path, templates, capsys)


def test_a_translation_of_another_context_is_carried_fuzzy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ch01 = po(tmp_path, "ch01", 'msgctxt "table"\nmsgid "步长"\nmsgstr "Stride"\n')
    templates = pot(tmp_path, {"ch01": ["步长"]})
    assert run(tmp_path, templates, capsys) == 0
    carried = live(ch01, "步长")
    assert carried.fuzzy and carried.string == "Stride"
    assert "seriesbook: translation carried from ch01.po, context 'table'" in (
        carried.user_comments
    )
    second_run_is_a_no_op(tmp_path, templates, capsys)


def test_comments_flags_and_previous_text_are_kept_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Comments that look like ours, long ones (Babel wraps them at 76 columns),
    ``no-python-format``; and no ``python-format`` guessed from ``50% done``."""
    long_comment = "checked against the glossary; " * 6
    ch01 = po(tmp_path, "ch01", (
        "# seriesbook: the translation of a similar message, or so I thought\n"
        f"# {long_comment.strip()}\n"
        f'#, no-python-format\nmsgid "完成 50% done"\nmsgstr "50% 完成"\n\n'
        f'#, fuzzy\n#| msgid "{LONG_B}"\nmsgid "{LONG_A}"\nmsgstr "A view."\n'
    ))
    templates = pot(tmp_path, {"ch01": ["完成 50% done", LONG_A]})
    assert run(tmp_path, templates, capsys) == 0
    kept = live(ch01, "完成 50% done")
    assert kept.user_comments == [
        "seriesbook: the translation of a similar message, or so I thought",
        long_comment.strip(),
    ]
    assert kept.flags == {"no-python-format"} and not kept.fuzzy
    assert live(ch01, LONG_A).previous_id == [LONG_B]
    # a message that looks like a format string, with no flag written: none is added
    po(tmp_path, "ch02", 'msgid "进度 50% done"\nmsgstr "progress 50%"\n')
    templates = pot(tmp_path, {"ch01": ["完成 50% done", LONG_A], "ch02": ["进度 50% done"]})
    assert run(tmp_path, templates, capsys) == 0
    assert "#," not in (ch01.parent / "ch02.po").read_text("utf-8").split('msgid ""')[1]
    msgfmt_check(tmp_path)
    second_run_is_a_no_op(tmp_path, templates, capsys)


# --- a catalog that cannot be read as it declares stops the command ---------------------------


@pytest.mark.parametrize(
    ("charset", "said"),
    [("ISO-8859-1", "declares charset 'iso-8859-1'"), ("no-such-charset", "not a known encoding")],
)
def test_a_catalog_declaring_another_charset_stops_the_update(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], charset: str, said: str
) -> None:
    ch01 = po(tmp_path, "ch01", f'msgid "{LONG_A}"\nmsgstr "测试"\n', charset=charset)
    other = po(tmp_path, "ch02", "")
    before = ch01.read_bytes(), other.read_bytes()
    assert run(tmp_path, pot(tmp_path, {"ch01": [LONG_A], "ch02": ["x"]}), capsys) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{ch01}:12: " in err and said in err, err
    assert "nothing was written" in err
    assert (ch01.read_bytes(), other.read_bytes()) == before


def test_a_duplicate_msgid_stops_the_update(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twice = f'msgid "{LONG_A}"\nmsgstr "one"\n\nmsgid "{LONG_A}"\nmsgstr "two"\n'
    ch01 = po(tmp_path, "ch01", twice)
    before = ch01.read_bytes()
    assert run(tmp_path, pot(tmp_path, {"ch01": [LONG_A]}), capsys) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{ch01}:18: duplicate msgid" in err, err
    assert ch01.read_bytes() == before


def test_a_hyphenated_language_directory_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "locale" / "zh-TW" / "LC_MESSAGES").mkdir(parents=True)
    templates = pot(tmp_path, {"ch01": [LONG_A]})
    assert run(tmp_path, templates, capsys) == 0
    created = tmp_path / "locale" / "zh-TW" / "LC_MESSAGES" / "ch01.po"
    assert '"Language: zh_TW\\n"' in created.read_text("utf-8")
    (tmp_path / "locale" / "not a language" / "LC_MESSAGES").mkdir(parents=True)
    assert run(tmp_path, templates, capsys) == 2
    assert "'not a language'" in capsys.readouterr().err


# --- Hypothesis: random edits, moves, deletes, restores, flags and comments -------------------

TEXTS = [f"第{n}段：张量的存储、步长与视图在这里各有一句话。" for n in range(6)]
TEXTS += [text.replace("在这里", "在此处") for text in TEXTS[:3]]  # near ones: edits
PAGES = ["ch01", "ch02"]

layouts = st.lists(
    st.dictionaries(st.sampled_from(PAGES), st.lists(st.sampled_from(TEXTS), unique=True,
                                                      max_size=4), min_size=2, max_size=2),
    min_size=1, max_size=4,
)
human = st.lists(
    st.tuples(
        st.sampled_from(PAGES),
        st.sampled_from(TEXTS),
        st.sampled_from(["translate", "confirm", "fuzzy", "comment", "flag"]),
        st.sampled_from(["Strides.", "A view", "seriesbook: looks like ours", "x\ty"]),
    ),
    max_size=6,
)


def _all_entries(locale: Path) -> list[Message]:
    return [
        message
        for path in sorted(locale.rglob("*.po"))
        for catalog in [read(path)]
        for message in [*list(catalog)[1:], *catalog.obsolete.values()]
    ]


def _act(locale: Path, page: str, msgid: str, action: str, text: str) -> bool:
    """A translator's edit of a live entry, as Babel would write it back; whether it confirmed."""
    from seriesbook.editions import write_catalog

    path = locale / "en" / "LC_MESSAGES" / f"{page}.po"
    if not path.exists():
        return False
    catalog = read(path)
    message = catalog.get(msgid)
    if message is None:
        return False
    if action == "translate":
        message.string = f"{text} ({msgid[:3]})"
        message.flags.add("fuzzy")  # work in progress
    elif action == "confirm" and message.string:
        message.flags.discard("fuzzy")
    elif action == "fuzzy":
        message.flags.add("fuzzy")
    elif action == "comment":
        message.user_comments.append(text)
    elif action == "flag":
        message.flags.add("no-python-format")
    path.write_bytes(write_catalog(catalog))
    return action == "confirm" and bool(message.string)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(st.tuples(layouts, human), min_size=1, max_size=3))
def test_update_po_never_loses_or_fakes_a_translation(
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    steps: list[tuple[list[dict[str, list[str]]], list[tuple[str, str, str, str]]]],
) -> None:
    tmp_path = tmp_path_factory.mktemp("catalogs")
    locale = tmp_path / "locale"
    (locale / "en" / "LC_MESSAGES").mkdir(parents=True)
    confirmed: set[tuple[str, str]] = set()  # (msgid, msgstr) a human confirmed
    for layout_steps, edits in steps:
        for layout in layout_steps:
            before = _all_entries(locale)
            templates = pot(tmp_path, layout)
            assert run(tmp_path, templates, capsys) == 0
            after = _all_entries(locale)
            strings = {m.string for m in after}
            comments = [c for m in after for c in m.user_comments]
            for message in before:
                assert message.string in strings or not message.string, message
                for comment in message.user_comments:
                    assert comment in comments, comment
            for message in after:
                if message.string and not message.fuzzy:
                    assert (str(message.id), message.string) in confirmed, message
            msgfmt_check(tmp_path)
        for page, msgid, action, text in edits:
            message = None
            if _act(locale, page, msgid, action, text):
                path = locale / "en" / "LC_MESSAGES" / f"{page}.po"
                message = read(path).get(msgid)
                confirmed.add((msgid, str(message.string)))
        second_run_is_a_no_op(tmp_path, templates, capsys)


def test_check_reports_a_catalog_declaring_another_charset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check`` said nothing while ``msgfmt`` failed: now it names the file and line."""
    book = tmp_path / "book"
    shutil.copytree(Path(__file__).parent / "roots" / "test-translations-book", book)
    catalog = book / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = catalog.read_text("utf-8")
    catalog.write_text(text.replace("charset=utf-8", "charset=ISO-8859-1").replace(
        "charset=UTF-8", "charset=ISO-8859-1"), "utf-8")
    line = next(n for n, row in enumerate(catalog.read_text("utf-8").split("\n"), 1)
                if "charset=" in row)
    capsys.readouterr()
    assert main(["check", str(book)]) == 1
    out = capsys.readouterr().out
    assert f"{catalog}:{line}" in out and "declares charset 'iso-8859-1'" in out, out
