"""The two releases a re-pin moves between, read by commit (git) or from plain directories.

A :class:`Snapshot` reads files through the same readers as verification
(:func:`seriesbook.citations._sources.open_copy`: one ``git cat-file --batch`` per release, never
the work tree), splits each file into lines once and lists the release's files when a block has
to be searched for. A :class:`TreePair` adds what git knows about the change between the two
commits: renames (``git diff --find-renames``) and added files.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from seriesbook.citations import (
    GitCopy,
    Refusal,
    SourceCopy,
    SourceError,
    git_environment,
    is_git_repository,
    open_copy,
    split_lines,
)

Lines = tuple[bytes, ...]


class Snapshot:
    """One release of a source: files by path, split into lines once, and its file listing."""

    def __init__(self, copy: SourceCopy, root: Path, label: str) -> None:
        self.copy = copy
        self.root = root
        self.label = label
        self._lines: dict[str, Lines | None] = {}
        self._listing: list[str] | None = None

    @property
    def commit(self) -> str:
        return self.copy.commit

    def prefetch(self, paths: Iterable[str]) -> None:
        """Read every not yet read path in one request (one batch for git)."""
        missing = sorted({p for p in paths if p not in self._lines})
        if not missing:
            return
        for path, content in self.copy.read_all(missing).items():
            self._lines[path] = None if isinstance(content, Refusal) else split_lines(content)

    def lines(self, path: str) -> Lines | None:
        """The file's lines, None when the release has no such (readable) file."""
        if path not in self._lines:
            self.prefetch([path])
        return self._lines[path]

    def listing(self) -> list[str]:
        """Every file of the release (relative paths, sorted)."""
        if self._listing is None:
            self._listing = _list_files(self.copy, self.root)
        return self._listing

    def close(self) -> None:
        self.copy.close()


def _list_files(copy: SourceCopy, root: Path) -> list[str]:
    if isinstance(copy, GitCopy):
        listed = _git(root, "ls-tree", "-r", "-z", "--name-only", copy.commit)
        return sorted(p for p in listed.split("\0") if p)
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        relative = os.path.relpath(folder, root)
        for name in files:
            found.append(name if relative == "." else f"{relative}/{name}".replace(os.sep, "/"))
    return sorted(found)


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=False,
        env=git_environment(),
    )
    if done.returncode != 0:
        raise SourceError(f"git {args[0]} failed in {root}: {done.stderr.strip()}")
    return done.stdout


@dataclass
class TreePair:
    """The old and the new release, and what git says changed between them."""

    old: Snapshot
    new: Snapshot
    #: old path → new path of files git saw renamed (directories: none known)
    renames: dict[str, str] = field(default_factory=dict)
    #: files added in the new release (git); None when unknown (directories)
    added: frozenset[str] | None = None

    def close(self) -> None:
        self.old.close()
        self.new.close()


def open_pair(old_root: Path, old_ref: str, old_commit: str,
              new_root: Path, new_ref: str, new_commit: str) -> TreePair:
    """Both releases; for one git repository also its renames between the two commits."""
    old = Snapshot(open_copy(old_root, old_ref, old_commit), old_root, old_ref)
    try:
        new = Snapshot(open_copy(new_root, new_ref, new_commit), new_root, new_ref)
    except SourceError:
        old.close()
        raise
    pair = TreePair(old, new)
    if old.commit and new.commit and is_git_repository(old_root) and old_root == new_root:
        pair.renames, pair.added = _git_changes(old_root, old.commit, new.commit)
    return pair


def _git_changes(root: Path, old: str, new: str) -> tuple[dict[str, str], frozenset[str]]:
    """Renames and additions between two commits, by git's own rename detection."""
    fields = _git(root, "diff", "--find-renames", "--name-status", "-z", old, new)
    parts = fields.split("\0")
    renames: dict[str, str] = {}
    added: set[str] = set()
    i = 0
    while i < len(parts) and parts[i]:
        status = parts[i]
        if status[0] in "RC":
            if status[0] == "R":
                renames[parts[i + 1]] = parts[i + 2]
            added.add(parts[i + 2])
            i += 3
        else:
            if status[0] == "A":
                added.add(parts[i + 1])
            i += 2
    return renames, frozenset(added)
