"""Hostile options, start-up warnings, exit codes and editions (issue 10, items 3, 4, 5, 7).

Each case is the smallest book of :mod:`hostile` with a few changes; for each: no traceback
anywhere, the expected problem codes at file:line (or exit 2 with one line naming the file, line
and option), and ``seriesbook check`` agreeing with the ``-W`` build of every edition.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import MISSING, dataclass, field
from pathlib import Path

import pytest
from hostile import Content, Link, Outcome, run_book, write_book
from seriesbook.commands.cli import main
from seriesbook.core.config import (
    PREFIX,
    book_editions,
    language_key,
    option_fields,
    source_language,
)
from sphinx.config import Config

SOURCE = '{"repo": "https://example.org/demo", "ref": "v1", "path": "demo"'
EN_ONLY_WARNING = '''
def setup(app):
    from sphinx.util import logging

    def english_only(app, config):
        if config.language == "en":
            logging.getLogger("conf").warning("only the English edition warns")

    app.connect("config-inited", english_only)
'''


def po(*messages: tuple[str, str]) -> str:
    """A catalog of the en edition with *messages* (msgid, msgstr)."""
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n'
    )
    return header + "".join(f'\nmsgid "{i}"\nmsgstr "{s}"\n' for i, s in messages)


@dataclass(frozen=True)
class Case:
    """One hostile input and what every run must say about it."""

    id: str
    conf: str = ""
    files: Mapping[str, Content] = field(default_factory=dict)
    status: int = 0
    #: check's problems as (code, "file:line" / "file" / "None"), all of them
    problems: tuple[tuple[str, str], ...] = ()
    #: for exit 2: text the one stderr line must contain (paths relative to the book)
    error: tuple[str, ...] = ()


def bad_option(id: str, conf: str, *error: str) -> Case:
    option = conf.partition(" ")[0]
    return Case(id, conf=conf, status=2, error=("conf.py:12: ", f"{option}: ", *error))


CASES = [
    # --- item 5: every option validated at config-inited, one line naming it -------------------
    bad_option("sources-list", "seriesbook_sources = [1]", "must be a dict"),
    bad_option("sources-url", 'seriesbook_sources = {"demo": "https://x"}', "source 'demo'"),
    bad_option(
        "sources-unknown-key", f'seriesbook_sources = {{"demo": {SOURCE}, "branch": "x"}}}}',
        "unknown key 'branch'",
    ),
    bad_option(
        "sources-ref-int", 'seriesbook_sources = {"demo": {"repo": "x", "ref": 1}}',
        "ref must be a string",
    ),
    bad_option(
        "sources-generated-list",
        f'seriesbook_sources = {{"demo": {SOURCE}, "generated": ["a"]}}}}',
        "generated must be a dict",
    ),
    bad_option("sources-name-int", "seriesbook_sources = {1: {}}", "source name"),
    bad_option("gates-str", 'seriesbook_gates = "x"', "must be a dict"),
    bad_option("gates-unknown", 'seriesbook_gates = {"min_words": 5}', "unknown gate 'min_words'"),
    bad_option("gates-negative", 'seriesbook_gates = {"min_han": -1}', "min_han must be"),
    bad_option("gates-bool", 'seriesbook_gates = {"min_han": True}', "min_han must be"),
    bad_option("gates-str-value", 'seriesbook_gates = {"min_han": "10"}', "min_han must be"),
    bad_option("patterns-str", 'seriesbook_chapter_patterns = "第(章"', "must be a dict"),
    bad_option(
        "patterns-bad-regex", 'seriesbook_chapter_patterns = {"zh": "第(章"}',
        "not a regular expression",
    ),
    bad_option(
        "patterns-no-group", r'seriesbook_chapter_patterns = {"zh": r"第(\d+)章"}',
        "no group (?P<chapter>",
    ),
    bad_option("patterns-int", 'seriesbook_chapter_patterns = {"zh": 5}', "'zh' must map"),
    bad_option("lock-file-int", "seriesbook_lock_file = 5", "must be a string, not 5 (int)"),
    bad_option("source-paths-list", 'seriesbook_source_paths = ["x"]', "must be a dict"),
    bad_option("source-paths-int", 'seriesbook_source_paths = {"demo": 5}', "'demo' must map"),
    bad_option(
        "edition-url-unknown-field", 'seriesbook_edition_url = "{bogus}/{target}"',
        "unknown field {bogus}", "{rtd_language}",
    ),
    bad_option("edition-url-positional", 'seriesbook_edition_url = "{}/{target}"', "field {}"),
    bad_option("edition-url-unbalanced", 'seriesbook_edition_url = "../{target"', "not a valid"),
    bad_option("edition-url-attribute", 'seriesbook_edition_url = "{target.upper}"', "unknown"),
    bad_option("edition-url-spec", 'seriesbook_edition_url = "{target:d}"', "not a valid"),
    bad_option(
        "download-url-page-field", 'seriesbook_download_url = "/dl/{target}.{format}"',
        "unknown field {target}", "{format}",
    ),
    bad_option(
        "editions-str", 'seriesbook_editions = "zh_CN"', "not the string 'zh_CN'"
    ),
    bad_option("editions-int", 'seriesbook_editions = ["zh_CN", 5]', "non-empty string"),
    bad_option("editions-twice", 'seriesbook_editions = ["zh_CN", "zh_CN"]', "twice"),
    bad_option("search-cache-str", 'seriesbook_search_cache = "no"', "True or False"),
    bad_option("default-source-none", "seriesbook_default_source = None", "must be a string"),
    bad_option("repository-url-int", "seriesbook_repository_url = 1", "must be a string"),
    bad_option("suffixes-str", 'seriesbook_source_suffixes = ".py"', "not the string '.py'"),
    bad_option("mermaid-dir-int", "seriesbook_mermaid_dir = 5", "must be a string"),
    # tricky but valid
    Case("sources-generated", f'seriesbook_sources = {{"demo": {SOURCE}, '
         '"generated": {"pkg/gen_*.py": "the generator, pkg/core.py"}}}'),
    Case("edition-url-absolute", 'seriesbook_edition_url = "/{rtd_language}/latest/{target}"'),
    Case("editions-tuple", 'seriesbook_editions = ("zh_CN", "en")'),
    Case("patterns-more-languages", r'seriesbook_chapter_patterns = {"zh": r"第(?P<chapter>\d+)章",'
         r' "en": r"Chapter (?P<chapter>\d+)", "ja": r"第(?P<chapter>\d+)章"}'),
    # --- item 4: errors that stop reading the book: exit 2, one line naming the file -----------
    Case("conf-syntax", conf="x = (", status=2, error=("conf.py:12: syntax error",)),
    Case("conf-raises", conf="raise RuntimeError('boom')", status=2,
         error=("conf.py:12: ", "RuntimeError: boom")),
    Case("conf-handler-raises", conf="def setup(app):\n    app.connect('config-inited', boom)\n"
         "def boom(app, config):\n    raise ValueError('no')", status=2,
         error=("conf.py:15: ", "ValueError: no")),
    Case("unknown-extension", conf='extensions = ["seriesbook", "nope_ext"]', status=2,
         error=("conf.py:12: ", "Could not import extension nope_ext")),
    Case("chapter-not-utf8", files={"ch02.md": "# 第2章 调度\n\n".encode() + b"\xff\xfe\n"},
         status=2, error=("ch02.md:3: not UTF-8",)),
    # Sphinx itself skips a chapter it cannot find (and says so twice, at a made-up ch02.rst)
    Case("chapter-dangling-link", files={"ch02.md": Link("gone.md")}, status=1,
         problems=(("sphinx", "ch02.rst"), ("sphinx", "ch02.rst"),
                   ("toc.not_readable", "index.md:3"))),
    # --- item 3: warnings while Sphinx starts are problems too ---------------------------------
    Case("myst-section-ref", conf='myst_enable_extensions = ["section_ref"]', status=1,
         problems=(("sec-section-ref", "None"),)),
    Case("myst-section-ref-suppressed", conf='myst_enable_extensions = ["section_ref"]\n'
         'suppress_warnings = ["seriesbook.sec-section-ref"]'),
    Case("sphinx-option-type", conf='numfig = "yes"', status=1, problems=(("sphinx", "None"),)),
    Case("language-none", conf="language = None\ndel seriesbook_editions", status=1,
         problems=(("sphinx", "None"),)),  # Sphinx falls back to "en", and says so
    Case("editions-empty", conf="seriesbook_editions = []"),  # the default: conf.py's language
    Case("translated-edition-start-up", conf=EN_ONLY_WARNING, status=1,
         problems=(("sphinx", "None"),)),
    Case("translated-edition-only-warning", status=1, files={
        "ch02.md": "# 第2章 调度\n\n## §2.1 键集\n\n参见第1章。\n\n调度器很简单。\n",
        "locale/en/LC_MESSAGES/ch02.po": po(("调度器很简单。", "The dispatcher is {ref}`gone`.")),
    }, problems=(("i18n.inconsistent_references", "ch02.md:7"), ("ref.ref", "ch02.md:7"))),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_input(tmp_path: Path, case: Case) -> None:
    outcome = run_book(tmp_path, case.files, conf=case.conf)
    assert outcome.tracebacks == []
    assert outcome.stray_output == ""
    assert outcome.check_status == case.status, outcome.check_stderr or outcome.check_stdout
    if case.status == 2:
        assert_one_line(outcome, case.error)
    else:
        assert outcome.check_stderr == ""
        found = sorted((p.code, p.at()) for p in outcome.problems)
        assert found == sorted(case.problems)
    assert outcome.agreement() == ""


def assert_one_line(outcome: Outcome, expected: tuple[str, ...]) -> None:
    assert outcome.check_stdout == ""
    lines = outcome.check_stderr.splitlines()
    assert len(lines) == 1, outcome.check_stderr
    line = lines[0].replace(f"{outcome.book}/", "")
    assert line.startswith("seriesbook: ")
    for text in expected:
        assert text in line


def test_unreadable_chapter_is_one_line(tmp_path: Path) -> None:
    """Root reads every file, so the PermissionError Sphinx raises is made here."""
    from seriesbook.commands.stops import stopped_reading

    error = PermissionError(13, "Permission denied", str(tmp_path / "ch02.md"))
    stopped = stopped_reading(error, tmp_path / "conf.py")
    assert str(stopped) == f"{tmp_path / 'ch02.md'}: Permission denied"


def test_problem_of_a_translated_edition_says_which(tmp_path: Path) -> None:
    outcome = run_book(tmp_path, conf=EN_ONLY_WARNING, build=False)
    assert [p.code for p in outcome.problems] == ["sphinx"]
    assert "only the English edition warns (the en edition)" in outcome.check_stdout


# --- item 4: every command honours the exit-code contract ---------------------------------------


@pytest.mark.parametrize("command", ["check", "stats", "lock", "editions"])
@pytest.mark.parametrize(
    ("conf", "expected"),
    [
        ("x = (", "conf.py:12: syntax error"),
        ('seriesbook_gates = "x"', "conf.py:12: seriesbook_gates: must be a dict"),
        ('extensions = ["nope_ext"]', "conf.py:12: Could not import extension nope_ext"),
    ],
)
def test_every_command_exits_2_with_one_line(
    tmp_path: Path, command: str, conf: str, expected: str
) -> None:
    book = write_book(tmp_path / "book", conf=conf)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([command, str(book)])
    assert status == 2
    assert out.getvalue() == ""
    lines = err.getvalue().replace(f"{book}/", "").splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"seriesbook: {expected}")


# --- item 7: one rule for the editions and for per-language tables -----------------------------


ENGLISH_VOLUME = {
    "conf.py": 'project = "Demo"\nlanguage = "en"\nextensions = ["seriesbook"]\n'
    'exclude_patterns = ["_build", "demo"]\n'
    'seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}\n',
    "index.md": "# Demo\n\n```{toctree}\nch01\nch02\n```\n",
    "ch01.md": "# Chapter 1 Tensors\n\n## §1.1 Storage\n\nStorage holds the bytes.\n",
    "ch02.md": "# Chapter 2 Dispatch\n\n## §2.1 Keys\n\nSee Chapter 1 and §1.1.\n",
}


def test_english_volume_with_default_editions_is_not_a_translation(tmp_path: Path) -> None:
    """Bug 7: a sibling volume in English showed "0% translated … (简体中文)" on every page."""
    outcome = run_book(tmp_path, ENGLISH_VOLUME)
    assert outcome.tracebacks == []
    assert outcome.check_status == 0
    assert list(outcome.builds) == ["en"]  # what `seriesbook editions` printed
    assert outcome.builds["en"].ok
    html = (tmp_path / "_build" / "en" / "html" / "ch02.html").read_text(encoding="utf-8")
    assert "seriesbook-translation-notice" not in html
    assert "translated" not in html
    assert "简体中文" not in html
    assert 'href="ch01.html#ch-1"' in html  # "Chapter 1" links: the en pattern is the book's


def test_default_editions_are_the_books_language(tmp_path: Path) -> None:
    outcome = run_book(tmp_path, conf="del seriesbook_editions")
    assert outcome.tracebacks == []
    assert outcome.check_status == 0
    assert list(outcome.builds) == ["zh_CN"]
    assert outcome.builds["zh_CN"].ok


def config(raw: dict[str, object], overrides: dict[str, object]) -> Config:
    """A Config as Sphinx makes it from conf.py's namespace and -D overrides, our options added."""
    conf = Config(dict(raw), overrides)
    for f in option_fields():
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        conf.add(PREFIX + f.name, default, "env", ())
    return conf


@pytest.mark.parametrize(
    ("raw", "overrides", "editions"),
    [
        ({"language": "en"}, {}, ["en"]),
        ({"language": "zh_CN"}, {"language": "en"}, ["zh_CN"]),  # -D builds a translation
        ({}, {"language": "ja"}, ["ja"]),
        ({}, {}, ["en"]),
        ({"language": "zh_CN", "seriesbook_editions": ["zh_CN", "en"]}, {}, ["zh_CN", "en"]),
    ],
)
def test_book_editions(
    raw: dict[str, object], overrides: dict[str, object], editions: list[str]
) -> None:
    conf = config(raw, overrides)
    assert book_editions(conf) == editions
    assert source_language(conf) == editions[0]


@pytest.mark.parametrize(
    ("language", "keys", "key"),
    [
        ("zh_CN", ["zh", "en"], "zh"),
        ("zh_CN", ["zh_CN", "zh"], "zh_CN"),
        ("zh-TW", ["zh"], "zh"),
        ("en", ["zh"], None),
        ("", ["zh"], None),
        (None, ["zh"], None),
        ("english", ["en"], None),
    ],
)
def test_language_key(language: str | None, keys: list[str], key: str | None) -> None:
    assert language_key(language, keys) == key
