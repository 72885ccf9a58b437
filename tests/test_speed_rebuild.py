"""The one-chapter rebuild's fixed costs made smaller, with the same site: a module the theme
imports run when first used (``seriesbook.speed.deferred``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

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
