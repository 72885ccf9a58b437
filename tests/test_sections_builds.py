"""§ sections across builds: incremental rebuilds after edits, and ``-j 2`` against ``-j 1``."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]


def _edit(path: Path, old: str, new: str) -> None:
    """Change a source and move its mtime forward, so Sphinx sees it as changed (no sleeping)."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    future = path.stat().st_mtime + 10
    os.utime(path, (future, future))


def _links(app: SphinxTestApp, page: str) -> list[tuple[str, str]]:
    soup = BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")
    return [
        (a.get_text(), a.get("title", ""))
        for a in soup.select("a.reference")
        if a.find(class_=["sec-ref", "chapter-ref"])
    ]


def _ours(app: SphinxTestApp) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    return [line for line in text.splitlines() if "[seriesbook." in line]


def _written(app: SphinxTestApp) -> list[str]:
    pages: list[str] = []
    app.connect("html-page-context", lambda app, pagename, *args: pages.append(pagename))
    return pages


@pytest.mark.sphinx("html", testroot="sections-incremental", freshenv=True)
def test_incremental_rebuild_updates_referrers(app: SphinxTestApp) -> None:
    app.build()
    assert _ours(app) == []
    assert ("§1.2", "§1.2 旧标题") in _links(app, "ch02.html")

    # retitle §1.2 and remove §1.3: only the referrer ch02 (and ch01 itself) are rewritten
    ch01 = Path(app.srcdir) / "ch01.md"
    _edit(ch01, "## §1.2 旧标题", "## §1.2 新标题")
    _edit(ch01, "## §1.3 将被删除\n\n正文。\n", "")
    app.warning.truncate(0)
    app.warning.seek(0)
    written = _written(app)
    app.build()
    assert "ch02" in written and "ch03" not in written
    assert ("§1.2", "§1.2 新标题") in _links(app, "ch02.html")
    assert [text for text, _ in _links(app, "ch02.html")] == ["§1.2", "第1章"]
    [warning] = _ours(app)
    assert re.search(r"ch02\.md:5: WARNING: no section §1\.3 .*\[seriesbook\.sec-unresolved\]",
                     warning)

    # renumber: the section comes back as §1.3, and the referrer links to it again
    _edit(ch01, "## §1.2 新标题", "## §1.2 新标题\n\n## §1.3 重新编号")
    app.warning.truncate(0)
    app.warning.seek(0)
    written.clear()
    app.build()
    assert "ch02" in written and "ch03" not in written
    assert ("§1.3", "§1.3 重新编号") in _links(app, "ch02.html")
    assert _ours(app) == []


def _html_files(outdir: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for path in sorted(outdir.rglob("*.html"))
    }


def test_parallel_output_is_identical(
    make_app: MakeApp, rootdir: Path, tmp_path: Path
) -> None:
    outputs = []
    for jobs in (1, 2):
        src = tmp_path / f"j{jobs}"
        shutil.copytree(rootdir / "test-sections-links", src)
        app = make_app("html", srcdir=src, parallel=jobs, freshenv=True)
        assert app.is_parallel_allowed("read") and app.is_parallel_allowed("write")
        app.build()
        assert len(_ours(app)) == 1  # the one missing chapter, reported once
        outputs.append(_html_files(Path(app.outdir)))
    assert outputs[0].keys() == outputs[1].keys()
    for page in outputs[0]:
        assert outputs[0][page] == outputs[1][page], page
