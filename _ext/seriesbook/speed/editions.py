"""Every edition built side by side: ``make html`` (and ``epub``, ``latexpdf``) on all cores.

usage: python -m seriesbook.speed.editions --builder B --builddir DIR [--doctrees-prefix P]
           [--jobs N] [--then SHELL] --languages "zh_CN en" -- SPHINX-BUILD [OPTIONS] SOURCEDIR

Each edition is one ``sphinx-build`` process, exactly as the Makefile ran them one after the
other: ``SPHINX-BUILD -b B -D language=L -d DIR/doctrees/PL [OPTIONS] SOURCEDIR DIR/B/L``. The
editions share nothing (each has its doctree and output directory), so building them at once
writes the same files as building them in turn. Up to ``--jobs`` editions run at once (default:
as many as the machine has cores, ``SERIESBOOK_EDITION_JOBS`` overrides; ``1`` is the old
sequential build).

What stays as it was:

* **Logs, one edition at a time.** Each edition's output and warnings are buffered and printed
  whole (standard output to standard output, standard error to standard error), in the editions'
  order, under its ``== L -> DIR/B/L/`` line, as soon as it and the editions before it are
  done; editions built one at a time (``--jobs 1``) print as they go.
* **Status per edition.** A failed edition (``-W --keep-going``: every warning reported, then
  status 1) does not stop the others; the exit status is 1 if any failed, and a last line names
  the failed editions.
* **A failed edition forgets its environment** (its doctree directory is removed): an
  incremental rebuild would not repeat the warnings of unchanged pages, and would pass.
* ``--then`` runs after an edition's successful build (``$language`` set; e.g. the PDF's
  ``make all-pdf``); its failure counts as the edition's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

JOBS_VARIABLE = "SERIESBOOK_EDITION_JOBS"


@dataclass
class Edition:
    """One edition's build: its command, where its state lives, how it went."""

    language: str
    command: list[str]
    doctrees: Path
    header: str
    status: int | None = None
    #: Set once its log is printed (the next edition's log waits for it).
    printed: threading.Event = field(default_factory=threading.Event)


def edition_command(
    sphinx: list[str], builder: str, language: str, doctrees: Path, outdir: Path
) -> list[str]:
    """*sphinx* (the executable, its options, the source directory last) for one edition."""
    executable, *options, source = sphinx
    return [executable, "-b", builder, "-D", f"language={language}", "-d", str(doctrees),
            *options, source, str(outdir)]


def default_jobs(editions: int) -> int:
    """Editions at once: ``SERIESBOOK_EDITION_JOBS``, else the cores this process may use."""
    chosen = os.environ.get(JOBS_VARIABLE, "").strip()
    if chosen:
        if not chosen.isdigit():
            raise ValueError(f"{JOBS_VARIABLE} must be a number of editions, not {chosen!r}")
        return max(1, int(chosen))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(editions, cores))


def _run(edition: Edition, then: str | None, out: IO[bytes] | None = None,
         err: IO[bytes] | None = None) -> None:
    """Build *edition* (its output to *out* and *err*, else to ours); forget a failure."""
    try:
        status = subprocess.run(edition.command, stdout=out, stderr=err, check=False).returncode
        if status == 0 and then:
            env = {**os.environ, "language": edition.language}
            status = subprocess.run(["/bin/sh", "-c", then], stdout=out, stderr=err, env=env,
                                    check=False).returncode
    except OSError as error:
        message = f"cannot run {edition.command[0]}: {error}\n".encode()
        if err is None:
            sys.stderr.buffer.write(message)
        else:
            err.write(message)
        status = 1
    if status != 0:
        status = 1
        shutil.rmtree(edition.doctrees, ignore_errors=True)
    edition.status = status


def build_all(editions: list[Edition], jobs: int, then: str | None) -> int:
    """Build *editions*, *jobs* at a time; print each one's log whole, in order (its standard
    output to ours, its standard error to ours)."""
    out, err = sys.stdout.buffer, sys.stderr.buffer
    if jobs <= 1:
        for edition in editions:
            out.write(edition.header.encode())
            out.flush()
            _run(edition, then)
        return _summary(editions)
    slots = threading.Semaphore(jobs)

    def worker(edition: Edition, previous: Edition | None) -> None:
        try:
            with tempfile.TemporaryFile() as log, tempfile.TemporaryFile() as errors:
                with slots:
                    _run(edition, then, log, errors)
                if previous is not None:
                    previous.printed.wait()
                out.write(edition.header.encode())
                for buffer, stream in ((log, out), (errors, err)):
                    out.flush()
                    buffer.seek(0)
                    shutil.copyfileobj(buffer, stream)
                    stream.flush()
        finally:  # the next edition's log is printed even if this one's could not be
            edition.printed.set()

    threads = [threading.Thread(target=worker, args=(edition, previous))
               for edition, previous in zip(editions, [None, *editions[:-1]], strict=True)]
    for thread in threads:  # started in order: the semaphore admits the first editions first
        thread.start()
    for thread in threads:
        thread.join()
    return _summary(editions)


def _summary(editions: list[Edition]) -> int:
    failed = [edition.language for edition in editions if edition.status]
    if failed:
        print(f"== failed: {' '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builder", required=True)
    parser.add_argument("--builddir", type=Path, required=True)
    parser.add_argument("--doctrees-prefix", default="")
    parser.add_argument("--languages", required=True, help="the editions, space-separated")
    parser.add_argument("--jobs", type=int,
                        help=f"editions at once (default: the cores, or {JOBS_VARIABLE})")
    parser.add_argument("--then", help="shell command after a successful build ($language set)")
    parser.add_argument("sphinx", nargs=argparse.REMAINDER,
                        help="-- SPHINX-BUILD [OPTIONS] SOURCEDIR")
    args = parser.parse_args(argv)
    sphinx = args.sphinx[1:] if args.sphinx[:1] == ["--"] else args.sphinx
    if len(sphinx) < 2:
        parser.error("give the sphinx-build command and the source directory after --")
    languages = args.languages.split()
    editions = []
    for language in languages:
        doctrees = args.builddir / "doctrees" / f"{args.doctrees_prefix}{language}"
        outdir = args.builddir / args.builder / language
        command = edition_command(sphinx, args.builder, language, doctrees, outdir)
        editions.append(Edition(language, command, doctrees, f"== {language} -> {outdir}/\n"))
    try:
        jobs = args.jobs if args.jobs is not None else default_jobs(len(editions))
    except ValueError as error:
        parser.error(str(error))
    return build_all(editions, jobs, args.then)


if __name__ == "__main__":
    sys.exit(main())
