"""Measure link previews on a built edition: coverage, bytes, and hover-to-preview time.

usage: python benchmarks/previews.py SITE [--page ch04.html] [--hovers N]

SITE is an HTML edition built by ``make html`` (``_build/html/zh_CN``). Prints:

* the § / chapter / citation links of the chapters' text, and how many have preview data;
* what a page carries before any gesture (the ``<meta>``, the ``<script>`` tag, the script) and
  what the first gesture loads (the page's data, the box script, the style sheet), raw and gzip;
* in Chromium (``/usr/bin/chromium``, Playwright): the time from the end of the hover delay to
  the preview in the page, warm (the data already loaded), median and max over N links.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import statistics
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup

PREFIX = "seriesbookPreviews("
MEASURE = """async (href) => {
  const a = document.querySelector(`article a[href="${href}"]`);
  a.scrollIntoView({block: "center"});
  const r = a.getBoundingClientRect();
  const start = performance.now();
  a.dispatchEvent(new PointerEvent("pointerover", {bubbles: true, pointerType: "mouse",
                                                   clientX: r.left + 1, clientY: r.top + 1}));
  while (!document.getElementById("seriesbook-preview")) await new Promise(requestAnimationFrame);
  const took = performance.now() - start;
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true}));
  return took;
}"""


def page_data(site: Path, page: str) -> dict[str, Any]:
    path = site / "_previews" / page.replace(".html", ".js")
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text("utf-8")[len(PREFIX):-3])["p"]
    return data


def previewable(site: Path, page: str) -> list[str]:
    soup = BeautifulSoup((site / page).read_text("utf-8"), "html.parser")
    article = soup.find("article")
    return [str(a["href"]) for a in (article.find_all("a", href=True) if article else [])
            if "headerlink" not in a.get("class", []) and (
                "#sec-" in a["href"] or "#ch-" in a["href"]
                or "seriesbook-citation" in a.get("class", []))]


def sizes(site: Path, page: str) -> None:
    html = (site / page).read_text("utf-8")
    soup = BeautifulSoup(html, "html.parser")
    tags = [str(soup.find("meta", attrs={"name": "seriesbook-previews"})),
            str(soup.find("script", src=lambda s: bool(s) and "seriesbook-previews.js" in s))]
    static = site / "_static"
    script = (static / "seriesbook-previews.js").read_bytes()
    before = sum(len(t.encode()) for t in tags) + len(script)
    gz = len(gzip.compress(script, 9))
    print(f"before any gesture: {before:,} bytes (the script {len(script):,}, {gz:,} gzip)")
    later = [site / "_previews" / page.replace(".html", ".js"),
             static / "seriesbook-previews-box.js", static / "seriesbook-previews.css"]
    for path in later:
        data = path.read_bytes()
        packed = len(gzip.compress(data, 9))
        print(f"first gesture: {path.name} {len(data):,} bytes, {packed:,} gzip")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def timings(site: Path, page: str, hovers: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hrefs = list(dict.fromkeys(previewable(site, page)))[: hovers + 1]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto(f"http://127.0.0.1:{server.server_address[1]}/{page}")
        tab.evaluate(MEASURE, hrefs[0])  # cold: loads the data, the box script and the CSS
        took = [tab.evaluate(MEASURE, href) - 300 for href in hrefs[1:]]
        browser.close()
    server.shutdown()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--page", default="ch04.html")
    parser.add_argument("--hovers", type=int, default=20)
    args = parser.parse_args()
    links = found = 0
    for path in sorted(args.site.glob("*.html")):
        hrefs = previewable(args.site, path.name)
        data = page_data(args.site, path.name)
        links += len(hrefs)
        found += sum(href in data for href in hrefs)
    print(f"links with a preview: {found} of {links}")
    sizes(args.site, args.page)
    took = timings(args.site, args.page, args.hovers)
    print(f"hover to preview after the delay, warm: median {statistics.median(took):.1f} ms, "
          f"max {max(took):.1f} ms ({len(took)} links)")


if __name__ == "__main__":
    main()
