"""``seriesbook.editions._locale``: Sphinx's ``Locale`` without the walks and publishes whose
result it throws away, and the translated test books byte for byte as Sphinx's own ``Locale``
makes them: cold, with the kept parses warm, and rebuilt after a ``.po`` edit."""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from docutils import nodes
from hypothesis import given
from hypothesis import strategies as st
from seriesbook import compat
from seriesbook.compat import _i18n
from seriesbook.editions import _kept_messages
from seriesbook.editions._locale import QuickLocale
from sphinx.testing.util import SphinxTestApp
from sphinx.transforms.i18n import Locale
from sphinx.util.nodes import extract_messages, is_translatable

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).parent / "roots"
#: The translated test books; ``locale`` has every kind of message Locale meets.
TRANSLATED = ("locale", "book", "lang", "titles")


def _outputs(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix in {".html", ".doctree"}}


def _same(key: str, ours: bytes, sphinx: bytes) -> bool:
    """Byte for byte; or, for a doctree whose nodes copied from a translated message keep that
    message's document (so the environment, with its read times: Sphinx's ``Locale`` leaves
    them so, both ways), as long and the same tree, node for node and attribute for attribute."""
    if ours == sphinx:
        return True
    if not key.endswith(".doctree") or len(ours) != len(sphinx):
        return False
    mine, theirs = pickle.loads(ours), pickle.loads(sphinx)
    if any(pickle.loads(blob).settings.env is not None for blob in (ours, sphinx)):
        return False
    pairs = list(zip(mine.findall(), theirs.findall(), strict=True))
    dragged = any(node.__dict__.get("_document") not in (None, mine) for node, _ in pairs)
    return dragged and mine.pformat() == theirs.pformat() and all(
        type(a) is type(b) and list(getattr(a, "attributes", {}).items())
        == list(getattr(b, "attributes", {}).items()) for a, b in pairs)


def _edit_po(srcdir: Path) -> None:
    """A new translation for ch01's first translated paragraph (whose parse is kept)."""
    po = srcdir / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('"A plain paragraph."', '"Edited: A plain paragraph."'),
                  encoding="utf-8")
    later = po.stat().st_mtime + 10  # newer than its .mo and the environment, whatever the clock
    os.utime(po, (later, later))


def _build(make_app: MakeApp, srcdir: Path, builddir: Path, *, fresh: bool
           ) -> tuple[dict[str, bytes], list[str]]:
    app = make_app("html", srcdir=srcdir, builddir=builddir, freshenv=fresh,
                   confoverrides={"language": "en"})
    app.build()
    warnings = [line for line in app.warning.getvalue().replace(str(srcdir), "").splitlines()
                if "while setting up extension" not in line]  # a second app, harmlessly
    return _outputs(builddir), warnings


@pytest.mark.parametrize("name", TRANSLATED)
def test_translated_edition_is_sphinxs_own_with_the_quick_locale(
        make_app: MakeApp, tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """English edition with the quick Locale and with Sphinx's (everything else the same), cold,
    warm (the kept parses loaded: the first pass skips their publishes) and after a .po edit:
    the same doctrees, HTML and warnings."""
    settled: list[bool] = []
    seen = _kept_messages.PageParses.settled
    monkeypatch.setattr(_kept_messages.PageParses, "settled",
                        lambda parses, key: settled.append(seen(parses, key)) or settled[-1])
    built = {}
    for quick in (True, False):
        if not quick:
            monkeypatch.setattr(QuickLocale, "apply", Locale.apply)
        srcdir = tmp_path / name  # one place: the doctrees hold their source's path
        shutil.rmtree(srcdir, ignore_errors=True)
        shutil.copytree(ROOTS / f"test-editions-{name}", srcdir)
        builddir = tmp_path / "_build"  # and one for the build
        shutil.rmtree(builddir, ignore_errors=True)
        cold = _build(make_app, srcdir, builddir, fresh=True)
        warm = _build(make_app, srcdir, builddir, fresh=True)
        built[quick] = (cold, warm)
    assert any(settled), "the warm builds skip first-pass publishes"
    for (ours, our_warnings), (sphinx, sphinx_warnings) in zip(*built.values(), strict=True):
        assert any(key.endswith(".doctree") for key in ours)
        assert ours.keys() == sphinx.keys()
        assert [key for key in ours if not _same(key, ours[key], sphinx[key])] == []
        assert our_warnings == sphinx_warnings
    ((_, cold_warnings), (_, warm_warnings)), _ = built.values()
    if name == "locale":  # the book shows what it is there for: a parse that warns, twice
        assert sum("nosuchrole" in line for line in cold_warnings) == 2
        # a mention dropped without the "noqa" mark is reported, cold and warm (its parse
        # kept), and the one dropped with it is not
        for warnings in (cold_warnings, warm_warnings):
            assert sum("i18n.inconsistent_references" in line for line in warnings) == 1


#: ``sphinx-build`` in a process of its own (gettext keeps the catalogs it loaded for the life
#: of a process), with Sphinx's Locale if told ``sphinx``.
BUILD = """
import sys
from sphinx.cmd.build import main
if sys.argv[1] == "sphinx":
    from seriesbook.editions._locale import QuickLocale
    from sphinx.transforms.i18n import Locale
    QuickLocale.apply = Locale.apply
sys.exit(main(sys.argv[2:]))
"""


def _sphinx_build(which: str, srcdir: Path, *options: str) -> tuple[dict[str, bytes], str]:
    builddir = srcdir.parent / "_build"
    command = [sys.executable, "-c", BUILD, which, "-b", "html", "-q", *options,
               "-D", "language=en", str(srcdir), str(builddir / "html"),
               "-d", str(builddir / "doctrees")]
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(command, capture_output=True, text=True, env=environ, check=True)
    return _outputs(builddir), done.stderr


def test_a_po_edit_rebuilds_as_sphinxs_locale_does(tmp_path: Path) -> None:
    """The ``locale`` book built, built again (the parses kept), then a translation edited and
    the page rebuilt: each step the same doctrees, HTML and warnings with either Locale, and
    the edit shows."""
    steps = {}
    for which in ("quick", "sphinx"):
        srcdir = tmp_path / "locale"  # one place: the doctrees hold their source's path
        shutil.rmtree(tmp_path, ignore_errors=True)
        shutil.copytree(ROOTS / "test-editions-locale", srcdir)
        cold = _sphinx_build(which, srcdir, "-E", "-a")
        warm = _sphinx_build(which, srcdir, "-E", "-a")
        _edit_po(srcdir)
        edited = _sphinx_build(which, srcdir)
        steps[which] = (cold, warm, edited)
    for (ours, our_warnings), (sphinx, sphinx_warnings) in zip(*steps.values(), strict=True):
        assert ours.keys() == sphinx.keys()
        assert [key for key in ours if not _same(key, ours[key], sphinx[key])] == []
        assert our_warnings == sphinx_warnings
    (_, (before, _), (after, _)), _ = steps.values()
    assert b"A plain paragraph." in before["html/ch01.html"]
    assert b"Edited: A plain paragraph." in after["html/ch01.html"]


def test_sphinx_reads_with_the_quick_locale(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-locale", srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"})
    transforms = app.registry.get_transforms()
    assert QuickLocale in transforms
    assert Locale not in transforms


def test_each_read_of_a_page_finds_its_catalog_once_however_often_the_process_read_it(
    make_app: MakeApp, tmp_path: Path
) -> None:
    """Sphinx appends what every ``init`` of a domain finds to the translator it keeps for the
    process: the labels' step and Locale each asked, every build, so a warm process (serve)
    translated each page through a chain one catalog longer per read. The steps share one
    lookup per page, made afresh: the chain is the locale directory's one catalog, kept apart
    from the interface catalogs a page's name could be (``sphinx``, ``seriesbook``)."""
    import sphinx.locale

    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-locale", srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"})
    for _ in range(3):
        app.build(force_all=True)
        translator = sphinx.locale.translators[(_i18n.PAGE_NAMESPACE, "ch01")]
        assert translator.gettext("第1章 消息") == "Chapter 1 Messages"
        assert getattr(translator, "_fallback", None) is None  # one catalog, no copies behind
        assert ("general", "ch01") not in sphinx.locale.translators


def test_speedups_off_is_sphinxs_locale(
        make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``seriesbook_speedups = False``: Sphinx's own Locale runs, never the quick one."""
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-locale", srcdir)
    calls: list[object] = []
    monkeypatch.setattr(compat, "translate_page", lambda *args: calls.append(args))
    app = make_app("html", srcdir=srcdir, freshenv=True,
                   confoverrides={"language": "en", "seriesbook_speedups": False})
    app.build()
    assert calls == []
    assert "Chapter 1 Messages" in (app.outdir / "ch01.html").read_text(encoding="utf-8")


def _tree() -> nodes.document:
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    def sourced(node: nodes.Element) -> nodes.Element:
        node.source = "page.rst"
        return node

    document = new_document("page.rst", get_default_settings(Parser))
    section = nodes.section()
    section += sourced(nodes.title("Title", "Title"))
    for index in range(3):
        paragraph = sourced(nodes.paragraph(f"p{index}", f"p{index}"))
        paragraph += nodes.emphasis("e", "e")
        section += paragraph
    section += sourced(nodes.image(alt="alt", uri="x.png"))
    document += section
    return document


def test_the_walk_is_docutils_own_and_live() -> None:
    """The walk yields what ``findall(is_translatable)`` yields, and when a yielded node's
    children are replaced meanwhile (as Locale patches them), it walks the new ones, as docutils
    does."""
    document = _tree()
    assert list(_i18n.extract_messages(document)) == list(extract_messages(document))

    def patched(walk: Callable[[nodes.Element], object]) -> list[str]:
        document = _tree()
        seen = []
        for node in walk(document):  # type: ignore[attr-defined]
            seen.append(node.astext())
            if isinstance(node, nodes.paragraph):  # its new children: an image with alt text
                node.children = [nodes.image(alt="new", uri="y.png")]
                node.children[0].parent = node
        return seen

    ours = patched(_i18n._walk)
    theirs = patched(lambda document: document.findall(is_translatable))
    assert ours == theirs == patched(lambda document: _i18n._walk(document, quiet=True))
    assert ours.count("new") == 3  # the patched children were walked


def test_the_second_walk_walks_again_what_the_first_left() -> None:
    """Locale's second pass over the nodes the first found: what a live walk of the page after
    the first pass yields, the children each pass patches included."""

    def passes(first: Callable[[nodes.Element], object],
               second: Callable[[], object]) -> list[str]:
        seen = []
        document = _tree()
        for paragraph in document.findall(nodes.paragraph):  # an image under each paragraph
            paragraph += nodes.image(alt="old", uri="o.png")
        note = nodes.note()  # after the last paragraph, a deeper one that is not under it
        document[0].insert(len(document[0]) - 1, note)
        note += nodes.paragraph("deeper", "deeper")
        note[0].source = "page.rst"
        for node in first(document):  # type: ignore[attr-defined]
            seen.append(node.astext())
            if isinstance(node, nodes.title):  # the first pass patches titles
                node.children = [nodes.Text("T"), nodes.image(alt="in title", uri="t.png")]
                for child in node.children:
                    child.parent = node
        for node in second(document):  # type: ignore[operator]
            seen.append(node.astext())
            if isinstance(node, nodes.paragraph) and node.astext().startswith(("p0", "p2")):
                node.children = [nodes.image(alt="new", uri="y.png")]
                node.children[0].parent = node
        return seen

    walked: list[list[object]] = []
    ours = passes(lambda document: _i18n._walk_noted(document, True, walked),
                  lambda document: _i18n._walk_again(walked, True))
    theirs = passes(lambda document: document.findall(is_translatable),
                    lambda document: document.findall(is_translatable))
    assert ours == theirs
    assert ours.count("in title") == 2 and ours.count("new") == 2
    assert ours.count("old") == 3 + 1  # all in the first pass, p1's alone in the second
    assert ours.count("deeper") == 2


def test_a_walk_noted_beforehand_gives_both_passes_the_same_nodes() -> None:
    """The first pass over a walk made before it (``compat.walk_page``, when the page's
    messages were noted), walking afresh under what it patches, then the second pass over what
    it noted: what two live walks yield, and its notes are what a live noting walk makes."""

    def passes(document: nodes.document, first: object, second: object) -> list[str]:
        seen = []
        for node in first:  # type: ignore[attr-defined]
            seen.append(node.astext())
            if isinstance(node, nodes.title):  # the first pass patches titles
                node.children = [nodes.Text("T"), nodes.image(alt="in title", uri="t.png")]
                for child in node.children:
                    child.parent = node
        for node in second():  # type: ignore[operator]
            seen.append(node.astext())
        return seen

    def book() -> nodes.document:
        document = _tree()
        for paragraph in list(document.findall(nodes.paragraph)):  # an image under each
            paragraph += nodes.image(alt="old", uri="o.png")
        inner = nodes.section()  # a titled section inside the first
        inner += nodes.title("Inner", "Inner")
        inner[0].source = "page.rst"
        inner += nodes.paragraph("deep", "deep")
        inner[1].source = "page.rst"
        document[0].insert(2, inner)
        return document

    document = book()
    before, found = _i18n.walk_page(document, True, (nodes.image, nodes.title))
    assert found == list(document.findall(lambda n: isinstance(n, nodes.image | nodes.title)))
    live: list[list[object]] = []
    assert [n for n, _ in before] == list(_i18n._walk_noted(document, True, live))
    assert [(n, e) for n, e in before] == [(n, e) for n, e in live]
    noting: list[list[object]] = []
    ours = passes(document, _i18n._walk_again_noting(before, True, noting),
                  lambda: _i18n._walk_again(noting, True))
    theirs_document = book()
    theirs_noted: list[list[object]] = []
    theirs = passes(theirs_document, _i18n._walk_noted(theirs_document, True, theirs_noted),
                    lambda: theirs_document.findall(is_translatable))
    assert ours == theirs
    assert ours.count("in title") == 2 * 2 and ours.count("old") == 3 * 2
    place = {id(n): i for i, n in enumerate(document.findall())}
    their_place = {id(n): i for i, n in enumerate(theirs_document.findall())}
    assert [(place[id(n)], e) for n, e in noting] == [
        (their_place[id(n)], e) for n, e in theirs_noted]


def _every_node() -> list[nodes.Node]:
    """One node of every docutils and Sphinx class, with and without a source, ``translatable``
    set either way and alt text."""
    import inspect

    from sphinx import addnodes

    made: list[nodes.Node] = [nodes.Text("x")]
    classes = [cls for module in (nodes, addnodes) for _, cls in inspect.getmembers(module)
               if inspect.isclass(cls) and issubclass(cls, nodes.Element)]
    for cls in classes:
        for attributes in ({}, {"translatable": True}, {"translatable": False}, {"alt": "a"}):
            for source in (None, "page.rst"):
                try:
                    node = cls()
                except TypeError:
                    continue
                node.attributes.update(attributes, content="c")
                node.source = source
                node += nodes.Text("x")
                made.append(node)
    for orphan in (nodes.field_name("", "orphan"),
                   nodes.field_name("", "", nodes.emphasis("", "orphan"))):
        orphan.source = "page.rst"
        made.append(orphan)
    return made


def test_the_walk_asks_what_sphinx_answers() -> None:
    """``_translatable`` answers as ``is_translatable`` for every node class there is."""
    made = _every_node()
    assert len(made) > 1000
    theirs = [is_translatable(n) for n in made]
    assert [_i18n._translatable(node) for node in made] == theirs
    assert [_i18n._translatable(node, quiet=True) for node in made] == theirs
    assert [_i18n._CANDIDATES for node, yes in zip(made, theirs, strict=True)
            if yes and not isinstance(node, _i18n._CANDIDATES)] == []


@given(st.lists(st.sampled_from(["noqa", "#", " ", "\\", "\n", "x", "no"]), max_size=8)
       .map("".join))
def test_noqa_is_read_as_sphinx_reads_it(text: str) -> None:
    from sphinx.transforms.i18n import parse_noqa

    assert _i18n._parse_noqa(text) == parse_noqa(text)


def test_a_quiet_walk_skips_only_sphinxs_debug_lines() -> None:
    """In a build that shows no debug lines, the walk does not make them (a literal block
    rendered as XML each); the messages are the same."""
    document = _tree()
    document += nodes.literal_block("code", "code", source="page.rst")
    built_in = nodes.paragraph("built-in", "built-in")
    document += built_in
    built_in.source = None  # a node seriesbook or Sphinx makes: no source
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign]
    sphinx_logger = logging.getLogger("sphinx")
    sphinx_logger.addHandler(handler)
    level = sphinx_logger.level
    sphinx_logger.setLevel(logging.DEBUG)
    try:
        loud = list(_i18n.extract_messages(document))
        logged = len(records)
        quiet = list(_i18n.extract_messages(document, quiet=True))
    finally:
        sphinx_logger.removeHandler(handler)
        sphinx_logger.setLevel(level)
    assert loud == quiet == list(extract_messages(document))
    assert logged == 2 and len(records) == logged


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_catalog_compiled_already_is_what_sphinx_writes(
        make_app: MakeApp, tmp_path: Path, name: str) -> None:
    """``-a`` compiles every catalog; one whose ``.mo`` already holds what Sphinx's compile
    writes is left (not rewritten), and those bytes are Sphinx's own, catalog by catalog."""
    from seriesbook.editions._facts import compiled_already
    from sphinx.util.i18n import CatalogRepository

    srcdir = tmp_path / name
    shutil.copytree(ROOTS / f"test-editions-{name}", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    app.build(force_all=True)
    config = app.config
    infos = list(CatalogRepository(srcdir, config.locale_dirs, "en", config.source_encoding)
                 .catalogs)
    assert infos
    written = {info.mo_path: (Path(info.mo_path).read_bytes(), os.stat(info.mo_path).st_mtime_ns)
               for info in infos}
    for info in infos:
        Path(info.mo_path).rename(info.mo_path + ".ours")
        info.write_mo("en", config.gettext_allow_fuzzy_translations)  # Sphinx's compile
        sphinx = Path(info.mo_path).read_bytes()
        Path(info.mo_path + ".ours").replace(info.mo_path)
        os.utime(info.mo_path, ns=(written[info.mo_path][1], written[info.mo_path][1]))
        if compiled_already(info, config):
            assert sphinx == written[info.mo_path][0]
    again = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    again.build(force_all=True)
    kept = [info for info in infos if compiled_already(info, again.config)]
    assert kept  # every test book has a catalog without fuzzy entries
    for info in infos:
        unchanged = written[info.mo_path] == (Path(info.mo_path).read_bytes(),
                                              os.stat(info.mo_path).st_mtime_ns)
        assert unchanged == (info in kept) or Path(info.mo_path).read_bytes() == written[
            info.mo_path][0]


def test_an_edited_catalog_is_compiled(make_app: MakeApp, tmp_path: Path) -> None:
    from seriesbook.editions._facts import compiled_already
    from sphinx.util.i18n import CatalogInfo

    srcdir = tmp_path / "locale"
    shutil.copytree(ROOTS / "test-editions-locale", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    app.build(force_all=True)
    info = CatalogInfo(str(srcdir / "locale" / "en" / "LC_MESSAGES"), "index", "utf-8-sig")
    assert compiled_already(info, app.config)
    po = Path(info.po_path)
    po.write_text(po.read_text(encoding="utf-8").replace('"Book"', '"Edited: Book"'),
                  encoding="utf-8")
    earlier = po.stat().st_mtime - 10
    os.utime(info.mo_path, (earlier, earlier))  # the .mo is older than the edit, whatever the clock
    assert not compiled_already(info, app.config)
    again = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    again.build(force_all=True)
    assert b"Edited: Book" in Path(info.mo_path).read_bytes()
    assert compiled_already(info, again.config)
    off = make_app("html", srcdir=srcdir, confoverrides={"language": "en",
                                                         "seriesbook_speedups": False})
    assert not compiled_already(info, off.config)
