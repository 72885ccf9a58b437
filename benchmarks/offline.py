"""Time the PDF and EPUB editions of a book: cold, and with the diagram cache warm.

usage: python benchmarks/offline.py BOOKDIR [--language zh_CN] [--workdir DIR]

BOOKDIR holds ``conf.py`` and ``source/`` (this repository, or a ``make_corpus.py`` book; its
``node_modules`` are found as the build finds them: ``$SERIESBOOK_MERMAID_DIR`` or next to
``conf.py``). Four builds of each kind, each printed as one Markdown table row:

* **cold**: a new doctree directory, so every diagram is drawn;
* **warm cache**: a new doctree directory holding only the diagram cache of the cold build, so
  Sphinx reads everything again but draws nothing (a fresh checkout with a kept cache);
* PDF times are ``sphinx-build -b latex`` and ``latexmk`` (XeLaTeX, usually three runs) apart.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CACHE = "seriesbook-diagrams"


def timed(command: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def sphinx(book: Path, builder: str, language: str, doctrees: Path, out: Path) -> float:
    source = book / "source" if (book / "source").is_dir() else book
    return timed([sys.executable, "-m", "sphinx", "-b", builder, "-q", "-c", str(book),
                  "-D", f"language={language}", "-d", str(doctrees), str(source), str(out)])


def run(book: Path, language: str, workdir: Path) -> list[str]:
    rows = []
    for builder in ("latex", "epub"):
        cold_doctrees, warm_doctrees = workdir / f"{builder}-cold", workdir / f"{builder}-warm"
        cold = sphinx(book, builder, language, cold_doctrees, workdir / f"{builder}-out-cold")
        shutil.copytree(cold_doctrees / CACHE, warm_doctrees / CACHE)
        warm = sphinx(book, builder, language, warm_doctrees, workdir / f"{builder}-out-warm")
        diagrams = len(list((cold_doctrees / CACHE).iterdir()))
        tex = ""
        if builder == "latex":
            outdir = workdir / "latex-out-warm"
            name = next(outdir.glob("*.tex")).name
            seconds = timed(["latexmk", "-pdf", "-dvi-", "-ps-", "-silent", name], cwd=outdir)
            tex = f"{seconds:.1f} s"
        rows.append(f"| {book.name} {language} | {builder} | {diagrams} | {cold:.1f} s | "
                    f"{warm:.1f} s | {tex or '—'} |")
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path)
    parser.add_argument("--language", default="zh_CN")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args(argv)
    print("| book | builder | diagrams | cold | warm cache | latexmk |")
    print("|---|---|---|---|---|---|")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="seriesbook-offline-"))
    run(args.book.resolve(), args.language, workdir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
