"""Previews: the data each page gets, the lock's cited text, -j and incremental builds alike."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from docutils import nodes
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.citations.lockfile import read_lock, write_lock
from seriesbook.commands.cli import main as cli_main
from seriesbook.previews._code import highlighted_lines, source_license
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).resolve().parent / "roots"
SOURCE_FILE = ROOTS / "test-previews" / "demo-src" / "pkg" / "engine.py"
GITHUB = "https://github.com/pytorch/pytorch/blob/v1.0/pkg/engine.py"
#: The root's source without its local copy: what CI and Read the Docs have.
NO_COPY = {"seriesbook_sources": {"demo": {"repo": "https://github.com/pytorch/pytorch",
                                           "ref": "v1.0"}}}


def book(tmp_path: Path, name: str = "book", root: str = "previews") -> Path:
    srcdir = tmp_path / name
    shutil.copytree(ROOTS / f"test-{root}", srcdir)
    return srcdir


def build(make_app: MakeApp, srcdir: Path, **kw: Any) -> SphinxTestApp:
    kw.setdefault("freshenv", True)
    app = make_app("html", srcdir=srcdir, **kw)
    app.build()
    app.cleanup()
    return app


def page_data(app: SphinxTestApp, docname: str) -> dict[str, Any]:
    text = (Path(app.outdir) / "_previews" / f"{docname}.js").read_text(encoding="utf-8")
    assert text.startswith("seriesbookPreviews(") and text.endswith(");\n")
    data: dict[str, Any] = json.loads(text[len("seriesbookPreviews("):-3])
    return data


def shown_code(entry: dict[str, Any]) -> list[str]:
    """The cited lines as a reader sees them (the highlighting's markup removed)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in entry["l"]]


def outputs(app: SphinxTestApp) -> dict[str, bytes]:
    out = Path(app.outdir)
    files = [*sorted((out / "_previews").rglob("*.js")), out / "seriesbook-previews.json"]
    return {str(f.relative_to(out)): f.read_bytes() for f in files}


def test_pages_get_their_links_previews(make_app: MakeApp, tmp_path: Path) -> None:
    app = build(make_app, book(tmp_path))
    assert "seriesbook." not in app.warning.getvalue()
    data = page_data(app, "ch01")
    assert data["ui"]["go"] == "前往阅读"  # the build's language
    previews = data["p"]
    assert previews["ch02.html#ch-2"] == {"t": "第2章 内存", "b": [["p", "内存池按块复用显存。"]]}
    assert previews["ch02.html#sec-2-1"]["t"] == "§2.1 分配器 & 缓存"
    # a diagram is named, not drawn; line breaks between Han characters vanish
    published = json.loads((Path(app.outdir) / "seriesbook-previews.json").read_text())
    # a section that opens with a subsection shows that one's title and text
    opening = published["previews"]["sec-3-2"]["b"]
    assert opening == [["s", "§3.2.1 第一小节"], ["p", "小节的正文。"]]
    ch02 = page_data(app, "ch02")["p"]
    assert ch02["ch01.html#sec-1-1"]["b"][0] == ["d", ""]
    assert ch02["ch01.html#ch-1"]["b"][0][1].startswith("引擎把计算图交给执行器，按拓扑顺序")

    long = previews[f"{GITHUB}#L1-L15"]
    source = SOURCE_FILE.read_text(encoding="utf-8").split("\n")
    assert shown_code(long) == source[:12]  # the first 12 lines, byte for byte
    assert (long["s"], long["m"], long["f"], long["r"]) == (1, 3, "BSD-3-Clause", "demo v1.0")
    assert shown_code(previews[f"{GITHUB}#L2-L4"]) == source[1:4]
    assert '<span class="k">def</span>' in previews[f"{GITHUB}#L2"]["l"][0]

    text = (Path(app.outdir) / "_previews" / "ch01.js").read_text(encoding="utf-8")
    # UTF-8: no character is escaped but those script_json keeps out of a script (<, >, &)
    assert "中文注释" in text and "<" not in text
    assert set(re.findall(r"\\u[0-9a-f]{4}", text)) <= {"\\u003c", "\\u003e", "\\u0026"}

    soup = BeautifulSoup((Path(app.outdir) / "ch01.html").read_text(encoding="utf-8"),
                         "html.parser")
    meta = soup.find("meta", attrs={"name": "seriesbook-previews"})
    assert meta is not None and meta["content"] == "_previews/ch01.js"
    assert soup.find("script", src=re.compile(r"seriesbook-previews\.js"))
    assert (Path(app.outdir) / "_static" / "seriesbook-previews.css").is_file()
    # every previewed link is on the page with exactly that href
    hrefs = {a["href"] for a in soup.find_all("a", href=True)}
    assert set(previews) <= hrefs
    index = BeautifulSoup((Path(app.outdir) / "index.html").read_text(encoding="utf-8"),
                          "html.parser")
    assert index.find("meta", attrs={"name": "seriesbook-previews"}) is None  # nothing to show

    assert published["previews"]["sec-2-1"] == previews["ch02.html#sec-2-1"]


def test_parallel_and_serial_builds_write_the_same(make_app: MakeApp, tmp_path: Path) -> None:
    serial = outputs(build(make_app, book(tmp_path, "serial")))
    parallel = outputs(build(make_app, book(tmp_path, "parallel"), parallel=2))
    assert serial == parallel
    assert len(serial) == 6  # five chapter pages (index has nothing to preview), published file


def test_an_edited_target_updates_the_pages_linking_to_it(
    make_app: MakeApp, tmp_path: Path
) -> None:
    srcdir = book(tmp_path)
    build(make_app, srcdir)
    ch02 = srcdir / "ch02.md"
    ch02.write_text(ch02.read_text(encoding="utf-8").replace("分配器先查缓存", "分配器先查空闲块"),
                    encoding="utf-8")
    app = build(make_app, srcdir, freshenv=False)
    edited = page_data(app, "ch01")["p"]["ch02.html#sec-2-1"]
    assert edited["b"][0][1].startswith("分配器先查空闲块")
    fresh = tmp_path / "fresh"
    shutil.copytree(srcdir, fresh, ignore=shutil.ignore_patterns("_build"))
    assert outputs(app) == outputs(build(make_app, fresh))


def test_the_lock_keeps_the_cited_text_and_previews_offline(
    make_app: MakeApp, tmp_path: Path
) -> None:
    online = book(tmp_path, "online")
    # the author's command (the source's "path" is overridden as a reader of the README would)
    assert cli_main(["lock", str(online), "--source", f"demo={online / 'demo-src'}"]) == 0
    lock = read_lock(online / "citations.lock.json")
    text = lock.sources["demo"].text
    source = SOURCE_FILE.read_text(encoding="utf-8").split("\n")
    assert text["pkg/engine.py:1-15"] == "\n".join(source[:12])
    assert text["pkg/engine.py:2-2"] == source[1]

    offline = book(tmp_path, "offline")
    shutil.rmtree(offline / "demo-src")  # no source: only the lock
    shutil.copyfile(online / "citations.lock.json", offline / "citations.lock.json")
    online_out = outputs(build(make_app, online, freshenv=True))
    offline_app = build(make_app, offline, confoverrides=NO_COPY)
    assert "seriesbook." not in offline_app.warning.getvalue()
    assert outputs(offline_app) == online_out


def test_an_old_lock_without_text_is_stale_once(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = book(tmp_path)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    lock = json.loads(write_lock(app).read_text(encoding="utf-8"))
    app.cleanup()
    del lock["sources"]["demo"]["text"]  # a lock written before previews
    (srcdir / "citations.lock.json").write_text(json.dumps(lock), encoding="utf-8")
    app = build(make_app, srcdir)
    stale = [w for w in app.warning.getvalue().splitlines() if "cite-lock-stale" in w]
    assert len(stale) == 1 and "keeps no cited text" in stale[0]
    shutil.rmtree(srcdir / "demo-src")
    offline = build(make_app, srcdir, confoverrides=NO_COPY)  # verified, just not previewed
    assert "seriesbook." not in offline.warning.getvalue()
    assert not any(k.startswith("https://") for k in page_data(offline, "ch01")["p"])


def test_untranslated_text_carries_the_source_language(
    make_app: MakeApp, tmp_path: Path
) -> None:
    app = build(make_app, book(tmp_path), confoverrides={"language": "en"})
    previews = page_data(app, "ch01")["p"]
    assert previews["ch02.html#ch-2"] == {
        "t": "Chapter 2 Memory", "b": [["p", "The pool reuses device memory in blocks."]]}
    section = previews["ch02.html#sec-2-1"]
    assert section["t"] == "§2.1 Allocator & cache" and "tl" not in section
    assert section["b"][0][2] == "zh-CN"  # the paragraph has no translation yet
    chapter1 = page_data(app, "ch02")["p"]["ch01.html#ch-1"]
    assert chapter1["tl"] == "zh-CN"
    assert page_data(app, "ch01")["ui"]["go"] == "Read it"


NAMED_BLOCKS = """
## §2.3 图在前

```{mermaid}
flowchart LR
  E[前端] --> F[后端]
```

这一段也尚未翻译。

## §2.4 有名字的块

```{mermaid}
:alt: 调度流程
flowchart LR
  G[调度] --> H[执行]
```

```{code-block} python
:caption: 计算梯度的代码

x = 1
```

```{list-table} 张量的形状
* - 维
"""


def published(app: SphinxTestApp) -> dict[str, Any]:
    text = (Path(app.outdir) / "seriesbook-previews.json").read_text(encoding="utf-8")
    previews: dict[str, Any] = json.loads(text)["previews"]
    return previews


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_named_blocks_carry_the_language_they_are_shown_in(
    make_app: MakeApp, tmp_path: Path, language: str
) -> None:
    """A translated edition's preview of an untranslated diagram names it (it used to vanish
    inside the ``<div lang>`` the marks wrap it in), and a caption, a table's title or a
    diagram's ``:alt:`` shown untranslated carries the source language; a translated one none."""
    srcdir = book(tmp_path, root="editions-lang")
    with (srcdir / "ch02.md").open("a", encoding="utf-8") as chapter:
        chapter.write(NAMED_BLOCKS)
    with (srcdir / "locale" / "en" / "LC_MESSAGES" / "ch02.po").open("a", encoding="utf-8") as po:
        po.write('\nmsgid "计算梯度的代码"\nmsgstr "Code computing gradients"\n')
    previews = published(build(make_app, srcdir, confoverrides={"language": language}))
    source = "zh-CN" if language == "en" else ""
    paragraph = ["p", "这一段也尚未翻译。", source] if source else ["p", "这一段也尚未翻译。"]
    assert previews["sec-2-3"]["b"] == [["d", ""], paragraph]
    caption = "Code computing gradients" if source else "计算梯度的代码"
    named = [["d", "调度流程", source], ["c", caption], ["t", "张量的形状", source]]
    assert previews["sec-2-4"]["b"] == [block[:2] if not block[-1] else block for block in named]


def test_sibling_volumes_preview_from_their_published_file(
    make_app: MakeApp, tmp_path: Path
) -> None:
    volume = build(make_app, book(tmp_path, "demo"))
    inventory = str(Path(volume.outdir) / "objects.inv")
    def mapping() -> dict[str, Any]:  # Sphinx normalizes the mapping in place: one per build
        return {"intersphinx_mapping": {"demo": ("https://example.org/demo/", inventory)}}

    sibling = build(make_app, book(tmp_path, "sibling", "previews-sibling"),
                    confoverrides=mapping())
    previews = page_data(sibling, "index")["p"]
    assert list(previews) == ["https://example.org/demo/ch02.html#sec-2-1"]
    assert previews["https://example.org/demo/ch02.html#sec-2-1"]["t"] == "§2.1 分配器 & 缓存"
    assert "preview-sibling" not in sibling.warning.getvalue()

    (Path(volume.outdir) / "seriesbook-previews.json").write_text('{"previews": [', "utf-8")
    broken = build(make_app, book(tmp_path, "again", "previews-sibling"),
                   confoverrides=mapping())
    said = [w for w in broken.warning.getvalue().splitlines() if "preview-sibling" in w]
    assert len(said) == 1 and "'demo'" in said[0] and "not JSON" in said[0]
    assert not (Path(broken.outdir) / "_previews").exists()


def test_previews_can_be_turned_off(make_app: MakeApp, tmp_path: Path) -> None:
    app = build(make_app, book(tmp_path), confoverrides={"seriesbook_previews": False})
    assert not (Path(app.outdir) / "_previews").exists()
    assert "seriesbook-previews" not in (Path(app.outdir) / "ch01.html").read_text()


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"repo": "https://github.com/pytorch/pytorch"}, "BSD-3-Clause"),
        ({"repo": "https://github.com/vllm-project/vllm/"}, "Apache-2.0"),
        ({"repo": "https://github.com/vllm-project/vllm", "license": "MIT"}, "MIT"),
        ({"repo": "https://example.org/other"}, ""),
    ],
)
def test_source_license(spec: dict[str, str], expected: str) -> None:
    assert source_license(spec) == expected


def test_highlighted_lines_keep_every_line() -> None:
    text = 'x = """a\n\nb"""\n\ty  # 注释 <b>'
    lines = highlighted_lines("m.py", text)
    assert [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in lines] == text.split("\n")
    assert highlighted_lines("notes.unknownsuffix", "") == [""]


_MARKS = st.sampled_from([None, True, False, 0, "", "no"])


@st.composite
def _marked_tree(draw: st.DrawFn, depth: int = 0) -> nodes.Element:
    node: nodes.Element = draw(st.sampled_from([nodes.paragraph, nodes.inline, nodes.section,
                                                nodes.title, nodes.container]))()
    mark = draw(_MARKS)
    if mark is not None:
        node["translated"] = mark
    for _ in range(draw(st.integers(0, 3 if depth < 3 else 0))):
        node += nodes.Text(draw(st.text(max_size=3))) if draw(st.booleans()) else draw(
            _marked_tree(depth + 1))
    return node


@given(_marked_tree())
def test_untranslated_is_what_a_walk_of_the_elements_says(tree: nodes.Element) -> None:
    from seriesbook.previews._collect import _untranslated

    assert _untranslated(tree) == any(
        n.get("translated") is False for n in tree.findall(nodes.Element))
