"""The ``seriesbook`` command and what only it does; a Sphinx build never imports this package.

* :mod:`.cli` — the command line (``check``, ``lock``, ``stats``, ``editions``, ``renumber``,
  ``repin``, ``translations``, ``update-po``, ``new``, ``serve``, ``convert``);
* :mod:`.new` — ``seriesbook new DIR``: a volume that builds at once, from the templates in
  ``volume/``;
* :mod:`.translations` and :mod:`.update_po` — the translator's commands: what an edition still
  needs, and the catalogs updated from the templates (previous text, moved text);
* :mod:`.convert` — a converted edition's catalogs (``zh_TW``): update-po's update, then every
  message no person has translated converted (:mod:`seriesbook.convert`), false friends reported;
* :mod:`.reading` — reads a book with Sphinx itself (the ``seriesbook-check`` builder of
  :mod:`.checker`) and collects its warnings as :class:`.reported.Reported` records;
* :mod:`.kept` — ``check``'s kept environment: re-read and resolve only what changed;
* :mod:`.serve` — the author's loop: ``serve`` and ``check --watch``, a warm Sphinx per edition
  in a worker process, live reload and the problems over the page;
* :mod:`.stops` — errors that stop reading, as one line naming the file to fix;
* :mod:`.rewrite` — the shared layer that edits the author's files atomically, ``.md`` and
  ``.po`` in step; :mod:`.renumber` and :mod:`.repin` plan their edits with it.
"""
