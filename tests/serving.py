"""``seriesbook serve`` and ``check --watch`` as the author runs them, for the tests and the
benchmark: a process of its own (its own session), its terminal read line by line, stopped with
Ctrl-C, and no process of it left behind."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

STOP_SECONDS = 20.0


class Running:
    """One ``python -m seriesbook ARGS`` in *cwd*, its output (stdout and stderr) kept."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "seriesbook", *args], cwd=cwd, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.lines: list[str] = []
        self.unread: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            self.unread.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """The next line matching *pattern* (lines before it are passed over)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.unread.get(timeout=left)
            except queue.Empty:
                break
            if found := re.search(pattern, line):
                return found
        output = "\n".join(self.lines)
        raise AssertionError(f"no line matching {pattern!r} in {timeout} s; output:\n{output}")

    def stop(self) -> None:
        """Ctrl-C, as the author stops it; then check that none of its processes is left."""
        group = self.process.pid
        # SIGTERM where SIGINT is ignored (a benchmark started in the background)
        for stop in (signal.SIGINT, signal.SIGTERM):
            if self.process.poll() is None:
                self.process.send_signal(stop)
                try:
                    self.process.wait(STOP_SECONDS / 2)
                except subprocess.TimeoutExpired:
                    continue
        if self.process.poll() is None:
            os.killpg(group, signal.SIGKILL)
            self.process.wait()
            raise AssertionError("neither Ctrl-C nor SIGTERM stopped it")
        self.reader.join(STOP_SECONDS)
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        os.killpg(group, signal.SIGKILL)
        raise AssertionError("a worker outlived the command")

    def __enter__(self) -> Running:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def serve(book: Path, *options: str) -> tuple[Running, str]:
    """``seriesbook serve BOOK --port 0 OPTIONS``, its first pass done; and the URL it serves."""
    running = Running(["serve", str(book), "--port", "0", *options], book)
    try:
        url = running.wait_for(r"serving (http://\S+)").group(1)
        running.wait_for(r"^serve: \S+: \d+ problems?, \d+ pages? written")
    except BaseException:
        running.stop()
        raise
    return running, url


def edit(path: Path, old: str, new: str) -> None:
    """The author's save: the text replaced, written in place."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
