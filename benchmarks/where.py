"""Where a build's CPU time goes, by extension: every event listener, transform and phase timed.

usage: python benchmarks/where.py BOOK [--top N] [--incremental] [-- SPHINX-BUILD OPTIONS ...]

Runs ``sphinx-build -b html`` in this process (default options ``-E -a``, none with
``--incremental``; output in ``BOOK/_build/where/``) with a timer (``time.process_time``)
around every event listener, every transform and post-transform, Sphinx's reading, writing,
template rendering, search index (feeding, dumping) and environment; each is charged its *own*
time (a timer's children are subtracted), so the rows add up to the build and no profiler
inflates the node-by-node walks
(cProfile makes a docutils walk look 3-5 times dearer than it is). Prints the rows by time.

Read it as "the previews' ``doctree-resolved`` listener: 0.41 s of a 4.9 s build", not as a
profile: what a listener calls in Sphinx is charged to the listener.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

OWN: dict[str, float] = defaultdict(float)
CALLS: dict[str, int] = defaultdict(int)
_STACK: list[list[float]] = []  # per open timer: [its start, time its children took]


def timed(key: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """*function*, charging its own time (without nested timers) to *key*."""

    @wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        frame = [time.process_time(), 0.0]
        _STACK.append(frame)
        try:
            return function(*args, **kwargs)
        finally:
            _STACK.pop()
            spent = time.process_time() - frame[0]
            OWN[key] += spent - frame[1]
            CALLS[key] += 1
            if _STACK:
                _STACK[-1][1] += spent

    return run


def _name(function: Any) -> str:
    function = getattr(function, "func", function)  # functools.partial
    module = getattr(function, "__module__", "?") or "?"
    return f"{module}.{getattr(function, '__qualname__', repr(function))}"


def install() -> None:
    """Timers on Sphinx's listeners, docutils' transforms and a few phases."""
    from docutils.transforms import Transformer
    from sphinx import events
    from sphinx.builders import Builder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment
    from sphinx.search import IndexBuilder

    connect = events.EventManager.connect

    def timed_connect(self: Any, name: str, callback: Any, priority: int) -> int:
        return connect(self, name, timed(f"{name}: {_name(callback)}", callback), priority)

    events.EventManager.connect = timed_connect  # type: ignore[method-assign]

    def apply_transforms(self: Transformer) -> None:
        self.document.reporter.attach_observer(self.document.note_transform_message)
        while self.transforms:
            if not self.sorted:
                self.transforms.sort(reverse=True)
                self.sorted = True
            priority, transform_class, pending, kwargs = self.transforms.pop()
            transform = transform_class(self.document, startnode=pending)
            timed(f"transform: {_name(transform_class)}", transform.apply)(**kwargs)
            self.applied.append((priority, transform_class, pending, kwargs))
        self.document.reporter.detach_observer(self.document.note_transform_message)

    Transformer.apply_transforms = apply_transforms  # type: ignore[method-assign]
    for owner, attribute in (
        (Builder, "read_doc"),
        (Builder, "write_doc_serialized"),
        (Builder, "build"),
        (BuildEnvironment, "get_and_resolve_doctree"),
        (StandaloneHTMLBuilder, "handle_page"),
        (StandaloneHTMLBuilder, "write_doc"),
        (StandaloneHTMLBuilder, "dump_search_index"),
        (StandaloneHTMLBuilder, "copy_static_files"),
        (IndexBuilder, "feed"),
    ):
        key = f"phase: {owner.__name__}.{attribute}"
        setattr(owner, attribute, timed(key, getattr(owner, attribute)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--incremental", action="store_true", help="no -E -a: what changed")
    args, options = parser.parse_known_args(argv)  # the rest: sphinx-build's options
    install()
    from sphinx.cmd.build import build_main

    out = args.book / "_build" / "where"
    options = [o for o in options if o != "--"] or ([] if args.incremental else ["-E", "-a"])
    began = time.process_time()
    os.chdir(args.book)
    status = build_main(["-q", "-b", "html", *options, ".", str(out / "html"),
                         "-d", str(out / "doctrees")])
    total = time.process_time() - began
    print(f"build: {total:.2f} s CPU (status {status}); own time of each timer:")
    rows = sorted(OWN.items(), key=lambda item: -item[1])[: args.top]
    for key, spent in rows:
        print(f"{spent:7.3f} s {spent / total:6.1%} {CALLS[key]:6d}×  {key}")
    print(f"{total - sum(OWN.values()):7.3f} s  outside any timer (start-up, imports, Sphinx)")
    return status


if __name__ == "__main__":
    sys.exit(main())
