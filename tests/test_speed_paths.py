"""The hot paths issue 32 made cheaper give what the plain definitions give: the search
index's § lists and their lengths, Han bigrams, citation previews' highlighting (and the
highlighted lines kept across builds: the same site as highlighting afresh)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.token import Text
from seriesbook.previews._code import PLAIN, highlighted_lines
from seriesbook.search.compact import (
    bitmap,
    read_varints,
    section_list,
    section_list_length,
    varints,
)
from seriesbook.search.splitter import han_bigrams
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]

NUMBERS = st.lists(st.integers(0, 40_000), unique=True, max_size=60).map(sorted)


@settings(max_examples=300, deadline=None)
@given(NUMBERS)
def test_a_section_list_is_the_shorter_form_and_its_length_is_counted_right(
        numbers: list[int]) -> None:
    gaps, bits = varints(numbers), bitmap(numbers)
    assert section_list(numbers) == (gaps if len(gaps) <= len(bits) else bits)
    assert section_list_length(numbers) == len(section_list(numbers))


@given(st.lists(st.integers(0, 2**31), unique=True, max_size=20).map(sorted))
def test_varints_of_gaps_of_any_size_read_back(numbers: list[int]) -> None:
    """The one-digit shortcut and the general loop write one format (``read_varints``')."""
    assert read_varints(varints(numbers)) == numbers


@given(st.text(alphabet=st.sampled_from(list("缓存分配器 a,，𠀀𠀁")), max_size=30))
def test_han_bigrams_are_each_adjacent_pair_once(text: str) -> None:
    import re

    from seriesbook.core.text import HAN

    expected: dict[str, None] = {}
    for run in re.findall(f"{HAN.pattern}+", text):
        for start in range(len(run) - 1):
            expected[run[start:start + 2]] = None
    assert han_bigrams(text) == list(expected)


@pytest.mark.parametrize("path", ["torch/nn/modules/module.py", "c10/core/TensorImpl.cpp",
                                  "aten/src/ATen/native/cuda/Loops.cuh", "c10/core/Device.h",
                                  "CMakeLists.txt", "setup.py", "README", "docs/x.unknownsuffix"])
def test_previews_highlight_as_a_fresh_lexer_and_formatter_do(path: str) -> None:
    """One lexer per file name and one formatter for all: the same lines, call after call."""
    text = 'def f(x):\n    return x  # "q"\n\nint main() { return 0; }\n'
    first = highlighted_lines(path, text)
    assert highlighted_lines("other.py", "x = 1\n") == highlighted_lines("other.py", "x = 1\n")
    assert highlighted_lines(path, text) == first
    if path.endswith((".py", ".cpp", ".txt")):  # what a lexer and a formatter made afresh give
        lexer = get_lexer_for_filename(path, stripnl=False, ensurenl=False)
        tokens = ((Text if kind in PLAIN else kind, value) for kind, value in
                  lexer.get_tokens(text))
        html = str(format_tokens(tokens, HtmlFormatter(nowrap=True)))
        assert first == html.split("\n")[: text.count("\n") + 1]


def _site(outdir: Path) -> dict[str, bytes]:
    """What a reader gets: the written pages, each page's preview data, the published file."""
    files = [p for p in outdir.rglob("*") if p.is_file() and "_static" not in p.parts and (
        p.suffix == ".html" or p.parent.name == "_previews" or p.name.endswith("previews.json"))]
    return {str(p.relative_to(outdir)): p.read_bytes() for p in sorted(files)}


def _previews_book(tmp_path: Path, rootdir: Path, name: str) -> Path:
    """The previews test book with a C++ header cited too (a second lexer, a second store key)."""
    src = shutil.copytree(rootdir / "test-previews", tmp_path / name)
    (src / "demo-src" / "pkg" / "alloc.h").write_text(
        "#pragma once\nstruct Block { int size; };  // 块\nvoid* alloc(int n);\n", encoding="utf-8")
    ch03 = src / "ch03.md"
    ch03.write_text(ch03.read_text(encoding="utf-8").replace(
        "正文。", "正文见 `pkg/alloc.h:2-3` 与 `pkg/engine.py:2`。"), encoding="utf-8")
    return src


def _edit_previews_book(src: Path) -> None:
    """A cited line changes, a page cites a line it did not, another stops citing one."""
    engine = src / "demo-src" / "pkg" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8").replace(
        "if n.ready]  # 就绪", "if n.ready and not n.done]  # 就绪且未完成"), encoding="utf-8")
    ch02, ch03 = src / "ch02.md", src / "ch03.md"
    ch02.write_text(ch02.read_text(encoding="utf-8") + "\n头文件见 `pkg/alloc.h:1`。\n",
                    encoding="utf-8")
    ch03.write_text(ch03.read_text(encoding="utf-8").replace(" 与 `pkg/engine.py:2`", ""),
                    encoding="utf-8")


def test_kept_highlighted_lines_write_the_same_site_cold_warm_and_after_an_edit(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step (a first build, a fresh-environment rebuild under -j 2, an incremental build
    after edits to a cited file and to the pages' citations) gives the same pages, preview data
    and warnings with the kept lines as with every citation highlighted afresh; the rebuild
    with nothing changed highlights nothing."""
    from seriesbook.previews import _code, _kept, _write

    highlighted: list[str] = []
    fresh_highlight = _code.highlighted_lines

    def counting(path: str, text: str) -> list[str]:
        highlighted.append(path)
        return fresh_highlight(path, text)

    monkeypatch.setattr(_code, "highlighted_lines", counting)  # what the store calls
    monkeypatch.setattr(_write, "highlighted_lines", counting)  # what the writer calls without

    def steps(speedups: bool) -> list[tuple[dict[str, bytes], str, int]]:
        src = _previews_book(tmp_path, rootdir, f"book-{speedups}")
        done = []
        for step, options in enumerate(({}, {"parallel": 2}, {"freshenv": False})):
            if step == 2:
                _edit_previews_book(src)
            highlighted.clear()
            app = make_app("html", srcdir=src, freshenv=options.get("freshenv", True),
                           parallel=options.get("parallel", 0),
                           confoverrides={"seriesbook_speedups": speedups})
            app.build()
            warnings = app.warning.getvalue().replace(str(src), "<book>")
            done.append((_site(Path(app.outdir)), warnings, len(highlighted)))
            app.cleanup()
        assert (src / "_build" / "doctrees" / _kept.CACHE_NAME).is_file() == speedups
        return done

    afresh, kept = steps(False), steps(True)
    for (site, warnings, _), (kept_site, kept_warnings, _) in zip(afresh, kept, strict=True):
        assert kept_site.keys() == site.keys()
        assert [name for name in site if kept_site[name] != site[name]] == []
        assert kept_warnings == warnings
    assert any(name.startswith("_previews/") for name in afresh[0][0])
    first, warm, edited = (count for _, _, count in kept)
    assert first > 0 and warm == 0 and 0 < edited < first
    # without the store the rebuild highlights every citation again, a text cited twice twice
    assert afresh[1][2] == afresh[0][2] > first


def test_kept_icons_draw_the_same_stylesheet_cold_warm_and_after_an_edit(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The icons' stylesheet and warnings with the files' icons kept are those of scanning
    every page and drawing the stylesheet afresh: a first build, a fresh-environment rebuild,
    a page given an icon (and a misspelt one), a rebuild with nothing changed; the rebuilds
    draw nothing they have drawn, and read only the pages that were written again."""
    from seriesbook.site import _icons

    calls: dict[str, int] = {"page_icons": 0, "stylesheet": 0}
    for name in calls:
        def counting(*args: object, _name: str = name, _real: object = getattr(_icons, name)
                     ) -> object:
            calls[_name] += 1
            return _real(*args)  # type: ignore[operator]
        monkeypatch.setattr(_icons, name, counting)
    links = {"icon_links": [{"name": "Feed", "url": "https://example.org/feed",
                             "icon": "fa-solid fa-rss"}]}

    def steps(speedups: bool) -> list[tuple[dict[str, bytes], str, dict[str, int]]]:
        src = shutil.copytree(rootdir / "test-payload", tmp_path / f"book-{speedups}")
        done = []
        for step in range(4):
            if step == 2:
                ch01 = src / "ch01.md"
                ch01.write_text(ch01.read_text(encoding="utf-8") + '\n\n火箭 <i class="fa-solid '
                                'fa-rocket"></i>，错字 <i class="fa-solid fa-rockit"></i>。\n',
                                encoding="utf-8")
            for name in calls:
                calls[name] = 0
            app = make_app("html", srcdir=src, freshenv=step < 2, confoverrides={
                "seriesbook_speedups": speedups, "html_theme_options": links})
            app.build()
            out = Path(app.outdir)
            files = {**_site(out), STYLE: (out / "_static" / STYLE).read_bytes()}
            counts = {**calls, "html": len(list(out.glob("**/*.html")))}  # what write_icons reads
            done.append((files, app.warning.getvalue().replace(str(src), "<book>"), counts))
            app.cleanup()
        return done

    STYLE = _icons.STYLE
    afresh, kept = steps(False), steps(True)
    for (files, warnings, _), (kept_files, kept_warnings, _) in zip(afresh, kept, strict=True):
        assert [name for name in files if kept_files.get(name) != files[name]] == []
        assert kept_files.keys() == files.keys()
        assert kept_warnings == warnings
    edited_css = afresh[2][0][STYLE].decode()
    assert ".fa-rocket {" in edited_css and ".fa-rss {" in edited_css
    assert "fa-rockit" in afresh[2][1] and "fa-rockit" in afresh[3][1]  # said in every build
    assert [counts["stylesheet"] for _, _, counts in kept] == [1, 0, 1, 0]
    assert kept[0][2]["page_icons"] == kept[0][2]["html"]  # every page read once
    assert 0 < kept[3][2]["page_icons"] < kept[3][2]["html"]  # only the pages written again


def test_mermaid_is_copied_again_only_when_its_copy_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's copy of mermaid: copied when missing or when its size or time differs from
    the source's (an upgraded mermaid, an edited copy), left alone when it is the copy."""
    import os

    from seriesbook.site import _copy_changed

    source, target = tmp_path / "m.mjs", tmp_path / "out.mjs"
    source.write_text("export default 1;\n", encoding="utf-8")
    _copy_changed(source, target)
    assert target.read_bytes() == source.read_bytes()
    target.write_text("export default 2;\n", encoding="utf-8")  # same size, another time
    _copy_changed(source, target)
    assert target.read_bytes() == source.read_bytes()
    left = target.stat().st_mtime_ns
    os.utime(target, ns=(left, left))
    target.write_bytes(b"tampered, longer than the source\n")
    os.utime(target, ns=(left, left))  # same time, another size
    _copy_changed(source, target)
    assert target.read_bytes() == source.read_bytes()
    copied: list[object] = []
    monkeypatch.setattr(shutil, "copy2", lambda *args: copied.append(args))
    _copy_changed(source, target)  # the copy: not written again
    assert copied == []
