"""Files a source generates at build time: cited, they would be links to nothing.

A source may declare them, ``"generated": {PATTERN: WHAT_TO_CITE_INSTEAD}``: a path, or a
pattern whose ``*``, ``?`` and ``[…]`` match within one path part (:func:`fnmatch.fnmatchcase`
on each part, so ``aten/src/ATen/ops/*`` is that directory's files, not its subdirectories'). A
citation into one is reported as ``cite-generated`` with what to cite instead, and not linked.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from typing import Any


def generated_instead(spec: Mapping[str, Any], path: str) -> str | None:
    """What to cite instead of *path* when the source declares it generated, else None."""
    generated: Mapping[str, str] = spec.get("generated", {})  # its shape checked at config-inited
    parts = path.split("/")
    for pattern, instead in generated.items():
        if _matches(parts, pattern.split("/")):
            return instead
    return None


def _matches(parts: list[str], pattern: list[str]) -> bool:
    return len(parts) == len(pattern) and all(
        fnmatch.fnmatchcase(part, glob) for part, glob in zip(parts, pattern, strict=True)
    )
