"""Time ``seriesbook renumber`` on the synthetic book after inserting a section early in a chapter.

usage: python benchmarks/renumber.py [--scale S] [--repeat N] [--workdir DIR]

Writes the book with ``make_corpus.py``; then, N times each, on a fresh copy with
``## § 新插入的一节`` inserted before ch05's first section (at scale 1), runs
``python -m seriesbook renumber`` (a dry run) as a subprocess and reports the median (min–max) of
the wall time and of the CPU time (user + system; steadier than wall time on a shared machine):

* cold: the first run on the book (no kept environment: every page is read);
* warm: the book renumbered once before the edit (``_build/renumber/`` kept), then edited: the
  run re-reads only the edited page.

Every run must print the same plan (checked).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
INSERTED = "## § 新插入的一节\n\n新的一段。\n\n"


def _insert(book: Path) -> None:
    """A new section before the first section of the fifth chapter (fewer at small scales)."""
    chapters = sorted(book.glob("ch*.md"))
    page = chapters[min(4, len(chapters) - 1)]
    text = page.read_text(encoding="utf-8")
    first = text.index("\n## §") + 1
    page.write_text(text[:first] + INSERTED + text[first:], encoding="utf-8")


def _timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of *command*, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return wall, cpu, done.stdout


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}–{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir", type=Path, help="keep the books here (default: temporary)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="seriesbook-renumber-") as tmp:
        work = args.workdir or Path(tmp)
        corpus = work / "corpus"
        if corpus.exists():
            shutil.rmtree(corpus)
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(corpus),
                        "--scale", str(args.scale)], check=True, capture_output=True)
        book = work / "book"
        renumber = [sys.executable, "-m", "seriesbook", "renumber", str(book)]
        times: dict[str, tuple[list[float], list[float]]] = {"cold": ([], []), "warm": ([], [])}
        plans: set[str] = set()
        for _ in range(args.repeat):
            for kind, (walls, cpus) in times.items():
                if book.exists():
                    shutil.rmtree(book)
                shutil.copytree(corpus, book)
                if kind == "warm":
                    _timed(renumber)  # the run before the edit keeps the environment
                _insert(book)
                wall, cpu, plan = _timed(renumber)
                walls.append(wall)
                cpus.append(cpu)
                plans.add(plan)
        if len(plans) != 1:
            sys.exit("cold and warm runs planned differently")
        print(f"scale {args.scale}, {args.repeat} runs each: {plans.pop().splitlines()[-1]}")
        print("| run | wall | CPU |\n|---|---|---|")
        for kind, (walls, cpus) in times.items():
            print(f"| {kind} | {_summary(walls)} | {_summary(cpus)} |")


if __name__ == "__main__":
    main()
