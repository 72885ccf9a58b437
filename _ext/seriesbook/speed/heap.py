"""Run Python's cycle collector less often while a book is built.

A Sphinx build allocates millions of short-lived objects (docutils nodes, markdown-it tokens,
Jinja frames) and keeps a large heap alive (the environment, the theme, every module). With
CPython's default thresholds (700, 10, 10) the cycle collector runs about a thousand times in a
full build of the outline's book and rescans the long-lived heap in each of its full passes,
a large share of a build and of a ``seriesbook check`` (measured with ``gc.callbacks``; the
figures are in ``benchmarks/RESULTS.md``). Almost all of those objects are freed by reference
counting anyway; the collector only has to find the cycles (a node and its parent), and finding
them a little later costs a few megabytes of peak memory.

The same heap made the interpreter's exit slow: Python collects cycles over the whole heap
while it shuts down, to free memory the operating system takes back at once. :func:`setup` and
:func:`relaxed` therefore register :func:`gc.freeze` to run at exit (once per process): the
shutdown collections then skip the heap. Exit handlers, ``weakref.finalize`` callbacks and the
flushing of the standard streams run as before; only cycles still unreachable at exit are left
to the operating system.

:func:`setup` (for ``sphinx-build``) and :func:`relaxed` raise the thresholds to
:data:`THRESHOLDS` for the duration of a build and put back whatever was there before, so a
process that runs several builds (the tests, an autobuild server) or other work afterwards gets
its own settings back. The ``seriesbook`` command owns its process and keeps them raised to the
end (:func:`relax_process`): putting them back just before exiting made the collector catch up
on the whole heap for nothing. Nothing a build produces depends on when cycles are collected.

What is alive when a build starts reading (the modules, the theme, the configuration and, in
an incremental build, the environment unpickled from the last one: hundreds of thousands of
objects) lives through the build; the collector's passes over it find nothing. :func:`setup`
freezes it at ``env-before-read-docs`` (:func:`gc.freeze`: the collector skips it, and ``-j``
workers forked later do not copy its pages by scanning it) and lets it go at ``build-finished``,
which Sphinx emits for every build that started, failed or not, so a process that goes on (an
application never built included) collects it as before. A heap something else has frozen is
left alone. While that heap is being made (from ``config-inited``, when the environment is
about to be unpickled and the builder made, until reading starts) the collector waits longer
still (:data:`SETTLING`), since a pass then would scan the new heap and free nothing; an
application made and never built leaves the next one's thresholds as a build's. When the
build finishes, what it left in the young generations is moved to the oldest one before the
thresholds are given back, so that no collection of it starts at once (a ``sphinx-build``
process exits just after; a process that goes on frees its garbage in the next full pass).
``seriesbook`` sets this module up before its other parts, so their imports run relaxed too.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import ExtensionMetadata

#: gc thresholds during a build: a collection every 50,000 net allocations of tracked objects
#: instead of every 700 (gen 0), and the older generations' ratios a little higher.
THRESHOLDS = (50_000, 20, 10)
#: gc thresholds from the configuration's arrival until the build starts reading (the
#: environment unpickled, the builder and the theme made): what is made then lives through the
#: build and is frozen when reading starts, so a collection meanwhile would scan it and free
#: nothing (an incremental build's environment alone is some hundred thousand objects).
SETTLING = (500_000, 20, 10)


_exit_registered: list[bool] = []


def _freeze_at_exit() -> None:
    if not _exit_registered:
        atexit.register(gc.freeze)
        _exit_registered.append(True)


def _relax() -> tuple[int, int, int] | None:
    """Raise the thresholds; the previous ones, or None if they were already as high."""
    _freeze_at_exit()
    previous = gc.get_threshold()
    if previous[0] == 0 or previous[0] >= THRESHOLDS[0]:  # disabled, or already relaxed
        return None
    gc.set_threshold(*THRESHOLDS)
    return previous


def relax_process() -> None:
    """Relax the collector for the rest of the process (a command that exits when done)."""
    _relax()


@contextmanager
def relaxed() -> Iterator[None]:
    """The collector's thresholds raised inside the block (the ``seriesbook`` command's run)."""
    previous = _relax()
    try:
        yield
    finally:
        if previous is not None:
            gc.set_threshold(*previous)


@contextmanager
def paused() -> Iterator[None]:
    """No cycle collection inside the block: for work that allocates much and frees little
    while a whole book's doctrees are alive (``renumber``'s planning), where the collector's
    passes over them would cost more than the work itself."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Settled:
    """The heap frozen while a build reads and writes, until it finishes; before that, from
    ``config-inited`` on, the collector waits for it (:data:`SETTLING`)."""

    def __init__(self) -> None:
        self.frozen = False
        self.before: tuple[int, int, int] | None = None  # the thresholds while settling

    def settle(self, app: Sphinx, config: Config) -> None:
        for pending in list(_settling):
            pending.settled()  # an application made and never built
        current = gc.get_threshold()
        if 0 < current[0] < SETTLING[0]:  # not disabled, not already waiting longer
            self.before = current
            _settling.append(self)
            gc.set_threshold(*SETTLING)

    def settled(self) -> None:
        """The thresholds as they were before settling (after a freeze, which leaves the
        young generation empty: no collection of what settled follows)."""
        if self.before is not None:
            gc.set_threshold(*self.before)
            self.before = None
            _settling.remove(self)

    def freeze(self, app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
        if gc.get_freeze_count() == 0:  # not another's frozen heap
            gc.freeze()
            self.frozen = True
            _frozen.append(self)
        self.settled()

    def unfreeze(self, app: Sphinx | None = None, exception: BaseException | None = None) -> None:
        self.settled()  # a build that failed before reading
        if self.frozen:
            gc.unfreeze()
            self.frozen = False
            _frozen.remove(self)


#: What is settling now (at most one: the last application made).
_settling: list[_Settled] = []
#: What froze the heap and has not let it go (at most one).
_frozen: list[_Settled] = []


def reading_finished() -> None:
    """Let the heap go after a reading that ends without ``build-finished`` (a command that
    runs only Sphinx's reading phase); a process that goes on then collects it as before."""
    for settled in list(_frozen):
        settled.unfreeze()


def setup(app: Sphinx) -> ExtensionMetadata:
    """Relax the collector from now until the build finishes, and let it skip what lives
    through the build."""
    from seriesbook import __version__

    settled = _Settled()
    for pending in list(_settling):
        pending.settled()  # an application made and never built
    app.connect("config-inited", settled.settle, priority=900)  # after the validators
    app.connect("env-before-read-docs", settled.freeze)
    app.connect("build-finished", settled.unfreeze, priority=1000)
    previous = _relax()
    if previous is not None:

        def restore(app: Sphinx, exception: BaseException | None) -> None:
            if gc.get_freeze_count() == 0:
                # what the build left in the young generations moves to the oldest (its
                # garbage freed by the next full collection), so the lower thresholds do not
                # start a collection of it at once, just before a sphinx-build process exits
                gc.freeze()
                gc.unfreeze()
            gc.set_threshold(*previous)

        # last, after every other build-finished handler has allocated what it needs
        app.connect("build-finished", restore, priority=1000)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
