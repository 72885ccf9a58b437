"""Diagrams drawn when the book is built: inline SVG images, stored by content, failures located.

The browser's side of the book's diagrams (labels inside their shapes, contrast in light and
dark, phones) is ``test_diagrams_browser.py``; the newcomer's Python-only ``make html`` is
``test_first_contact.py``. Here, in Chromium: a diagram left to the browser, from disk.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from bs4 import BeautifulSoup
from seriesbook.diagrams import STORE_SUBDIR, _store

if TYPE_CHECKING:
    from playwright.sync_api import Browser
    from sphinx.testing.util import SphinxTestApp


def page(app: SphinxTestApp) -> BeautifulSoup:
    return BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")


@pytest.mark.sphinx("html", testroot="diagrams")
def test_every_diagram_is_an_inline_named_image_and_no_mermaid_loads(app: SphinxTestApp) -> None:
    app.build()
    soup = page(app)
    images = soup.select("div.seriesbook-diagram > svg[role=img]")
    assert len(images) == 3
    names = [soup.find(id=svg["aria-labelledby"]).get_text() for svg in images]
    assert names[0] == "张量的两层"  # the caption
    assert names[1] == "一次调用"  # the author's accTitle
    assert names[2].startswith("第一步：读取参数 · 第二步：检查形状")  # the labels
    texts = [text.get_text() for text in images[0].find_all("text")]
    assert "指向" in texts and any("存储" in text for text in texts)  # real text, selectable
    assert len({svg["id"] for svg in images}) == 3  # each copy its own id
    assert "var(--seriesbook-diagram-ink" in str(images[0])
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "mermaid.esm" not in html and 'class="mermaid"' not in html
    assert "seriesbook-diagrams.css" in html
    assert not re.search(r"seriesbook\.diagram", app.warning.getvalue())


@pytest.mark.sphinx("html", testroot="diagrams")
def test_a_wide_diagram_keeps_ten_pixel_labels(app: SphinxTestApp) -> None:
    app.build()
    wide = page(app).select("div.seriesbook-diagram > svg")[2]
    natural = float(re.search(r"max-width: ([\d.]+)px", wide["style"]).group(1))
    least = float(re.search(r"min-width: ([\d.]+)px", wide["style"]).group(1))
    sizes = [float(s) for s in re.findall(r"font-size[:=]\s*\"?([\d.]+)px", str(wide))]
    assert least * min(sizes) / natural >= 10 - 0.01


@pytest.mark.sphinx("html", testroot="diagrams")
def test_a_rebuild_draws_only_what_changed(
    app: SphinxTestApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.build()
    stored = sorted((app.doctreedir / STORE_SUBDIR).glob("*.svg"))
    assert len(stored) == 3
    drawn: list[str] = []
    real = _store.draw
    monkeypatch.setattr(_store, "draw", lambda code: drawn.append(code) or real(code))
    app.build(force_all=True)
    assert drawn == []
    (app.srcdir / "index.md").write_text(
        (app.srcdir / "index.md").read_text(encoding="utf-8").replace("指向", "引用"),
        encoding="utf-8",
    )
    app.build()
    assert len(drawn) == 1 and "引用" in drawn[0]
    assert len(list((app.doctreedir / STORE_SUBDIR).glob("*.svg"))) == 3  # the old one is gone


@pytest.mark.sphinx("html", testroot="diagrams-error")
def test_a_diagram_that_cannot_be_drawn_warns_at_its_line(app: SphinxTestApp) -> None:
    app.build()
    warnings = app.warning.getvalue()
    assert re.search(
        r"index\.md:5: WARNING: Mermaid diagram could not be drawn: .*"
        r"\[seriesbook\.diagram-draw\]",
        warnings,
    ), warnings
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "A-&gt;&gt;B" in html  # its source, shown
    assert "mermaid.esm" not in html


@pytest.mark.sphinx(
    "html", testroot="diagrams-error", confoverrides={"seriesbook_diagrams_in_browser": True}
)
def test_the_author_may_leave_it_to_the_browser(app: SphinxTestApp) -> None:
    app.build()
    assert "diagram-draw" not in app.warning.getvalue()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert 'class="mermaid"' in html and "mermaid.esm" not in html  # drawn by our loader
    assert (app.outdir / "_static" / "mermaid" / "mermaid.min.js").is_file()


@pytest.mark.browser
@pytest.mark.sphinx("html", testroot="diagrams-browser")
def test_a_diagram_left_to_the_browser_is_drawn_from_disk_when_near_the_view(
    app: SphinxTestApp, browser: Browser
) -> None:
    app.build()
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "mermaid.esm" not in html  # no module script: browsers refuse it from file://
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        page = context.new_page()
        fetched: list[str] = []
        errors: list[str] = []
        page.on("request", lambda request: fetched.append(request.url))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((app.outdir / "index.html").as_uri(), wait_until="load")
        assert page.locator(".seriesbook-diagram > svg").count() == 1  # drawn at build time
        page.wait_for_timeout(300)
        assert not [url for url in fetched if "mermaid" in url]  # far below: nothing loaded
        page.locator("pre.mermaid").scroll_into_view_if_needed()
        page.wait_for_selector("pre.mermaid svg", state="attached", timeout=30_000)
        assert [url for url in fetched if "mermaid" in url] == [
            (app.outdir / "_static" / "mermaid" / "mermaid.min.js").as_uri()
        ]
        assert errors == []
    finally:
        context.close()
