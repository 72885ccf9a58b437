"""``python -m seriesbook``: the same command as ``seriesbook``."""

from seriesbook.commands.cli import run

run()
