"""The author's loop in a warm process: ``seriesbook serve`` and ``seriesbook check --watch``.

One Sphinx application per edition stays alive in a worker process (:mod:`._worker`) with its
environment; a save is an incremental build of what changed (:mod:`._warm`), the pages browsers
show written first (:mod:`._builder`). ``serve`` serves the pages of ``_build/serve/<language>/``
with a small live script added as they are sent (:mod:`._http`, ``serve.js``): the page reloads
at the § it showed, and the problems ``seriesbook check`` reports for the edition appear over it,
dismissible, with file:line. ``check --watch`` runs the same workers with ``check``'s
non-writing builder and prints the problems and one summary line after each pass. The process
the author started is a supervisor (:mod:`._supervisor`) that starts fresh workers whenever
conf.py or seriesbook's own code changes. Nothing is written to a normal build's directories.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seriesbook.commands.reading import Reported, merge_editions
from seriesbook.commands.serve._http import Hub, make_server
from seriesbook.commands.serve._supervisor import Supervisor
from seriesbook.commands.serve._worker import HTML

__all__ = ["check_watch", "serve"]


def _say(text: str) -> None:
    print(text, flush=True)


@dataclass
class Terminal:
    """What the author's terminal shows: after each pass, every problem of the editions watched
    (as ``check`` prints them) and one summary line."""

    name: str
    problems: dict[str, list[Reported]] = field(default_factory=dict)
    first: str | None = None

    def passed(
        self, language: str, event: dict[str, Any], written: int | None, shown: str = ""
    ) -> None:
        self.problems[language] = [Reported(**found) for found in event["problems"]]
        if self.first is None:
            self.first = language
        first = self.problems.get(self.first, [])
        others = {k: v for k, v in self.problems.items() if k != self.first}
        problems = merge_editions(first, others)
        if event.get("stopped"):
            _say(f"seriesbook: {event['stopped']}")
        for reported in problems:
            _say(reported.as_text())
        count = f"{len(problems)} problem{'' if len(problems) == 1 else 's'}"
        pages = "" if written is None else f", {written} page{'' if written == 1 else 's'} written"
        _say(f"{self.name}: {language}: {count}{pages} in {event['seconds']:.2f} s{shown}")

    def event(self, language: str, event: dict[str, Any]) -> bool:
        """Say the events every command shows; True when the event was handled."""
        kind = event["kind"]
        if kind == "stopped":
            _say(f"seriesbook: {event['message']}")
        elif kind == "restarting":
            changed = ", ".join(event.get("changed", [])) or "the citation lock or a stop"
            _say(f"{self.name}: restarting (changed: {changed})")
        elif kind == "exited":
            _say(f"{self.name}: {language or 'the'} worker exited ({event['status']}); "
                 "waiting for a change to conf.py or seriesbook")
        else:
            return False
        return True


def _relative(problems: list[dict[str, Any]], confdir: Path) -> list[dict[str, Any]]:
    """Problems with their files relative to the book (conf.py's directory), for the page."""
    shown = []
    for problem in problems:
        file = problem.get("file")
        if file and Path(file).is_relative_to(confdir):
            problem = {**problem, "file": str(Path(file).relative_to(confdir))}
        shown.append(problem)
    return shown


@dataclass
class _Editions:
    """The worker started without a language serves conf.py's: which one, once it says."""

    aliases: dict[str, str | None] = field(default_factory=dict)
    languages: list[str] = field(default_factory=list)

    def named(self, key: str, event: dict[str, Any]) -> str:
        """The edition a worker's event is about (``""``: the worker of conf.py's language)."""
        if event["kind"] == "editions":
            self.aliases.setdefault(event["language"], key or None)
            if event["language"] not in self.languages:
                self.languages.insert(0 if not key else len(self.languages), event["language"])
        if key:
            return key
        return next((name for name, alias in self.aliases.items() if alias is None), key)


def serve(
    srcdir: Path, confdir: Path, languages: list[str], *, host: str, port: int,
    stop_event: threading.Event | None = None,
) -> int:
    """``seriesbook serve``: serve the editions, rebuilt on every save, until interrupted."""
    editions = _Editions()
    editions.languages.extend(languages)
    terminal = Terminal("serve")
    supervisor: Supervisor

    def on_shown(language: str, docnames: list[str]) -> None:
        key = language if language in languages else editions.aliases.get(language, language)
        supervisor.tell(key or "", {"shown": docnames})

    hub = Hub(on_shown)
    server = make_server(confdir / "_build" / "serve", (host, port), hub, editions.languages)
    url_host, url_port = str(server.server_address[0]), server.server_address[1]
    told: set[str] = set()
    shown: dict[str, str] = {}

    def on_event(key: str, event: dict[str, Any]) -> None:
        language = editions.named(key, event)
        kind = event["kind"]
        if kind == "editions":  # a fresh worker: the pages browsers show are written first
            on_shown(language, hub.shown(language))
        if kind == "editions" and language not in told:
            told.add(language)
            _say(f"serving http://{url_host}:{url_port}/{language}/ (the {language} edition; "
                 "Ctrl-C stops)")
        elif kind == "written":
            hub.reload(language, event["pages"])
            first = ", ".join(event["pages"])
            shown[language] = f" (shown first: {first} in {event['seconds']:.2f} s)"
        elif kind == "pass":
            hub.reload(language, event["written"])
            hub.report(language, _relative(event["problems"], confdir))
            terminal.passed(language, event, event["pages"], shown.pop(language, ""))
        terminal.event(language, event)
        if kind == "stopped":
            hub.report(language, [{"file": None, "line": None, "code": "stopped",
                                   "message": event["message"]}])

    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    supervisor = Supervisor(srcdir, confdir, list(languages) or [None], HTML, on_event)
    return _until_interrupted(supervisor, stop_event, server.shutdown)


def check_watch(
    srcdir: Path, confdir: Path, languages: list[str], stop_event: threading.Event | None = None
) -> int:
    """``seriesbook check --watch``: check the editions (all of them unless named) on every save."""
    terminal = Terminal("check")
    editions = _Editions()
    supervisor: Supervisor

    def on_event(key: str, event: dict[str, Any]) -> None:
        language = editions.named(key, event)
        if event["kind"] == "editions" and not key and not languages:
            for other in event["editions"]:
                if other != language and other not in supervisor.languages:
                    supervisor.languages.append(other)
                    supervisor.start(other)
        elif event["kind"] == "pass":
            terminal.passed(language, event, None)
        terminal.event(language, event)

    supervisor = Supervisor(srcdir, confdir, list(languages) or [None], "check", on_event)
    return _until_interrupted(supervisor, stop_event, lambda: None)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _until_interrupted(
    supervisor: Supervisor, stop_event: threading.Event | None, then: Callable[[], None]
) -> int:
    """Run until Ctrl-C or SIGTERM (a service manager's stop; SIGINT may be ignored in a
    background job), stopping every worker on the way out."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupted)
    try:
        supervisor.run(stop_event)
    except KeyboardInterrupt:
        print(file=sys.stderr)
    finally:
        then()
    return 0
