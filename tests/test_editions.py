"""Translated editions: both editions of a test book, the catalog workflow, coverage, checks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from seriesbook.editions import catalog_coverage
from seriesbook.editions._catalogs import read_catalog
from seriesbook.editions._coverage import Coverage, count_messages
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def copy_root(tmp_path: Path, name: str) -> Path:
    srcdir = tmp_path / name
    shutil.copytree(ROOTS / f"test-editions-{name}", srcdir)
    return srcdir


def build(
    make_app: MakeApp, srcdir: Path, language: str, builder: str = "html", **overrides: object
) -> SphinxTestApp:
    app = make_app(
        builder,
        srcdir=srcdir,
        builddir=srcdir / "_build" / language,
        confoverrides={"language": language, **overrides},
        freshenv=True,
    )
    app.build()
    return app


def ours(app: SphinxTestApp) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())
    # a second app in one process re-registers nodes and roles: Sphinx says so, harmlessly
    return [
        line
        for line in text.splitlines()
        if ("WARNING" in line or "ERROR" in line) and "while setting up extension" not in line
    ]


def page(app: SphinxTestApp, name: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / name).read_text(encoding="utf-8"), "html.parser")


def diagrams(soup: BeautifulSoup) -> list[str]:
    return [pre.get_text().strip() for pre in soup.select("pre.seriesbook-diagram-source-code")]


@pytest.fixture(scope="module")
def editions(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[SphinxTestApp, SphinxTestApp]]:
    """Both editions of the test book, built once for the module's read-only tests."""
    srcdir = copy_root(tmp_path_factory.mktemp("editions"), "book")
    apps: list[SphinxTestApp] = []
    try:
        for language in ("zh_CN", "en"):
            app = SphinxTestApp(
                "html",
                srcdir=srcdir,
                builddir=srcdir / "_build" / language,
                confoverrides={"language": language},
                freshenv=True,
                status=StringIO(),
                warning=StringIO(),
            )
            apps.append(app)
            app.build()
        yield apps[0], apps[1]
    finally:
        for app in apps:
            app.cleanup()


# --- both editions ---------------------------------------------------------------------------


def test_both_editions_build_clean(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    zh, en = editions
    assert ours(zh) == []
    assert ours(en) == []


def test_ids_are_identical_per_page(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    zh, en = editions
    for name in ("index.html", "ch01.html", "ch02.html"):
        ids_zh = {tag["id"] for tag in page(zh, name).select("[id]")}
        ids_en = {tag["id"] for tag in page(en, name).select("[id]")}
        assert ids_zh == ids_en, name
    assert {"ch-1", "sec-1-1", "sec-1-2"} <= {t["id"] for t in page(en, "ch01.html").select("[id]")}


def test_html_lang_per_edition(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    zh, en = editions
    assert page(zh, "ch01.html").html["lang"] == "zh-CN"  # type: ignore[index]
    assert page(en, "ch01.html").html["lang"] == "en"  # type: ignore[index]


def test_translated_prose_keeps_its_links(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    _, en = editions
    paragraph = next(p for p in page(en, "ch01.html").select("p") if "A tensor" in p.get_text())
    links = {a.get_text(): a["href"] for a in paragraph.select("a")}
    assert links["§1.2"] == "#sec-1-2"
    assert links["pkg/engine.py:5"] == "https://example.org/demo/blob/v1.0/pkg/engine.py#L5"
    assert links["Engine.run"] == "https://example.org/demo/blob/v1.0/pkg/engine.py#L5-L9"
    assert links["Chapter 2"] == "ch02.html#ch-2"  # the English chapter pattern
    ch02 = {a.get_text(): a["href"] for a in page(en, "ch02.html").select("section p a")}
    assert ch02 == {"§1.1": "ch01.html#sec-1-1", "§2.1.1": "#sec-2-1-1"}


def test_untranslated_fallback_keeps_chapter_links(
    editions: tuple[SphinxTestApp, SphinxTestApp],
) -> None:
    """An untranslated message falls back to the Chinese source: its 第2章 still links."""
    _, en = editions
    paragraph = next(p for p in page(en, "ch01.html").select("p") if "这一段" in p.get_text())
    assert [a.get_text() for a in paragraph.select("a")] == ["§1.1", "第2章"]


def test_diagrams_render_translated_labels(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    zh, en = editions
    source = (ROOTS / "test-editions-book" / "ch01.md").read_text(encoding="utf-8")
    written = re.findall(r"```\{mermaid\}\n(.*?)```", source, re.S)
    assert diagrams(page(zh, "ch01.html")) == [code.strip() for code in written]
    flowchart, sequence = diagrams(page(en, "ch01.html"))
    assert flowchart == (
        "flowchart TD\n"
        '    A["Tensor #34;handle#34;"] -->|"points to"| B["Storage #91;bytes#93;"]\n'
        '    subgraph S ["Kernels"]\n'
        '        C("Dispatcher #40;core#41;")\n'
        "    end\n"
        "    B --> C"
    )
    assert sequence == (
        "sequenceDiagram\n"
        "    participant P as Caller\n"
        "    participant D as Dispatcher #40;core#41;\n"
        "    P->>D: calls add#59; returns\n"
        "    Note over P,D: synchronised"
    )


def test_notice_on_a_partly_translated_page_only(
    editions: tuple[SphinxTestApp, SphinxTestApp],
) -> None:
    zh, en = editions
    notice = page(en, "ch01.html").select(".seriesbook-translation-notice")
    assert len(notice) == 1
    assert "This page is 92.3% translated." in notice[0].get_text()
    heading = page(en, "ch01.html").select_one("h1")
    assert heading is not None and heading.find_next("div") == notice[0]  # under the title
    assert page(en, "ch02.html").select(".seriesbook-translation-notice") == []
    assert page(zh, "ch01.html").select(".seriesbook-translation-notice") == []


def test_switcher_links_the_same_page(editions: tuple[SphinxTestApp, SphinxTestApp]) -> None:
    zh, en = editions
    nav_zh = page(zh, "ch01.html").select_one("nav.seriesbook-editions")
    nav_en = page(en, "ch01.html").select_one("nav.seriesbook-editions")
    assert nav_zh is not None and nav_en is not None
    assert [(a["href"], a["hreflang"]) for a in nav_zh.select("a")] == [("../en/ch01.html", "en")]
    assert [a["href"] for a in nav_en.select("a")] == ["../zh_CN/ch01.html"]
    current = nav_en.select_one("[aria-current]")
    assert current is not None and current.get_text() == "English"
    script = Path(en.outdir) / "_static" / "seriesbook-editions.js"
    assert "location.hash" in script.read_text(encoding="utf-8")
    assert any(
        "seriesbook-editions.js" in tag.get("src", "")
        for tag in page(en, "ch01.html").select("script")
    )


def test_edition_url_pattern(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = copy_root(tmp_path, "book")
    app = build(make_app, srcdir, "zh_CN", seriesbook_edition_url="/{rtd_language}/latest/{target}")
    nav = page(app, "ch02.html").select_one("nav.seriesbook-editions")
    assert nav is not None
    assert [a["href"] for a in nav.select("a")] == ["/en/latest/ch02.html"]


# --- catalogs --------------------------------------------------------------------------------


def test_gettext_extracts_diagram_labels_not_structure(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = copy_root(tmp_path, "book")
    app = build(make_app, srcdir, "zh_CN", builder="gettext")
    pot = read_catalog(Path(app.outdir) / "ch01.pot")
    ids = [str(m.id) for m in pot if m.id]
    assert ids[3:8] == ["张量 句柄", "指向", "存储", "内核", "调度器"]
    assert ids[-3:] == ["调用方", "调用 add", "同步完成"]
    assert not [i for i in ids if re.search(r"-->|->>|flowchart|subgraph|participant", i)]
    assert "调度器" in ids and ids.count("调度器") == 1  # a label used twice is one message


def test_coverage_against_known_counts(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = copy_root(tmp_path, "book")
    app = build(make_app, srcdir, "zh_CN", builder="dummy")
    coverage = catalog_coverage(app, "en")
    assert coverage["ch01"] == Coverage(13, 12, 0, 1, 92.3)
    assert coverage["ch02"] == Coverage(5, 5, 0, 0, 100.0)
    assert coverage["index"] == Coverage(1, 1, 0, 0, 100.0)
    assert catalog_coverage(app, "zh_CN")["ch01"].percent == 100.0
    assert catalog_coverage(app, "de")["ch02"] == Coverage(5, 0, 0, 5, 0.0)


def test_coverage_follows_the_page_not_a_stale_catalog(make_app: MakeApp, tmp_path: Path) -> None:
    """A paragraph edited after translation is untranslated until the catalog catches up."""
    srcdir = copy_root(tmp_path, "book")
    ch02 = srcdir / "ch02.md"
    ch02.write_text(ch02.read_text(encoding="utf-8").replace("位的顺序。", "位的新顺序。"))
    app = build(make_app, srcdir, "zh_CN", builder="dummy")
    assert catalog_coverage(app, "en")["ch02"] == Coverage(5, 4, 0, 1, 80.0)
    notice = page(build(make_app, srcdir, "en"), "ch02.html").select(
        ".seriesbook-translation-notice"
    )
    assert "This page is 80% translated." in notice[0].get_text()


def test_count_catalog_rules(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "a"\nmsgstr "A"\n\n'
        '#, fuzzy\nmsgid "b"\nmsgstr "B"\n\n'
        'msgid "c"\nmsgstr ""\n\n'
        'msgid "d"\nmsgstr ""\n\n'
        '#~ msgid "gone"\n#~ msgstr "Gone"\n',
        encoding="utf-8",
    )
    catalog = read_catalog(po)
    assert count_messages(["a", "b", "c", "d"], catalog) == Coverage(4, 1, 1, 2, 25.0)
    # the page's messages count, not the catalog's: "gone" is obsolete, "new" is not in it yet
    assert count_messages(["a", "gone", "new"], catalog) == Coverage(3, 1, 0, 2, 33.3)
    assert count_messages(["a", "b"], None) == Coverage(2, 0, 0, 2, 0.0)
    assert Coverage.of(1000, 999, 0).percent == 99.9  # never rounded up to complete


def _retranslate(po: Path, msgid: str, msgstr: str, *, fuzzy: bool = False) -> int:
    """Give *msgid* a new translation in *po*; return the msgid's line."""
    lines = po.read_text(encoding="utf-8").splitlines()
    index = lines.index(f'msgid "{msgid}"')
    lines[index + 1] = f'msgstr "{msgstr}"'
    if fuzzy:
        lines.insert(index, "#, fuzzy")
        index += 1
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


def test_mismatch_reported_at_the_po_line(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = copy_root(tmp_path, "book")
    catalogs = srcdir / "locale" / "en" / "LC_MESSAGES"
    ch01, ch02 = catalogs / "ch01.po", catalogs / "ch02.po"
    paragraph = (
        "张量的存储见 §1.2，引擎见 `pkg/engine.py:5`，以及 {src}`Engine.run <pkg/engine.py:5-9>`。"
        "参见第2章。"
    )
    dropped = _retranslate(
        ch01, paragraph, "Storage: `pkg/engine.py:6`, {src}`Engine.run <pkg/engine.py:5-9>`."
    )
    changed = _retranslate(ch02, "键集决定内核，参见 §1.1 与 §2.1.1。", "See §1.2 and §2.1.1.")
    _retranslate(ch02, "位的顺序。", "Bits §9.9.", fuzzy=True)  # fuzzy: not used, not checked
    app = build(make_app, srcdir, "en")
    warnings = [w for w in ours(app) if "i18n-mismatch" in w]
    assert len(warnings) == 2, warnings
    first, second = sorted(warnings)
    assert first.startswith(f"{ch01}:{dropped}: WARNING: ")
    assert "§ numbers: missing §1.2" in first
    assert "citations: missing pkg/engine.py:5; added pkg/engine.py:6" in first
    assert second.startswith(f"{ch02}:{changed}: WARNING: ")
    assert "§ numbers: missing §1.1; added §1.2" in second
    assert second.endswith("[seriesbook.i18n-mismatch]")
    # the book's own edition (what `seriesbook check` reads) reports the same, at the same places
    source = build(make_app, srcdir, "zh_CN", builder="dummy")
    assert sorted(w for w in ours(source) if "i18n-mismatch" in w) == [first, second]


def test_update_po_keeps_translations_and_marks_changes_fuzzy(tmp_path: Path) -> None:
    """The Makefile's `gettext` + `update-po` commands, run twice around a source edit."""
    srcdir = copy_root(tmp_path, "book")
    shutil.rmtree(srcdir / "locale")
    pot_dir, locale = tmp_path / "gettext", srcdir / "locale"

    def update_po() -> None:
        subprocess.run(
            [BIN / "sphinx-build", "-q", "-b", "gettext", "-E", str(srcdir), str(pot_dir)],
            check=True,
        )
        subprocess.run(
            [BIN / "seriesbook", "update-po", "-p", str(pot_dir), "-d", str(locale), "-l", "en"],
            check=True,
            capture_output=True,
        )

    update_po()
    po = locale / "en" / "LC_MESSAGES" / "ch02.po"
    text = po.read_text(encoding="utf-8")
    text = text.replace(
        'msgid "位的顺序。"\nmsgstr ""', 'msgid "位的顺序。"\nmsgstr "The order of bits."'
    )
    text = text.replace('msgid "§2.1.1 位"\nmsgstr ""', 'msgid "§2.1.1 位"\nmsgstr "§2.1.1 Bits"')
    po.write_text(text, encoding="utf-8")

    ch02 = srcdir / "ch02.md"
    ch02.write_text(ch02.read_text(encoding="utf-8").replace("位的顺序。", "位的排列顺序。"))
    update_po()
    catalog = {str(m.id): m for m in read_catalog(po) if m.id}
    assert catalog["§2.1.1 位"].string == "§2.1.1 Bits" and not catalog["§2.1.1 位"].fuzzy
    changed = catalog["位的排列顺序。"]
    assert changed.fuzzy and changed.string == "The order of bits."
    assert '#| msgid "位的顺序。"\nmsgid "位的排列顺序。"' in po.read_text(encoding="utf-8")
    assert "位的顺序。" not in catalog
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)]).returncode == 0


def test_every_catalog_in_the_repository_passes_msgfmt_check() -> None:
    catalogs = sorted(
        path
        for path in REPO.rglob("*.po")
        if not {".venv", "node_modules", "_build"} & set(path.relative_to(REPO).parts)
    )
    assert catalogs, "no catalogs found"
    for path in catalogs:
        result = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
        )
        assert result.returncode == 0, f"{path}: {result.stderr}"


def test_incremental_rebuild_after_a_catalog_edit(make_app: MakeApp, tmp_path: Path) -> None:
    """Translating a page's last message re-reads that page only: its notice disappears."""
    srcdir = copy_root(tmp_path, "book")
    app = build(make_app, srcdir, "en")
    assert page(app, "ch01.html").select(".seriesbook-translation-notice")
    po = srcdir / "locale" / "en" / "LC_MESSAGES" / "ch01.po"
    _retranslate(po, "这一段还没有翻译，提到 §1.1 和第2章。", "Now translated: §1.1, Chapter 2.")
    future = po.stat().st_mtime + 10
    os.utime(po, (future, future))
    read: list[str] = []
    app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))
    app.build()
    assert read == ["ch01"]
    assert page(app, "ch01.html").select(".seriesbook-translation-notice") == []
    assert ours(app) == []


SWITCHER_HARNESS = r"""
// A page with two edition links, the reader at #sec-1-2: load the switcher script, then follow
// the reader to #sec-3 (hashchange) and click. Prints the hrefs after each step.
const fs = require('fs');
const listeners = {};
const on = (target) => (type, fn) => { (listeners[target + type] ||= []).push(fn); };
const fire = (target, type) => (listeners[target + type] || []).forEach((fn) => fn());
function link(href) {
  const attrs = { href };
  return {
    getAttribute: (name) => attrs[name],
    setAttribute: (name, value) => { attrs[name] = value; },
    addEventListener: (type, fn) => { link.clicks.push(fn); },
  };
}
link.clicks = [];
const links = [link('../en/ch01.html'), link('../de/ch01.html#old')];
global.window = { location: { hash: '#sec-1-2' }, addEventListener: on('window') };
global.document = {
  addEventListener: on('document'),
  querySelectorAll: (selector) => (selector === 'a.seriesbook-edition' ? links : []),
};
eval(fs.readFileSync(process.argv[2], 'utf8'));
const hrefs = () => links.map((l) => l.getAttribute('href'));
const steps = [hrefs()];
fire('document', 'DOMContentLoaded');
steps.push(hrefs());
window.location.hash = '#sec-3';
fire('window', 'hashchange');
steps.push(hrefs());
window.location.hash = '';
link.clicks.forEach((fn) => fn());
steps.push(hrefs());
console.log(JSON.stringify(steps));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_switcher_script_keeps_the_anchor(tmp_path: Path) -> None:
    harness = tmp_path / "harness.js"
    harness.write_text(SWITCHER_HARNESS, encoding="utf-8")
    script = REPO / "_ext" / "seriesbook" / "static" / "seriesbook-editions.js"
    result = subprocess.run(
        ["node", str(harness), str(script)], capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout) == [
        ["../en/ch01.html", "../de/ch01.html#old"],  # without the script: the page itself
        ["../en/ch01.html#sec-1-2", "../de/ch01.html#sec-1-2"],
        ["../en/ch01.html#sec-3", "../de/ch01.html#sec-3"],
        ["../en/ch01.html", "../de/ch01.html"],  # at the top of the page: no anchor
    ]
