"""The ``seriesbook`` command: check, lock, stats, editions, renumber, repin, translations (on
top of Sphinx's own reading), update-po (the catalogs, from ``make gettext``'s templates),
new (a volume that builds at once) serve (the author's loop, :mod:`.serve`; ``check --watch``
too) and convert (a converted edition's catalogs: zh_TW).

Exit status: 0 clean, 1 problems found, 2 an error that stops reading the book or a usage
error: one line on stderr naming the file (and line), never a traceback (:mod:`.stops`).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seriesbook import __version__
from seriesbook.commands.reading import (
    Reported,
    UsageError,
    check_editions,
    default_dirs,
    open_book,
    read_book,
)
from seriesbook.commands.update_po import DEFAULT_SIMILARITY
from seriesbook.core.config import book_editions
from seriesbook.core.escape import terminal
from seriesbook.speed import heap

if TYPE_CHECKING:
    from sphinx.application import Sphinx

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def _parse_sources(pairs: Sequence[str], option: str = "--source") -> dict[str, str]:
    sources: dict[str, str] = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"{option} expects NAME=PATH, got {pair!r}")
        sources[name] = path
    return sources


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    sources = _parse_sources(getattr(args, "source", None) or [])
    if sources:
        overrides["seriesbook_source_paths"] = sources
    return overrides


def _print_problems(problems: list[Reported], fmt: str) -> int:
    if fmt == "json":
        print(json.dumps([r.as_json() for r in problems], ensure_ascii=False, indent=2))
    else:
        for reported in problems:
            print(reported.as_text())
    return EXIT_PROBLEMS if problems else EXIT_CLEAN


def cmd_check(args: argparse.Namespace) -> int:
    from seriesbook.editions import fuzzy_entries

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    if args.watch:
        return _check_watch(args, srcdir, confdir)
    if args.language:
        raise UsageError("--language is for check --watch (check reads every edition)")
    if args.format != "json":
        problems = check_editions(srcdir, confdir, _overrides(args), keep=True)
        return _print_problems(problems, args.format)
    fuzzy: list[dict[str, Any]] = []

    def note_fuzzy(app: Sphinx) -> None:
        if "seriesbook.editions" in app.extensions:
            fuzzy.extend(fuzzy_entries(app.env, book_editions(app.config)[1:]))

    problems = check_editions(srcdir, confdir, _overrides(args), keep=True, also=note_fuzzy)
    # fuzzy entries are work, not problems: listed for CI, never a reason to fail
    report = {"problems": [r.as_json() for r in problems], "fuzzy": fuzzy}
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return EXIT_PROBLEMS if problems else EXIT_CLEAN


def _watching(command: str) -> None:
    """A UsageError saying how to install what the warm process needs, where it is missing."""
    try:
        import watchfiles  # noqa: F401 (the serve extra)
    except ImportError as error:
        raise UsageError(
            f"{command} needs watchfiles: pip install 'seriesbook[serve]' "
            "(make livehtml installs it)"
        ) from error


def _check_watch(args: argparse.Namespace, srcdir: Path, confdir: Path) -> int:
    _watching("check --watch")
    from seriesbook.commands.serve import check_watch

    if args.format != "text" or args.source:
        raise UsageError("check --watch prints text and reads the sources conf.py names "
                         "(no --format json, no --source)")
    return check_watch(srcdir, confdir, args.language or [])


def cmd_serve(args: argparse.Namespace) -> int:
    _watching("seriesbook serve")
    from seriesbook.commands.serve import serve

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port expects 0 to 65535 (0: any free port), got {args.port}")
    return serve(srcdir, confdir, args.language or [], host=args.host, port=args.port)


def cmd_lock(args: argparse.Namespace) -> int:
    from seriesbook.citations.lockfile import write_lock

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    with read_book(srcdir, confdir, _overrides(args)) as run:
        status = _print_problems(run.reported, "text")
        path = write_lock(run.app)
        print(f"wrote {path}", file=sys.stderr)
        return status


def cmd_stats(args: argparse.Namespace) -> int:
    from seriesbook.stats.report import book_report, to_markdown

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    with read_book(srcdir, confdir, _overrides(args)) as run:
        report = book_report(run.app)
    if args.format == "json":
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(to_markdown(report))
    return EXIT_CLEAN


def cmd_editions(args: argparse.Namespace) -> int:
    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    with open_book(srcdir, confdir) as app:  # the options validated as the build does
        print(" ".join(book_editions(app.config)))
    return EXIT_CLEAN


def cmd_renumber(args: argparse.Namespace) -> int:
    from seriesbook.commands.renumber.command import run_renumber

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    return run_renumber(srcdir, confdir, write=args.write, fmt=args.format, fresh=args.fresh)


def cmd_repin(args: argparse.Namespace) -> int:
    from seriesbook.commands.repin.command import run_repin

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    return run_repin(
        srcdir,
        confdir,
        sources=_parse_sources(args.source or []),
        to=args.to,
        to_sources=_parse_sources(args.to_source or [], "--to-source"),
        write=args.write,
        fmt=args.format,
    )


def cmd_translations(args: argparse.Namespace) -> int:
    from seriesbook.commands.translations import run_translations

    srcdir, confdir = default_dirs(args.srcdir, args.confdir)
    return run_translations(srcdir, confdir, language=args.language, fmt=args.format)


def cmd_update_po(args: argparse.Namespace) -> int:
    from seriesbook.commands.translations import run_update_po

    return run_update_po(
        Path(args.pot_dir), Path(args.locale_dir), args.language, args.similarity
    )


def cmd_new(args: argparse.Namespace) -> int:
    from seriesbook.commands.new import run_new

    return run_new(args.directory, args.title, args.language, args.source or [])


def cmd_convert(args: argparse.Namespace) -> int:
    from seriesbook.commands.convert import run_convert

    glossary = Path(args.glossary) if args.glossary else None
    return run_convert(
        args.language, Path(args.pot_dir), Path(args.locale_dir), glossary, args.verbose
    )


def _add_book_arguments(parser: argparse.ArgumentParser, *, sources: bool) -> None:
    parser.add_argument(
        "srcdir",
        nargs="?",
        help="the book's sources (default: source/ if ./conf.py and ./source/ exist, else .)",
    )
    parser.add_argument(
        "-c", dest="confdir", metavar="CONFDIR", help="directory of conf.py (default: SRCDIR or .)"
    )
    if sources:
        parser.add_argument(
            "--source",
            action="append",
            metavar="NAME=PATH",
            help="local copy of a cited source: a git repository or a directory (repeatable)",
        )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="seriesbook",
        description="Check, lock and measure a seriesbook volume with Sphinx's own reading.",
    )
    parser.add_argument("--version", action="version", version=f"seriesbook {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="report every problem of the book; write nothing")
    _add_book_arguments(check, sources=True)
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--watch", action="store_true",
                       help="check again on every save, in a warm process (Ctrl-C stops)")
    check.add_argument("--language", "-l", action="append", metavar="LANGUAGE",
                       help="with --watch: the edition to watch (repeatable; default: every one)")
    check.set_defaults(run=cmd_check)

    serve = commands.add_parser(
        "serve", help="serve the book, rebuilt on every save, with its problems in the page"
    )
    _add_book_arguments(serve, sources=False)
    serve.add_argument("--language", "-l", action="append", metavar="LANGUAGE",
                       help="the edition to serve (repeatable; default: conf.py's language)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    serve.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1")
    serve.set_defaults(run=cmd_serve)

    lock = commands.add_parser("lock", help="write the citation lock from local source copies")
    _add_book_arguments(lock, sources=True)
    lock.set_defaults(run=cmd_lock)

    stats = commands.add_parser("stats", help="the book's scale table and chapter gates")
    _add_book_arguments(stats, sources=True)
    stats.add_argument("--format", choices=("markdown", "json"), default="markdown")
    stats.set_defaults(run=cmd_stats)

    renumber = commands.add_parser(
        "renumber", help="number the § sections again and every mention of them (dry run)"
    )
    _add_book_arguments(renumber, sources=False)
    renumber.add_argument("--write", action="store_true", help="rewrite the files")
    renumber.add_argument("--format", choices=("text", "json"), default="text")
    renumber.add_argument(
        "--fresh", action="store_true",
        help="read every page again, not only those changed since the last run (_build/renumber)",
    )
    renumber.set_defaults(run=cmd_renumber)

    repin = commands.add_parser(
        "repin", help="move a source's citations to a new release, in sources and catalogs"
    )
    _add_book_arguments(repin, sources=True)
    repin.add_argument("--to", required=True, metavar="NAME=REF[@COMMIT]",
                       help="the new release of source NAME")
    repin.add_argument("--to-source", action="append", metavar="NAME=NEW",
                       help="the new release's copy, when the copies are plain directories")
    repin.add_argument("--write", action="store_true", help="rewrite the files (else dry run)")
    repin.add_argument("--format", choices=("text", "json"), default="text")
    repin.set_defaults(run=cmd_repin)

    translations = commands.add_parser(
        "translations",
        help="what a translated edition still needs, per chapter and § section; fuzzy messages "
        "with their change",
    )
    _add_book_arguments(translations, sources=False)
    translations.add_argument("--language", "-l", metavar="LANGUAGE",
                              help="the edition (default: the only translated one)")
    translations.add_argument("--format", choices=("text", "json"), default="text")
    translations.set_defaults(run=cmd_translations)

    update_po = commands.add_parser(
        "update-po",
        help="update the catalogs from `make gettext`'s templates: previous text (#|) of fuzzy "
        "entries, translations of moved text",
        description="Update the catalogs from `make gettext`'s templates, keeping the previous "
        "text (#|) of changed messages and the translations of moved text. Run `make "
        "update-po LANGUAGES=en` (or this command), not `sphinx-intl update`, which drops "
        "the #| lines; `sphinx-intl stat` and `sphinx-intl build` work on these catalogs.",
    )
    update_po.add_argument("-p", "--pot-dir", default="_build/gettext",
                           help="the templates (default: _build/gettext)")
    update_po.add_argument("-d", "--locale-dir", default="locale",
                           help="the catalogs, <dir>/<language>/LC_MESSAGES/ (default: locale)")
    update_po.add_argument("-l", "--language", action="append", metavar="LANGUAGE",
                           help="a language to update (repeatable; default: every one in the "
                           "locale directory)")
    update_po.add_argument("--similarity", type=float, default=DEFAULT_SIMILARITY,
                           help="how alike (0-1, difflib's ratio) a moved message must be to "
                           f"get another's translation as fuzzy (default {DEFAULT_SIMILARITY})")
    update_po.set_defaults(run=cmd_update_po)

    new = commands.add_parser("new", help="start a new volume in DIR (never overwrites)")
    new.add_argument("directory", metavar="DIR")
    new.add_argument("--title", help="the book's title (default: DIR's name)")
    new.add_argument("--language", default="en", help="the book's language (default: en)")
    new.add_argument("--source", action="append", metavar="NAME=REPO@REF",
                     help="a cited source pinned to a release (repeatable; the first is the "
                     "default source)")
    new.set_defaults(run=cmd_new)

    convert = commands.add_parser(
        "convert",
        help="fill and refresh a converted edition's catalogs (zh_TW: OpenCC s2twp and the "
        "glossary; reviewed translations kept); report false friends",
    )
    convert.add_argument("language", help="the converted edition (zh_TW)")
    convert.add_argument("-p", "--pot-dir", default="_build/gettext",
                         help="the templates of `make gettext` (default: _build/gettext)")
    convert.add_argument("-d", "--locale-dir", default="locale",
                         help="the catalogs' root (default: locale)")
    convert.add_argument("--glossary", metavar="FILE",
                         help="the glossary (default: LOCALE_DIR/LANGUAGE/glossary.toml)")
    convert.add_argument("-v", "--verbose", action="store_true",
                         help="also list every message converted, at its file and line")
    convert.set_defaults(run=cmd_convert)

    editions = commands.add_parser("editions", help="print the languages `make html` builds")
    _add_book_arguments(editions, sources=False)
    editions.set_defaults(run=cmd_editions)
    return parser


class _TerminalSafe(io.TextIOBase):
    """A text stream that writes every control character but newline and tab escaped
    (:func:`seriesbook.core.escape.terminal`): titles, msgstrs and paths come from books and
    catalogs, and an escape sequence in one must not retitle or clear the reader's terminal."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def fileno(self) -> int:
        return int(self._stream.fileno())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self._stream, "encoding", None) or "utf-8")


@contextmanager
def terminal_safe_output() -> Iterator[None]:
    """Everything printed to stdout and stderr meanwhile goes through :class:`_TerminalSafe`."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _TerminalSafe(saved[0]), _TerminalSafe(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def main(argv: Sequence[str] | None = None) -> int:
    with terminal_safe_output():
        parser = build_parser()
        args = parser.parse_args(argv)
        if not hasattr(args, "run"):
            parser.print_help()
            return EXIT_USAGE
        try:
            with heap.relaxed():
                status: int = args.run(args)
        except UsageError as error:
            print(f"seriesbook: {error}", file=sys.stderr)
            return EXIT_USAGE
        return status


def run() -> None:
    """The ``seriesbook`` command, which owns its process: the collector stays relaxed to the
    end instead of catching up on the whole heap just before the process exits. A reader that
    closes the pipe (``seriesbook … | head``) ends it quietly, as the Python documentation
    says (https://docs.python.org/3/library/signal.html#note-on-sigpipe)."""
    heap.relax_process()
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # no more output can go anywhere: point stdout at devnull so the final flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    run()
