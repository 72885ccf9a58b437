"""The English edition against the Chinese one, in alternating pairs: the ratio a noisy machine
gives, with each pair's own ratio.

usage: python benchmarks/english_pairs.py [--pairs N] [--ext DIR] [--workdir DIR] [--before DIR]

Both builds are ``-E -a`` of the synthetic book (``make_corpus.py``, scale 1) with their kept
files warm (one unmeasured build of each first), in the build directories ``rounds.py`` uses, and
the same environment (``run.build_env``). Prints the CPU times, the ratio of the medians and the
median of the pairs' ratios. ``--before DIR`` (another checkout's ``_ext``) measures that code
too, in turns with this one (a copy of the book of its own, ``WORKDIR-before``: the kept files
differ), and prints both ratios and each edition's after/before: a change shows against the
machine's drift, which moves both.
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
    parser.add_argument("--before", type=Path, help="another checkout's _ext, measured in turns")
    args = parser.parse_args(argv)
    book = _book(args.workdir, args.ext)
    before = _book(Path(f"{args.workdir}-before"), args.before) if args.before else None
    chinese: list[float] = []
    english: list[float] = []
    earlier: tuple[list[float], list[float]] = ([], [])
    for _ in range(args.pairs):
        if before is not None:
            earlier[0].append(before.build("after", "-E", "-a").cpu)
        chinese.append(book.build("after", "-E", "-a").cpu)
        if before is not None:
            earlier[1].append(before.build("after-en", *ENGLISH).cpu)
        english.append(book.build("after-en", *ENGLISH).cpu)
    ratios = sorted(en / zh for en, zh in zip(english, chinese, strict=True))
    print("zh CPU", " ".join(f"{t:.2f}" for t in chinese))
    print("en CPU", " ".join(f"{t:.2f}" for t in english))
    print(
        f"medians {statistics.median(english):.3f} / {statistics.median(chinese):.3f} s: "
        f"{statistics.median(english) / statistics.median(chinese):.3f}x; pairs "
        f"{ratios[0]:.3f}-{ratios[-1]:.3f}x, median {statistics.median(ratios):.3f}x"
    )
    if before is not None:
        before_zh, before_en = (statistics.median(times) for times in earlier)
        print(f"before: medians {before_en:.3f} / {before_zh:.3f} s: "
              f"{before_en / before_zh:.3f}x; after/before: English "
              f"{statistics.median(english) / before_en:.3f}, Chinese "
              f"{statistics.median(chinese) / before_zh:.3f}")
    return 0


def _book(workdir: Path, ext: Path) -> Book:
    """The book in *workdir* (written if missing) built with *ext*, its kept files warm."""
    if not (workdir / "book").is_dir():
        write_book(workdir / "book", 1.0)
    book = Book(workdir / "book", {**build_env(), "PYTHONPATH": str(ext)})
    book.build("after", "-E", "-a")
    book.build("after-en", *ENGLISH)
    return book


if __name__ == "__main__":
    sys.exit(main())
