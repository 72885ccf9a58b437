"""``serve``'s web server: the pages of ``_build/serve/``, each with the live script injected, and
one Server-Sent Events stream per open page that says when to reload and what the problems are.

The pages on disk are a normal HTML build's (the script is added as they are sent, never
written), under ``/<language>/`` as ``make html`` lays editions out, so the language switcher's
``../<language>/<page>`` links and every § link keep working. A page that is not built yet (the
first pass, an edition not served) is a short notice that reloads itself once it is written.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from seriesbook.core.escape import html_text

SCRIPT = Path(__file__).with_name("serve.js")
PREFIX = "/_seriesbook/"
#: the live script, with the version of the page sent (how many times it was written)
INJECTED = '<script src="' + PREFIX + 'serve.js" data-version="{version}" defer></script>'
#: how often (s) an idle event stream is pinged, so a closed tab's thread ends
PING_SECONDS = 10.0


def page_of(path: str) -> tuple[str, str] | None:
    """``/zh_CN/ch04.html`` → ``("zh_CN", "ch04")``; a directory's page is its ``index``."""
    parts = unquote(urlsplit(path).path).strip("/").split("/", 1)
    if not parts[0]:
        return None
    rest = parts[1] if len(parts) > 1 else ""
    if rest == "" or rest.endswith("/"):
        rest += "index.html"
    if not rest.endswith(".html"):
        return None
    return parts[0], rest.removesuffix(".html")


class Hub:
    """The open pages and what each edition's last pass found; told by the supervisor."""

    def __init__(self, on_shown: Callable[[str, list[str]], None]) -> None:
        self.lock = threading.Lock()
        self.clients: dict[queue.Queue[str], tuple[str, str] | None] = {}
        self.problems: dict[str, list[dict[str, Any]]] = {}
        self.versions: dict[tuple[str, str], int] = {}
        self.on_shown = on_shown

    def version(self, page: tuple[str, str]) -> int:
        with self.lock:
            return self.versions.get(page, 0)

    def join(self, page: tuple[str, str] | None, version: int = 0) -> queue.Queue[str]:
        """A page's event stream; a page written again since it was sent reloads at once."""
        inbox: queue.Queue[str] = queue.Queue()
        with self.lock:
            self.clients[inbox] = page
            if page is not None:
                if self.versions.get(page, 0) > version:
                    inbox.put(_event("reload", [page[1]]))
                inbox.put(_event("problems", self.problems.get(page[0], [])))
        self._shown(page)
        return inbox

    def leave(self, inbox: queue.Queue[str]) -> None:
        with self.lock:
            page = self.clients.pop(inbox, None)
        self._shown(page)

    def shown(self, language: str) -> list[str]:
        with self.lock:
            return sorted({p[1] for p in self.clients.values() if p and p[0] == language})

    def _shown(self, page: tuple[str, str] | None) -> None:
        if page is not None:
            self.on_shown(page[0], self.shown(page[0]))

    def reload(self, language: str, docnames: list[str]) -> None:
        """Reload the open pages of *language* among *docnames* (just written)."""
        with self.lock:
            for docname in docnames:
                self.versions[language, docname] = self.versions.get((language, docname), 0) + 1
        self._send(language, _event("reload", docnames))

    def report(self, language: str, problems: list[dict[str, Any]]) -> None:
        with self.lock:
            self.problems[language] = problems
        self._send(language, _event("problems", problems))

    def _send(self, language: str, event: str) -> None:
        with self.lock:
            for inbox, page in self.clients.items():
                if page is not None and page[0] == language:
                    inbox.put(event)


def _event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


class _Handler(SimpleHTTPRequestHandler):
    hub: Hub
    languages: list[str]

    def log_message(self, format: str, *args: Any) -> None:  # the terminal shows problems
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == f"{PREFIX}serve.js":
            self._send(SCRIPT.read_bytes(), "text/javascript; charset=utf-8")
        elif path == f"{PREFIX}events":
            self._stream()
        elif path == "/":
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", f"/{self.languages[0]}/")
            self.end_headers()
        elif (page := page_of(self.path)) is not None:
            self._page(page)
        else:
            super().do_GET()

    def _page(self, page: tuple[str, str]) -> None:
        file = Path(self.directory) / page[0] / f"{page[1]}.html"
        script = INJECTED.format(version=self.hub.version(page))  # before the file is read
        try:
            html = file.read_text(encoding="utf-8")
            status = HTTPStatus.OK
        except OSError:
            html = _not_yet(page, self.languages)
            status = HTTPStatus.NOT_FOUND
        head = html.find("</head>")
        html = html[:head] + script + html[head:] if head >= 0 else script + html
        self._send(html.encode("utf-8"), "text/html; charset=utf-8", status)

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _stream(self) -> None:
        query = parse_qs(urlsplit(self.path).query)
        page = page_of(query.get("page", [""])[0])
        version = query.get("version", ["0"])[0]
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        inbox = self.hub.join(page, int(version) if version.isdigit() else 0)
        try:
            self.wfile.write(b"retry: 300\n\n")
            while True:
                try:
                    event = inbox.get(timeout=PING_SECONDS)
                except queue.Empty:
                    event = ": ping\n\n"
                self.wfile.write(event.encode("utf-8"))
                self.wfile.flush()
        except OSError:  # the page was closed or reloaded
            pass
        finally:
            self.hub.leave(inbox)


def _not_yet(page: tuple[str, str], languages: list[str]) -> str:
    language, docname = html_text(page[0]), html_text(page[1])
    if page[0] not in languages:
        served = html_text(", ".join(languages))
        text = (f"The {language} edition is not served (serving {served}): run "
                f"<code>seriesbook serve --language {language}</code> to serve it too.")
    else:
        text = f"{docname} is not written yet: this page reloads when it is."
    head = f"<!DOCTYPE html><html><head><title>{docname}</title></head>"
    return f"{head}<body><p>{text}</p></body></html>"


def make_server(
    root: Path, socket_address: tuple[str, int], hub: Hub, languages: list[str]
) -> ThreadingHTTPServer:
    """The server (not started), serving *root* (``_build/serve/``) on *socket_address*."""
    root.mkdir(parents=True, exist_ok=True)

    class Handler(_Handler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

    Handler.hub = hub
    Handler.languages = languages
    server = ThreadingHTTPServer(socket_address, Handler)
    server.daemon_threads = True
    return server
