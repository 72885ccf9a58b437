"""The benchmark corpus says what it writes, and the harness runs end to end (no timings)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

from make_corpus import scaled, write_book  # noqa: E402

HEADING = re.compile(r"^(#{2,3}) §(\d+(?:\.\d+)+) ", re.MULTILINE)
MENTION = re.compile(
    r"§(\d+\.\d+(?:\.\d+)?)(?:(?:–§|-)(\d+\.\d+(?:\.\d+)?)|、§(\d+\.\d+(?:\.\d+)?))?"
)
EXCERPT = re.compile(
    r"^```\{code-block\} \w+\n:caption: (\S+):(\d+)-(\d+)\n(.*?)\n```$", re.MULTILINE | re.DOTALL
)
LITERAL = re.compile(r"(?<![}\w])`((?:corpus:)?[\w/.]+:\d+(?:-\d+)?)`")
ROLE = re.compile(r"\{src\}`(?:(\w+) <)?([\w/.]+):(\d+)(?:-(\d+))?>?`")
FENCE = re.compile(r"^```.*?^```$", re.MULTILINE | re.DOTALL)


def prose(text: str) -> str:
    """The text outside code fences and headings."""
    text = FENCE.sub("", text)
    return "\n".join(line for line in text.splitlines() if not line.startswith("#"))


def git_lines(repo: Path, path: str) -> list[str]:
    shown = subprocess.run(
        ["git", "-C", str(repo), "show", f"v1.0.0:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return shown.split("\n")


def read_book(outdir: Path) -> dict[str, str]:
    manifest = json.loads((outdir / "corpus.json").read_text(encoding="utf-8"))
    return {name: (outdir / f"{name}.md").read_text(encoding="utf-8") for name in manifest["docs"]}


@pytest.mark.parametrize("plain", [False, True], ids=["seriesbook", "plain"])
def test_tiny_corpus_keeps_its_promises(tmp_path: Path, plain: bool) -> None:
    outdir = tmp_path / "book"
    manifest = write_book(outdir, 0.02, plain=plain)
    counts, promised = manifest["counts"], scaled(0.02)
    pages = read_book(outdir)
    assert len(pages) == counts["chapters"] == promised["chapters"]

    headings = [(len(m[1]), m[2]) for text in pages.values() for m in HEADING.finditer(text)]
    assert len(headings) == counts["sections"] == promised["sections"]
    assert all(level == number.count(".") + 1 for level, number in headings)
    numbers = {number for _, number in headings}
    assert len(numbers) == len(headings)

    everything = "\n".join(pages.values())
    assert everything.count("```{mermaid}") == counts["diagrams"] == promised["diagrams"]

    repo = outdir / "corpus-src"
    excerpts = EXCERPT.findall(everything)
    assert len(excerpts) == counts["excerpts"] == promised["excerpts"]
    for path, start, end, body in excerpts:
        assert body.split("\n") == git_lines(repo, path)[int(start) - 1 : int(end)]

    literals = [m for text in pages.values() for m in LITERAL.findall(prose(text))]
    roles = [m for text in pages.values() for m in ROLE.findall(text)]
    assert len(literals) + len(roles) == counts["citations"] == promised["citations"]
    if plain:
        assert not roles and "{src}" not in everything
    else:
        assert len(roles) == counts["role_citations"]
        for symbol, path, start, end in roles:
            lines = git_lines(repo, path)
            assert int(end or start) <= len(lines)
            if symbol:
                assert symbol in "\n".join(lines[int(start) - 1 : int(end or start)])

    mentions = cross = 0
    for name, text in pages.items():
        chapter = int(name[2:]) if name.startswith("ch") else 0
        for match in MENTION.finditer(prose(text)):
            for number in filter(None, match.groups()):
                mentions += 1
                cross += int(number.split(".")[0]) != chapter
                assert number in numbers, f"{name} mentions §{number}, which does not exist"
    assert mentions == counts["sec_mentions"] == promised["sec_mentions"]
    assert cross == counts["cross_chapter"]
    chapter_mentions = sum(len(re.findall(r"第\d+章", prose(t))) for t in pages.values())
    assert chapter_mentions == counts["chapter_mentions"] == promised["chapter_mentions"]

    conf = (outdir / "conf.py").read_text(encoding="utf-8")
    if plain:
        assert 'extensions = ["myst_parser", "sphinxcontrib.mermaid"]' in conf
        assert "seriesbook" not in conf.replace("seriesbook benchmarks", "")
    else:
        assert 'extensions = ["seriesbook"]' in conf and '"ref": "v1.0.0"' in conf
    assert 'html_search_language = "zh"' in conf and 'html_theme = "sphinx_book_theme"' in conf

    translated = total = 0
    for po in (outdir / "locale" / "en" / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as stream:
            catalog = read_po(stream)
        messages = [m for m in catalog if m.id]
        total += len(messages)
        translated += sum(bool(m.string) for m in messages)
    assert (total, translated) == (counts["messages"], counts["translated"])
    assert 0.3 < translated / total < 0.7

    renumber = manifest["renumber"]
    assert renumber["heading"] in pages[renumber["doc"]]


def test_corpus_is_deterministic(tmp_path: Path) -> None:
    first = write_book(tmp_path / "a", 0.02)
    second = write_book(tmp_path / "b", 0.02)
    assert first["source"] == second["source"]  # same commit id
    assert read_book(tmp_path / "a") == read_book(tmp_path / "b")
    write_book(tmp_path / "c", 0.02, seed=8)
    assert read_book(tmp_path / "c") != read_book(tmp_path / "a")


@pytest.mark.slow  # the whole book's scale
def test_full_scale_meets_the_outline(tmp_path: Path) -> None:
    counts = write_book(tmp_path / "book", 1.0)["counts"]
    assert counts["chapters"] == 24 and counts["sections"] == 943
    assert counts["section_levels"] == [2, 3] and counts["diagrams"] == 121
    assert counts["citations"] >= 600 and counts["excerpts"] >= 50
    assert counts["symbol_citations"] >= 0.1 * counts["citations"]
    assert counts["sec_mentions"] >= 2000 and counts["cross_chapter"] >= 0.6 * 2000
    assert counts["chapter_mentions"] >= 200
    assert counts["han"] >= 210_000 and counts["words"] >= 300_000
    assert 0.4 < counts["translated"] / counts["messages"] < 0.6


@pytest.mark.slow  # builds the corpus, with and without seriesbook
def test_harness_prints_the_table(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "run.py"),
            "--scale",
            "0.02",
            "--repeat",
            "1",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    assert table[0].startswith("| measurement | seriesbook | plain Sphinx |")
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table[2:]}
    for label in (
        "full build, `-E -a` (wall)",
        "`seriesbook check`",
        "full build `-j 2` (wall)",
        "English edition, `-E -a`",
        "citation verification from git",
        "site size",
    ):
        assert label in rows, label
    assert "every stock term kept" in rows["seriesbook.search vs Sphinx's zh (plain book)"]
    assert "byte-identical" in rows["full build `-j 2` (wall)"]


@pytest.mark.slow  # builds the corpus, with and without seriesbook
def test_renumber_harness_runs_cold_and_warm(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "renumber.py"), "--scale", "0.02", "--repeat", "1",
         "--workdir", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"\d+ sections renumbered, 1 numbered", done.stdout)
    rows = [line.split(" | ")[0].lstrip("| ") for line in done.stdout.splitlines()
            if line.startswith("| ")]
    assert rows == ["run", "cold", "warm"]
