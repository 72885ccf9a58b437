"""seriesbook.speed.heap and seriesbook.speed.templates: faster builds that write the same pages.

The collector's thresholds are raised only while a build runs and given back afterwards; the
theme's compiled templates are kept in the doctree directory, an edited template is compiled
again, and the pages are byte for byte those of a build that compiles every template.
"""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from seriesbook.speed import heap, templates
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]


@pytest.fixture
def default_thresholds() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield (700, 10, 10)
    finally:
        gc.set_threshold(*before)


def _pages(outdir: Path) -> dict[str, bytes]:
    """The written pages (the theme's static ``*.html`` macros are copied, not rendered)."""
    return {
        str(p.relative_to(outdir)): p.read_bytes()
        for p in sorted(outdir.rglob("*.html"))
        if "_static" not in p.parts
    }


def test_a_build_runs_relaxed_and_gives_the_thresholds_back(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, default_thresholds: tuple[int, int, int]
) -> None:
    src = tmp_path / "book"
    shutil.copytree(rootdir / "test-site-sidebar", src)
    seen: list[tuple[int, int, int]] = []
    extensions = ["seriesbook.site", "seriesbook.speed.heap"]
    app = make_app("html", srcdir=src, confoverrides={"extensions": extensions})
    app.connect("env-before-read-docs", lambda *_: seen.append(gc.get_threshold()))
    app.build()
    assert seen == [heap.THRESHOLDS]
    assert gc.get_threshold() == default_thresholds


def test_the_collector_waits_while_the_build_settles_and_not_after_an_app_never_built(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, default_thresholds: tuple[int, int, int]
) -> None:
    """From config-inited until reading starts (the environment unpickled, the builder made)
    the collector waits (SETTLING); an application made and never built leaves the next one
    as relaxed as a build, not waiting; after the build the young objects are old ones, so
    giving the thresholds back starts no collection."""
    src = tmp_path / "book"
    shutil.copytree(rootdir / "test-site-sidebar", src)
    extensions = ["seriesbook.site", "seriesbook.speed.heap"]
    seen: list[tuple[int, int, int]] = []
    never_built = make_app("html", srcdir=src, confoverrides={"extensions": extensions})
    assert gc.get_threshold() == heap.SETTLING
    app = make_app("html", srcdir=src, confoverrides={"extensions": extensions})
    app.connect("builder-inited", lambda *_: seen.append(gc.get_threshold()))
    app.connect("env-before-read-docs", lambda *_: seen.append(gc.get_threshold()))
    assert gc.get_threshold() == heap.SETTLING
    app.build()
    assert seen[-1] == heap.THRESHOLDS
    assert gc.get_threshold() == heap.THRESHOLDS  # the first app relaxed it and never built
    assert gc.get_freeze_count() == 0
    del never_built
    gc.set_threshold(*default_thresholds)
    third = make_app("html", srcdir=src, confoverrides={"extensions": extensions})
    collections: list[int] = []
    third.connect("build-finished", lambda *_: gc.callbacks.append(
        lambda phase, info: collections.append(info["generation"]) if phase == "stop" else None),
        priority=999)
    third.build()
    young = gc.get_count()[0]
    gc.callbacks.pop()
    assert gc.get_threshold() == default_thresholds and gc.get_freeze_count() == 0
    assert young < default_thresholds[0] and collections == [], (young, collections)


def test_relaxed_restores_and_leaves_a_disabled_or_raised_collector_alone(
    default_thresholds: tuple[int, int, int],
) -> None:
    with heap.relaxed():
        assert gc.get_threshold() == heap.THRESHOLDS
        with heap.relaxed():  # nested: nothing to give back
            assert gc.get_threshold() == heap.THRESHOLDS
        assert gc.get_threshold() == heap.THRESHOLDS
    assert gc.get_threshold() == default_thresholds
    gc.set_threshold(0)
    with heap.relaxed():
        assert gc.get_threshold()[0] == 0
    gc.set_threshold(*default_thresholds)


def test_a_process_that_built_a_book_exits_cleanly(rootdir: Path, tmp_path: Path) -> None:
    """The freeze at exit keeps the shutdown's duties: stdout flushed, exit status kept."""
    src = tmp_path / "book"
    shutil.copytree(rootdir / "test-site-sidebar", src)
    script = (
        "import sys\n"
        "from sphinx.cmd.build import build_main\n"
        f"status = build_main(['-q', '-b', 'html', {str(src)!r}, {str(tmp_path / 'out')!r}])\n"
        "print('built', status, end='')\n"  # unflushed at exit: must still arrive
        "sys.exit(3 if status == 0 else 1)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (3, "built 0"), done.stderr
    assert (tmp_path / "out" / "index.html").is_file()


def _build(make_app: MakeApp, src: Path, *, compiled_kept: bool) -> Path:
    app = make_app(
        "html", srcdir=src, freshenv=True, confoverrides={"seriesbook_speedups": compiled_kept}
    )
    app.build()
    app.cleanup()
    return Path(app.outdir)


def test_kept_templates_write_the_same_pages_and_notice_an_edit(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    def with_override(name: str) -> Path:
        """The book with the author's own layout.html over the theme's (``!layout.html``)."""
        book = shutil.copytree(rootdir / "test-site-sidebar", tmp_path / name)
        (book / "_templates").mkdir()
        (book / "conf.py").write_text(
            (book / "conf.py").read_text(encoding="utf-8") + 'templates_path = ["_templates"]\n',
            encoding="utf-8",
        )
        (book / "_templates" / "layout.html").write_text(
            '{% extends "!layout.html" %}\n', encoding="utf-8"
        )
        return book

    plain = _pages(_build(make_app, with_override("a"), compiled_kept=False))
    src = with_override("b")
    footer = src / "_templates" / "layout.html"
    first = _build(make_app, src, compiled_kept=True)
    kept = list(templates.cache_dir(first.parent / "doctrees").glob("*.cache"))
    assert kept, "no compiled template was kept"
    assert _pages(first) == plain  # the override adds nothing
    again = _pages(_build(make_app, src, compiled_kept=True))  # from the kept code
    assert again == plain
    mark = '<p id="edited">改过的页脚</p>'
    footer.write_text(
        '{% extends "!layout.html" %}{% block footer %}' + mark + "{% endblock %}\n",
        encoding="utf-8",
    )
    edited = _pages(_build(make_app, src, compiled_kept=True))
    assert edited.keys() == plain.keys()
    assert [name for name, page in edited.items() if mark not in page.decode()] == []


def test_paused_stops_collection_inside_and_restores_the_collector() -> None:
    assert gc.isenabled()
    with heap.paused():
        assert not gc.isenabled()
        with heap.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it off and leaves it off
    assert gc.isenabled()
