"""Which OpenCC for the zh_TW edition: the pure-Python opencc-py or the official C++ binding.

Both install the module ``opencc``, so each runs in its own virtual environment::

    python3 -m venv /tmp/v-py && /tmp/v-py/bin/pip install opencc-py==1.4.2
    python3 -m venv /tmp/v-c && /tmp/v-c/bin/pip install opencc==1.4.2
    .venv/bin/python benchmarks/opencc_choice.py /tmp/v-py/bin/python /tmp/v-c/bin/python

Each converts every line of the book's sources (``source/*.md``) with ``s2twp``, 3 times; printed:
whether the outputs are byte-identical, and each one's median time and the ratio.
"""

from __future__ import annotations

import ast
import statistics
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "source"

RUN = r"""
import pathlib, sys, time
from opencc import OpenCC
lines = pathlib.Path(sys.argv[1]).read_text("utf-8").splitlines()
times = []
for _ in range(3):
    start = time.perf_counter()
    cc = OpenCC("s2twp")
    out = [cc.convert(line) for line in lines]
    times.append(time.perf_counter() - start)
sys.stdout.write(repr(times) + "\n" + "\n".join(out))
"""


def main(pure: str, binding: str) -> None:
    text = SOURCE.parent / "_build" / "opencc-choice.txt"
    text.parent.mkdir(exist_ok=True)
    text.write_text(
        "".join(p.read_text("utf-8") for p in sorted(SOURCE.glob("*.md"))), "utf-8"
    )
    results = {}
    for name, python in (("opencc-py", pure), ("opencc", binding)):
        out = subprocess.run(
            [python, "-c", RUN, str(text)], capture_output=True, text=True, check=True
        ).stdout
        times, _, converted = out.partition("\n")
        results[name] = (statistics.median(ast.literal_eval(times)), converted)
    (pure_time, pure_out), (c_time, c_out) = results["opencc-py"], results["opencc"]
    print(f"characters converted: {len(text.read_text('utf-8')):,}")
    print(f"outputs byte-identical: {pure_out == c_out}")
    print(f"opencc-py {pure_time:.2f} s, opencc {c_time:.2f} s, ratio {pure_time / c_time:.1f}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
