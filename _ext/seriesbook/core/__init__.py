"""The shared ground every capability and command stands on, and nothing else.

* :mod:`.config` — every ``seriesbook_*`` option as one dataclass, validated at
  ``config-inited``, and the rules derived from it (editions, languages, the edition root);
* :mod:`.problems` — the table of warning codes and the one way to report a problem;
* :mod:`.numbers`, :mod:`.percent`, :mod:`.text` — numbers as authors write them, the one
  rounding rule, what counts as a Han character;
* :mod:`.pagestore` — the one atomic pickle store kept beside Sphinx's between builds;
* :mod:`.builders` — whether a build writes the web site (not EPUB's embedded HTML);
* :mod:`.lines` — source lines for the cells of MyST pipe tables (a transform both the § and the
  citation capabilities register).
"""

from __future__ import annotations

from seriesbook.core.pagestore import PageStore, dump_atomically

__all__ = ["PageStore", "dump_atomically"]
