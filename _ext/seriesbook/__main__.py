"""``python -m seriesbook``: the same command as ``seriesbook``."""

from seriesbook.cli import run

run()
