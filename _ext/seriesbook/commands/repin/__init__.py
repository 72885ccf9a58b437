"""``seriesbook repin``: carry a book's citations of one source to a new release.

Phases as files: :mod:`._trees` reads the two releases (by commit from git, or two directories),
:mod:`._map` decides for each citation ``unchanged`` / ``moved`` / ``changed`` / ``lost`` (with
:mod:`._search` to find a block that left its file), and the command plans the rewrites of
sources, catalogs, ``conf.py`` and the lock and reports them. Nothing is guessed silently: a
rewritten ``unchanged``/``moved`` citation points at text identical to what it cited before.
"""
