"""The supervisor: the process the author started, which never builds anything itself.

It starts one worker process per edition (:mod:`._worker`), reads what each pass did from the
worker's events pipe, and hands it on (to the web server's hub, to the terminal). It watches
``conf.py`` and seriesbook's own code: a change there stops every worker and starts fresh ones,
which import everything anew, so no module, option or extension of the last run survives (an
in-process reload cannot promise that). A worker that exits asking for it (:data:`._worker.RESTART`:
the citation lock changed, a pass stopped) is started afresh at once; one that failed to start
(conf.py does not load) is started again when conf.py or the code changes.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import watchfiles

import seriesbook
from seriesbook.commands.serve._worker import RESTART, STEP_MS, SourceFilter

Events = Callable[[str, dict[str, Any]], None]
#: seriesbook's own code: a change restarts the workers
CODE = Path(seriesbook.__file__).resolve().parent
STOP_SECONDS = 10.0


@dataclass
class Worker:
    """One worker process and the thread reading its events."""

    language: str | None
    process: subprocess.Popen[str]
    reader: threading.Thread

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(STOP_SECONDS)

    def tell(self, message: dict[str, Any]) -> None:
        """One line on the worker's stdin (the pages browsers show)."""
        if self.process.stdin is None or self.process.poll() is not None:
            return
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):  # it is exiting; its successor is told again
            pass


@dataclass
class Supervisor:
    """Keep one worker per edition running; fresh ones whenever conf.py or the code changes."""

    srcdir: Path
    confdir: Path
    languages: list[str | None]
    builder: str
    on_event: Events
    workers: dict[str | None, Worker] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)

    def start(self, language: str | None) -> None:
        read, write = os.pipe()
        command = [
            sys.executable, "-m", "seriesbook.commands.serve",
            "--srcdir", str(self.srcdir), "--confdir", str(self.confdir),
            "--builder", self.builder, "--events-fd", str(write),
        ]
        if language:
            command += ["--language", language]
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, pass_fds=(write,), text=True, cwd=self.confdir
        )
        os.close(write)
        reader = threading.Thread(target=self._read, args=(language, read, process), daemon=True)
        with self.lock:
            self.workers[language] = Worker(language, process, reader)
        reader.start()

    def _read(self, language: str | None, fd: int, process: subprocess.Popen[str]) -> None:
        with os.fdopen(fd, encoding="utf-8") as events:
            for line in events:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                self.on_event(language or "", event)
        status = process.wait()
        if self.stopping.is_set():
            return
        if status == RESTART:
            self.on_event(language or "", {"kind": "restarting"})
            self.start(language)
        elif status != 0:
            self.on_event(language or "", {"kind": "exited", "status": status})

    def tell(self, language: str, message: dict[str, Any]) -> None:
        with self.lock:
            workers = [w for w in self.workers.values() if w.language == (language or None)]
        for worker in workers:
            worker.tell(message)

    def restart(self) -> None:
        """Stop every worker, then start fresh ones (the same editions)."""
        self.stop()
        self.stopping.clear()
        for language in self.languages:
            self.start(language)

    def stop(self) -> None:
        """Stop every worker (none is started again until :meth:`restart`)."""
        self.stopping.set()
        with self.lock:
            workers = list(self.workers.values())
        for worker in workers:
            worker.stop()

    def run(self, stop_event: threading.Event | None = None) -> None:
        """Start the workers, then restart them on every change to conf.py or the code."""
        stop_event = stop_event or threading.Event()
        changed: queue.Queue[list[str]] = queue.Queue()
        watchers = [  # conf.py's directory alone: it can hold a whole virtual environment
            threading.Thread(target=_watch, args=(path, deep, changed, stop_event), daemon=True)
            for path, deep in ((self.confdir, False), (CODE, True))
        ]
        for watcher in watchers:
            watcher.start()
        for language in self.languages:
            self.start(language)
        try:
            while not stop_event.is_set():
                try:
                    paths = changed.get(timeout=0.5)
                except queue.Empty:
                    continue
                self.on_event("", {"kind": "restarting", "changed": paths})
                self.restart()
        finally:
            stop_event.set()
            self.stop()


def _watch(
    path: Path, recursive: bool, changed: queue.Queue[list[str]], stop_event: threading.Event
) -> None:
    for changes in watchfiles.watch(
        path, watch_filter=_Restarting(path), step=STEP_MS, recursive=recursive,
        stop_event=stop_event,
    ):
        changed.put(sorted(p for _, p in changes))


class _Restarting(SourceFilter):
    """conf.py, and seriesbook's own code and assets (not its bytecode)."""

    def __init__(self, watched: Path) -> None:
        super().__init__()
        self.conf = str(watched / "conf.py")
        self.code = str(CODE)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        if path == self.conf:
            return True
        return path.startswith(self.code + os.sep) and super().__call__(change, path)
