"""Read cited files from a local copy of a source: a git repository or a plain directory.

A git repository is read at the pinned ref, never its working tree, through ONE long-lived
``git cat-file --batch --follow-symlinks`` process: every request of a build is written to it in
one batch and its answers are read back in order. ``--follow-symlinks`` makes git itself refuse
links that leave the tree. A plain directory holds the release's files; a path is resolved with
its symlinks and refused when it lands outside the root.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from seriesbook.core.problems import Problem

#: Environment variables that would make git read another repository than the one named.
_GIT_LOCATION_VARIABLES = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
)


def git_environment() -> dict[str, str]:
    """This process's environment for git, less what would point it at another repository
    (inside a git hook ``GIT_DIR`` is set, for one)."""
    return {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARIABLES}


class SourceError(Exception):
    """A local copy that cannot be used at all (reported as ``cite-source``)."""


@dataclass(frozen=True)
class Refusal:
    """Why a cited file yields no text: missing at the pinned version, or outside the root."""

    problem: Problem
    reason: str


class SourceCopy(Protocol):
    """A local copy of one source, open for one build."""

    #: The commit actually read ('' when unknown, as for a plain directory).
    commit: str

    def read_all(self, paths: Sequence[str]) -> dict[str, bytes | Refusal]: ...

    def close(self) -> None: ...


def is_git_repository(root: Path) -> bool:
    return (root / ".git").exists() or ((root / "HEAD").is_file() and (root / "objects").is_dir())


def open_copy(root: Path, ref: str, commit: str) -> SourceCopy:
    """The local copy at *root*; for git, resolved at *ref* and checked against *commit*."""
    if not root.is_dir():
        raise SourceError(f"local copy not found: {root}")
    if is_git_repository(root):
        return GitCopy(root, ref, commit)
    return DirectoryCopy(root)


class DirectoryCopy:
    """A plain directory holding a release's files; nothing outside it is ever read."""

    commit = ""

    def __init__(self, root: Path) -> None:
        self.root = os.path.realpath(root)

    def read_all(self, paths: Sequence[str]) -> dict[str, bytes | Refusal]:
        return {path: self._read(path) for path in paths}

    def _read(self, path: str) -> bytes | Refusal:
        target = os.path.realpath(os.path.join(self.root, path))
        if os.path.commonpath([self.root, target]) != self.root:
            return Refusal(Problem.CITE_PATH, f"{path} resolves outside the source root")
        if not os.path.isfile(target):
            return Refusal(Problem.CITE_MISSING_FILE, f"no file {path}")
        try:
            with open(target, "rb") as file:
                return file.read()
        except OSError as error:
            return Refusal(Problem.CITE_MISSING_FILE, f"{path} cannot be read: {error.strerror}")

    def close(self) -> None:
        pass


class GitCopy:
    """A git repository read through one ``git cat-file --batch`` process."""

    def __init__(self, root: Path, ref: str, commit: str) -> None:
        env = git_environment()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self._process = subprocess.Popen(
                ["git", "-C", str(root), "cat-file", "--batch", "--follow-symlinks"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=env,
            )
        except OSError as error:
            self._stderr.close()
            raise SourceError(f"cannot run git for {root}: {error}") from None
        self.root = root
        try:
            self.commit = self._resolve(ref or commit)
        except SourceError:
            self.close()
            raise
        if commit and not self.commit.startswith(commit.lower()):
            self.close()
            raise SourceError(
                f"{ref} is commit {self.commit[:12]} in {root}, but conf.py pins commit {commit}"
            )

    def _resolve(self, rev: str) -> str:
        [(oid, kind, _)] = self._batch([f"{rev}^{{commit}}"])
        if kind != "commit":
            raise SourceError(f"ref {rev!r} does not resolve to a commit in {self.root}")
        return oid

    def read_all(self, paths: Sequence[str]) -> dict[str, bytes | Refusal]:
        answers = self._batch([f"{self.commit}:{path}" for path in paths])
        return {
            path: _file(path, kind, body)
            for path, (_, kind, body) in zip(paths, answers, strict=True)
        }

    def _batch(self, requests: Sequence[str]) -> list[tuple[str, str, bytes]]:
        """Send every request at once (from a thread, so neither pipe can fill) and read answers."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        writer = threading.Thread(target=_write_lines, args=(stdin, requests), daemon=True)
        writer.start()
        try:
            return [_read_answer(stdout) for _ in requests]
        except SourceError as error:
            raise SourceError(f"{error}{self._git_says()}") from None
        finally:
            writer.join()

    def _git_says(self) -> str:
        self._process.kill()
        self._process.wait()
        self._stderr.seek(0)
        said = self._stderr.read().decode(errors="replace").strip()
        return f": {said}" if said else ""

    def close(self) -> None:
        if self._process.stdin is not None and not self._process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                self._process.stdin.close()
        self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._stderr.close()


def _write_lines(stream: IO[bytes], lines: Iterable[str]) -> None:
    try:
        stream.write(b"".join(line.encode() + b"\n" for line in lines))
        stream.flush()
    except (BrokenPipeError, ValueError):
        pass  # git has exited; the reader reports it with git's own message


def _read_answer(stdout: IO[bytes]) -> tuple[str, str, bytes]:
    """One answer of ``cat-file --batch``: object id, kind (blob, missing, symlink …), body."""
    header = stdout.readline()
    if not header.endswith(b"\n"):
        raise SourceError("git cat-file stopped answering")
    fields = header.decode(errors="replace").split()
    if len(fields) == 3 and fields[2].isdigit():  # <oid> <type> <size>
        oid, kind, size = fields[0], fields[1], int(fields[2])
    elif len(fields) == 2 and fields[0] in _SYMLINK_TROUBLE and fields[1].isdigit():
        oid, kind, size = "", fields[0], int(fields[1])
    else:  # <object> missing | ambiguous
        return "", fields[-1] if fields else "missing", b""
    return oid, kind, stdout.read(size + 1)[:-1]


_SYMLINK_TROUBLE = ("symlink", "dangling", "loop", "notdir")


def _file(path: str, kind: str, body: bytes) -> bytes | Refusal:
    if kind == "blob":
        return body
    if kind == "symlink":
        target = body.decode(errors="replace")
        return Refusal(Problem.CITE_PATH, f"{path} is a symlink to {target}, outside the source")
    if kind in _SYMLINK_TROUBLE:
        return Refusal(Problem.CITE_MISSING_FILE, f"{path}: {kind} symlink at the pinned commit")
    return Refusal(Problem.CITE_MISSING_FILE, f"no file {path} at the pinned commit")
