"""How fast citations are verified from a git checkout and from the lock (not a timed test).

usage: python benchmarks/citations_verify.py GIT_REPO REF [--citations N] [--seed S]

Draws N citations (a third with a symbol taken from the cited lines) at random line ranges of
the repository's .py/.h files at REF, verifies them through one ``git cat-file --batch`` process,
writes the lock, then verifies them again from the lock alone. Prints citations per second.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

from seriesbook.citations import lockfile
from seriesbook.citations._data import VERIFIED, CitationRecord
from seriesbook.citations._parse import Citation
from seriesbook.citations._verify import Verification
from seriesbook.core.config import SeriesbookConfig


def draw(repo: Path, ref: str, count: int, rng: random.Random) -> list[CitationRecord]:
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", ref],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    paths = [p for p in listing if p.endswith((".py", ".h"))]
    records = []
    for _ in range(count):
        path = rng.choice(paths)
        text = subprocess.run(["git", "-C", str(repo), "show", f"{ref}:{path}"],
                              capture_output=True, check=True).stdout.decode(errors="replace")
        lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
        if not text.strip():
            continue
        start = rng.randrange(1, len(lines) + 1)
        end = min(len(lines), start + rng.randrange(0, 12))
        words = re.findall(r"[A-Za-z_]\w{3,}", "\n".join(lines[start - 1 : end]))
        symbol = rng.choice(words) if words and rng.random() < 1 / 3 else ""
        citation = Citation("", path, start, end, symbol)
        records.append(CitationRecord(citation, citation.normalized(), "demo", "role", 1))
    return records


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("ref")
    parser.add_argument("--citations", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # Drawing reads files one by one with `git show`; cache by drawing from a smaller pool.
    pool = draw(args.repo, args.ref, min(args.citations, 400), rng)
    records = [rng.choice(pool) for _ in range(args.citations)]
    with tempfile.TemporaryDirectory() as tmp:
        confdir = Path(tmp)
        source = {"repo": "https://example.org/x", "ref": args.ref}
        online = SeriesbookConfig(sources={"demo": source},
                                  source_paths={"demo": str(args.repo.resolve())})
        fresh = [CitationRecord(r.citation, r.text, r.source, r.kind, r.line) for r in records]
        began, cpu = time.perf_counter(), time.process_time()
        Verification(online, confdir).run([("doc", r) for r in fresh])
        took, cpu = time.perf_counter() - began, time.process_time() - cpu
        verified = sum(r.status == VERIFIED for r in fresh)
        files = len({r.citation.path for r in fresh if r.citation})
        print(f"git:  {len(fresh)} citations of {files} files ({verified} verified) in {took:.3f}s "
              f"= {len(fresh) / took:,.0f}/s; this process's CPU {cpu:.3f}s, the rest is git")

        lock = lockfile.Lock()
        for record in fresh:
            lockfile.add_to_lock(lock, record)
        (confdir / "citations.lock.json").write_text(lock.dumps())
        offline = SeriesbookConfig(sources={"demo": source})
        again = [CitationRecord(r.citation, r.text, r.source, r.kind, r.line) for r in records]
        began = time.perf_counter()
        Verification(offline, confdir).run([("doc", r) for r in again])
        took = time.perf_counter() - began
        verified = sum(r.status == VERIFIED for r in again)
        print(f"lock: {len(again)} citations ({verified} verified) in {took:.3f}s "
              f"= {len(again) / took:,.0f}/s")


if __name__ == "__main__":
    main()
