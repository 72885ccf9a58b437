"""Every kind of diagram label × hostile translations: mermaid parses and shows them unchanged.

Each label kind has a small diagram with several labels of that kind; every label gets a
translation wrapped in markers (``⁅3⁆…⸢3⸣``). Mermaid itself (the npm package the site serves)
renders the translated diagram to SVG in Chromium, and the test reads back what a reader sees:
between each label's markers, the translation exactly (whitespace runs and line breaks count as
one space); outside the markers, the same text and the same ``<style>`` as with harmless
translations (nothing added, lost or restyled, e.g. by a ``%%{init}%%`` directive).

Outside CI the tests skip (saying why) without ``/usr/bin/chromium``; in CI that is a failure.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from bs4 import BeautifulSoup
from conftest import require
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seriesbook.editions._mermaid import Diagram, parse, unsafe

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page
    from sphinx.testing.util import SphinxTestApp

pytestmark = pytest.mark.browser

TESTS = Path(__file__).resolve().parent
MERMAID = TESTS.parent / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
RENDER_JS = (TESTS / "mermaid_render.js").read_text(encoding="utf-8")
REPEAT = 8  # labels of the kind per diagram


@dataclass(frozen=True)
class Kind:
    """A diagram with labels ``L0x``, ``L1x``… of one kind, built from a per-label template."""

    head: str
    each: str
    repeat: int = REPEAT
    tail: str = ""

    def code(self) -> str:
        body = "\n".join(self.each.format(i=i) for i in range(self.repeat))
        return f"{self.head}\n{body}\n{self.tail}"


KINDS: dict[str, Kind] = {
    "flowchart node": Kind("flowchart TD", "    N{i}[L{i}x] --> Z"),
    "flowchart quoted node": Kind("flowchart TD", '    N{i}("L{i}x")'),
    "flowchart markdown node": Kind("flowchart TD", '    N{i}["`L{i}x`"]'),
    "flowchart node shown by id": Kind("flowchart LR", "    L{i}x --> Z{i}[z]"),
    "flowchart edge label": Kind("flowchart TD", "    A{i}[a] -->|L{i}x| B{i}[b]"),
    "flowchart edge text": Kind("flowchart TD", "    A{i}[a] -- L{i}x --> B{i}[b]"),
    "flowchart metadata label": Kind("flowchart TD", '    N{i}@{{ shape: rect, label: "L{i}x" }}'),
    "flowchart subgraph title": Kind(
        "flowchart TD", "    subgraph S{i} [L{i}x]\n        X{i}[x]\n    end"
    ),
    "flowchart subgraph by id": Kind(
        "flowchart TD", "    subgraph L{i}x\n        X{i}[x]\n    end"
    ),
    "sequence participant by id": Kind("sequenceDiagram", "    participant L{i}x"),
    "sequence participant alias": Kind("sequenceDiagram", "    participant P{i} as L{i}x"),
    "sequence actor alias": Kind("sequenceDiagram", "    actor P{i} as L{i}x"),
    "sequence message": Kind("sequenceDiagram", "    P{i}->>Q: L{i}x"),
    "sequence async message": Kind("sequenceDiagram", "    P{i}-)Q: L{i}x"),
    "sequence note": Kind("sequenceDiagram", "    Note over P{i}: L{i}x"),
    "sequence loop": Kind("sequenceDiagram", "    loop L{i}x\n        P->>Q: m\n    end"),
    "sequence alt": Kind(
        "sequenceDiagram", "    alt L{i}x\n        P->>Q: m\n    else e\n        Q->>P: n\n    end"
    ),
    "sequence box": Kind("sequenceDiagram", "    box L{i}x\n        participant P{i}\n    end"),
    "sequence title": Kind("sequenceDiagram\n    title L0x", "    P->>Q: m", repeat=1),
    "class label": Kind("classDiagram", '    class C{i}["L{i}x"]'),
    "class relation label": Kind("classDiagram", "    C{i} <|-- D{i} : L{i}x"),
    "class note": Kind("classDiagram", '    class C{i}\n    note for C{i} "L{i}x"'),
    "state label": Kind("stateDiagram-v2", '    state "L{i}x" as S{i}\n    [*] --> S{i}'),
    "state transition": Kind("stateDiagram-v2", "    S{i} --> T{i} : L{i}x"),
    "state description": Kind("stateDiagram-v2", "    S{i} : L{i}x"),
    "state note line": Kind("stateDiagram-v2", "    S{i} --> T{i}\n    note right of S{i} : L{i}x"),
    "state note block": Kind(
        "stateDiagram-v2", "    S{i} --> T{i}\n    note right of S{i}\n        L{i}x\n    end note"
    ),
    "front-matter title": Kind("---\ntitle: L0x\n---\nflowchart TD", "    A[a] --> B[b]", 1),
    "accessible title": Kind("flowchart TD\n    accTitle: L0x", "    A[a] --> B[b]", 1),
}

# Translations a hostile but fair translator could write, one per problem met so far.
HOSTILE: list[str] = [
    "step 1: start",
    "calls the C# binding",
    "C#; F#; #35; #quot; #59;",
    "Start %%{init: {'theme':'forest'}}%%",
    "%% a comment",
    "text\n%% a comment line\nmore",
    '"quoted" and \'single\'',
    "brackets [a] (b) {c} {{d}} ((e)) [[f]] >g]",
    "pipes | and || too",
    "`code` and ``double``",
    "a<br>b<br/>c<BR />d",
    "<b>bold</b> <script>alert(1)</script> <img src=x onerror=alert(1)>",
    "a < b > c & d &amp; &lt; &#35; &nbsp;",
    "arrows --> ==> -.-> --x <-- -->> ->> -) --)",
    "end",
    "end note",
    "x\nend note\ny",
    "end; loop; alt; else; opt",
    "semicolons; everywhere;",
    "style A fill:#f00;",
    "classDef hot stroke:#f00;",
    "lifestyle: #red; done",
    "colons: a: b :: c :::d",
    "*em* **strong** _u_ __uu__ ~~s~~",
    "# heading\n- item\n1. one",
    "[link](http://x) ![img](y)",
    "back\\slash \\n \\",
    "a backslash\\\nbefore a line break\\<br>too",
    "ﬂ°°35¶ß and ﬂ°lt¶ß and ¶ß alone",
    "percent % and 100%",
    "dollar $x$ and $$y$$",
    "tilde ~T~ generic",
    "+public -private #protected ~package",
    "{ json: [1, 2] }",
    "@{ shape: circle }",
    "A@{ label: 'x' }",
    "::: classy",
    "click A call cb()",
    "  leading and trailing spaces  ",
    "tab\tseparated",
    "many\n\nblank\n\n\nlines",
    "über straße ß ° ¶",
    "中文：冒号；分号（括号）",
    "emoji 🎉 and ZWJ 👩‍💻",
    "right-to-left עברית العربية",
    "accTitle: sneaky",
    "participant X as Y",
    "Note over A: inner",
    "--- \ntitle: nested\n---",
    "'single-quoted title'",
    "0",
    "-",
    "#",
    ";",
    ":",
    '"',
]


def expected(text: str) -> str:
    """A translation as a reader can see it: line breaks and blanks as single spaces."""
    return " ".join(re.sub(r"(?i)<br\s*/?>", " ", text).split())


def marked(i: int, text: str) -> str:
    return f"⁅{i}⁆{text}⸢{i}⸣"


def translate(
    kind: Kind, texts: list[str], only: set[int] | None = None
) -> tuple[str, dict[int, str]]:
    """The kind's diagram with label ``L{i}x`` translated to *texts[i]* (marked) where safe."""
    diagram: Diagram = parse(kind.code())
    chosen: dict[int, str] = {}
    rendered = []
    for label in diagram.labels:
        m = re.fullmatch(r"L(\d+)x", label.message)
        i = int(m.group(1)) if m else -1
        if m is None or (only is not None and i not in only):
            rendered.append(label.message)
            continue
        reason = unsafe(label, marked(i, texts[i]))
        if reason is None:
            chosen[i] = texts[i]
            rendered.append(marked(i, texts[i]))
        else:
            REFUSED.setdefault(label.kind, set()).add(reason.split(" ", 3)[2])
            rendered.append(label.message)
    return diagram.render(rendered), chosen


REFUSED: dict[str, set[str]] = {}  # label kind → the refusals met (a word of each reason)


@pytest.fixture(scope="module")
def mermaid_page(browser: Browser) -> Iterator[Page]:
    """A blank page with the mermaid the site serves, initialised as sphinxcontrib-mermaid does."""
    require(MERMAID.is_file(), f"{MERMAID} is missing: npm ci")
    page = browser.new_page()
    page.set_default_timeout(60_000)
    page.set_content("<!doctype html><html><body></body></html>")
    page.add_script_tag(path=str(MERMAID))
    page.evaluate("mermaid.initialize({startOnLoad: false})")
    yield page
    page.close()


def render(page: Page, codes: list[str]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = page.evaluate(RENDER_JS, codes)
    return results


MARKED = re.compile(r"⁅(\d+)⁆(.*?)⸢\1⸣", re.S)


def shown(text: str) -> tuple[dict[int, list[str]], str]:
    """Each marked label's texts (a label may be drawn twice) and the text around them."""
    labels: dict[int, list[str]] = {}
    for m in MARKED.finditer(text):
        labels.setdefault(int(m.group(1)), []).append(" ".join(m.group(2).split()))
    return labels, " ".join(MARKED.sub("⁅⁆", text).split())


def check_kinds(page: Page, batches: list[tuple[str, list[str]]]) -> None:
    """Render every (kind, translations) batch and its harmless twin; compare what is shown."""
    codes, twins, chosen = [], [], []
    for name, texts in batches:
        kind = KINDS[name]
        code, picked = translate(kind, texts)
        twin, _ = translate(kind, [f"t{i}" for i in range(kind.repeat)], set(picked))
        codes.append(code)
        twins.append(twin)
        chosen.append(picked)
    distinct = list(dict.fromkeys(twins))  # harmless twins repeat: render each once
    results = render(page, codes + distinct)
    rendered_twins = dict(zip(distinct, results[len(codes) :], strict=True))
    twin_results = [rendered_twins[twin] for twin in twins]
    failures = []
    for (name, _), picked, code, result, twin in zip(
        batches, chosen, codes, results[: len(codes)], twin_results, strict=True
    ):
        if not result["ok"]:
            failures.append(f"{name}: mermaid rejects it: {result['text']}\n{code}")
            continue
        text, twin_text = result["text"], twin["text"]
        if KIND_OF[name] == "block":  # words mermaid cut to wrap them, markers included
            text, twin_text = (re.sub(r"-\s*\n\s*", "", t) for t in (text, twin_text))
        labels, around = shown(text)
        _, twin_around = shown(twin_text)
        for i, text in picked.items():
            want = expected(text)
            if KIND_OF[name] == "block":  # mermaid hyphenates long words itself
                want, seen_all = unwrapped(want), [unwrapped(seen) for seen in labels.get(i, [])]
            else:
                seen_all = labels.get(i, [])
            if not seen_all or any(seen != want for seen in seen_all):
                failures.append(f"{name}: {text!r} shown as {labels.get(i)!r}")
        if KIND_OF[name] == "block":
            around, twin_around = unwrapped(around), unwrapped(twin_around)
        if around != twin_around:
            failures.append(f"{name}: around the labels: {around!r}, not {twin_around!r}")
        if result["style"] != twin["style"]:
            failures.append(f"{name}: the diagram's style changed")
    assert not failures, "\n".join(failures)


def unwrapped(text: str) -> str:
    return re.sub(r"[-\s]", "", text)


KIND_OF = {
    name: next(
        label.kind for label in parse(kind.code()).labels if re.fullmatch(r"L\d+x", label.message)
    )
    for name, kind in KINDS.items()
}


def chunks(texts: list[str], size: int) -> list[list[str]]:
    padded = texts + texts[: (-len(texts)) % size]
    return [padded[at : at + size] for at in range(0, len(padded), size)]


@pytest.mark.parametrize("name", KINDS)
def test_every_hostile_translation_is_shown_unchanged(mermaid_page: Page, name: str) -> None:
    kind = KINDS[name]
    check_kinds(mermaid_page, [(name, batch) for batch in chunks(HOSTILE, kind.repeat)])


translations = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Co", "Cn"), blacklist_characters="⁅⁆⸢⸣"
    )
    | st.sampled_from(list('"[](){}|;:#`-=>.<%&*_~\\@!\n ')),
    min_size=1,
    max_size=24,
).filter(lambda t: t.strip() != "")


@given(st.data())
@settings(
    max_examples=int(os.environ.get("EDITIONS_RENDER_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_any_translation_is_shown_unchanged(mermaid_page: Page, data: st.DataObject) -> None:
    batches = [
        (name, [data.draw(translations) for _ in range(kind.repeat)])
        for name, kind in KINDS.items()
    ]
    check_kinds(mermaid_page, batches)


def test_what_cannot_be_shown_is_refused() -> None:
    """Refusals: empty, mermaid's own escape characters, HTML in a title, long escaped words."""
    labels = {
        KIND_OF[name]: next(
            label for label in parse(kind.code()).labels if KIND_OF[name] == label.kind
        )
        for name, kind in KINDS.items()
    }
    for kind, label in labels.items():
        assert unsafe(label, " <br/> \n ") == "it is empty", kind
        assert unsafe(label, "a ¶ß b") is not None, kind
        assert unsafe(label, "a ß ¶ ° ﬂ b") is None, kind
        refused = unsafe(label, "C# binding; step 1: start <b>")
        assert refused is None or kind in {"yaml", "block"}, kind
    assert unsafe(labels["yaml"], "a < b") is not None
    assert unsafe(labels["block"], "retry until ok#done;ok") is not None
    assert unsafe(labels["block"], "binding, (parsed) {x}") is None
    assert unsafe(labels["block"], "retry until ok # done") is None


def read_catalog_pairs(path: Path) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with path.open("rb") as stream:
        return {str(m.id): str(m.string) for m in read_po(stream) if m.id and m.string}


@pytest.mark.sphinx("html", testroot="editions-hostile-diagrams", confoverrides={"language": "en"})
def test_the_translators_way(app: SphinxTestApp, mermaid_page: Page) -> None:
    """A catalog of hostile translations, built as the English edition, rendered by mermaid."""
    app.build()
    assert "WARNING" not in app.warning.getvalue()
    soup = BeautifulSoup((Path(app.outdir) / "index.html").read_text("utf-8"), "html.parser")
    codes = [pre.get_text() for pre in soup.select("pre.seriesbook-diagram-source-code")]
    results = render(mermaid_page, codes)
    assert [r["ok"] for r in results] == [True] * len(codes), results
    seen = " ".join(" ".join(r["text"].split()) for r in results)
    seen = re.sub(r"-\s+", "", seen)  # a loop title mermaid wrapped
    catalog = Path(app.srcdir) / "locale" / "en" / "LC_MESSAGES" / "index.po"
    for source, translation in read_catalog_pairs(catalog).items():
        if source == "状态":
            continue  # a heading, not a label
        assert expected(translation).replace("-", "") in seen.replace("-", ""), translation
        assert source not in seen
    assert all("forest" not in r["style"] for r in results)  # the theme did not change
