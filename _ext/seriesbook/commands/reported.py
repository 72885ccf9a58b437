"""One problem a read of the book reported, as data: what ``seriesbook check`` prints.

Shared by the reading (:mod:`.reading`, which collects them) and the kept environment
(:mod:`.kept`, which keeps them between runs), so neither imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Reported:
    """One warning of a build, as data."""

    file: str | None
    line: int | None
    code: str
    message: str

    def as_text(self) -> str:
        where = self.file or "<book>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.code}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "code": self.code, "message": self.message}
