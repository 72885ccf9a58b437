"""Prove that speed work changed no output: the corpus's HTML, before and after, byte for byte.

usage: python benchmarks/identical.py BEFORE [--scale S] [--workdir DIR] [--after-ext DIR]

Takes seriesbook's ``_ext`` at the git revision BEFORE (``git archive``: no worktree is added
to the repository), writes the
synthetic book once, and builds it clean with BEFORE's ``_ext`` and with this checkout's (or
``--after-ext``'s, e.g. a snapshot while the work tree changes): both
editions (the book's language and ``-D language=en``), ``-j 1`` and ``-j 2``. This checkout
builds each twice (``-E``, the doctree directory kept), so what it keeps between builds (the
search segmentation, translated messages' parses, compiled templates) is compared warm too.
Prints, per edition and ``-j``, how many written files differ and whether the warnings are the
same; exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_corpus import write_book  # noqa: E402
from run import PYTHON, REPO, build_env, differing_files  # noqa: E402

EDITIONS = {"zh": (), "en": ("-D", "language=en")}


def build(book: Path, ext: Path, out: Path, options: tuple[str, ...]) -> str:
    env = {**build_env(), "PYTHONPATH": str(ext)}
    done = subprocess.run(
        [PYTHON, "-m", "sphinx", "-q", "-E", "-b", "html", *options, ".", str(out / "html"),
         "-d", str(out / "doctrees")],
        cwd=book, env=env, capture_output=True, text=True, check=False,
    )
    if done.returncode:
        raise SystemExit(f"build failed ({ext}):\n{done.stderr}")
    # the warnings, not jieba's own chatter ("Loading model cost 0.6 seconds")
    lines = done.stderr.replace(str(out), "<out>").splitlines()
    return "\n".join(line for line in lines if "WARNING" in line or "ERROR" in line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="git revision whose output is the reference")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--after-ext", type=Path, default=REPO / "_ext")
    args = parser.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="seriesbook-identical-"))
    old = work / "before"
    shutil.rmtree(old, ignore_errors=True)
    old.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", args.before, "_ext"], cwd=REPO, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
    book = work / "book"
    shutil.rmtree(book, ignore_errors=True)
    write_book(book, args.scale)
    same = True
    for edition, options in EDITIONS.items():
        for jobs in ("1", "2"):
            opts = (*options, "-j", jobs)
            outs = {name: book / "_build" / f"{name}-{edition}-j{jobs}" for name in ("a", "b")}
            warned_a = build(book, old / "_ext", outs["a"], opts)
            for state in ("cold", "warm"):
                warned_b = build(book, args.after_ext, outs["b"], opts)
                differ = differing_files(outs["a"] / "html", outs["b"] / "html")
                warned = warned_a == warned_b
                print(f"{edition} -j {jobs} ({state}): {len(differ)} files differ "
                      f"{differ[:5]}, warnings {'the same' if warned else 'DIFFER'}", flush=True)
                same = same and not differ and warned
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
