"""Translated messages' parses kept across builds give the same edition, only cheaper."""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from docutils.frontend import get_default_settings
from docutils.utils import new_document
from myst_parser.parsers.sphinx_ import MystParser as MystsOwnParser
from seriesbook.editions import _kept_messages
from seriesbook.editions._kept_messages import CACHE_NAME, KeptMessages
from seriesbook.editions._parsing import TRANSLATED_SOURCE_SUFFIX, MystParser
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
KEPT_LOG = re.compile(r"(\d+) messages from the kept parses, (\d+) kept anew")


class Built:
    """What a build wrote and said, with its source directory written as <src>."""

    def __init__(self, app: SphinxTestApp, src: Path) -> None:
        out = Path(app.outdir)
        self.html = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.html"))}
        self.warnings = app.warning.getvalue().replace(str(src), "<src>").splitlines()
        self.doctrees = {
            name: app.env.get_doctree(name).pformat().replace(str(src), "<src>")
            for name in sorted(app.env.found_docs)
        }
        found = KEPT_LOG.findall(app.status.getvalue())
        self.hits, self.new = (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)
        self.cache = Path(app.doctreedir) / CACHE_NAME


def _copy(rootdir: Path, tmp_path: Path, name: str) -> Path:
    src = tmp_path / name
    shutil.copytree(rootdir / "test-editions-book", src)
    return src


def _build(make_app: MakeApp, src: Path, jobs: int = 1, *, speedups: bool = True) -> Built:
    app = make_app(
        "html", srcdir=src, parallel=jobs, freshenv=True,
        confoverrides={"language": "en", "seriesbook_speedups": speedups},
    )
    app.build()
    built = Built(app, src)
    app.cleanup()
    return built


def _same(one: Built, other: Built) -> None:
    assert one.html.keys() == other.html.keys()
    assert [name for name in one.html if one.html[name] != other.html[name]] == []
    assert one.warnings == other.warnings
    assert one.doctrees == other.doctrees


@pytest.mark.parametrize("jobs", [1, 2])
def test_kept_parses_give_the_same_edition(
    make_app: MakeApp,
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    jobs: int,
) -> None:
    src = _copy(rootdir, tmp_path, "kept")
    cold = _build(make_app, src, jobs)
    assert cold.hits == 0 and cold.new > 0
    stored = cold.cache.read_bytes()
    warm = _build(make_app, src, jobs)  # -E: a fresh environment, the doctree directory kept
    assert warm.hits == cold.new and warm.new == 0  # every kept message came from the file
    assert warm.cache.read_bytes() == stored  # the current book, no history
    off_src = _copy(rootdir, tmp_path, "off")
    off = _build(make_app, off_src, jobs, speedups=False)
    assert not off.cache.exists()
    _same(cold, off)
    _same(warm, off)


def test_the_file_holds_pages_and_their_plain_messages_only(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    src = _copy(rootdir, tmp_path, "book")
    built = _build(make_app, src)
    with built.cache.open("rb") as stream:
        stored = pickle.load(stream)
    assert set(stored["pages"]) <= set(built.doctrees)
    texts = [text for entries in stored["pages"].values() for text, _source in entries]
    assert "Chapter 2 Dispatch" in texts
    cited = [(text, entry) for entries in stored["pages"].values()
             for (text, _source), entry in entries.items() if "{src}" in text]
    assert cited and all(roles for _, (_blob, _words, roles) in cited)  # seriesbook's own role
    payloads = [payload for entries in stored["pages"].values()
                for payload, _words, _roles in entries.values()]
    blobs = [payload for payload in payloads if isinstance(payload, bytes)]
    plain = [payload for payload in payloads if not isinstance(payload, bytes)]
    assert blobs and plain  # paragraphs of text as their strings, the others pickled
    for blob in blobs:
        assert b"BuildEnvironment" not in blob and b"docutils.frontend" not in blob
    assert all(isinstance(value, str | int) for strings in plain for value in strings)


def _parse_message(app: SphinxTestApp, text: str) -> tuple[str, bool]:
    """Publish *text* as Locale does, for page index; its doctree and whether it was kept."""
    settings = get_default_settings(MystsOwnParser)
    settings.env = app.env
    source = f"{app.srcdir}/index.md:3{TRANSLATED_SOURCE_SUFFIX}"
    document = new_document(source, settings)
    parser = MystParser()
    parser._config, parser._env = app.config, app.env
    parser.parse(text, document)
    kept = _kept_messages._KEPT[app.env]
    return document.pformat(), (text, source) in kept.lookup


KEPT = [
    "Plain text.",
    "Some **bold**, *emphasis*, `code`,\nbroken line and [a link](https://example.org).",
    "Mail [me](mailto:a@example.org).",
    "",
    "Strike ~~this~~.",  # plain text: MyST's strikethrough extension is off
    "Math $x$.",  # likewise dollarmath
    "Cited {src}`pkg/engine.py:5` and {sec}`1.1`, seriesbook's own roles.",
]
NOT_KEPT = [
    "An {unknown-role}`x` here.",
    "See [the engine](ch01.md).",
    "See [below](#sec-1-2).",
    "Footnote[^1].\n\n[^1]: the note",
    "# A heading",
    "- a list",
    "A <b>tag</b>.",
    "```\ncode\n```",
    "{math}`x^2` role.",
    "A {ref}`label` of Sphinx's.",
]


@pytest.mark.sphinx("html", testroot="core")
@pytest.mark.parametrize(
    ("text", "keepable"), [(t, True) for t in KEPT] + [(t, False) for t in NOT_KEPT]
)
def test_only_parses_of_plain_text_are_kept(
    app: SphinxTestApp, tmp_path: Path, text: str, keepable: bool
) -> None:
    _kept_messages._KEPT[app.env] = KeptMessages(tmp_path / CACHE_NAME, ())
    app.env.prepare_settings("index")  # as reading the page does
    try:
        parsed, kept = _parse_message(app, text)
        warnings = app.warning.getvalue()
        again, _ = _parse_message(app, text)  # from the kept parse, if kept
    finally:
        _kept_messages._KEPT.pop(app.env, None)
    assert kept is keepable
    assert parsed == again
    if warnings:
        assert not kept
        assert app.warning.getvalue() == warnings * 2  # parsed and reported again


@pytest.mark.sphinx("html", testroot="core")
def test_a_role_is_kept_only_where_it_is_seriesbooks_own(
    app: SphinxTestApp, tmp_path: Path
) -> None:
    """A parse with seriesbook's citation role is kept, and used, only where the name means
    that role: not in a page that made another domain its default (whose own role of that
    name would win), nor where another role was registered under the name (and then the
    kept file's fingerprint is another)."""
    from docutils.parsers.rst import languages, roles

    _kept_messages._KEPT[app.env] = KeptMessages(tmp_path / CACHE_NAME, ())
    app.env.prepare_settings("index")  # as reading the page does
    source = f"{app.srcdir}/index.md:3{TRANSLATED_SOURCE_SUFFIX}"
    english = languages.get_language("en")
    ours = roles.role("src", english, 0, None)[0]  # type: ignore[arg-type]
    primary = app.env.current_document.default_domain
    try:
        assert _parse_message(app, "Cited {src}`pkg/engine.py:5`.")[1]
        assert _kept_messages.settled(app.env, ("Cited {src}`pkg/engine.py:5`.", source))
        app.env.current_document.default_domain = app.env.domains.get("c")
        assert not _kept_messages.settled(app.env, ("Cited {src}`pkg/engine.py:5`.", source))
        assert _kept_messages.lookup(app.env, ("Cited {src}`pkg/engine.py:5`.", source)) is None
        assert not _parse_message(app, "Also {src}`pkg/engine.py:6`.")[1]
        assert _parse_message(app, "Plain still.")[1]
        app.env.current_document.default_domain = primary
        before = _kept_messages.fingerprint(app.env)
        roles.register_local_role("src", lambda *args, **kwargs: ([], []))
        assert not _parse_message(app, "Third {src}`pkg/engine.py:7`.")[1]
        assert _kept_messages.fingerprint(app.env) != before
    finally:
        roles.register_local_role("src", ours)
        app.env.current_document.default_domain = primary
        _kept_messages._KEPT.pop(app.env, None)
    assert _kept_messages.fingerprint(app.env) == before


def test_a_message_that_warns_warns_in_every_build(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    src = _copy(rootdir, tmp_path, "warns")
    po = src / "locale" / "en" / "LC_MESSAGES" / "ch02.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace(
            'msgstr "The order of the bits."', 'msgstr "The order of the {nosuchrole}`bits`."'
        ),
        encoding="utf-8",
    )
    first, second = _build(make_app, src), _build(make_app, src)
    assert [line for line in first.warnings if "nosuchrole" in line]
    assert first.warnings == second.warnings
    assert second.hits > 0


def _sphinx_build(src: Path) -> tuple[str, bytes]:
    """``sphinx-build -E -a`` of the English edition as the author runs it (its own process:
    gettext keeps the catalogs it loaded for the life of a process); its log and ch02.html."""
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-a", "-D", "language=en"]
    command += [str(src), str(src / "_build" / "html"), "-d", str(src / "_build" / "doctrees")]
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(command, capture_output=True, text=True, env=environ, check=True)
    return done.stdout, (src / "_build" / "html" / "ch02.html").read_bytes()


def test_a_translators_edit_appears(rootdir: Path, tmp_path: Path) -> None:
    src = _copy(rootdir, tmp_path, "edit")
    _sphinx_build(src)
    log, before = _sphinx_build(src)
    assert b"Chapter 2 Dispatch" in before
    hits, new = map(int, KEPT_LOG.findall(log)[-1])
    assert hits > 0 and new == 0
    po = src / "locale" / "en" / "LC_MESSAGES" / "ch02.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace(
            'msgstr "Chapter 2 Dispatch"', 'msgstr "Chapter 2 The dispatcher"'
        ),
        encoding="utf-8",
    )
    future = po.stat().st_mtime + 10
    os.utime(po, (future, future))  # the build recompiles the catalog
    log, after = _sphinx_build(src)
    assert list(map(int, KEPT_LOG.findall(log)[-1])) == [hits - 1, 1]
    assert b"Chapter 2 The dispatcher" in after
    assert b"Chapter 2 Dispatch" not in after


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"not a pickle",
        pickle.dumps({"key": ("same",), "pages": 3}),
        pickle.dumps({"key": ("same",), "pages": {"index": {("a", "b"): (b"x",)}}}),
        pickle.dumps({"key": ("same",), "pages": {"index": 3}}),
    ],
)
def test_an_unreadable_file_is_an_empty_cache(
    make_app: MakeApp,
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    garbage: bytes,
) -> None:
    src = _copy(rootdir, tmp_path, "corrupt")
    cold = _build(make_app, src)
    monkeypatch.setattr(_kept_messages, "fingerprint", lambda env: ("same",))
    cold.cache.write_bytes(garbage)
    again = _build(make_app, src)
    assert again.hits == 0 and again.new == cold.new
    _same(cold, again)


@pytest.mark.sphinx("html", testroot="core")
def test_a_kept_parse_leaves_what_a_parse_leaves(app: SphinxTestApp, tmp_path: Path) -> None:
    """The page's settings and metadata after a kept parse are those a parse leaves: a MyST
    release that records more at the end of rendering fails here."""
    _kept_messages._KEPT[app.env] = KeptMessages(tmp_path / CACHE_NAME, ())
    app.env.prepare_settings("index")  # as reading the page does
    source = f"{app.srcdir}/index.md:3{TRANSLATED_SOURCE_SUFFIX}"
    text = "Some **bold** words, [a link](https://example.org)."
    left = []
    try:
        for _ in range(2):  # parsed, then from the kept parse
            app.env.metadata.pop("index", None)
            settings = get_default_settings(MystsOwnParser)
            settings.env = app.env
            document = new_document(source, settings)
            parser = MystParser()
            parser._config, parser._env = app.config, app.env
            parser.parse(text, document)
            left.append((vars(settings), dict(app.env.metadata["index"]), document.pformat()))
        assert (text, source) in _kept_messages._KEPT[app.env].lookup
    finally:
        _kept_messages._KEPT.pop(app.env, None)
    fresh, replayed = (({k: repr(v) for k, v in s.items()}, *rest) for s, *rest in left)
    assert fresh == replayed
    assert left[0][1]["wordcount"]["words"] == 5  # recorded, and replayed


@pytest.mark.sphinx("html", testroot="core")
@pytest.mark.parametrize("text", [*KEPT, "Two\nlines.", "Trailing space ", "中文 text."])
def test_a_kept_paragraph_of_text_is_made_as_unpickled(
    app: SphinxTestApp, tmp_path: Path, text: str
) -> None:
    """A kept paragraph of one text is kept as its strings, and made into the very nodes its
    pickle gives (class, attributes in order, their types and values, the text's too); any
    other parse is kept pickled."""
    from docutils import nodes
    from seriesbook import compat
    from seriesbook.compat import same_state
    from seriesbook.editions._kept_nodes import as_plain, paragraph

    app.env.prepare_settings("index")
    settings = get_default_settings(MystsOwnParser)
    settings.env = app.env
    document = new_document(f"{app.srcdir}/index.md:3{TRANSLATED_SOURCE_SUFFIX}", settings)
    parser = MystParser()
    parser._config, parser._env = app.config, app.env
    parser.parse(text, document)
    copies = [node.deepcopy() for node in document.children]
    for copy in copies:
        for node in copy.findall():
            compat.detach_document(node)
    unpickled = pickle.loads(pickle.dumps(copies, pickle.HIGHEST_PROTOCOL))
    plain = as_plain(copies)
    one_text = (len(copies) == 1 and type(copies[0]) is nodes.paragraph
                and [type(child) for child in copies[0].children] == [nodes.Text])
    assert (plain is not None) is one_text
    if plain is not None:
        made = paragraph(plain)
        assert same_state(made, unpickled[0]) and same_state(unpickled[0], made)
        assert made.pformat() == unpickled[0].pformat()
        assert made[0].parent is made and made.astext() == unpickled[0].astext()


def test_a_paragraph_of_another_shape_is_not_plain() -> None:
    from docutils import nodes
    from seriesbook.editions._kept_nodes import as_plain, paragraph

    def made() -> nodes.paragraph:
        return paragraph(("x", "x", 1, "s", "s", 1))

    assert as_plain([made()]) == ("x", "x", 1, "s", "s", 1)
    classed = made()
    classed["classes"].append("c")
    two = made()
    two += nodes.Text("y")
    marked = made()
    marked.children = [nodes.emphasis("x", "x")]
    marked[0].parent = marked
    noted = made()
    noted["translated"] = True
    placed = made()
    placed.__dict__["_document"] = nodes.document(None, None)
    assert [as_plain([node]) for node in (classed, two, marked, noted, placed)] == [None] * 5
    assert as_plain([made(), made()]) is None
    assert as_plain([nodes.paragraph("x", "x")]) is None  # its attributes in another order
    assert as_plain([nodes.title("x", "x")]) is None
