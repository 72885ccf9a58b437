"""Work kept across builds while pages are read and written (``seriesbook.speed``): the same
site and warnings as doing it afresh, cold, warm, after an edit and under ``-j 2``."""

from __future__ import annotations

import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
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


def test_kept_code_blocks_write_the_same_site_cold_warm_after_an_edit_and_under_j2(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first build, a fresh-environment build under -j 2, an edit built under -j 2 (a new
    block highlighted in a writer process), a fresh serial build: the same pages and warnings
    (both highlighting warnings in every build) as highlighting every block afresh; the kept
    builds highlight again only the blocks that warned, and the new blocks once."""
    from seriesbook.speed import highlights

    calls: list[str] = []
    fresh = PygmentsBridge.highlight_block

    def counting(self: PygmentsBridge, source: str, lang: str, *args: Any, **kwargs: Any) -> str:
        calls.append(lang)
        return fresh(self, source, lang, *args, **kwargs)

    monkeypatch.setattr(PygmentsBridge, "highlight_block", counting)

    def steps(speedups: bool) -> list[tuple[dict[str, bytes], str, list[str]]]:
        src = shutil.copytree(rootdir / "test-speed-reading", tmp_path / f"book-{speedups}")
        store = src / "_build" / "doctrees" / highlights.CACHE_NAME
        done = []
        for step, (fresh_env, parallel) in enumerate(((True, 0), (True, 2), (False, 2),
                                                       (True, 0))):
            if step == 2:
                _edit(src)
            calls.clear()
            app = make_app("html", srcdir=src, freshenv=fresh_env, parallel=parallel,
                           confoverrides={"seriesbook_speedups": speedups})
            bridge = app.builder.highlighter  # type: ignore[attr-defined]
            assert isinstance(bridge, highlights.KeptHighlighter) == speedups
            bridges[speedups] = {k: v for k, v in vars(bridge).items() if k not in KEPT_ONLY}
            app.build()
            warnings = app.warning.getvalue().replace(str(src), "<book>")
            done.append((_site(Path(app.outdir)), warnings, sorted(calls)))
            assert list(store.parent.glob("*.part")) == []
            app.cleanup()
        assert store.is_file() == speedups
        return done

    bridges: dict[bool, dict[str, Any]] = {}
    afresh, kept = steps(False), steps(True)
    assert bridges[True] == bridges[False]  # Sphinx's bridge, copied: its attributes and values
    for (site, warnings, _), (kept_site, kept_warnings, _) in zip(afresh, kept, strict=True):
        assert kept_site.keys() == site.keys()
        assert [name for name in site if kept_site[name] != site[name]] == []
        assert kept_warnings == warnings
        assert "'nosuchlanguage' is not known" in warnings and "Retrying in relaxed" in warnings
    warned = ["json", "nosuchlanguage"]
    first, parallel, edited, last = (calls for _, _, calls in kept)
    assert len(first) == len(afresh[0][2]) - 1  # a block shown twice is highlighted once
    assert parallel == []  # -j 2: the writers' highlighting is not seen here, only the first
    assert last == warned  # what the -j 2 writer highlighted was kept
    assert edited == ["cpp"]  # ch01's edited block; ch03's two new ones by a writer process
    assert "highlight-rust" in kept[2][0]["ch03.html"].decode()


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
