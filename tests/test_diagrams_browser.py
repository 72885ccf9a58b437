"""The book's diagrams as a reader sees them, from disk, in both editions: every label inside its
shape, label text at least 4.5:1 against its shape and lines 3:1 against the page in light and
in dark mode, each diagram named, and a wide diagram legible (labels >= 10 px) on a phone, where
it scrolls in its own box.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parent.parent
EDITIONS = ("zh_CN", "en")
TIMEOUT_MS = 30_000
# Mermaid sets a subgraph's title on its top edge: its text box (ascent included) may rise a few
# pixels above the border; its ink stays inside. Everything else must sit wholly inside.
TITLE_RISE_PX = 4

MEASURE = """(titleRise) => {
  const rgba = (css) => {
    const m = css.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => top[3] >= 1 ? top :
    [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  let pageColour = [255, 255, 255, 1];
  for (let e = document.querySelector('.seriesbook-diagram'); e; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) { pageColour = over(c, [255, 255, 255, 1]); break; }
  }
  const out = {labels: 0, unfit: [], faint_text: [], faint_lines: [], lines: 0};
  for (const svg of document.querySelectorAll('.seriesbook-diagram > svg')) {
    for (const text of svg.querySelectorAll('text')) {
      if (!text.textContent.trim()) continue;
      out.labels++;
      // its shape: the node, subgraph, edge label or note group's, else a box drawn beside it
      const g = text.closest('g.node, g.cluster, g.edgeLabel, g[data-et]');
      const shape = g ? g.querySelector(
        'rect.label-container, rect.background, rect.basic, polygon, rect, path.basic, circle')
        : text.parentElement.querySelector(':scope > rect');
      const t = text.getBoundingClientRect();
      let under = pageColour;
      if (shape && shape.getBoundingClientRect().width >= 1) {
        const s = shape.getBoundingClientRect();
        const rise = g && g.matches('g.cluster') ? titleRise : 0.5;
        if (t.left < s.left - 0.5 || t.right > s.right + 0.5 || t.top < s.top - rise
            || t.bottom > s.bottom + 0.5)
          out.unfit.push([svg.id, text.textContent]);
        const fill = rgba(getComputedStyle(shape).fill);
        if (fill && fill[3] > 0) under = over(fill, pageColour);
      }
      const glyphs = [...text.querySelectorAll('tspan')].filter(e => e.textContent.trim()).pop();
      const ink = rgba(getComputedStyle(glyphs || text).fill);
      if (ink && ratio(over(ink, under), under) < 4.5)
        out.faint_text.push([svg.id, text.textContent, ratio(over(ink, under), under).toFixed(2)]);
    }
    for (const line of svg.querySelectorAll(
        '.edgePaths path, line, path.messageLine0, path.messageLine1, path.flowchart-link')) {
      const stroke = rgba(getComputedStyle(line).stroke);
      if (!stroke || stroke[3] === 0 || getComputedStyle(line).strokeWidth === '0px') continue;
      out.lines++;
      const r = ratio(over(stroke, pageColour), pageColour);
      if (r < 3) out.faint_lines.push([svg.id, line.getAttribute('class'), r.toFixed(2)]);
    }
  }
  return out;
}"""


@pytest.fixture(scope="session")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real book's two editions, as ``make html`` builds them (one directory each)."""
    site = tmp_path_factory.mktemp("diagram-book")
    for language in EDITIONS:
        command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-c", str(REPO)]
        command += ["-D", f"language={language}", str(REPO / "source"), str(site / language)]
        result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO)
        assert result.returncode == 0, result.stderr
    return site


def pages_with_diagrams(edition: Path) -> list[Path]:
    return [
        path
        for path in sorted(edition.glob("*.html"))
        if 'class="seriesbook-diagram"' in path.read_text(encoding="utf-8")
    ]


@pytest.fixture
def page(browser: Browser) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    yield page
    context.close()


def in_dark_mode(page: Page) -> None:
    page.emulate_media(color_scheme="dark")
    page.evaluate(
        "() => { document.documentElement.dataset.mode = 'dark';"
        " document.documentElement.dataset.theme = 'dark'; }"
    )


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_labels_fit_their_shapes_and_contrast(
    book: Path, page: Page, edition: str, mode: str
) -> None:
    pages = pages_with_diagrams(book / edition)
    assert len(pages) >= 20
    labels = lines = 0
    for path in pages:
        page.goto(path.as_uri())
        if mode == "dark":
            in_dark_mode(page)
        found = page.evaluate(MEASURE, TITLE_RISE_PX)
        assert found["unfit"] == [], path.name
        assert found["faint_text"] == [], path.name
        assert found["faint_lines"] == [], path.name
        labels += found["labels"]
        lines += found["lines"]
    assert labels >= 500 and lines >= 100


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_diagram_is_named_in_the_page(book: Path, page: Page, edition: str) -> None:
    path = pages_with_diagrams(book / edition)[0]
    page.goto(path.as_uri())
    images = page.get_by_role("img")
    names = [
        images.nth(i).evaluate(
            "svg => document.getElementById(svg.getAttribute('aria-labelledby')).textContent"
        )
        for i in range(images.count())
        if images.nth(i).evaluate("e => e.closest('.seriesbook-diagram') !== null")
    ]
    assert names and all(name.strip() for name in names)
    assert page.locator("details.seriesbook-diagram-source").count() == len(names)


def test_a_wide_diagram_on_a_phone_scrolls_with_legible_labels(
    book: Path, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        widest: tuple[float, Path, int] = (0.0, Path(), 0)
        for path in pages_with_diagrams(book / "zh_CN"):
            page.goto(path.as_uri())
            widths = page.evaluate(
                "() => [...document.querySelectorAll('.seriesbook-diagram > svg')]"
                ".map(svg => svg.viewBox.baseVal.width)"
            )
            for index, width in enumerate(widths):
                if width > widest[0]:
                    widest = (width, path, index)
        width, path, index = widest
        assert width > 600, "no wide diagram in the book"
        page.goto(path.as_uri())
        shown = page.evaluate(
            """(index) => {
              const box = document.querySelectorAll('.seriesbook-diagram')[index];
              const svg = box.querySelector('svg');
              const scale = svg.getScreenCTM().a;
              const sizes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
                .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
              return {smallest: Math.min(...sizes), scrolls: box.scrollWidth > box.clientWidth};
            }""",
            index,
        )
        assert shown["smallest"] >= 10 - 0.01, (path.name, shown)
        assert shown["scrolls"], (path.name, shown)
    finally:
        context.close()
