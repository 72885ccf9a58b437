"""Time the drawing of a book's diagrams at build time (``seriesbook.diagrams``), every edition.

usage: python benchmarks/diagrams.py BOOKDIR [--languages zh_CN,en] [--workdir DIR]

BOOKDIR holds ``conf.py`` and ``source/`` (this repository, or a ``make_corpus.py`` book). Each
edition is built twice as HTML in this process, timing every call that yields a drawing:

* **cold**: an empty doctree directory, so every diagram is drawn by merman;
* **warm**: ``-E`` again with the store of the cold build, so every drawing is read back.

Printed: one Markdown row per edition and the totals (diagrams, cold seconds, warm seconds).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from seriesbook.diagrams import STORE_SUBDIR, _place
from sphinx.cmd.build import build_main


class Stopwatch:
    """Wraps the function that yields a drawing (from the store or drawn) and sums its time."""

    def __init__(self) -> None:
        self.seconds, self.calls = 0.0, 0
        self.real = _place.drawing

    def __call__(self, *args: Any) -> str:
        start = time.perf_counter()
        try:
            return self.real(*args)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1


def build(book: Path, language: str, doctrees: Path, out: Path) -> Stopwatch:
    watch = Stopwatch()
    _place.drawing = watch  # type: ignore[assignment]
    try:
        source = book / "source" if (book / "source").is_dir() else book
        status = build_main(["-b", "html", "-q", "-E", "-c", str(book),
                             "-D", f"language={language}", "-d", str(doctrees), str(source),
                             str(out)])
        if status:
            raise SystemExit(f"the {language} build failed")
    finally:
        _place.drawing = watch.real  # type: ignore[assignment]
    return watch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path)
    parser.add_argument("--languages", default="zh_CN,en")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="diagrams-bench-"))
    totals = [0, 0.0, 0.0]
    print("| edition | diagrams | drawings | cold | warm |\n|---|---|---|---|---|")
    for language in args.languages.split(","):
        doctrees = workdir / f"doctrees-{language}"
        cold = build(args.book, language, doctrees, workdir / f"cold-{language}")
        warm = build(args.book, language, doctrees, workdir / f"warm-{language}")
        drawings = len(list((doctrees / STORE_SUBDIR).glob("*.svg")))
        print(f"| {language} | {cold.calls} | {drawings} | {cold.seconds:.2f} s | "
              f"{warm.seconds:.3f} s |", flush=True)
        totals[0] += cold.calls
        totals[1] += cold.seconds
        totals[2] += warm.seconds
    print(f"| all | {totals[0]} | | {totals[1]:.2f} s | {totals[2]:.3f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
