"""The one-chapter rebuild's fixed costs made smaller, with the same site: a module the theme
imports run when first used (``seriesbook.speed.deferred``), the theme's ``pygments.css`` kept
(``seriesbook.speed.stylesheet``), sphinxcontrib-mermaid's script not made where it is dropped
(``seriesbook.site``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]


def _run(script: str, cwd: Path | None = None) -> str:
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_deferred_module_runs_when_first_used_and_is_then_as_imported() -> None:
    """bs4 imports soupsieve without running it; the first selector runs it, and from then on
    the module is the one Python's import gives (its loader, its names, its submodules)."""
    out = _run(
        "import sys, types, importlib.machinery as m\n"
        "from seriesbook.speed import deferred\n"
        "deferred.defer()\n"
        "import bs4\n"
        "ss = sys.modules['soupsieve']\n"
        "assert type(ss) is deferred.DeferredModule, type(ss)\n"
        "assert 'select' not in vars(ss) and ss.__path__ and ss.__file__.endswith('.py')\n"
        "assert not any(isinstance(f, deferred._Deferring) for f in sys.meta_path)\n"
        "soup = bs4.BeautifulSoup('<p class=a>x</p><p>y</p>', 'html.parser')\n"
        "print([str(t) for t in soup.select('p.a')])\n"
        "assert type(ss) is types.ModuleType and sys.modules['soupsieve'] is ss\n"
        "assert type(ss.__loader__) is m.SourceFileLoader and ss.__spec__.loader is ss.__loader__\n"
        "import soupsieve.css_match\n"
        "print(ss.__version__ == __import__('importlib.metadata').metadata.version('soupsieve'))\n"
    )
    assert out.split("\n")[:2] == ["['<p class=\"a\">x</p>']", "True"]


def test_a_deferred_module_whose_code_fails_fails_where_used_and_is_dropped(
    tmp_path: Path,
) -> None:
    (tmp_path / "failing.py").write_text("raise RuntimeError('at import')\n", encoding="utf-8")
    (tmp_path / "plain.py").write_text("VALUE = 1\n", encoding="utf-8")
    out = _run(
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from seriesbook.speed import deferred\n"
        "deferred.defer(['failing', 'plain'])\n"
        "import failing, plain\n"
        "try:\n"
        "    failing.anything\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
        "print('failing' in sys.modules, plain.VALUE)\n"
        "try:\n"
        "    plain.missing\n"
        "except AttributeError as error:\n"
        "    print(error)\n"
    )
    assert out.split("\n")[:3] == [
        "at import", "False 1", "module 'plain' has no attribute 'missing'"]


def test_a_build_defers_only_what_is_not_imported_and_stops_deferring_when_done(
    rootdir: Path, tmp_path: Path
) -> None:
    """In a fresh interpreter: a build's theme imports soupsieve unrun; afterwards imports are
    as usual again."""
    book = shutil.copytree(rootdir / "test-site-basic", tmp_path / "book")
    out = _run(
        "import sys\n"
        "from sphinx.cmd.build import build_main\n"
        f"assert build_main(['-q', '-b', 'html', '.', {str(tmp_path / 'out')!r}]) == 0\n"
        "from seriesbook.speed import deferred\n"
        "print(type(sys.modules['soupsieve']).__name__)\n"
        "print(any(isinstance(f, deferred._Deferring) for f in sys.meta_path))\n",
        cwd=book,
    )
    assert out.split() == ["DeferredModule", "False"]


def _site(outdir: Path) -> dict[str, bytes]:
    """The pages, the search index and the highlighting stylesheet."""
    files = [p for p in outdir.rglob("*") if p.is_file() and (
        (p.suffix == ".html" and "_static" not in p.parts)
        or p.name in {"searchindex.js", "pygments.css"})]
    return {str(p.relative_to(outdir)): p.read_bytes() for p in sorted(files)}


def test_the_kept_stylesheet_and_the_script_left_unmade_write_the_same_site(
    make_app: MakeApp, rootdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first build, a rebuild with nothing changed and one after an edit write the same
    pages and ``pygments.css`` with the speed paths as without; with them the theme makes its
    stylesheet only in the first build, and mermaid's script is made only for a page that
    holds a diagram left to the browser (none here: every diagram is drawn)."""
    import pydata_sphinx_theme.pygments as theme_pygments
    import sphinxcontrib.mermaid as mermaid

    made = {"stylesheet": 0, "script": 0}
    stylesheet, template = theme_pygments.get_pygments_stylesheet, mermaid.Template

    def counted_stylesheet(*args: str) -> str:
        made["stylesheet"] += 1
        return stylesheet(*args)

    def counted_template(source: str) -> object:
        made["script"] += 1
        return template(source)

    monkeypatch.setattr(theme_pygments, "get_pygments_stylesheet", counted_stylesheet)
    monkeypatch.setattr(mermaid, "Template", counted_template)

    def steps(speedups: bool) -> list[tuple[dict[str, bytes], str, dict[str, int]]]:
        src = shutil.copytree(rootdir / "test-site-basic", tmp_path / f"book-{speedups}")
        done = []
        for step in range(3):
            if step == 2:
                index = src / "index.md"
                index.write_text(index.read_text(encoding="utf-8") + "\n\n又一段正文。\n",
                                 encoding="utf-8")
            made.update(stylesheet=0, script=0)
            app = make_app("html", srcdir=src, freshenv=step == 0,
                           confoverrides={"seriesbook_speedups": speedups})
            app.build()
            warnings = app.warning.getvalue().replace(str(src), "<book>")
            done.append((_site(Path(app.outdir)), warnings, dict(made)))
            app.cleanup()
        return done

    afresh, kept = steps(False), steps(True)
    for (files, warnings, _), (kept_files, kept_warnings, _) in zip(afresh, kept, strict=True):
        assert kept_files.keys() == files.keys()
        assert [name for name in files if kept_files[name] != files[name]] == []
        assert kept_warnings == warnings
    assert "_static/pygments.css" in afresh[0][0]
    assert [counts["stylesheet"] for _, _, counts in afresh] == [1, 1, 1]
    assert [counts["stylesheet"] for _, _, counts in kept] == [1, 0, 0]
    assert all(counts["script"] > 0 for _, _, counts in afresh)  # genindex, search: no doctree
    assert [counts["script"] for _, _, counts in kept] == [0, 0, 0]
