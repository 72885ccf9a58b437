"""The one rounding rule for every percentage seriesbook shows (translation coverage, § hit rate).

Floored to 0.1 so that 100 means all and nothing incomplete is ever called complete; a whole of
nothing is 100. The stats report, ``seriesbook stats`` and a translated page's notice all show
the same number for the same page, written the same way (``92.3``, ``40``).
"""

from __future__ import annotations


def floor_percent(part: int, whole: int) -> float:
    """*part* of *whole* in percent, floored to 0.1; 100 for a whole of nothing."""
    return (part * 1000 // whole) / 10 if whole else 100.0


def percent_text(percent: float) -> str:
    """A percentage as shown: no trailing ``.0``."""
    return f"{percent:g}"
