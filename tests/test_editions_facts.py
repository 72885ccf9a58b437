"""``seriesbook.editions._facts``: what a build reads of each catalog, kept across builds while
the file is unchanged; the translated edition byte for byte the same cold, warm, after a ``.po``
edit, under ``-j 2`` and with nothing kept, with the same warnings at the same ``.po`` lines."""

from __future__ import annotations

import gettext
import io
import os
import pickle
import re
import shutil
from collections.abc import Callable
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.compat import compiled_state, forget_translations, translations_of
from seriesbook.editions import _facts
from seriesbook.editions._catalogs import parse_catalog
from seriesbook.editions._facts import CACHE_NAME, facts_of
from seriesbook.editions._mismatch import recognizers
from sphinx.testing.util import SphinxTestApp
from test_editions_locale import _same

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).parent / "roots"


def _catalogs() -> list[Path]:
    return sorted(ROOTS.glob("*/locale/*/LC_MESSAGES/*.po"))


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> object:
    srcdir = tmp_path_factory.mktemp("facts") / "book"
    shutil.copytree(ROOTS / "test-editions-book", srcdir)
    app = SphinxTestApp("dummy", srcdir=srcdir, confoverrides={"language": "en"})
    try:
        return app.config
    finally:
        app.cleanup()


@pytest.mark.parametrize("po", _catalogs(), ids=lambda p: str(p.relative_to(ROOTS)))
def test_facts_answer_as_the_parse_does_and_survive_the_file(config: object, po: Path) -> None:
    """Every test book's catalog: each msgid looked up in the facts gives what Babel's parse
    gives, and facts kept in a file are the facts made."""
    language = po.parent.parent.name
    loaded = parse_catalog(po)
    facts = facts_of(loaded, recognizers(config, language), False)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(facts, pickle.HIGHEST_PROTOCOL)) == facts
    assert facts.usable == (loaded.catalog is not None)
    assert facts.problems == tuple(loaded.problems)
    assert facts.get("no such message in any catalog") is None
    if loaded.catalog is None:
        return
    looked_up = 0
    for message in loaded.catalog:
        if not message.id or message.context is not None:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        entry, babel = facts.get(key), loaded.catalog.get(key)
        assert entry is not None and babel is not None
        assert (entry.string, entry.fuzzy, entry.lineno) == (babel.string, babel.fuzzy,
                                                             babel.lineno)
        looked_up += 1
    assert looked_up == len(facts.entries)


def _outputs(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix in {".html", ".doctree"}}


def _retranslate(po: Path, old: str, new: str) -> int:
    """*old*'s translation becomes *new*; the msgid's line."""
    lines = po.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line == f'msgstr "{old}"')
    lines[index] = f'msgstr "{new}"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    later = po.stat().st_mtime + 10  # newer than its .mo, whatever the clock
    os.utime(po, (later, later))
    return index  # the msgstr's line (1-based) is the msgid's line + 1


def _book(tmp_path: Path, pages: int = 0) -> Path:
    """The editions test book with a mismatch, a duplicate msgid and a fuzzy translation shown;
    and *pages* more chapters like ch02 (Sphinx reads more than five pages in parallel)."""
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-book", srcdir)
    catalogs = srcdir / "locale" / "en" / "LC_MESSAGES"
    index = srcdir / "index.md"
    for number in range(3, 3 + pages):

        def renumbered(text: str, number: int = number) -> str:
            for old in ("第2章", "Chapter 2", "§2."):
                text = text.replace(old, old.replace("2", str(number)))
            return text

        source = (srcdir / "ch02.md").read_text(encoding="utf-8")
        (srcdir / f"ch{number:02}.md").write_text(renumbered(source), "utf-8")
        catalog = (catalogs / "ch02.po").read_text(encoding="utf-8")
        (catalogs / f"ch{number:02}.po").write_text(renumbered(catalog), "utf-8")
        index.write_text(index.read_text("utf-8").replace("ch02\n", f"ch02\nch{number:02}\n"),
                         "utf-8")
    _retranslate(catalogs / "ch02.po", "The key set picks the kernel; see §1.1 and §2.1.1.",
                 "The key set picks the kernel; see §1.2 and §2.1.1.")
    ch02 = catalogs / "ch02.po"
    text = ch02.read_text(encoding="utf-8")
    text = text.replace('msgid "位的顺序。"', '#, fuzzy\nmsgid "位的顺序。"')
    text += '\nmsgid "§2.1 键集"\nmsgstr "§2.1 Key sets, again"\n'
    ch02.write_text(text, encoding="utf-8")
    return srcdir


def _build(make_app: MakeApp, srcdir: Path, builddir: Path, *, fresh: bool = True,
           speedups: bool = True, parallel: int = 0) -> tuple[dict[str, bytes], list[str]]:
    app = make_app("html", srcdir=srcdir, builddir=builddir, freshenv=fresh, parallel=parallel,
                   confoverrides={"language": "en", "seriesbook_speedups": speedups})
    app.build(force_all=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue()).replace(str(builddir), "")
    warnings = sorted(line for line in text.splitlines()
                      if "WARNING" in line and "while setting up extension" not in line)
    return _outputs(builddir), warnings


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every catalog parse for its facts from now on; this process's facts forgotten (as a new
    process starts), so only the kept file can spare a parse."""
    seen: list[Path] = []
    parse = _facts.parse_catalog

    def counted(path: Path, encoding: str = "utf-8-sig") -> object:
        seen.append(path)
        return parse(path, encoding)

    monkeypatch.setattr(_facts, "parse_catalog", counted)
    _facts._MADE.clear()
    return seen


@pytest.mark.parametrize("parallel", [0, 2])
def test_kept_facts_build_what_a_parse_builds(
        make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: int) -> None:
    """Cold, warm (no catalog parsed), after a .po edit (that catalog alone parsed): each build
    the same pages, doctrees and warnings as a cold build, and the same pages and warnings as a
    build that keeps nothing."""
    srcdir = _book(tmp_path, pages=4 if parallel else 0)
    builddir = tmp_path / "_build"
    parses = _parses(monkeypatch)
    cold = _build(make_app, srcdir, builddir, parallel=parallel)
    assert parses and (builddir / "doctrees" / CACHE_NAME).is_file()
    assert any("i18n-mismatch" in line for line in cold[1])
    assert any("duplicate msgid" in line for line in cold[1])
    assert any(b"seriesbook-outdated-mark" in data for data in _pages(cold)[0].values())
    assert _pages(cold) == _pages(_build(make_app, srcdir, tmp_path / "plain", speedups=False,
                                         parallel=parallel))
    parses = _parses(monkeypatch)
    warm = _build(make_app, srcdir, builddir, parallel=parallel)
    assert parses == []
    assert warm == cold
    po = srcdir / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    text = po.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if "§1.2" in line and line.startswith("msgstr"))
    line = _retranslate(po, old.removeprefix('msgstr "').removesuffix('"'),
                        old.removeprefix('msgstr "').removesuffix('"').replace("§1.2", "§1.3"))
    parses = _parses(monkeypatch)
    edited = _build(make_app, srcdir, builddir, parallel=parallel)
    assert parses == [po]
    assert any(f"ch01.po:{line}: WARNING" in w and "missing §1.2; added §1.3" in w
               for w in edited[1])
    shutil.rmtree(tmp_path / "plain")
    # Sphinx's own reading as a fresh process does it: gettext keeps each .mo it has read for
    # the process, by path, and Sphinx each page's translator, to which it adds what it reads
    # later as a fallback: both would give the plain build ch01's translations before the edit
    # (the kept facts' translations are the new .mo's: they are looked up by its bytes)
    gettext._translations.clear()  # type: ignore[attr-defined]
    forget_translations()
    assert _pages(edited) == _pages(_build(make_app, srcdir, tmp_path / "plain", speedups=False,
                                           parallel=parallel))
    shutil.rmtree(builddir)
    again = _build(make_app, srcdir, builddir, parallel=parallel)  # as a cold build
    assert edited[1] == again[1] and edited[0].keys() == again[0].keys()
    # a message parsed afresh keeps its document, and with it the environment's read times:
    # the same tree, node for node (test_editions_locale's rule)
    assert [key for key in edited[0] if not _same(key, edited[0][key], again[0][key])] == []


def _pages(built: tuple[dict[str, bytes], list[str]]) -> tuple[dict[str, bytes], list[str]]:
    """The pages and warnings (``seriesbook_speedups = False`` runs Sphinx's own ``Locale``,
    whose doctrees keep each message's document: ``test_editions_locale`` compares those)."""
    return {key: data for key, data in built[0].items() if key.endswith(".html")}, built[1]


def test_a_page_edit_reads_the_kept_facts(make_app: MakeApp, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit of a page (not of its catalog): no catalog parsed, a full build and an
    incremental one the same pages and warnings as with nothing kept."""
    srcdir = _book(tmp_path)
    builddir, plain = tmp_path / "_build", tmp_path / "plain"
    _build(make_app, srcdir, builddir)
    _build(make_app, srcdir, plain, speedups=False)
    page = srcdir / "ch02.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n一段新的文字，见 §2.1。\n", "utf-8")
    parses = _parses(monkeypatch)
    incremental = _build(make_app, srcdir, builddir, fresh=False)
    assert parses == []
    assert _pages(incremental) == _pages(_build(make_app, srcdir, plain, fresh=False,
                                                speedups=False))
    full = _build(make_app, srcdir, builddir)
    assert parses == []
    assert _pages(full) == _pages(_build(make_app, srcdir, plain, speedups=False))


def test_an_unreadable_kept_file_is_an_empty_store(make_app: MakeApp, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    srcdir = _book(tmp_path)
    builddir = tmp_path / "_build"
    cold = _build(make_app, srcdir, builddir)
    (builddir / "doctrees" / CACHE_NAME).write_bytes(b"not a pickle")
    parses = _parses(monkeypatch)
    assert _build(make_app, srcdir, builddir) == cold
    assert len(parses) == 3  # every catalog, once
    assert pickle.loads((builddir / "doctrees" / CACHE_NAME).read_bytes())["catalogs"]


def test_speedups_off_keeps_nothing(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = _book(tmp_path)
    _build(make_app, srcdir, tmp_path / "_build", speedups=False)
    assert not (tmp_path / "_build" / "doctrees" / CACHE_NAME).exists()


def test_the_pages_with_outdated_passages_are_known_from_a_build_that_read_them_all(
        config: object) -> None:
    """The walks for outdated passages skip a page only where a build that read every page
    noted none on it; an environment without the record (an earlier seriesbook's) walks all."""
    from types import SimpleNamespace

    from seriesbook.editions._outdated import (
        may_have_outdated,
        merge_pages,
        purge_pages,
        start_pages,
    )

    env = SimpleNamespace(found_docs={"ch01", "ch02"}, config=config)
    assert may_have_outdated(env, "ch01") and may_have_outdated(env)  # type: ignore[arg-type]
    start_pages(None, env, ["ch01"])  # type: ignore[arg-type]  # not every page: still unknown
    assert may_have_outdated(env, "ch02")  # type: ignore[arg-type]
    start_pages(None, env, ["ch01", "ch02"])  # type: ignore[arg-type]
    assert not may_have_outdated(env, "ch01") and not may_have_outdated(env)  # type: ignore[arg-type]
    other = SimpleNamespace(seriesbook_outdated_pages={"ch02", "gone"})
    merge_pages(None, env, ["ch02"], other)  # type: ignore[arg-type]
    assert may_have_outdated(env, "ch02") and may_have_outdated(env)  # type: ignore[arg-type]
    purge_pages(None, env, "ch02")  # type: ignore[arg-type]
    assert not may_have_outdated(env)  # type: ignore[arg-type]


# --- the pages' catalogs from the kept facts, without reading their .mo ---------------------

_MESSAGE_TEXT = st.text(alphabet=st.sampled_from(list("ab §1.\\\"'\n\t中文é\x04\x00")), max_size=8)


@settings(max_examples=60, deadline=None)
@given(messages=st.lists(st.tuples(_MESSAGE_TEXT, _MESSAGE_TEXT, st.booleans(),
                                   st.sampled_from([None, "ctx"]), st.booleans()), max_size=6),
       locale=st.sampled_from([None, "en", "fr", "ru", "ja"]), use_fuzzy=st.booleans())
def test_a_kept_compiled_catalog_reads_as_gettext_reads_its_mo(
        messages: list[tuple[str, str, bool, str | None, bool]], locale: str | None,
        use_fuzzy: bool) -> None:
    """Whatever a catalog holds (plurals, contexts, fuzzy entries, the separators of the
    ``.mo`` format in its texts, each language's plural forms): the translations made from
    its kept state are what gettext reads from its ``.mo``, or nothing is kept."""
    catalog = Catalog(locale=locale)
    for msgid, msgstr, fuzzy, context, plural in messages:
        if plural:
            catalog.add((msgid, msgid + "s"), (msgstr, msgstr + "s", msgstr + "S")[
                :catalog.num_plurals], flags=["fuzzy"] if fuzzy else [], context=context)
        else:
            catalog.add(msgid, msgstr, flags=["fuzzy"] if fuzzy else [], context=context)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy)
    data = compiled.getvalue()
    state = compiled_state(data)
    try:
        read = GNUTranslations(io.BytesIO(data))
    except Exception:  # gettext cannot read it: nothing may be kept
        assert state is None
        return
    assert state is not None  # every catalog Babel writes here is kept
    made = translations_of(state)
    assert {k: v for k, v in vars(made).items() if k != "plural"} == {
        k: v for k, v in vars(read).items() if k != "plural"}
    assert [made.plural(n) for n in range(300)] == [  # type: ignore[attr-defined]
        read.plural(n) for n in range(300)]  # type: ignore[attr-defined]
    for msgid, _msgstr, _fuzzy, context, _plural in messages:
        assert made.gettext(msgid) == read.gettext(msgid)
        assert made.ngettext(msgid, msgid + "s", 3) == read.ngettext(msgid, msgid + "s", 3)
        if context is not None:
            assert made.pgettext(context, msgid) == read.pgettext(context, msgid)


def _mo(path: Path, translations: dict[str, str]) -> Path:
    catalog = Catalog(locale="en")
    for msgid, msgstr in translations.items():
        catalog.add(msgid, msgstr)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_mo(stream, catalog)
    return path


def _chain(translations: object) -> list[tuple[object, object]]:
    found = []
    while translations is not None:
        found.append((vars(translations)["_catalog"], vars(translations)["_info"]))
        translations = vars(translations)["_fallback"]
    return found


def test_a_pages_catalog_from_known_mo_files_is_the_chain_sphinx_reads(tmp_path: Path) -> None:
    """Several locale directories, and a directory with the page's ``.mo`` under two names of
    the language: the same translations, in the same order of fallbacks, as Sphinx's ``init``
    reads from the files; one ``.mo`` not known, and the files are read."""
    from seriesbook.compat._i18n import _known_catalog
    from sphinx.locale import init

    first, second = tmp_path / "one", tmp_path / "two"
    _mo(first / "en" / "LC_MESSAGES" / "page.mo", {"甲": "A", "乙": "B"})
    _mo(first / "en_US" / "LC_MESSAGES" / "page.mo", {"甲": "A (US)", "丙": "C"})
    _mo(second / "en" / "LC_MESSAGES" / "page.mo", {"丁": "D"})
    dirs = [str(first), str(second)]
    read: list[str] = []

    def compiled(path: str) -> GNUTranslations | None:
        read.append(path)
        state = compiled_state(Path(path).read_bytes())
        return None if state is None else translations_of(state)

    known = _known_catalog(dirs, "en", "page", compiled)
    forget_translations("page", "test-known")
    sphinx, found = init(dirs, "en", "page", "test-known")
    assert known is not None and found
    assert _chain(known[0]) == _chain(sphinx) and len(_chain(sphinx)) == 3
    assert [known[0].gettext(m) for m in "甲乙丙丁戊"] == ["A (US)", "B", "C", "D", "戊"]
    assert len(read) == 3
    assert _known_catalog(dirs, "en", "page", lambda path: None) is None
    assert _known_catalog(dirs, "en", "other", compiled) is None  # no .mo: init says so


def test_a_mo_that_is_not_its_pos_compile_is_read_as_sphinx_reads_it(
        make_app: MakeApp, tmp_path: Path) -> None:
    """A ``.mo`` written by hand (newer than its ``.po``, so Sphinx leaves it) is not what the
    kept facts were compiled to: the page shows its translations, as Sphinx's own reading does."""
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-locale", srcdir)
    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    app.build(force_all=True)
    po = srcdir / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    assert (srcdir / "_build" / "doctrees" / CACHE_NAME).is_file()
    catalog = read_po(po.open(encoding="utf-8"))
    message = catalog.get("一段平文。")
    assert message is not None and message.string == "A plain paragraph."
    message.string = "A paragraph from a hand-made .mo."
    mo = _mo(po.with_suffix(".mo"), {m.id: m.string for m in catalog if m.id and m.string})
    later = po.stat().st_mtime + 10
    os.utime(mo, (later, later))
    for speedups in (True, False):
        gettext._translations.clear()  # type: ignore[attr-defined]  # as a fresh process
        forget_translations()
        again = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={
            "language": "en", "seriesbook_speedups": speedups})
        again.build(force_all=False)
        page = (again.outdir / "ch01.html").read_text(encoding="utf-8")
        assert "A paragraph from a hand-made .mo." in page, speedups
        assert "A plain paragraph." not in page
