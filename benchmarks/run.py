"""Measure seriesbook on the synthetic book, side by side with plain Sphinx; print a Markdown table.

usage: python benchmarks/run.py [--scale S] [--repeat N] [--workdir DIR] [--output FILE]
                                [--goals GROWTH]

Writes the book twice with ``make_corpus.py`` (with seriesbook, and ``--plain`` for Sphinx +
MyST + sphinxcontrib-mermaid + sphinx-book-theme alone), then runs every build as a subprocess
of the project's Python (``python -m sphinx``), N times each, and reports the median with min
and max of the wall time and of the CPU time (user + system of the build and its workers, which
is steadier than wall time on a shared machine):

* full build (``-E -a``: fresh environment, every page written, build directory kept as the
  author has it) with seriesbook and plain, alternating A B A B; and a cold build (empty build
  directory) of both;
* ``seriesbook check``; incremental builds after editing one chapter and after renumbering one §
  (with the count of warnings about the old number); ``-j 2`` (speed-up, byte-identical output);
  the English edition (``-D language=en``); citation verification from git and from the lock
  (``citations_verify.py`` on the book's generated repository, and ``seriesbook check`` without a
  local copy); peak memory (``ru_maxrss`` of the build process tree); the site's size, its
  largest page and what a chapter page loads;
* that ``seriesbook.search`` keeps every term of Sphinx's Chinese index for the plain book (for
  at least the same pages) and every page a set of stock queries finds. Recall and query time
  in the browser: ``search_queries.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from make_corpus import write_book  # noqa: E402

VENV_PYTHON = REPO / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))
CHECK = (PYTHON, "-m", "seriesbook", "check", ".")
MERMAID = REPO / "node_modules" / "mermaid" / "dist"
QUERIES = (
    "张量",
    "反向",
    "传播",
    "分配器",
    "内存块",
    "梯度同步",
    "计算图",
    "工作线程",
    "缓存",
    "分片",
    "Dispatcher",
    "TensorImpl",
    "intrusive_ptr",
    "autocast",
    "torch",
    "compile",
    "kernel",
    "launch",
    "graph break",
    "CUDA 缓存",
    "反向 传播",
    "§5.1",
    "第3章",
    "不存在的词",
)


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mb: float
    warnings: list[str] = field(default_factory=list)


def run(
    args: Sequence[str], cwd: Path, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,)
) -> Run:
    """Run a command; its wall time, CPU time and peak RSS (of it and its waited-for children)."""
    with tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        process = subprocess.Popen(
            list(args), cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if process.returncode not in ok:
        raise RuntimeError(f"{' '.join(args)} failed ({process.returncode}):\n{stderr[-3000:]}")
    warnings = [line for line in stderr.splitlines() if "WARNING" in line]
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, warnings)


class Book:
    """A generated book and its build directories."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root, self.env = root, env

    def build(self, name: str = "main", *options: str, clean: bool = False) -> Run:
        out = self.root / "_build" / name
        if clean and out.exists():
            shutil.rmtree(out)
        return run(
            [
                PYTHON,
                "-m",
                "sphinx",
                "-q",
                "-b",
                "html",
                *options,
                ".",
                str(out / "html"),
                "-d",
                str(out / "doctrees"),
            ],
            self.root,
            self.env,
        )

    def html(self, name: str = "main") -> Path:
        return self.root / "_build" / name / "html"


@dataclass
class Stat:
    runs: list[Run]

    def _fmt(self, values: list[float], unit: str) -> str:
        med = statistics.median(values)
        if len(values) == 1:
            return f"{med:.2f}{unit}"
        return f"{med:.2f}{unit} ({min(values):.2f}–{max(values):.2f})"

    @property
    def wall(self) -> float:
        return statistics.median(r.wall for r in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(r.cpu for r in self.runs)

    def wall_text(self) -> str:
        return self._fmt([r.wall for r in self.runs], " s")

    def cpu_text(self) -> str:
        return self._fmt([r.cpu for r in self.runs], " s")

    @property
    def rss(self) -> float:
        return max(r.rss_mb for r in self.runs)

    @property
    def warnings(self) -> int:
        return max(len(r.warnings) for r in self.runs)


def alternate(n: int, a: Callable[[], Run], b: Callable[[], Run]) -> tuple[Stat, Stat]:
    """A B A B …: both see the same drift of a shared machine."""
    runs_a: list[Run] = []
    runs_b: list[Run] = []
    for _ in range(n):
        runs_a.append(a())
        runs_b.append(b())
    return Stat(runs_a), Stat(runs_b)


def tree_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def differing_files(a: Path, b: Path) -> list[str]:
    """Relative paths whose bytes differ (or exist on one side only)."""
    names = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    names |= {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    return sorted(
        str(n)
        for n in names
        if not (
            (a / n).is_file() and (b / n).is_file() and (a / n).read_bytes() == (b / n).read_bytes()
        )
    )


ASSET = re.compile(
    r"<(?:script|link)\b[^>]*?(?:src|href)=\"([^\"]+)\"[^>]*>"
    r"|import\s+\w+\s+from\s+[\"']([^\"']+)[\"']"
)


def page_load(html: Path, page: str) -> dict[str, int]:
    """Bytes a page loads by itself: its HTML, local CSS and JS (lazy chunks not counted)."""
    text = (html / page).read_text(encoding="utf-8")
    sizes = {"html": len(text.encode()), "css": 0, "js": 0, "external": 0}
    seen: set[str] = set()
    for match in ASSET.finditer(text):
        url = (match[1] or match[2]).split("?")[0]
        tag = match[0]
        if url.startswith(("http:", "https:", "//")):
            sizes["external"] += 1
            continue
        if url in seen or not url.endswith((".css", ".js", ".mjs")):
            continue
        if tag.startswith("<link") and "stylesheet" not in tag and "preload" not in tag:
            continue
        seen.add(url)
        path = (html / page).parent / url
        if path.is_file():
            sizes["css" if url.endswith(".css") else "js"] += path.stat().st_size
    return sizes


def kb(n: float) -> str:
    return f"{n / 1024:,.0f} KB"


def search_kept(plain: Path, env: dict[str, str]) -> tuple[bool, int, int]:
    """Plain book: Sphinx's zh vs seriesbook.search (cold, then from the cache): the same index
    cold and warm, every stock term kept for its pages, every stock query's pages still found."""
    from seriesbook.search.query import load_index, missing_stock_terms, search

    book = Book(plain, env)
    extensions = "extensions=myst_parser,sphinxcontrib.mermaid,seriesbook.search"
    book.build("search", "-D", extensions, clean=True)
    cold = (book.html("search") / "searchindex.js").read_bytes()
    book.build("search", "-E", "-a", "-D", extensions)
    warm = (book.html("search") / "searchindex.js").read_bytes()
    # Sphinx's own index, also into an empty directory: an index it loads back keeps the terms
    # of rebuilt pages with an empty page list (Sphinx does that with or without seriesbook)
    book.build("stock", clean=True)
    theirs = load_index(book.html("stock") / "searchindex.js")
    ours = load_index(book.html("search") / "searchindex.js")
    kept = sum(
        set(search(theirs, q)["pages"]) <= set(search(ours, q)["pages"])
        and search(theirs, q)["titles"] == search(ours, q)["titles"]
        for q in QUERIES
    )
    return cold == warm and not missing_stock_terms(theirs, ours), kept, len(QUERIES)


def citations_rate(repo: Path, count: int) -> tuple[float, float]:
    """Citations per second from git and from the lock (``citations_verify.py``)."""
    script = HERE / "citations_verify.py"
    if not script.is_file():
        return float("nan"), float("nan")
    done = subprocess.run(
        [PYTHON, str(script), str(repo), "v1.0.0", "--citations", str(count)],
        capture_output=True,
        text=True,
        check=False,
    )
    rates = re.findall(r"^(git|lock):.*= ([\d,]+)/s", done.stdout, re.MULTILINE)
    found = {kind: float(rate.replace(",", "")) for kind, rate in rates}
    return found.get("git", float("nan")), found.get("lock", float("nan"))


def machine() -> str:
    cpu = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = ""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            memory = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    versions = subprocess.run(
        [
            PYTHON,
            "-c",
            "import importlib.metadata as m, sys; print(sys.version.split()[0], *("
            "f'{p} {m.version(p)}' for p in ('sphinx', 'myst-parser', 'sphinxcontrib-mermaid', "
            "'sphinx-book-theme', 'jieba')), sep=', ')",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    load = os.getloadavg()[0]
    return (
        f"{os.cpu_count()} CPUs ({cpu}), {memory}, {platform.system()} "
        f"{platform.release()}; Python {versions}; load average {load:.1f} at start"
    )


def edit_chapter(path: Path, serial: int) -> None:
    """Append a sentence to the chapter's first paragraph (a real text change)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line and not line.startswith(("#", "-", "`", ":", "{")):
            lines[i] = f"{line}作者第{serial + 1}次修改了这一段，调度器与分配器的描述更加准确。"
            break
    path.write_text("\n".join(lines), encoding="utf-8")


def build_env() -> dict[str, str]:
    """The environment every benchmarked build runs in: the repository's mermaid, no corpus
    source override, and Python's bytecode kept, as an installed package has it.

    pip compiles a package's modules when it installs it; a checkout's ``_ext`` is compiled by
    the first build that imports it, unless ``PYTHONDONTWRITEBYTECODE`` is set (as it is on
    some machines), when every build would compile seriesbook afresh while plain Sphinx's
    packages load their installed bytecode. The cache goes to a directory of its own
    (``PYTHONPYCACHEPREFIX``), so no ``__pycache__`` lands in the trees being compared.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "seriesbook-bench-pycache")
    if MERMAID.is_dir():
        env.setdefault("SERIESBOOK_MERMAID_DIR", str(MERMAID))
    env.pop("SERIESBOOK_CORPUS_SOURCE", None)
    return env


def measure(scale: float, repeat_n: int, workdir: Path) -> str:
    env = build_env()
    started = machine()
    manifest = write_book(workdir / "book", scale)
    write_book(workdir / "plain", scale, plain=True)
    book, plain = Book(workdir / "book", env), Book(workdir / "plain", env)
    counts = manifest["counts"]
    assert isinstance(counts, dict)
    docs = manifest["docs"]
    assert isinstance(docs, list)
    n = repeat_n
    rows: list[tuple[str, str, str, str, str]] = []

    # cold builds (empty build directory), then full builds with the build directory kept
    cold_sb, cold_plain = alternate(
        n, lambda: book.build(clean=True), lambda: plain.build(clean=True)
    )
    full_sb, full_plain = alternate(
        n, lambda: book.build("main", "-E", "-a"), lambda: plain.build("main", "-E", "-a")
    )
    ratio = full_sb.wall / full_plain.wall
    rows.append(
        (
            "full build, `-E -a` (wall)",
            full_sb.wall_text(),
            full_plain.wall_text(),
            f"{ratio:.2f}×",
            "≤ 0.8× plain",
        )
    )
    rows.append(
        (
            "full build, `-E -a` (CPU)",
            full_sb.cpu_text(),
            full_plain.cpu_text(),
            f"{full_sb.cpu / full_plain.cpu:.2f}×",
            "",
        )
    )
    rows.append(
        (
            "cold build, empty build dir (wall)",
            cold_sb.wall_text(),
            cold_plain.wall_text(),
            f"{cold_sb.wall / cold_plain.wall:.2f}×",
            "",
        )
    )
    rows.append(
        (
            "cold build, empty build dir (CPU)",
            cold_sb.cpu_text(),
            cold_plain.cpu_text(),
            f"{cold_sb.cpu / cold_plain.cpu:.2f}×",
            "",
        )
    )
    rows.append(
        ("warnings in a full build", str(full_sb.warnings), str(full_plain.warnings), "", "")
    )

    # Each comparison below alternates with its own baseline (A B A B), so that a shared
    # machine's drift between the sections of the table does not enter the ratios.
    def full() -> Run:
        return book.build("main", "-E", "-a")

    check, check_base = alternate(n, lambda: run(CHECK, book.root, env, (0, 1)), full)
    rows.append(
        (
            "`seriesbook check`",
            check.wall_text(),
            "",
            f"{check.wall / check_base.wall:.0%} of full, CPU {check.cpu / check_base.cpu:.0%}",
            "≤ 35%",
        )
    )

    # incremental: one chapter edited, then restored and built in full (the baseline)
    chapter = str(docs[len(docs) // 2])

    def edited(target: Book) -> tuple[Stat, Stat]:
        path = target.root / f"{chapter}.md"
        original = path.read_text(encoding="utf-8")
        runs: list[Run] = []
        bases: list[Run] = []
        for i in range(n):
            edit_chapter(path, i)
            runs.append(target.build())
            path.write_text(original, encoding="utf-8")
            bases.append(target.build("main", "-E", "-a"))
        return Stat(runs), Stat(bases)

    inc_sb, inc_sb_base = edited(book)
    inc_plain, inc_plain_base = edited(plain)
    rows.append(
        (
            f"incremental, one chapter ({chapter}) edited",
            inc_sb.wall_text(),
            inc_plain.wall_text(),
            f"{inc_sb.wall / inc_sb_base.wall:.0%} of full, "
            f"CPU {inc_sb.cpu / inc_sb_base.cpu:.0%} "
            f"(plain {inc_plain.wall / inc_plain_base.wall:.0%}, "
            f"CPU {inc_plain.cpu / inc_plain_base.cpu:.0%})",
            "≤ 15%",
        )
    )

    # incremental: one § renumbered, then restored and built in full
    renumber = manifest["renumber"]
    assert isinstance(renumber, dict)
    page = book.root / f"{renumber['doc']}.md"
    text = page.read_text(encoding="utf-8")
    old, new = str(renumber["old"]), str(renumber["new"])
    renumbered = text.replace(f" §{old} ", f" §{new} ", 1)
    runs: list[Run] = []
    bases: list[Run] = []
    for _ in range(n):
        page.write_text(renumbered, encoding="utf-8")
        runs.append(book.build())
        page.write_text(text, encoding="utf-8")
        bases.append(full())
    ren, ren_base = Stat(runs), Stat(bases)
    named = max(sum(1 for w in r.warnings if f"§{old}" in w or old in w) for r in runs)
    rows.append(
        (
            f"incremental, §{old} renumbered to §{new}",
            ren.wall_text(),
            "",
            f"{ren.wall / ren_base.wall:.0%} of full; {named} warnings name §{old} "
            f"({renumber['mentions']} mentions in {len(renumber['referrer_docs'])} pages)",
            "referrers warn",
        )
    )

    # -j 2 against -j 1: the same builds (empty directory, then -E -a) into two directories
    book.build("j1", clean=True)
    book.build("j2", "-j", "2", clean=True)
    j1, j2 = alternate(
        n,
        lambda: book.build("j1", "-E", "-a"),
        lambda: book.build("j2", "-E", "-a", "-j", "2"),
    )
    diff = differing_files(book.html("j1"), book.html("j2"))
    rows.append(
        (
            "full build `-j 2` (wall)",
            j2.wall_text(),
            "",
            f"{j1.wall / j2.wall:.2f}× speed-up (`-j 1`: {j1.wall_text()}); output "
            + ("byte-identical" if not diff else f"differs in {len(diff)} files: {diff[:3]}"),
            "≥ 1.4×, identical",
        )
    )

    # English edition
    book.build("en", "-D", "language=en", clean=True)
    zh, en = alternate(n, full, lambda: book.build("en", "-E", "-a", "-D", "language=en"))
    rows.append(
        (
            "English edition, `-E -a`",
            en.wall_text(),
            "",
            f"{en.wall / zh.wall:.2f}× the Chinese (CPU {en.cpu / zh.cpu:.2f}×)",
            "within 10%",
        )
    )

    # citations
    drawn = max(50, round(20000 * scale))
    rates = [citations_rate(book.root / "corpus-src", drawn) for _ in range(n)]
    git_rate = statistics.median(r[0] for r in rates)
    lock_rate = statistics.median(r[1] for r in rates)
    rows.append(
        (
            "citation verification from git",
            f"{git_rate:,.0f} /s",
            "",
            f"`citations_verify.py`, {drawn:,} citations",
            "≥ 5,000 /s",
        )
    )
    rows.append(("citation verification from the lock", f"{lock_rate:,.0f} /s", "", "", ""))
    run([PYTHON, "-m", "seriesbook", "lock", "."], book.root, env, (0, 1))
    no_copy = {**env, "SERIESBOOK_CORPUS_SOURCE": ""}
    check_git, check_lock = alternate(
        n,
        lambda: run(CHECK, book.root, env, (0, 1)),
        lambda: run(CHECK, book.root, no_copy, (0, 1)),
    )
    rows.append(
        (
            f"`seriesbook check`, {counts['citations']} citations from git / from the lock",
            f"{check_git.wall_text()} / {check_lock.wall_text()}",
            "",
            f"{len(check_lock.runs[-1].warnings)} problems without the copy",
            "",
        )
    )

    # memory and site
    rows.append(
        (
            "peak memory (RSS, largest process)",
            f"{full_sb.rss:,.0f} MB",
            f"{full_plain.rss:,.0f} MB",
            "",
            "",
        )
    )
    for label, target in (("site size", tree_bytes),):
        rows.append((label, kb(target(book.html())), kb(target(plain.html())), "", ""))
    pages = {
        b: max(b.html().rglob("*.html"), key=lambda p: p.stat().st_size) for b in (book, plain)
    }
    rows.append(
        (
            "largest page",
            f"{pages[book].name} {kb(pages[book].stat().st_size)}",
            f"{pages[plain].name} {kb(pages[plain].stat().st_size)}",
            "",
            "",
        )
    )
    loads = {b: page_load(b.html(), f"{chapter}.html") for b in (book, plain)}
    rows.append(
        (
            f"a chapter page loads ({chapter}.html)",
            *(
                f"{kb(sum(v for k, v in loads[b].items() if k != 'external'))}: HTML "
                f"{kb(loads[b]['html'])}, CSS {kb(loads[b]['css'])}, JS {kb(loads[b]['js'])}"
                f"; {loads[b]['external']} third-party"
                for b in (book, plain)
            ),
            "",
            "no third-party hosts",
        )
    )
    rows.append(
        (
            "search index (`searchindex.js`)",
            kb((book.html() / "searchindex.js").stat().st_size),
            kb((plain.html() / "searchindex.js").stat().st_size),
            "",
            "",
        )
    )

    kept, answered, total = search_kept(plain.root, env)
    rows.append(
        (
            "seriesbook.search vs Sphinx's zh (plain book)",
            "every stock term kept" if kept else "STOCK TERMS LOST",
            "",
            f"{answered}/{total} queries keep every stock page",
            "every stock hit a hit",
        )
    )

    header = (
        f"Scale {scale} ({counts['chapters']} chapters, {counts['sections']} sections, "
        f"{counts['han']:,} Chinese characters, {counts['words']:,} words, "
        f"{counts['diagrams']} diagrams, {counts['citations']} citations + "
        f"{counts['excerpts']} excerpts, {counts['sec_mentions']} § mentions); "
        f"median of {n} (min–max).\n\nMachine: {started}\n"
    )
    table = [
        "| measurement | seriesbook | plain Sphinx | result | target |",
        "|---|---|---|---|---|",
    ]
    table += ["| " + " | ".join(row) + " |" for row in rows]
    return header + "\n" + "\n".join(table) + "\n"


def goals(scale: float, repeat_n: int, workdir: Path, growth_scale: float) -> str:
    """Only the figures of the goals tables (issues 15 and 32), each ratio paired A B A B with
    its baseline.

    One-chapter rebuilds alternate between the two books, each editing its chapter anew (a real
    text change every time), so both pay the same drift. The check after an edit alternates with
    a full build. Growth compares full builds of this book and one at ``growth_scale``.
    """
    env = build_env()
    started = machine()
    manifest = write_book(workdir / "book", scale)
    write_book(workdir / "plain", scale, plain=True)
    write_book(workdir / "big", scale * growth_scale)
    book, plain = Book(workdir / "book", env), Book(workdir / "plain", env)
    big = Book(workdir / "big", env)
    docs = manifest["docs"]
    assert isinstance(docs, list)
    chapter = str(docs[len(docs) // 2])
    n = repeat_n
    rows: list[tuple[str, str, str, str]] = []
    for target in (book, plain, big):
        target.build()
    book.build("en", "-D", "language=en")

    def full() -> Run:
        return book.build("main", "-E", "-a")

    full_sb, full_plain = alternate(n, full, lambda: plain.build("main", "-E", "-a"))
    rows.append(
        (
            "full build `-E -a`, seriesbook / plain",
            f"{full_sb.wall_text()} / {full_plain.wall_text()}",
            f"{full_sb.wall / full_plain.wall:.2f}× (CPU {full_sb.cpu / full_plain.cpu:.2f}×)",
            "≤ 0.45×",
        )
    )

    originals = {b: (b.root / f"{chapter}.md").read_text(encoding="utf-8") for b in (book, plain)}
    serial = iter(range(10_000))

    def edit_and_build(target: Book) -> Callable[[], Run]:
        def go() -> Run:
            edit_chapter(target.root / f"{chapter}.md", next(serial))
            return target.build()

        return go

    inc_sb, inc_plain = alternate(n, edit_and_build(book), edit_and_build(plain))
    rows.append(
        (
            f"one-chapter rebuild ({chapter}), seriesbook / plain",
            f"{inc_sb.wall_text()} / {inc_plain.wall_text()}",
            f"{inc_sb.wall / inc_plain.wall:.2f}× (CPU {inc_sb.cpu / inc_plain.cpu:.2f}×)",
            "≤ 0.35×",
        )
    )

    def edit_and_check() -> Run:
        edit_chapter(book.root / f"{chapter}.md", next(serial))
        return run(CHECK, book.root, env, (0, 1))

    run(CHECK, book.root, env, (0, 1))  # the check's own state, if it keeps one
    check, check_base = alternate(n, edit_and_check, full)
    rows.append(
        (
            "`seriesbook check` after editing one chapter / full build",
            f"{check.wall_text()} / {check_base.wall_text()}",
            f"{check.wall / check_base.wall:.2f} (CPU {check.cpu / check_base.cpu:.2f})",
            "≤ 0.10 in a warm process (`serve`)",
        )
    )
    for target, text in originals.items():
        (target.root / f"{chapter}.md").write_text(text, encoding="utf-8")

    zh, en = alternate(n, full, lambda: book.build("en", "-E", "-a", "-D", "language=en"))
    rows.append(
        (
            "English edition / Chinese edition, `-E -a`",
            f"{en.wall_text()} / {zh.wall_text()}",
            f"{en.wall / zh.wall:.2f}× (CPU {en.cpu / zh.cpu:.2f}×)",
            "≤ 1.10×",
        )
    )

    grown, base = alternate(n, lambda: big.build("main", "-E", "-a"), full)
    linear = 1.1 * growth_scale
    rows.append(
        (
            f"full build at scale {scale * growth_scale:g} / scale {scale:g}",
            f"{grown.wall_text()} / {base.wall_text()}",
            f"{grown.wall / base.wall:.2f}× (CPU {grown.cpu / base.cpu:.2f}×)",
            f"≤ {linear:.1f}× (linear)",
        )
    )

    # make html: both editions side by side (seriesbook.speed.editions) against one after the
    # other, each a full build (-E -a) into its own directories, output compared
    def both_editions(jobs: int) -> Callable[[], Run]:
        builddir = book.root / "_build" / f"editions-{jobs}"
        sphinx_build = str(Path(PYTHON).parent / "sphinx-build")
        command = [PYTHON, "-m", "seriesbook.speed.editions", "--builder", "html",
                   "--builddir", str(builddir), "--languages", "zh_CN en", "--jobs", str(jobs),
                   "--", sphinx_build, "-q", "-E", "-a", "."]
        return lambda: run(command, book.root, env)

    try:
        side, turn = alternate(n, both_editions(2), both_editions(1))
    except RuntimeError as error:  # a checkout before seriesbook.speed.editions
        print(f"make html's editions not measured: {str(error)[:200]}", file=sys.stderr)
        return _goals_table(scale, n, started, rows)
    diff = differing_files(book.root / "_build" / "editions-2" / "html",
                           book.root / "_build" / "editions-1" / "html")
    rows.append(
        (
            "both editions, `make html`'s side by side / one after the other",
            f"{side.wall_text()} / {turn.wall_text()}",
            f"{side.wall / turn.wall:.2f}× (CPU {side.cpu / turn.cpu:.2f}×); "
            + ("output identical" if not diff else f"{len(diff)} files differ: {diff[:3]}"),
            "≤ 0.65×",
        )
    )

    return _goals_table(scale, n, started, rows)


def _goals_table(scale: float, n: int, started: str, rows: list[tuple[str, str, str, str]]) -> str:
    header = f"Scale {scale}; median of {n} (min–max), paired A B A B.\n\nMachine: {started}\n"
    table = ["| figure | measured (wall) | ratio | goal |", "|---|---|---|---|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]
    return header + "\n" + "\n".join(table) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="keep the books here (default: temporary)")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    parser.add_argument(
        "--goals",
        type=float,
        metavar="GROWTH",
        help="measure only the goals (issues 15, 32), growth against a book GROWTH times the scale",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.scale <= 0:
        parser.error("--repeat and --scale must be positive")
    with tempfile.TemporaryDirectory(prefix="seriesbook-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        if args.goals:
            report = goals(args.scale, args.repeat, workdir, args.goals)
        else:
            report = measure(args.scale, args.repeat, workdir)
    print(report)
    if args.output:
        args.output.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
