"""Write a synthetic book at the scale of 《PyTorch 训练框架内核深度解析》, for the benchmarks.

usage: python benchmarks/make_corpus.py OUTDIR [--scale S] [--seed N] [--plain]

At ``--scale 1`` the book has what the finished volume has: 24 chapters (preface + 23), about
215,000 Chinese characters and 300,000+ words, 943 numbered sections in three levels (chapter,
``§N.M``, ``§N.M.K``), 121 Mermaid diagrams, 600 citations (15% naming a symbol) and 60 source
excerpts into a git repository generated beside the book (``corpus-src/``, tag ``v1.0.0``),
2,100 § mentions (65% across chapters), 220 chapter mentions, and an English catalog
(``locale/en/LC_MESSAGES/``) with about half of the messages translated. ``--scale S`` shrinks
every count proportionally (at least a preface and two chapters). The same seed writes the same
bytes, git commit included.

The text is built from a fixed vocabulary of real technical words (``vocabulary.py``), so jieba
segments it as it segments the book. ``--plain`` writes the same book for Sphinx, MyST, Mermaid
and sphinx-book-theme without seriesbook: ``{src}`` roles become plain text, § mentions stay
text. ``corpus.json`` records what was written (counts, the section to renumber, its referrers).
The source's local copy is ``corpus-src`` unless ``$SERIESBOOK_CORPUS_SOURCE`` says otherwise
(empty: no local copy, so citations are verified from the lock).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vocabulary import (
    CHAPTER_TITLES,
    CHAPTER_TITLES_EN,
    CODE_VERBS,
    CODE_WORDS,
    DIRECTORIES,
    LINKS,
    NOUNS,
    TERMS,
    VERBS,
)

#: The finished book's figures (scale 1).
BASE = {
    "chapters": 24,
    "sections": 943,
    "diagrams": 121,
    "citations": 600,
    "excerpts": 60,
    "examples": 48,
    "sec_mentions": 2100,
    "chapter_mentions": 220,
    "han": 201_000,
    "repo_files": 80,
}
SYMBOL_SHARE = 0.15
ROLE_SHARE = 0.20
CROSS_SHARE = 0.65
TRANSLATED_SHARE = 0.5
SOURCE_NAME = "corpus"
SOURCE_DIR = "corpus-src"
TAG = "v1.0.0"
REPO_URL = "https://github.com/example/corpus"
GATE_HAN, GATE_DIAGRAMS, GATE_EXCERPTS = 6500, 4, 2
HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
GIT_DATE = "2026-03-20T00:00:00+00:00"
CATALOG_DATE = datetime(2026, 3, 20, tzinfo=UTC)


def scaled(scale: float) -> dict[str, int]:
    """Every count of :data:`BASE` times *scale*, with the minimum a book needs."""
    counts = {name: max(1, round(value * scale)) for name, value in BASE.items()}
    counts["chapters"] = max(3, counts["chapters"])
    counts["sections"] = max(2 * (counts["chapters"] - 1), counts["sections"])
    counts["sec_mentions"] = max(4, counts["sec_mentions"])
    counts["repo_files"] = max(4, counts["repo_files"])
    return counts


def spread(total: int, parts: int) -> list[int]:
    """*total* split into *parts* near-equal integers, larger ones first."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


# --------------------------------------------------------------------------- source repository


@dataclass
class Definition:
    name: str
    path: str
    start: int
    end: int


@dataclass
class SourceFile:
    path: str
    lines: list[str]
    definitions: list[Definition] = field(default_factory=list)


def _python_definition(rng: random.Random, name: str) -> list[str]:
    word, other = rng.choice(CODE_WORDS), rng.choice(CODE_WORDS)
    lines = [
        f"def {name}(self_tensor, {other}=None, *, dim=0):",
        f'    """{rng.choice(CODE_VERBS).capitalize()} the {word} of a {other}."""',
    ]
    for k in range(rng.randint(3, 9)):
        verb = rng.choice(CODE_VERBS)
        lines.append(f"    {word}_{k} = self_tensor.{verb}_{rng.choice(CODE_WORDS)}({other}, dim)")
        if rng.random() < 0.3:
            lines.append(f"    if {word}_{k} is None:")
            lines.append(f'        raise RuntimeError("{verb} failed for {word}")')
    lines.append(f"    return {word}_{k}")
    return lines


def _cpp_definition(rng: random.Random, name: str) -> list[str]:
    word = rng.choice(CODE_WORDS)
    if rng.random() < 0.5:
        lines = [f"struct {name} {{"]
        for k in range(rng.randint(3, 8)):
            lines.append(f"  int64_t {rng.choice(CODE_WORDS)}_{k} = {k};")
        lines.append(f"  void {rng.choice(CODE_VERBS)}_{word}(const Tensor& self);")
        lines.append("};")
        return lines
    lines = [f"Tensor {name}(const Tensor& self, int64_t dim) {{"]
    for k in range(rng.randint(3, 8)):
        lines.append(
            f"  auto {word}_{k} = self.{rng.choice(CODE_VERBS)}_{rng.choice(CODE_WORDS)}(dim);"
        )
    lines.append(f"  return {word}_{k};")
    lines.append("}")
    return lines


def make_sources(rng: random.Random, count: int) -> list[SourceFile]:
    """Python and C++ files with named definitions at known lines."""
    files: list[SourceFile] = []
    serial = 0
    for index in range(count):
        directory = DIRECTORIES[index % len(DIRECTORIES)]
        cpp = index % 3 != 2
        stem = f"{rng.choice(CODE_WORDS)}_{rng.choice(CODE_VERBS)}_{index}"
        path = f"{directory}/{stem}.{'h' if cpp else 'py'}"
        if cpp:
            lines = [
                "// Generated for the seriesbook benchmarks.",
                "#pragma once",
                "",
                "namespace c10 {",
                "",
            ]
        else:
            lines = [
                f'"""Generated for the seriesbook benchmarks: {directory}."""',
                "",
                "from __future__ import annotations",
                "",
                "",
            ]
        source = SourceFile(path, lines)
        target = rng.randint(150, 350)
        while len(lines) < target:
            serial += 1
            if cpp:
                camel = "".join(
                    w.capitalize() for w in (rng.choice(CODE_VERBS), rng.choice(CODE_WORDS))
                )
                name = f"{camel}{serial}"
                body = _cpp_definition(rng, name)
            else:
                name = f"{rng.choice(CODE_VERBS)}_{rng.choice(CODE_WORDS)}_{serial}"
                body = _python_definition(rng, name)
            start = len(lines) + 1
            lines.extend(body)
            source.definitions.append(Definition(name, path, start, len(lines)))
            lines.extend([""] if cpp else ["", ""])
        if cpp:
            lines.append("}  // namespace c10")
        files.append(source)
    return files


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "seriesbook",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "seriesbook",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_AUTHOR_DATE": GIT_DATE,
        "GIT_COMMITTER_DATE": GIT_DATE,
    }
    done = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def write_repository(root: Path, files: list[SourceFile]) -> str:
    """The files as a git repository tagged :data:`TAG`; returns the commit."""
    root.mkdir(parents=True)
    for source in files:
        path = root / source.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(source.lines) + "\n", encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Synthetic sources for the seriesbook benchmarks")
    _git(root, "tag", "-a", TAG, "-m", TAG)
    return _git(root, "rev-parse", "HEAD")


# --------------------------------------------------------------------------- prose


@dataclass
class Piece:
    """A sentence part in both languages; *spaced* parts get spaces around them in Chinese."""

    zh: str
    en: str
    spaced: bool = False


def join_zh(pieces: list[Piece], end: str) -> str:
    text = "".join(f" {p.zh} " if p.spaced else p.zh for p in pieces)
    text = re.sub(r" {2,}", " ", text).strip()
    text = re.sub(r" ([，、。；])", r"\1", text + end)
    return re.sub(r"([，、。；]) ", r"\1", text)


def join_en(pieces: list[Piece], end: str) -> str:
    text = " ".join(p.en for p in pieces if p.en)
    text = re.sub(r" ([,.;])", r"\1", text)
    return text[:1].upper() + text[1:] + end


class Writer:
    """Draws sentences, headings and diagrams from the vocabulary with one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def sentence(self, items: list[Piece]) -> tuple[str, str]:
        rng = self.rng
        pieces: list[Piece] = []
        for _ in range(rng.randint(7, 13)):
            roll = rng.random()
            if roll < 0.45:
                term = rng.choice(TERMS)
                pieces.append(Piece(term, term, spaced=True))
            elif roll < 0.62:
                pieces.append(Piece(*rng.choice(LINKS)))
            elif roll < 0.77:
                pieces.append(Piece(*rng.choice(VERBS)))
            else:
                pieces.append(Piece(*rng.choice(NOUNS)))
            if rng.random() < 0.06:
                pieces.append(Piece("，", ","))
        for item in items:
            pieces.insert(rng.randrange(1, len(pieces) + 1), item)
        while pieces and pieces[-1].zh == "，":
            pieces.pop()
        return join_zh(pieces, "。"), join_en(pieces, ".")

    def title(self) -> tuple[str, str]:
        rng = self.rng
        (a, a_en), (b, b_en) = rng.sample(NOUNS, 2)
        if rng.random() < 0.5:
            term = rng.choice(TERMS)
            return f"{term} 的{a}与{b}", f"{a_en} and {b_en} of {term}"
        return f"{a}与{b}", f"{a_en} and {b_en}"

    def diagram(self) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            names = rng.sample(TERMS, 4)
            lines = ["sequenceDiagram"]
            lines += [f"    participant P{i} as {name}" for i, name in enumerate(names)]
            for _ in range(rng.randint(4, 8)):
                a, b = rng.sample(range(4), 2)
                verb, noun = rng.choice(VERBS)[0], rng.choice(NOUNS)[0]
                lines.append(f"    P{a}->>P{b}: {verb}{noun}")
            return "\n".join(lines)
        lines = ["flowchart TD"]
        count = rng.randint(5, 9)
        for i in range(count):
            noun, term = rng.choice(NOUNS)[0], rng.choice(TERMS)
            lines.append(f'    N{i}["{term} {noun}"]')
        for i in range(1, count):
            lines.append(f"    N{rng.randrange(i)} --> N{i}")
        return "\n".join(lines)

    def example(self, serial: int) -> list[str]:
        name = f"example_{self.rng.choice(CODE_VERBS)}_{serial}"
        return [*(_python_definition(self.rng, name)), "", f"print({name}(None))"]


# --------------------------------------------------------------------------- the book plan


@dataclass
class Section:
    number: tuple[int, ...]
    title: tuple[str, str]

    @property
    def label(self) -> str:
        return ".".join(map(str, self.number))


@dataclass
class Doc:
    name: str
    chapter: int  # 0 for the preface
    title: tuple[str, str]
    sections: list[Section] = field(default_factory=list)
    # per slot (0 = intro, then one per section or preface heading): inline items and blocks
    inline: dict[int, list[Piece]] = field(default_factory=dict)
    blocks: dict[int, list[str]] = field(default_factory=dict)
    han_budget: int = 0
    messages: list[tuple[str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    mentioned: dict[str, list[int]] = field(default_factory=dict)

    @property
    def slots(self) -> int:
        return 1 + len(self.sections)


PREFACE_HEADINGS = (
    ("本书结构", "How this book is organised"),
    ("阅读方法", "How to read it"),
    ("源码版本", "Source version"),
    ("致谢", "Acknowledgements"),
)


def plan_sections(rng: random.Random, writer: Writer, chapter: int, total: int) -> list[Section]:
    """*total* sections of one chapter: about a quarter ``§N.M``, the rest ``§N.M.K`` under them."""
    parents = max(1, min(total, round(total * 0.27)))
    children = [0] * parents
    for _ in range(total - parents):
        children[rng.randrange(parents)] += 1
    sections: list[Section] = []
    for m, kids in enumerate(children, start=1):
        sections.append(Section((chapter, m), writer.title()))
        sections += [Section((chapter, m, k), writer.title()) for k in range(1, kids + 1)]
    return sections


class Book:
    def __init__(self, scale: float, seed: int, plain: bool) -> None:
        self.scale, self.seed, self.plain = scale, seed, plain
        self.rng = random.Random(seed)
        self.writer = Writer(self.rng)
        self.counts = scaled(scale)
        self.sources = make_sources(self.rng, self.counts["repo_files"])
        self.docs: list[Doc] = []
        self.referrers: dict[str, list[str]] = {}
        self.tally = {
            "sec_mentions": 0,
            "cross_chapter": 0,
            "chapter_mentions": 0,
            "citations": 0,
            "symbol_citations": 0,
            "role_citations": 0,
        }
        self._plan()

    # -- plan
    def _plan(self) -> None:
        rng, counts = self.rng, self.counts
        chapters = counts["chapters"] - 1
        self.docs.append(Doc("preface", 0, ("前言", "Preface")))
        self.docs[0].sections = [Section((), t) for t in PREFACE_HEADINGS]
        for n, total in enumerate(spread(counts["sections"], chapters), start=1):
            title = CHAPTER_TITLES[(n - 1) % len(CHAPTER_TITLES)]
            title_en = CHAPTER_TITLES_EN[(n - 1) % len(CHAPTER_TITLES_EN)]
            doc = Doc(f"ch{n:02d}", n, (f"第{n}章 {title}", f"Chapter {n} {title_en}"))
            doc.sections = plan_sections(rng, self.writer, n, total)
            self.docs.append(doc)
        self.numbered = [s for d in self.docs for s in d.sections if s.number]
        self.by_chapter = {d.chapter: [s for s in d.sections if s.number] for d in self.docs}
        for doc, han in zip(self.docs, spread(counts["han"], len(self.docs)), strict=True):
            doc.han_budget = han
        self._place("diagrams", self._diagram)
        self._place("excerpts", self._excerpt)
        self._place("examples", self._example)
        self._place("citations", self._citation, inline=True)
        for doc, number in zip(
            self.docs, spread(counts["sec_mentions"], len(self.docs)), strict=True
        ):
            doc.counts["sec_mentions"] = number
            while (placed := sum(len(v) for v in doc.mentioned.values())) < number:
                piece = self._mention(doc, single=number - placed == 1)
                doc.inline.setdefault(rng.randrange(doc.slots), []).append(piece)
        self._place("chapter_mentions", self._chapter_mention, inline=True)

    def _place(self, kind: str, make: object, *, inline: bool = False) -> None:
        """Spread ``counts[kind]`` items over the documents, each into a random slot."""
        for doc, number in zip(self.docs, spread(self.counts[kind], len(self.docs)), strict=True):
            doc.counts[kind] = number
            for _ in range(number):
                slot = self.rng.randrange(doc.slots)
                item = make(doc)  # type: ignore[operator]
                target = doc.inline if inline else doc.blocks
                target.setdefault(slot, []).append(item)

    def _diagram(self, doc: Doc) -> str:
        return "```{mermaid}\n" + self.writer.diagram() + "\n```"

    def _excerpt(self, doc: Doc) -> str:
        source = self.rng.choice(self.sources)
        definition = self.rng.choice(source.definitions)
        lines = source.lines[definition.start - 1 : definition.end]
        language = "python" if source.path.endswith(".py") else "cpp"
        caption = f"{source.path}:{definition.start}-{definition.end}"
        return "\n".join([f"```{{code-block}} {language}", f":caption: {caption}", *lines, "```"])

    def _example(self, doc: Doc) -> str:
        return "```python\n" + "\n".join(self.writer.example(self.rng.randrange(10**6))) + "\n```"

    def _citation(self, doc: Doc) -> Piece:
        rng = self.rng
        source = rng.choice(self.sources)
        self.tally["citations"] += 1
        roll = rng.random()
        if roll < SYMBOL_SHARE:
            definition = rng.choice(source.definitions)
            self.tally["symbol_citations"] += 1
            self.tally["role_citations"] += 1
            where = f"{source.path}:{definition.start}"
            if rng.random() < 0.3:
                where += f"-{definition.end}"
            if self.plain:
                return Piece(f"{definition.name} `{where}`", f"{definition.name} `{where}`", True)
            text = f"{{src}}`{definition.name} <{where}>`"
            return Piece(text, text, spaced=True)
        line = rng.randint(1, len(source.lines) - 1)
        where = f"{source.path}:{line}"
        if rng.random() < 0.25:
            where += f"-{min(len(source.lines), line + rng.randint(1, 12))}"
        if roll < SYMBOL_SHARE + ROLE_SHARE:
            self.tally["role_citations"] += 1
            text = f"`{where}`" if self.plain else f"{{src}}`{where}`"
            return Piece(text, text, spaced=True)
        if rng.random() < 0.05:
            where = f"{SOURCE_NAME}:{where}"
        return Piece(f"`{where}`", f"`{where}`", spaced=True)

    def _mention(self, doc: Doc, *, single: bool) -> Piece:
        rng = self.rng
        own = self.by_chapter[doc.chapter]
        cross = not own or rng.random() < CROSS_SHARE
        others = [s for s in self.numbered if s.number[0] != doc.chapter]
        pool = others if cross else own
        roll = 1.0 if single else rng.random()
        first = rng.choice(pool)
        chapter_pool = self.by_chapter[first.number[0]]
        if roll < 0.08:  # a range of sibling §N.M
            parents = [s for s in chapter_pool if len(s.number) == 2]
            if len(parents) >= 2:
                a, b = sorted(rng.sample(parents, 2), key=lambda s: s.number)
                short = rng.random() < 0.3
                text = (
                    f"§{a.label}-{b.number[0]}.{b.number[1]}" if short else f"§{a.label}–§{b.label}"
                )
                return self._count_mention(doc, [a, b], Piece(text, text, spaced=True))
        if roll < 0.2 and len(chapter_pool) >= 2:  # a list of two
            other = rng.choice([s for s in chapter_pool if s is not first])
            pair = sorted([first, other], key=lambda s: s.number)
            zh = f"§{pair[0].label}、§{pair[1].label}"
            return self._count_mention(
                doc, pair, Piece(zh, f"§{pair[0].label}, §{pair[1].label}", True)
            )
        text = f"§{first.label}"
        return self._count_mention(doc, [first], Piece(text, text, spaced=True))

    def _count_mention(self, doc: Doc, targets: list[Section], piece: Piece) -> Piece:
        for target in targets:
            self.tally["sec_mentions"] += 1
            if target.number[0] != doc.chapter:
                self.tally["cross_chapter"] += 1
            self.referrers.setdefault(target.label, []).append(doc.name)
            doc.mentioned.setdefault(target.label, []).append(target.number[0])
        return piece

    def _chapter_mention(self, doc: Doc) -> Piece:
        self.tally["chapter_mentions"] += 1
        others = [d.chapter for d in self.docs if d.chapter not in (0, doc.chapter)]
        n = self.rng.choice(others)
        return Piece(f"第{n}章", f"Chapter {n}", spaced=True)

    # -- write
    def render(self, doc: Doc) -> str:
        rng, writer = self.rng, self.writer
        out: list[str] = []
        add_message = doc.messages.append
        out += [f"# {doc.title[0]}", ""]
        add_message(doc.title)
        per_slot = doc.han_budget / doc.slots
        for slot in range(doc.slots):
            if slot:
                section = doc.sections[slot - 1]
                marks = "#" * (len(section.number) or 2)
                number = f"§{section.label} " if section.number else ""
                number_en = number
                out += [f"{marks} {number}{section.title[0]}", ""]
                add_message((f"{number}{section.title[0]}", f"{number_en}{section.title[1]}"))
            items = list(doc.inline.get(slot, []))
            rng.shuffle(items)
            blocks = list(doc.blocks.get(slot, []))
            han = sum(len(HAN.findall(b)) for b in blocks)
            paragraphs: list[tuple[str, str]] = []
            while han < per_slot or items or not paragraphs:
                zh_sentences, en_sentences = [], []
                for _ in range(rng.randint(3, 6)):
                    take = [items.pop() for _ in range(min(len(items), rng.randint(0, 2)))]
                    zh, en = writer.sentence(take)
                    zh_sentences.append(zh)
                    en_sentences.append(en)
                    han += len(HAN.findall(zh))
                    if han >= per_slot and not items:
                        break
                paragraphs.append(("".join(zh_sentences), " ".join(en_sentences)))
            for index, (zh, en) in enumerate(paragraphs):
                out += [zh, ""]
                add_message((zh, en))
                if blocks and (index == len(paragraphs) - 1 or rng.random() < 0.4):
                    out += [blocks.pop(0), ""]
            for block in blocks:
                out += [block, ""]
        text = "\n".join(out)
        doc.counts["han"] = len(HAN.findall(text))
        complete = (
            doc.counts["han"] >= GATE_HAN
            and doc.counts["diagrams"] >= GATE_DIAGRAMS
            and doc.counts["excerpts"] >= GATE_EXCERPTS
        )
        if not complete:
            text = "---\nstatus: draft\n---\n\n" + text
        return text

    def index(self) -> str:
        names = "\n".join(d.name for d in self.docs)
        return (
            "# PyTorch 训练框架内核深度解析（基准语料）\n\n"
            "本书是 seriesbook 基准测试生成的合成语料。\n\n"
            f"```{{toctree}}\n:caption: 目录\n:maxdepth: 1\n\n{names}\n```\n"
        )

    def conf(self) -> str:
        header = (
            f'"""Synthetic benchmark book: benchmarks/make_corpus.py --scale {self.scale} '
            f'--seed {self.seed}{" --plain" if self.plain else ""}."""\n\n'
        )
        common = (
            'project = "PyTorch 训练框架内核深度解析（基准语料）"\n'
            'author = "seriesbook benchmarks"\n'
            'copyright = "2026, seriesbook benchmarks"\n'
            'language = "zh_CN"\n'
            f'exclude_patterns = ["_build", "{SOURCE_DIR}", "locale", "corpus.json"]\n'
            'myst_enable_extensions = ["colon_fence"]\n'
            'html_theme = "sphinx_book_theme"\n'
            'html_search_language = "zh"\n'
            'html_last_updated_fmt = ""\n'
            'locale_dirs = ["locale"]\n'
            "gettext_compact = False\n"
        )
        if self.plain:
            return header + 'extensions = ["myst_parser", "sphinxcontrib.mermaid"]\n' + common
        return (
            header
            + "import os\n\n"
            + 'extensions = ["seriesbook"]\n'
            + common
            + "seriesbook_sources = {\n"
            f'    "{SOURCE_NAME}": {{\n'
            f'        "repo": "{REPO_URL}",\n'
            f'        "ref": "{TAG}",\n'
            f'        "path": os.environ.get("SERIESBOOK_CORPUS_SOURCE", "{SOURCE_DIR}"),\n'
            "    }\n}\n"
            f'seriesbook_default_source = "{SOURCE_NAME}"\n'
        )


def write_catalog(
    path: Path, messages: list[tuple[str, str]], rng: random.Random
) -> tuple[int, int]:
    """A gettext catalog of *messages* with about half translated; returns (total, translated)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(
        locale="en",
        project="seriesbook-benchmark",
        charset="utf-8",
        fuzzy=False,
        creation_date=CATALOG_DATE,
        revision_date=CATALOG_DATE,
    )
    translated = 0
    for msgid, english in messages:
        if catalog.get(msgid) is not None:
            continue
        keep = rng.random() < TRANSLATED_SHARE
        translated += keep
        catalog.add(msgid, english if keep else "")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_po(stream, catalog, width=0, omit_header=False, sort_output=False)
    return len(catalog), translated


def measure(outdir: Path) -> dict[str, int]:
    """Counts read back from the written files (what the tests check)."""
    han = words = 0
    for md in sorted(outdir.glob("*.md")):
        text = md.read_text(encoding="utf-8")
        han += len(HAN.findall(text))
        words += len(LATIN_WORD.findall(text))
    return {"han": han, "latin_words": words, "words": han + words}


def write_book(
    outdir: Path, scale: float = 1.0, seed: int = 7, plain: bool = False
) -> dict[str, object]:
    """Write the book into *outdir* (which must not exist or be empty); return the manifest."""
    if outdir.exists() and any(outdir.iterdir()):
        raise SystemExit(f"make_corpus: {outdir} is not empty")
    outdir.mkdir(parents=True, exist_ok=True)
    book = Book(scale, seed, plain)
    commit = write_repository(outdir / SOURCE_DIR, book.sources)
    catalog_rng = random.Random(seed + 1)
    messages = translated = 0
    for doc in book.docs:
        (outdir / f"{doc.name}.md").write_text(book.render(doc), encoding="utf-8")
        total, done = write_catalog(
            outdir / "locale" / "en" / "LC_MESSAGES" / f"{doc.name}.po", doc.messages, catalog_rng
        )
        messages += total
        translated += done
    (outdir / "index.md").write_text(book.index(), encoding="utf-8")
    (outdir / "conf.py").write_text(book.conf(), encoding="utf-8")

    renumber = _renumber_target(book)
    manifest: dict[str, object] = {
        "scale": scale,
        "seed": seed,
        "plain": plain,
        "docs": [d.name for d in book.docs],
        "counts": {
            "chapters": len(book.docs),
            "sections": len(book.numbered),
            "section_levels": sorted({len(s.number) for s in book.numbered}),
            "diagrams": sum(d.counts["diagrams"] for d in book.docs),
            "excerpts": sum(d.counts["excerpts"] for d in book.docs),
            "examples": sum(d.counts["examples"] for d in book.docs),
            **book.tally,
            "messages": messages,
            "translated": translated,
            **measure(outdir),
        },
        "source": {
            "name": SOURCE_NAME,
            "path": SOURCE_DIR,
            "tag": TAG,
            "commit": commit,
            "files": len(book.sources),
        },
        "renumber": renumber,
    }
    (outdir / "corpus.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return manifest


def _renumber_target(book: Book) -> dict[str, object]:
    """The last ``§N.M.K`` of its parent with the most referrers: renumbered to K+1 by run.py."""
    leaves = [
        s
        for d in book.docs
        for i, s in enumerate(d.sections)
        if len(s.number) == 3 and (i + 1 == len(d.sections) or len(d.sections[i + 1].number) != 3)
    ] or [s for s in book.numbered if s.number == book.by_chapter[s.number[0]][-1].number]
    target = max(leaves, key=lambda s: (len(book.referrers.get(s.label, [])), s.number))
    new = (*target.number[:-1], target.number[-1] + 1)
    doc = f"ch{target.number[0]:02d}"
    referrers = book.referrers.get(target.label, [])
    return {
        "doc": doc,
        "old": target.label,
        "new": ".".join(map(str, new)),
        "heading": f"{'#' * len(target.number)} §{target.label} {target.title[0]}",
        "mentions": len(referrers),
        "referrer_docs": sorted(set(referrers)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plain", action="store_true", help="a book for Sphinx without seriesbook")
    args = parser.parse_args(argv)
    if args.scale <= 0:
        parser.error("--scale must be positive")
    if shutil.which("git") is None:
        parser.error("git is required")
    manifest = write_book(args.outdir, args.scale, args.seed, args.plain)
    print(json.dumps(manifest["counts"], ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
