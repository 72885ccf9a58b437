"""Hostile-input harness: run ``seriesbook check`` and a ``-W`` build of every edition on a book.

The tables of bad inputs (``tests/test_hostile_*.py``) describe each case as *changes* to the
smallest book of issue 10 and assert on the :class:`Outcome` this module returns. Everything runs
in-process (no subprocess, no real mermaid copy, no jieba unless the case needs the zh search), so
a case costs about one second.

API (stable; other tables import it)::

    from hostile import BOOK, Found, Link, Outcome, run_book, write_book

    outcome = run_book(tmp_path, {"ch02.md": "...", "locale/en/LC_MESSAGES/ch02.po": b"..."},
                       conf='seriesbook_gates = "x"')

* ``BOOK``: the smallest book, ``{relative path: text}``: ``conf.py`` (``extensions =
  ["seriesbook"]``, ``language = "zh_CN"``, ``seriesbook_editions = ["zh_CN", "en"]``, one
  ``demo`` directory source at ``demo/``, catalogs in ``locale/``, gates off), ``index.md``,
  ``ch01.md`` (``# 第1章 张量`` / ``## §1.1 存储`` / a citation of ``pkg/core.py:1-2``),
  ``ch02.md`` (``# 第2章 调度`` / ``## §2.1 键集`` / ``参见第1章。``), ``demo/pkg/core.py``.
* ``run_book(tmp_path, files=None, *, conf="", languages=None, build=True) -> Outcome``:
  writes ``BOOK`` updated with *files* (``str`` or ``bytes`` content, ``Link(target)`` for a
  symbolic link; ``None`` deletes a file of the book) into ``tmp_path / "book"``, appends
  *conf* to ``conf.py`` (later assignments win; ``del name`` removes one), then runs
  ``seriesbook check BOOK --format json`` and, unless ``build=False``, a
  ``sphinx-build -b html -W --keep-going -D language=L`` of each edition ``L`` (*languages*, else
  what ``seriesbook editions BOOK`` prints, else ``zh_CN en``).
* :class:`Outcome`: ``check_status`` (0/1/2), ``problems`` (``Found`` from the JSON), the raw
  ``check_stdout`` / ``check_stderr``, ``builds`` (language → :class:`Build`: ``status``,
  ``warnings`` as ``Found``, ``stderr``; ``status`` 2 and ``error`` set when the build stopped
  with an error), and ``tracebacks``: every traceback or unexpected exception seen anywhere
  (must be empty), plus ``stray_output`` (anything printed to stdout by a build: must be empty).
  A traceback is seriesbook's code raising (:func:`seriesbook.commands.stops.raised_by_seriesbook`);
  a build Sphinx stops on bad input (conf.py, a file it cannot read) has ``error`` instead.
  Helpers: ``codes()`` (check's codes), ``build_codes()`` (all editions' codes),
  ``where(code)`` (check's ``"file:line"`` strings of a code), ``agreement()`` (``""`` when check
  and the builds agree, else what differs).
* :class:`Found`: ``code`` (``seriesbook`` subtype, or ``type.subtype``, or ``sphinx`` for an
  untyped warning), ``file`` (relative to the book, POSIX; ``None`` if none), ``line``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import traceback
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from seriesbook.commands.stops import raised_by_seriesbook
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError, SphinxError
from sphinx.testing.util import _clean_up_global_state
from sphinx.util.docutils import docutils_namespace, patch_docutils

CONF = '''\
project = "演示"
language = "zh_CN"
extensions = ["seriesbook"]
exclude_patterns = ["_build", "demo", "locale"]
locale_dirs = ["locale"]
gettext_compact = False
seriesbook_editions = ["zh_CN", "en"]
seriesbook_sources = {"demo": {"repo": "https://example.org/demo", "ref": "v1", "path": "demo"}}
seriesbook_default_source = "demo"
seriesbook_gates = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
'''

BOOK: dict[str, str] = {
    "conf.py": CONF,
    "index.md": "# 演示\n\n```{toctree}\nch01\nch02\n```\n",
    "ch01.md": "# 第1章 张量\n\n## §1.1 存储\n\n存储的定义见 `pkg/core.py:1-2`。\n",
    "ch02.md": "# 第2章 调度\n\n## §2.1 键集\n\n参见第1章。\n",
    "demo/pkg/core.py": "class Storage:\n    pass\n\n\ndef dispatch():\n    return 1\n",
}

DEFAULT_LANGUAGES = ("zh_CN", "en")

#: "path:12: WARNING: message [type.subtype]" as sphinx-build writes it (colours off).
_WARNING = re.compile(
    r"^(?:(?P<loc>.+?): )?(?P<level>WARNING|ERROR|CRITICAL): (?P<message>.*?)"
    r"(?: \[(?P<type>[\w.\-]+)\])?$"
)
_TRANSLATED = re.compile(r"(?P<path>.*?):(?P<line>\d+):<translated>(?::\d+)?")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Link:
    """A symbolic link to *target* (relative to the link's directory) in place of a file."""

    target: str


Content = str | bytes | Link | None


@dataclass(frozen=True, order=True)
class Found:
    """One problem or warning: its code and where it is (file relative to the book)."""

    code: str
    file: str | None
    line: int | None

    def at(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else str(self.file)


@dataclass
class Build:
    """One edition's ``-W --keep-going`` HTML build."""

    language: str
    status: int
    warnings: list[Found]
    stderr: str
    error: str = ""  # the error that stopped the build (a Sphinx error, not a crash)

    @property
    def ok(self) -> bool:
        return self.status == 0


@dataclass
class Outcome:
    book: Path
    check_status: int
    problems: list[Found]
    check_stdout: str
    check_stderr: str
    builds: dict[str, Build] = field(default_factory=dict)
    tracebacks: list[str] = field(default_factory=list)
    stray_output: str = ""

    def codes(self) -> set[str]:
        return {p.code for p in self.problems}

    def build_codes(self) -> set[str]:
        return {w.code for b in self.builds.values() for w in b.warnings}

    def where(self, code: str) -> list[str]:
        return sorted(p.at() for p in self.problems if p.code == code)

    def agreement(self) -> str:
        """"" when check and the builds agree (same codes; check fails iff a build fails)."""
        failed = [b.language for b in self.builds.values() if not b.ok]
        if self.check_status == 2 or any(b.error for b in self.builds.values()):
            stopped = [b.language for b in self.builds.values() if b.error]
            if self.check_status == 2 and len(stopped) == len(self.builds):
                return ""
            return f"check exit {self.check_status}, builds stopped by an error: {stopped}"
        if bool(self.problems) != bool(failed):
            return f"check reports {sorted(self.codes())}, failed -W builds: {failed}"
        if self.codes() != self.build_codes():
            return f"check codes {sorted(self.codes())} != build codes {sorted(self.build_codes())}"
        return ""


def write_book(root: Path, files: Mapping[str, Content] | None = None, conf: str = "") -> Path:
    """The smallest book with *files* changed and *conf* appended to ``conf.py``."""
    book = dict[str, Content](BOOK)
    book.update(files or {})
    if conf:
        base = book.get("conf.py")
        book["conf.py"] = (base if isinstance(base, str) else "") + "\n" + conf + "\n"
    for relative, content in book.items():
        if content is None:
            continue
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            path.symlink_to(content.target)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run_book(
    tmp_path: Path,
    files: Mapping[str, Content] | None = None,
    *,
    conf: str = "",
    languages: Sequence[str] | None = None,
    build: bool = True,
) -> Outcome:
    """Write the book, run ``seriesbook check`` and the ``-W`` builds; see the module docstring."""
    root = write_book(tmp_path / "book", files, conf)
    with _fake_mermaid(tmp_path):
        status, out, err, crash = _cli(["check", str(root), "--format", "json"])
        outcome = Outcome(root, status, [], out, err)
        outcome.tracebacks += _tracebacks(crash, out, err)
        if status in (0, 1) and not crash:
            try:
                found = json.loads(out)["problems"]
                outcome.problems = sorted(_found_json(p, root) for p in found)
            except (ValueError, TypeError, KeyError) as error:
                outcome.tracebacks.append(f"check --format json printed no JSON: {error}\n{out}")
        if not build:
            return outcome
        if languages is None:
            status, out, err, crash = _cli(["editions", str(root)])
            outcome.tracebacks += _tracebacks(crash, out, err)
            languages = out.split() if status == 0 and out.split() else DEFAULT_LANGUAGES
        for language in languages:
            result, stray, crash = _build(root, tmp_path / "_build" / language, language)
            outcome.builds[language] = result
            outcome.stray_output += stray
            outcome.tracebacks += _tracebacks(crash, "", result.stderr)
    return outcome


# --- running ----------------------------------------------------------------------------------


def _cli(argv: list[str]) -> tuple[int, str, str, str]:
    """``seriesbook ARGV`` in-process: status, stdout, stderr and any escaping exception."""
    from seriesbook.commands.cli import main

    out, err = io.StringIO(), io.StringIO()
    crash = ""
    with _fresh_sphinx(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 2
        except BaseException:  # the contract is: never a traceback
            status, crash = -1, traceback.format_exc()
    return status, out.getvalue(), err.getvalue(), crash


#: jieba's dictionary table (seriesbook.search), written by the first Chinese build of the
#: process and copied into each new build's doctree directory: the index is the same, and a
#: case does not spend two seconds loading jieba.
JIEBA_TABLE = "seriesbook-search-jieba.sqlite"
_jieba_table: list[Path] = []


def _build(root: Path, outdir: Path, language: str) -> tuple[Build, str, str]:
    """``sphinx-build -b html -W --keep-going -D language=…`` in-process, as build_main does."""
    doctrees = outdir / "doctrees"
    if _jieba_table:
        doctrees.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_jieba_table[0], doctrees / JIEBA_TABLE)
    warnings, stdout = io.StringIO(), io.StringIO()
    status, error, crash = 0, "", ""
    with _fresh_sphinx(), contextlib.redirect_stdout(stdout):
        try:
            with patch_docutils(root), docutils_namespace():
                app = Sphinx(
                    root, root, outdir / "html", doctrees, "html",
                    confoverrides={"language": language}, status=None, warning=warnings,
                    freshenv=True, warningiserror=True,
                )
                app.build(force_all=True)
                status = app.statuscode
        except SphinxError as stopped:
            status, error = 2, f"{stopped.category}: {stopped}"
            orig = stopped.orig_exc if isinstance(stopped, ExtensionError) else None
            if orig is not None and raised_by_seriesbook(orig):
                crash = "".join(traceback.format_exception(stopped))
        except Exception as stopped:
            status, error = 2, f"{type(stopped).__name__}: {stopped}"
            if raised_by_seriesbook(stopped):  # not Sphinx stopping at a file it cannot read
                crash = traceback.format_exc()
    if not _jieba_table and (doctrees / JIEBA_TABLE).is_file():
        kept = Path(tempfile.mkdtemp(prefix="hostile-jieba-")) / JIEBA_TABLE
        shutil.copyfile(doctrees / JIEBA_TABLE, kept)
        _jieba_table.append(kept)
    text = _ANSI.sub("", warnings.getvalue())
    found = [w for w in map(lambda line: _found_text(line, root), text.splitlines()) if w]
    return Build(language, status, found, text, error), stdout.getvalue(), crash


@contextlib.contextmanager
def _fresh_sphinx() -> Iterator[None]:
    """Start each run from docutils' and Sphinx's global state of a new process.

    A Sphinx app registers nodes, roles and directives in docutils and message catalogs in
    ``sphinx.locale`` for the whole process; a second app in the same process would warn
    "already registered" (failing ``-W``) or keep the first one's language.
    """
    _clean_up_global_state()
    try:
        yield
    finally:
        _clean_up_global_state()


@contextlib.contextmanager
def _fake_mermaid(tmp_path: Path) -> Iterator[None]:
    """A two-file stand-in for npm's mermaid/dist: the HTML build copies it in no time."""
    dist = tmp_path / "mermaid-dist"
    (dist / "chunks" / "mermaid.esm.min").mkdir(parents=True, exist_ok=True)
    (dist / "mermaid.esm.min.mjs").write_text("export default {};\n", encoding="utf-8")
    saved = os.environ.get("SERIESBOOK_MERMAID_DIR")
    os.environ["SERIESBOOK_MERMAID_DIR"] = str(dist)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["SERIESBOOK_MERMAID_DIR"]
        else:
            os.environ["SERIESBOOK_MERMAID_DIR"] = saved


# --- reading results --------------------------------------------------------------------------


def _tracebacks(crash: str, *texts: str) -> list[str]:
    found = [crash] if crash else []
    found += [t for t in texts if "Traceback (most recent call last)" in t]
    return found


def _relative(path: str | None, root: Path) -> str | None:
    if not path:
        return None
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path


def _found_json(problem: dict[str, object], root: Path) -> Found:
    file, line = problem["file"], problem["line"]
    return Found(
        str(problem["code"]),
        _relative(str(file) if file is not None else None, root),
        int(line) if isinstance(line, int) else None,
    )


def _found_text(line: str, root: Path) -> Found | None:
    match = _WARNING.match(line)
    if match is None:
        return None
    kind = match["type"] or "sphinx"
    code = kind.removeprefix("seriesbook.") if kind.startswith("seriesbook.") else kind
    location = match["loc"] or ""
    file: str | None = location or None
    number: int | None = None
    translated = _TRANSLATED.fullmatch(location)
    if translated:
        file, number = translated["path"], int(translated["line"])
    else:
        path, sep, tail = location.rpartition(":")
        if sep and tail.isdigit():
            file, number = path, int(tail)
    return Found(code, _relative(file, root), number)
