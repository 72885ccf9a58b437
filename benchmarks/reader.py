"""The reader's first view on a slow network: what a chapter page costs and when it works.

Chromium (Playwright, /usr/bin/chromium), a fresh profile per run (cold cache), a local server
that compresses as Read the Docs does (gzip here: Python's standard library has no brotli, so the
figures are gzip's, a little above brotli's), throttled by CDP ``Network.emulateNetworkConditions``
to 1.6 Mbps down, 750 kbps up, 150 ms round trip. For each site and page it prints and returns:
bytes by resource type (as transferred), requests, first text (FCP) and first interaction (the
later of: the previews' script has run, the theme's scripts have bound the menus), and
DOMContentLoaded's end (every deferred script run, Mermaid's module included).

    .venv/bin/python benchmarks/reader.py SITE_DIR [SITE_DIR …] [--page ch04.html]
        [--without-mermaid]

``--without-mermaid`` refuses Mermaid's files, as a page whose diagrams are drawn at build time
(issue 29) would load none. ``--lighthouse`` also runs Lighthouse (mobile, its own simulated
1.6 Mbps / 150 ms throttling) on the same server and prints its four scores; Lighthouse is not a
dependency of the project: by default it is run as ``npx --yes lighthouse@12.2.3`` (works on
Node 20), or give ``--lighthouse-command`` (e.g. a benchmark-only ``npm install --prefix DIR
lighthouse@12.2.3``'s ``DIR/node_modules/.bin/lighthouse``).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import shlex
import subprocess
import tempfile
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
DOWN_BPS = 1_600_000 / 8
UP_BPS = 750_000 / 8
LATENCY_MS = 150
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt")


class CompressingHandler(SimpleHTTPRequestHandler):
    """Serves a built site gzip-compressed where the browser accepts it, as Read the Docs does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extensions_map = {**self.extensions_map, ".mjs": "text/javascript"}
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if (
            path.is_file()
            and path.suffix in COMPRESSIBLE
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            body = gzip.compress(path.read_bytes(), compresslevel=6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return None
        return super().send_head()

    def log_message(self, format: str, *args: Any) -> None:
        pass


LIGHTHOUSE = "npx --yes lighthouse@12.2.3"
# When the reader can use the page: the previews' script has run (it defines
# window.seriesbookPreviews) and the theme's scripts have bound the menus (Bootstrap's tooltips
# move each button's title to data-bs-original-title as pydata-sphinx-theme.js starts them).
READY_PROBE = """
window.__seriesbookReady = {};
let previewsHook;
Object.defineProperty(window, "seriesbookPreviews", {
  configurable: true,
  get: () => previewsHook,
  set: (value) => {
    previewsHook = value;
    window.__seriesbookReady.previews ??= performance.now();
  },
});
new MutationObserver(() => {
  if (!window.__seriesbookReady.menus && document.querySelector("[data-bs-original-title]"))
    window.__seriesbookReady.menus = performance.now();
}).observe(document, {
  subtree: true, attributes: true, attributeFilter: ["data-bs-original-title"],
});
"""
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


@contextmanager
def compressing_server(site: Path) -> Iterator[str]:
    """*site* served gzip-compressed on a local port; yields its base URL."""
    handler = functools.partial(CompressingHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def lighthouse(site: Path, page_name: str, command: str, without_mermaid: bool) -> dict[str, int]:
    """Lighthouse's mobile scores (0–100) of *page_name*, served compressed."""
    with compressing_server(site) as base, tempfile.TemporaryDirectory() as workdir:
        report = Path(workdir) / "report.json"
        subprocess.run(
            [
                *shlex.split(command),
                base + page_name,
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--chrome-flags=--headless=new --no-sandbox",
                *(["--blocked-url-patterns=*/mermaid/*"] if without_mermaid else []),
            ],
            check=True,
            env={**os.environ, "CHROME_PATH": CHROMIUM},
        )
        categories = json.loads(report.read_text("utf-8"))["categories"]
    return {name: round(categories[name]["score"] * 100) for name in CATEGORIES}


def measure(site: Path, page_name: str, without_mermaid: bool) -> dict[str, Any]:
    with compressing_server(site) as base:
        return _measure(base + page_name, site, page_name, without_mermaid)


def _measure(url: str, site: Path, page_name: str, without_mermaid: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    types: dict[str, str] = {}
    sizes: dict[str, float] = defaultdict(float)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.add_init_script(READY_PROBE)
        if without_mermaid:
            page.route("**/mermaid/**", lambda route: route.abort())
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": LATENCY_MS,
                "downloadThroughput": DOWN_BPS,
                "uploadThroughput": UP_BPS,
            },
        )
        cdp.on(
            "Network.responseReceived",
            lambda e: types.__setitem__(e["requestId"], e.get("type", "Other")),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
        )
        page.goto(url, wait_until="load", timeout=120_000)
        page.wait_for_timeout(1000)
        timing = page.evaluate(
            """() => {
              const paint = performance.getEntriesByName('first-contentful-paint')[0];
              const nav = performance.getEntriesByType('navigation')[0];
              return { fcp: paint ? paint.startTime : null,
                       dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
                       ...window.__seriesbookReady };
            }"""
        )
        browser.close()
    by_type: dict[str, int] = defaultdict(int)
    for request, size in sizes.items():
        by_type[types.get(request, "Other")] += int(size)
    return {
        "site": str(site),
        "page": page_name,
        "without_mermaid": without_mermaid,
        "requests": len(sizes),
        "bytes": sum(by_type.values()),
        "bytes_by_type": dict(sorted(by_type.items(), key=lambda item: -item[1])),
        "first_text_ms": round(timing["fcp"] or 0),
        "previews_ready_ms": round(timing.get("previews") or 0),
        "menus_ready_ms": round(timing.get("menus") or 0),
        "first_interaction_ms": round(max(timing.get("previews") or 0, timing.get("menus") or 0)),
        "dom_content_loaded_ms": round(timing["dcl"]),
        "load_ms": round(timing["load"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--page", default="ch04.html")
    parser.add_argument("--without-mermaid", action="store_true")
    parser.add_argument("--lighthouse", action="store_true", help="also Lighthouse's scores")
    parser.add_argument("--lighthouse-command", default=LIGHTHOUSE)
    arguments = parser.parse_args()
    for site in arguments.sites:
        result = measure(site, arguments.page, arguments.without_mermaid)
        if arguments.lighthouse:
            result["lighthouse"] = lighthouse(
                site, arguments.page, arguments.lighthouse_command, arguments.without_mermaid
            )
        print(json.dumps(result))


if __name__ == "__main__":
    main()
