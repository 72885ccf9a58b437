"""How long ``seriesbook repin`` takes on the whole book, from two directories (not a timed test).

usage: python benchmarks/repin_book.py OLD NEW REF [--source NAME] [--runs N]

OLD and NEW are a source's two releases laid out in repository paths (``wheel_layout.py``).
Runs the dry run N times in this process and prints the best wall and CPU time, split into
Sphinx reading the book (``read_book`` alone, the same reading ``check`` does) and the rest
(reading both releases' files, mapping, planning the rewrites), then the report's summary.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import time
from pathlib import Path

from seriesbook.commands.cli import main as seriesbook
from seriesbook.commands.reading import read_book


def timed(action: object) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    assert callable(action)
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("ref")
    parser.add_argument("--source", default="pytorch")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    book, conf = Path("source").resolve(), Path(".").resolve()
    argv = ["repin", "--source", f"{args.source}={args.old}", "--to", f"{args.source}={args.ref}",
            "--to-source", f"{args.source}={args.new}", "--format", "json"]
    out = io.StringIO()

    def repin() -> None:
        out.seek(0)
        out.truncate()
        with contextlib.redirect_stdout(out):
            seriesbook(argv)

    def reading() -> None:
        with read_book(book, conf):
            pass

    whole = min(timed(repin) for _ in range(args.runs))
    read = min(timed(reading) for _ in range(args.runs))
    report = json.loads(out.getvalue())
    sources = [c for c in report["citations"] if c["file"].startswith("source/")]
    print(f"repin {args.source} {report['from']} → {report['to']}: {len(sources)} citations in "
          f"source/, {len(report['citations']) - len(sources)} in catalogs")
    print(f"whole dry run: {whole[0]:.2f} s wall, {whole[1]:.2f} s CPU (best of {args.runs})")
    print(f"  Sphinx reading the book: {read[0]:.2f} s wall, {read[1]:.2f} s CPU")
    print(f"  releases, mapping, planning: {whole[0] - read[0]:.2f} s wall, "
          f"{whole[1] - read[1]:.2f} s CPU")
    counts: dict[str, int] = {}
    for citation in sources:
        counts[citation["status"]] = counts.get(citation["status"], 0) + 1
    print(f"source/: {counts}; all: {report['summary']}")


if __name__ == "__main__":
    main()
