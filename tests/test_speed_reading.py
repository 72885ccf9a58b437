"""Work kept across builds while pages are read and written (``seriesbook.speed``): the same
site and warnings as doing it afresh, cold, warm, after an edit and under ``-j 2``."""

from __future__ import annotations

import pickle
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from hypothesis import given
from hypothesis import strategies as st
from sphinx.highlighting import PygmentsBridge
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
KEPT_ONLY = ("builder", "store")


def _site(outdir: Path) -> dict[str, bytes]:
    """The written pages and what the search and the previews read."""
    files = [p for p in outdir.rglob("*") if p.is_file() and (
        (p.suffix in (".html", ".js") and "_static" not in p.parts) or p.name == "searchindex.js")]
    return {str(p.relative_to(outdir)): p.read_bytes() for p in sorted(files)}


def _edit(src: Path) -> None:
    """A block's code changes, a page gains a block, another loses one."""
    ch01, ch03 = src / "ch01.md", src / "ch03.md"
    ch01.write_text(ch01.read_text(encoding="utf-8").replace("return 0;", "return 1;"),
                    encoding="utf-8")
    ch03.write_text(ch03.read_text(encoding="utf-8").replace('echo "hello"', 'echo "再见"')
                    + "\n```rust\nfn main() {}\n```\n", encoding="utf-8")


@dataclass
class Step:
    site: dict[str, bytes]
    warnings: str
    highlighted: list[str]  # by this process: under -j 2, the pages after the first are not
    counted: int  # texts counted by this process (a -j 2 build's readers are other processes)
    counts: dict[str, Any]


def test_kept_reading_and_writing_make_the_same_site_cold_warm_after_an_edit_and_under_j2(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first build, a fresh-environment build under -j 2, an edit built under -j 2 (a page
    read and new blocks highlighted by other processes), a fresh serial build: the same pages,
    warnings (both highlighting warnings in every build) and counted figures as highlighting
    and counting everything afresh; the kept builds highlight again only the blocks that
    warned, and count nothing they have counted."""
    from seriesbook.speed import highlights
    from seriesbook.stats import _count, _kept
    from seriesbook.stats._collect import doc_counts

    highlighted: list[str] = []
    counted: list[str] = []
    fresh_highlight, fresh_count = PygmentsBridge.highlight_block, _count.count_text

    def highlight(self: PygmentsBridge, source: str, lang: str, *args: Any, **kw: Any) -> str:
        highlighted.append(lang)
        return fresh_highlight(self, source, lang, *args, **kw)

    def count(text: str) -> _count.TextCounts:
        counted.append(text)
        return fresh_count(text)

    monkeypatch.setattr(PygmentsBridge, "highlight_block", highlight)
    monkeypatch.setattr(_count, "count_text", count)

    def steps(speedups: bool) -> list[Step]:
        src = shutil.copytree(rootdir / "test-speed-reading", tmp_path / f"book-{speedups}")
        doctrees = src / "_build" / "doctrees"
        done = []
        for step, (fresh_env, parallel) in enumerate(((True, 0), (True, 2), (False, 2),
                                                       (True, 0))):
            if step == 2:
                _edit(src)
            highlighted.clear()
            counted.clear()
            app = make_app("html", srcdir=src, freshenv=fresh_env, parallel=parallel,
                           confoverrides={"seriesbook_speedups": speedups})
            bridge = app.builder.highlighter  # type: ignore[attr-defined]
            assert isinstance(bridge, highlights.KeptHighlighter) == speedups
            bridges[speedups] = {k: v for k, v in vars(bridge).items() if k not in KEPT_ONLY}
            app.build()
            warnings = app.warning.getvalue().replace(str(src), "<book>")
            done.append(Step(_site(Path(app.outdir)), warnings, sorted(highlighted),
                             len(counted), dict(doc_counts(app.env))))
            assert list(doctrees.glob("*.part")) == []
            assert not hasattr(app.env, _kept.USED_ATTRIBUTE)  # never pickled
            app.cleanup()
        for name in (highlights.CACHE_NAME, _kept.CACHE_NAME):
            assert (doctrees / name).is_file() == speedups
        return done

    bridges: dict[bool, dict[str, Any]] = {}
    afresh, kept = steps(False), steps(True)
    assert bridges[True] == bridges[False]  # Sphinx's bridge, copied: its attributes and values
    for index, (plain, step) in enumerate(zip(afresh, kept, strict=True)):
        assert step.site.keys() == plain.site.keys()
        assert [name for name in plain.site if step.site[name] != plain.site[name]] == []
        assert step.warnings == plain.warnings
        if index != 2:  # the incremental build writes the edited pages only, not the one that warns
            assert "'nosuchlanguage' is not known" in plain.warnings
            assert "Retrying in relaxed" in plain.warnings
        assert step.counts == plain.counts and len(step.counts) == 7
    assert kept[2].counts["ch03"] != kept[1].counts["ch03"]  # the edit was counted
    first, parallel, edited, last = kept
    assert len(first.highlighted) == len(afresh[0].highlighted) - 1  # a block shown twice: once
    assert parallel.highlighted == []  # only the first page is written by this process
    assert edited.highlighted == ["cpp"]  # ch01's edited block; ch03's new ones by a writer
    assert last.highlighted == ["json", "nosuchlanguage"]  # what warned; the writer's were kept
    assert "highlight-rust" in edited.site["ch03.html"].decode()
    assert [step.counted for step in afresh] == [7, 0, 0, 7]  # 0: read by -j 2 readers
    assert [step.counted for step in kept] == [7, 0, 0, 0]  # the readers' counts were kept


def test_only_plain_arguments_and_pygments_lexers_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from functools import partial

    from pygments.lexers import PythonLexer
    from seriesbook.speed.highlights import block_key
    from sphinx import highlighting

    assert block_key("x", "python", {}, False, {"linenos": False}) is not None
    assert block_key(b"x", "python", {}, False, {}) is None
    assert block_key("x", "python", {"x": object()}, False, {}) is None
    assert block_key("x", "c", {}, False, {"hl_lines": [1, 2]}) != block_key(
        "x", "c", {}, False, {"hl_lines": [1]})
    assert block_key("x", "c", {}, True, {}) != block_key("x", "c", {}, False, {})

    class Mine(PythonLexer):
        pass

    monkeypatch.setitem(highlighting.lexer_classes, "mine", Mine)
    monkeypatch.setitem(highlighting.lexer_classes, "python", partial(Mine, stripnl=False))
    assert block_key("x", "mine", {}, False, {}) is None
    assert block_key("x", "py", {}, False, {}) is None  # served by the project's python lexer
    assert block_key("x", "c", {}, False, {}) is not None


def test_a_store_takes_in_what_writer_processes_used_and_leaves_no_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from seriesbook.speed.highlights import KeptBlocks

    path = tmp_path / "kept.pickle"
    key_a, key_b = ("c", "[]", "[]", "a"), ("c", "[]", "[]", "b")
    KeptBlocks.read(path, ("k",)).save({"ch01": {key_a: "<a>"}}, {"ch01", "ch02"})
    store = KeptBlocks.read(path, ("k",))
    stray = tmp_path / f"{path.name}.1-dead.2.part"
    stray.write_bytes(pickle.dumps(("ch09", key_a, "<stale>")))
    monkeypatch.setattr(os, "getpid", lambda: store.owner + 1)  # as a writer process
    assert store.get("ch02", key_a) == "<a>"
    store.put("ch02", key_b, "<b>")
    monkeypatch.undo()
    store._part.close()  # type: ignore[union-attr]
    with open(next(tmp_path.glob(f"*.{store.build}.*.part")), "ab") as part:
        part.write(b"\x80cut short")
    assert store.used == {"ch02": {key_a: "<a>", key_b: "<b>"}}  # the writer's own memory
    store.used, store.lookup = {}, dict(store.lookup)
    store.lookup.pop(key_b)
    store.gather()
    assert store.used == {"ch02": {key_a: "<a>", key_b: "<b>"}}
    assert list(tmp_path.glob("*.part")) == []
    store.save(store.used, {"ch01", "ch02"})
    assert KeptBlocks.read(path, ("k",)).pages == {
        "ch01": {key_a: "<a>"}, "ch02": {key_a: "<a>", key_b: "<b>"}}


def test_a_build_whose_diagrams_are_all_kept_never_loads_merman(
    rootdir: Path, tmp_path: Path
) -> None:
    """merman is loaded to draw, not to name a drawing: its version for the store's key is the
    installed package's, the one its library reports."""
    import subprocess
    import sys
    from importlib import metadata

    import merman

    assert metadata.version("merman") == merman.Merman().package_version()
    src = shutil.copytree(rootdir / "test-speed-reading", tmp_path / "book")
    build = ("import sys; from sphinx.cmd.build import build_main; "
             "status = build_main(['-q', '-E', '-a', '.', '_build/html', '-d', '_build/dt']); "
             "print('merman' in sys.modules); sys.exit(status)")
    loaded = [subprocess.run([sys.executable, "-c", build], cwd=src, capture_output=True,
                             text=True, check=True).stdout.split()[-1] for _ in range(2)]
    assert loaded == ["True", "False"]  # drawn, then kept
    assert "<svg" in (src / "_build" / "html" / "ch03.html").read_text(encoding="utf-8")


def test_a_previews_title_text_is_sphinxs_clean_astext() -> None:
    from seriesbook.previews._collect import title_text
    from sphinx.util.nodes import clean_astext

    image = nodes.image(uri="x.png", alt="图")
    raw = nodes.raw("", "<b>raw</b>", format="html")
    titles = [
        nodes.title("", "§3.2 分配器 Allocator"),
        nodes.title("", "", nodes.Text("调用 "), nodes.literal("", "torch.add"),
                    nodes.emphasis("", "", nodes.strong("", "深"))),
        nodes.title("", "", nodes.Text("图 "), image, nodes.Text(" 之后")),
        nodes.title("", "", nodes.inline("", "", raw, nodes.Text("余下"))),
        nodes.title("", ""),
    ]
    for title in titles:
        before = title.pformat()
        assert title_text(title) == clean_astext(title)
        assert title.pformat() == before  # the node itself is never changed


@given(st.recursive(st.text() | st.integers() | st.none(),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=12))
def test_script_json_escapes_as_one_pattern_would(value: object) -> None:
    """Each unsafe character replaced in a pass of its own is the pattern's substitution (no
    replacement holds an unsafe character)."""
    import json
    import re

    from seriesbook.core.escape import script_json

    unsafe = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
              "\u2028": "\\u2028", "\u2029": "\\u2029"}
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    expected = re.sub("[<>&\u2028\u2029]", lambda match: unsafe[match.group()], text)
    assert script_json(value, sort_keys=True) == expected


def test_code_blocks_get_the_language_sphinxs_walk_gives_them(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page's doctree after the quick transform is the one after Sphinx's; a page with a
    ``highlight`` directive (ch06) takes Sphinx's walk, the others do not."""
    from seriesbook.speed.codelang import QuickHighlightLanguage
    from sphinx.transforms.post_transforms.code import HighlightLanguageTransform

    src = shutil.copytree(rootdir / "test-speed-reading", tmp_path / "book")
    app = make_app("html", srcdir=src)
    app.build()
    assert QuickHighlightLanguage in app.registry.get_post_transforms()
    assert HighlightLanguageTransform not in app.registry.get_post_transforms()
    walked: list[str] = []
    sphinx_apply = HighlightLanguageTransform.apply

    def apply(self: HighlightLanguageTransform, **kwargs: Any) -> None:
        walked.append(self.env.current_document.docname)
        sphinx_apply(self, **kwargs)

    monkeypatch.setattr(HighlightLanguageTransform, "apply", apply)
    for docname in sorted(app.env.all_docs):
        app.env.current_document.docname = docname
        doctree = app.env.get_doctree(docname)
        theirs, ours = doctree.deepcopy(), doctree.deepcopy()
        HighlightLanguageTransform(theirs).apply()
        walked.remove(docname)
        QuickHighlightLanguage(ours).apply()
        assert ours.pformat() == theirs.pformat()
        assert any(node.get("language") for node in ours.findall(nodes.literal_block)) == (
            docname != "index")
    assert walked == ["ch06"]


@pytest.mark.parametrize("frozen_before", [False, True])
def test_what_lives_through_a_build_is_frozen_until_it_finishes(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, frozen_before: bool
) -> None:
    """The heap is frozen while a build reads and writes (the collector skips it) and let go
    when the build finishes, also when it fails and never for an application not built; a
    heap frozen by another is left so."""
    import gc

    from sphinx.errors import ExtensionError

    src = shutil.copytree(rootdir / "test-site-sidebar", tmp_path / "book")
    gc.unfreeze()
    if frozen_before:
        gc.freeze()
    try:
        extensions = ["seriesbook.site", "seriesbook.speed.heap"]
        make_app("html", srcdir=src, confoverrides={"extensions": extensions})
        assert (gc.get_freeze_count() > 0) == frozen_before  # created, not built
        during: list[int] = []
        for fail in (False, True):
            app = make_app("html", srcdir=src, confoverrides={"extensions": extensions})
            app.connect("env-before-read-docs", lambda *_: during.append(gc.get_freeze_count()),
                        priority=900)
            if fail:
                app.connect("doctree-resolved", lambda *_: 1 / 0)
            try:
                app.build(force_all=True)
            except ExtensionError:  # the handler's error, as Sphinx reports it
                assert fail
            assert (gc.get_freeze_count() > 0) == frozen_before
        assert len(during) == 2 and all(during)
    finally:
        gc.unfreeze()


def test_a_command_that_only_reads_lets_the_heap_go(rootdir: Path, tmp_path: Path) -> None:
    """``renumber`` and ``translations`` run Sphinx's reading alone (no ``build-finished``):
    the heap frozen when reading started is let go when it ends, so a process that goes on
    (a test run, a warm server) collects it again."""
    import gc

    from seriesbook.commands.reading import read_pages

    src = shutil.copytree(rootdir / "test-site-sidebar", tmp_path / "book")
    conf = src / "conf.py"
    conf.write_text(conf.read_text() + '\nextensions = [*extensions, "seriesbook.speed.heap"]\n')
    gc.unfreeze()
    with read_pages(src, src) as run:
        assert run.app.env.all_docs
        assert gc.get_freeze_count() == 0
