"""Lay out a PyTorch or vLLM wheel's sources in repository paths, as a local copy for citations.

usage: python benchmarks/wheel_layout.py WHEEL DEST

A wheel is not the repository: PyTorch's headers sit under ``torch/include/`` and its code
generator's templates under ``torchgen/packaged/``. This puts them back where the repository
has them (``torch/include/c10/…`` → ``c10/…``, ``torch/include/ATen/…`` → ``aten/src/ATen/…``,
``torch/include/torch/csrc/…`` → ``torch/csrc/…``, ``torchgen/packaged/ATen/…`` →
``aten/src/ATen/…``, ``torchgen/packaged/autograd/…`` → ``tools/autograd/…``); Python files stay.
Files PyTorch generates at build time are laid out too (the wheel has them): the book declares
them as ``generated`` so a citation into one is reported. Never commit what this writes.
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

#: Wheel prefix → repository prefix, longest first; a member under none of them keeps its path.
MOVES = (
    ("torch/include/torch/csrc/", "torch/csrc/"),
    ("torch/include/ATen/", "aten/src/ATen/"),
    ("torch/include/c10/", "c10/"),
    ("torch/include/caffe2/", "caffe2/"),
    ("torchgen/packaged/ATen/", "aten/src/ATen/"),
    ("torchgen/packaged/autograd/", "tools/autograd/"),
)
#: Wheel directories that are not the project's sources (third-party headers, binaries' metadata).
SKIPPED = ("torch/include/", "torch/lib/", "torch/bin/", "torch/share/")
SUFFIXES = (
    ".py", ".pyi", ".h", ".hpp", ".cuh", ".cpp", ".cc", ".cu", ".c", ".yaml", ".in", ".ini",
    ".txt", ".md", ".json", ".toml",
)


def repository_path(member: str) -> str | None:
    """Where the wheel's *member* lives in the repository (None: not a source file)."""
    if member.endswith("/") or not member.endswith(SUFFIXES) or ".dist-info/" in member:
        return None
    for wheel_prefix, repo_prefix in MOVES:
        if member.startswith(wheel_prefix):
            return repo_prefix + member.removeprefix(wheel_prefix)
    if member.startswith(SKIPPED):
        return None
    return member


def lay_out(wheel: Path, dest: Path) -> int:
    """Extract the wheel's sources into *dest* in repository paths; the number of files."""
    count = 0
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            target = repository_path(info.filename)
            if target is None:
                continue
            path = dest / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(archive.read(info))
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wheel", type=Path)
    parser.add_argument("dest", type=Path)
    args = parser.parse_args()
    print(f"{lay_out(args.wheel, args.dest)} files in {args.dest}")


if __name__ == "__main__":
    main()
