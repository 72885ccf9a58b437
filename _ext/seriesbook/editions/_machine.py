"""The mark of a machine-converted translation (``seriesbook convert``), read by every counter.

A converted entry carries the translator comment ``# machine-converted <hash>``, the hash of
the msgstr as the conversion wrote it: the entry is a machine's until a person deletes the
comment (reviewed) or edits the msgstr (then the hash no longer matches). Coverage counts such
entries apart from reviewed ones.
"""

from __future__ import annotations

import hashlib
from typing import Any

MARK = "machine-converted"


def fingerprint(msgstr: str) -> str:
    """The hash a mark records: the first 12 hex digits of the msgstr's SHA-256."""
    return hashlib.sha256(msgstr.encode("utf-8")).hexdigest()[:12]


def mark_of(message: Any) -> str | None:
    """The hash recorded by a machine-converted entry's mark, ``None`` if not marked."""
    for comment in getattr(message, "user_comments", ()):
        head, _, rest = comment.strip().partition(" ")
        if head == MARK:
            return rest.split()[0] if rest.split() else ""
    return None


def is_machine_converted(message: Any) -> bool:
    """Marked, and its msgstr still the one the conversion wrote (nobody edited it)."""
    mark = mark_of(message)
    return mark is not None and mark == fingerprint(str(getattr(message, "string", "") or ""))
