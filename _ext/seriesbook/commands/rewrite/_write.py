"""Write several files as one step: every one of them or none, never a wrong byte.

The rules the rewrite commands promise (issue 24):

* a symbolic link is followed: the file it names is rewritten and the link stays a link;
* every new text is first written to a temporary file beside its target, so a directory that
  cannot be written (permissions, a read-only file system) stops the step before any file of
  the book changed;
* just before a target is replaced it is read again and must hold exactly the text the plan was
  made from (or, for a file written whole, what it held when the step began);
* a failure while moving the files into place puts back every file already moved (its old bytes
  and mode), so the book is as it was;
* an :class:`OSError` anywhere becomes a :class:`~seriesbook.commands.rewrite.PlanError`: one
  line naming the file, exit status 2, never a traceback.

:func:`write_all` takes ``{path: new text}`` and the texts the plan expects on disk; its
:class:`Transaction` can take more files after the first ones are in place
(:meth:`Transaction.write`, e.g. a lock computed from the rewritten book) and be rolled back as a
whole (:meth:`Transaction.rollback`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from seriesbook.commands.rewrite._files import PlanError, read_text


def target(path: Path) -> Path:
    """The file *path* names, symbolic links followed (the file to replace)."""
    return Path(os.path.realpath(path))


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


@dataclass
class _Staged:
    path: Path  #: as the plan names it
    target: Path  #: the file replaced
    temporary: Path
    expected: str | None  #: what the target must hold just before it is replaced (None: absent)
    old: bytes | None = None  #: its bytes before the step (None: it did not exist)
    mode: int | None = None


@dataclass
class Transaction:
    """Files moved into place so far, with what they held, so the step can be undone."""

    done: list[_Staged] = field(default_factory=list)

    def write(self, texts: Mapping[Path, str], expected: Mapping[Path, str | None]) -> list[Path]:
        """Stage every text beside its target, check each target, then move them all in place;
        any failure undoes this call's and every earlier call's files and raises PlanError."""
        staged = _stage(texts, expected)
        current = None
        try:
            for current in staged:
                _check_unchanged(current)
                os.replace(current.temporary, current.target)
                self.done.append(current)
        except (OSError, PlanError) as error:
            _discard(staged)
            message = str(error) if isinstance(error, PlanError) or current is None else (
                f"{current.path}: cannot be replaced ({_reason(error)})")
            raise PlanError(message + self.rollback()) from None
        except BaseException:  # interrupted: the book as it was, then stop
            _discard(staged)
            self.rollback()
            raise
        return [item.path for item in staged]

    def rollback(self) -> str:
        """Put every moved file back as it was; "" when all went back, else what did not."""
        failed: list[str] = []
        for item in reversed(self.done):
            try:
                if item.old is None:
                    item.target.unlink(missing_ok=True)
                else:
                    _replace_bytes(item.target, item.old, item.mode)
            except OSError as error:
                failed.append(f"{item.target} ({_reason(error)})")
        self.done.clear()
        return "; could not put back " + ", ".join(failed) if failed else ""

    def run(self, step: Callable[[], None]) -> None:
        """Run *step* (which may write more through this transaction); undo all if it fails."""
        try:
            step()
        except OSError as error:  # one line, never a traceback
            undone = self.rollback()
            where = f"{error.filename}: " if error.filename else ""
            raise PlanError(f"{where}{_reason(error)}{undone}") from None
        except BaseException:
            self.rollback()
            raise


def write_all(texts: Mapping[Path, str], expected: Mapping[Path, str | None]) -> Transaction:
    """Write every ``{path: text}`` in one all-or-nothing step (see the module's rules).

    *expected* gives, per path, the text the plan read (checked again just before the move);
    a path missing from it is checked against what it held when staged.
    """
    transaction = Transaction()
    transaction.write(texts, expected)
    return transaction


def _stage(texts: Mapping[Path, str], expected: Mapping[Path, str | None]) -> list[_Staged]:
    by_target: dict[Path, _Staged] = {}
    staged: list[_Staged] = []
    try:
        for path, text in texts.items():
            real = target(path)
            if real in by_target:
                raise PlanError(f"{path} and {by_target[real].path} are the same file "
                                f"({real}): edit the book through one of them")
            if real.is_dir():
                raise PlanError(f"{path}: is a directory, not a file")
            if real.exists() and not os.access(real, os.W_OK):
                raise PlanError(f"{path}: is read-only (make it writable to let it change)")
            old, mode = _snapshot(real)
            handle, name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp",
                                            dir=real.parent)
            item = _Staged(path, real, Path(name),
                           expected[path] if path in expected else _decoded(old, real),
                           old, mode)
            staged.append(item)
            by_target[real] = item
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            if mode is not None:
                os.chmod(name, mode)
    except OSError as error:
        _discard(staged)
        real = target(path)
        temporary = Path(str(error.filename or "")).name.startswith(f".{real.name}.")
        where = f"its directory {real.parent}: " if temporary else ""
        raise PlanError(f"{path}: cannot be written ({where}{_reason(error)})") from None
    except BaseException:
        _discard(staged)
        raise
    return staged


def _snapshot(real: Path) -> tuple[bytes | None, int | None]:
    try:
        return real.read_bytes(), real.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None, None


def _decoded(old: bytes | None, real: Path) -> str | None:
    if old is None:
        return None
    try:
        return old.decode("utf-8")
    except UnicodeDecodeError:
        raise PlanError(f"{real}: is not UTF-8 text") from None


def _check_unchanged(item: _Staged) -> None:
    """The target holds what the plan expects, read again just before it is replaced."""
    if item.expected is None:
        if item.target.exists():
            raise PlanError(f"{item.target}: appeared while writing")
        return
    if read_text(item.target) != item.expected:
        raise PlanError(f"{item.path}: changed since it was read")


def _replace_bytes(real: Path, data: bytes, mode: int | None) -> None:
    handle, name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if mode is not None:
            os.chmod(name, mode)
        os.replace(name, real)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


def _discard(staged: list[_Staged]) -> None:
    for item in staged:
        item.temporary.unlink(missing_ok=True)
