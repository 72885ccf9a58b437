"""Rounds of a few builds in turn, for a machine too busy for ``run.py --goals``: this checkout,
plain Sphinx and an earlier ``_ext``, each row printed as soon as it is measured.

usage: python benchmarks/rounds.py BEFORE_EXT [--after-ext DIR] [--scale S] [--rounds N]
                                   [--workdir DIR]

BEFORE_EXT is an earlier revision's ``_ext`` (``git archive REV _ext | tar -x -C DIR``). Each
round builds, in turn: the full build (``-E -a``) with this checkout's ``_ext`` (or
``--after-ext``), of the plain book, with BEFORE_EXT; the same after editing one chapter; both
editions side by side and one after the other (``seriesbook.speed.editions``, output compared);
and Chinese then English with both ``_ext``. Medians of wall and CPU time (``run.run``) and the
ratios, CPU first: under load the wall time says little.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_corpus import write_book  # noqa: E402
from run import PYTHON, REPO, Book, Run, build_env, differing_files, edit_chapter, run  # noqa: E402


def median(runs: list[Run], attribute: str) -> float:
    return statistics.median(getattr(r, attribute) for r in runs)


def measure(title: str, rounds: int, builds: dict[str, Callable[[], Run]]) -> dict[str, list[Run]]:
    """*rounds* rounds of *builds* in turn; print each one's median wall and CPU time."""
    runs: dict[str, list[Run]] = {name: [] for name in builds}
    for _ in range(rounds):
        for name, build in builds.items():
            runs[name].append(build())
    print(f"## {title} (load average {os.getloadavg()[0]:.1f})", flush=True)
    for name, measured in runs.items():
        print(f"{name}: wall {median(measured, 'wall'):.2f} s, CPU {median(measured, 'cpu'):.2f} s",
              flush=True)
    return runs


def ratio(runs: dict[str, list[Run]], a: str, b: str) -> None:
    print(f"  {a} / {b}: CPU {median(runs[a], 'cpu') / median(runs[b], 'cpu'):.2f}×, "
          f"wall {median(runs[a], 'wall') / median(runs[b], 'wall'):.2f}×", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before_ext", type=Path)
    parser.add_argument("--after-ext", type=Path, default=REPO / "_ext")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/seriesbook-rounds"))
    args = parser.parse_args(argv)
    env = build_env()
    env.pop("PYTHONPATH", None)
    after = Book(args.workdir / "book", {**env, "PYTHONPATH": str(args.after_ext)})
    before = Book(args.workdir / "book", {**env, "PYTHONPATH": str(args.before_ext)})
    plain = Book(args.workdir / "plain", env)
    if not (args.workdir / "book").is_dir():
        write_book(args.workdir / "book", args.scale)
        write_book(args.workdir / "plain", args.scale, plain=True)
    for warm in (lambda: after.build("after"), lambda: before.build("before"), plain.build,
                 lambda: after.build("after-en", "-D", "language=en"),
                 lambda: before.build("before-en", "-D", "language=en")):
        warm()  # caches filled: what an author's build directory holds
    n = args.rounds
    docs = json.loads((args.workdir / "book" / "corpus.json").read_text(encoding="utf-8"))["docs"]
    chapter = f"{docs[len(docs) // 2]}.md"  # as run.py edits
    full = measure("full build -E -a", n, {
        "after": lambda: after.build("after", "-E", "-a"),
        "plain": lambda: plain.build("main", "-E", "-a"),
        "before": lambda: before.build("before", "-E", "-a"),
    })
    ratio(full, "after", "plain")
    ratio(full, "before", "plain")
    serial = itertools.count()

    def edited(book: Book, name: str) -> Callable[[], Run]:
        def go() -> Run:
            edit_chapter(book.root / chapter, next(serial))
            return book.build(name)
        return go

    rebuild = measure(f"one-chapter rebuild ({chapter})", n, {
        "after": edited(after, "after"), "plain": edited(plain, "main"),
        "before": edited(before, "before"),
    })
    ratio(rebuild, "after", "plain")
    ratio(rebuild, "before", "plain")

    def editions(jobs: int) -> Callable[[], Run]:
        builddir = after.root / "_build" / f"editions-{jobs}"
        command = [PYTHON, "-m", "seriesbook.speed.editions", "--builder", "html",
                   "--builddir", str(builddir), "--languages", "zh_CN en", "--jobs", str(jobs),
                   "--", str(Path(PYTHON).parent / "sphinx-build"), "-q", "-E", "-a", "."]
        return lambda: run(command, after.root, after.env)

    both = measure("both editions", n, {"side by side": editions(2), "in turn": editions(1)})
    ratio(both, "side by side", "in turn")
    differ = differing_files(after.root / "_build" / "editions-2" / "html",
                             after.root / "_build" / "editions-1" / "html")
    print(f"  {len(differ)} files differ {differ[:3]}", flush=True)
    english = measure("English / Chinese", n, {
        "zh after": lambda: after.build("after", "-E", "-a"),
        "en after": lambda: after.build("after-en", "-E", "-a", "-D", "language=en"),
        "zh before": lambda: before.build("before", "-E", "-a"),
        "en before": lambda: before.build("before-en", "-E", "-a", "-D", "language=en"),
    })
    ratio(english, "en after", "zh after")
    ratio(english, "en before", "zh before")
    return 0


if __name__ == "__main__":
    sys.exit(main())
