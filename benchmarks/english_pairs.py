"""The English edition against the Chinese one, in alternating pairs: the ratio a noisy machine
gives, with each pair's own ratio.

usage: python benchmarks/english_pairs.py [--pairs N] [--ext DIR] [--workdir DIR]

Both builds are ``-E -a`` of the synthetic book (``make_corpus.py``, scale 1) with their kept
files warm (one unmeasured build of each first), in the build directories ``rounds.py`` uses, and
the same environment (``run.build_env``). Prints the CPU times, the ratio of the medians and the
median of the pairs' ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import write_book
from run import Book, build_env

ENGLISH = ("-E", "-a", "-D", "language=en")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--ext", type=Path, default=Path(__file__).resolve().parents[1] / "_ext")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/seriesbook-rounds"))
    args = parser.parse_args(argv)
    if not (args.workdir / "book").is_dir():
        write_book(args.workdir / "book", 1.0)
    book = Book(args.workdir / "book", {**build_env(), "PYTHONPATH": str(args.ext)})
    book.build("after", "-E", "-a")
    book.build("after-en", *ENGLISH)
    chinese: list[float] = []
    english: list[float] = []
    for _ in range(args.pairs):
        chinese.append(book.build("after", "-E", "-a").cpu)
        english.append(book.build("after-en", *ENGLISH).cpu)
    ratios = sorted(en / zh for en, zh in zip(english, chinese, strict=True))
    print("zh CPU", " ".join(f"{t:.2f}" for t in chinese))
    print("en CPU", " ".join(f"{t:.2f}" for t in english))
    print(
        f"medians {statistics.median(english):.3f} / {statistics.median(chinese):.3f} s: "
        f"{statistics.median(english) / statistics.median(chinese):.3f}x; pairs "
        f"{ratios[0]:.3f}-{ratios[-1]:.3f}x, median {statistics.median(ratios):.3f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
