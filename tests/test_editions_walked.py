"""One walk of a translated page for the editions' steps: taken only while it is current."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from docutils import nodes
from seriesbook.editions import _walked
from sphinx.testing.util import SphinxTestApp
from sphinx.transforms import SphinxTransform

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).parent / "roots"


@pytest.mark.parametrize("name", sorted(_walked.STILL | {_walked.LOCALE}))
def test_each_step_named_is_a_transform(name: str) -> None:
    module, _, attribute = name.rpartition(".")
    found = getattr(importlib.import_module(module), attribute)
    assert issubclass(found, SphinxTransform)


class Insert(SphinxTransform):
    """Another extension's step among the editions' (just after NoteMessages): a message of the
    book's language and a code block with Han, which the walk before it did not see."""

    default_priority = 19

    def apply(self, **kwargs: Any) -> None:
        section = next(iter(self.document.findall(nodes.section)))
        paragraph = nodes.paragraph("插入的段落。", "插入的段落。")
        code = nodes.literal_block("# 插入的注释", "# 插入的注释")
        section.insert(1, paragraph)
        section.insert(2, code)
        paragraph.source, paragraph.line = self.document["source"], 1


def _build(make_app: MakeApp, srcdir: Path, name: str, *, speedups: bool, insert: bool
           ) -> dict[str, bytes]:
    builddir = srcdir.parent / f"_build-{name}"
    app = make_app("html", srcdir=srcdir, builddir=builddir, freshenv=True,
                   confoverrides={"language": "en", "seriesbook_speedups": speedups})
    if insert:
        app.add_transform(Insert)
    app.build()
    out = Path(app.outdir)
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.html"))}


@pytest.mark.parametrize("insert", [False, True])
def test_the_steps_take_the_walk_only_while_it_is_current(
        make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, insert: bool) -> None:
    """The pages are Sphinx's own (speedups off) whether the steps took the walk (nothing ran
    between them) or walked the page themselves (another extension's step ran between)."""
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-lang", srcdir)
    taken: list[bool] = []
    found = _walked.found
    monkeypatch.setattr(_walked, "found", lambda *args: taken.append(
        (result := found(*args)) is not None) or result)
    quick = _build(make_app, srcdir, "quick", speedups=True, insert=insert)
    assert taken and all(taken) is not insert  # (a step before the other one still takes it)
    taken.clear()
    plain = _build(make_app, srcdir, "plain", speedups=False, insert=insert)
    assert not any(taken)  # nothing walked for them
    assert quick.keys() == plain.keys()
    assert [name for name in quick if quick[name] != plain[name]] == []
    if insert:  # the inserted message and code are the book's language, marked as such
        page = quick["ch01.html"].decode()
        assert '<p lang="zh-CN">插入的段落。</p>' in page
        assert '<div class="highlight-default notranslate" lang="zh-CN">' in page
