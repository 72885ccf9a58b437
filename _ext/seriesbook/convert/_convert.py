"""One message from simplified to Taiwan's traditional Chinese: glossary, OpenCC, glossary.

In each prose piece (:mod:`._spans`) the glossary's ``before`` terms are found first, longest
first, left to right, and written as the glossary says; the text between them goes through
OpenCC's ``s2twp`` (Taiwan's characters and phrases, opencc-py: OpenCC's own algorithm and
dictionaries in pure Python); then the ``after`` replacements apply to OpenCC's output.
Protected pieces are kept byte for byte.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from seriesbook.convert._spans import pieces

if TYPE_CHECKING:
    from collections.abc import Callable

    from seriesbook.convert._glossary import Glossary

#: OpenCC's configuration: simplified → traditional with Taiwan's standard and phrases.
OPENCC_CONFIG = "s2twp"


@cache
def opencc_converter(config: str = OPENCC_CONFIG) -> Callable[[str], str]:
    """OpenCC's converter for *config* (its dictionaries load once per process)."""
    from opencc import OpenCC

    return OpenCC(config).convert


@dataclass
class Conversion:
    """A converted message, what the glossary changed and the false friends it still holds."""

    text: str
    glossary: Counter[tuple[str, str]] = field(default_factory=Counter)
    false_friends: list[tuple[str, str]] = field(default_factory=list)


def _split_terms(text: str, terms: dict[str, str]) -> list[tuple[str, bool]]:
    """*text* cut at the glossary's terms (longest first): (text, is_term) pairs."""
    if not terms:
        return [(text, False)]
    longest = max(map(len, terms))
    out: list[tuple[str, bool]] = []
    start = at = 0
    while at < len(text):
        for length in range(min(longest, len(text) - at), 0, -1):
            if text[at : at + length] in terms:
                if start < at:
                    out.append((text[start:at], False))
                out.append((text[at : at + length], True))
                at += length
                start = at
                break
        else:
            at += 1
    if start < len(text):
        out.append((text[start:], False))
    return out


def _convert_prose(text: str, glossary: Glossary, result: Conversion) -> str:
    opencc = opencc_converter()
    out = []
    for part, is_term in _split_terms(text, glossary.before):
        if is_term:
            word = glossary.before[part]
            result.glossary[(part, word)] += 1
            out.append(word)
            continue
        converted = opencc(part)
        for wrong, right in sorted(glossary.after.items(), key=lambda kv: -len(kv[0])):
            if wrong in converted:
                result.glossary[(wrong, right)] += converted.count(wrong)
                converted = converted.replace(wrong, right)
        for term, output in glossary.false_friends.items():
            if term in part and output in converted and not glossary.decides(term, output):
                result.false_friends.append((term, output))
        out.append(converted)
    return "".join(out)


def convert_message(message: str, glossary: Glossary) -> Conversion:
    """*message* in Taiwan's traditional Chinese, its protected pieces unchanged."""
    result = Conversion("")
    result.text = "".join(
        _convert_prose(piece.text, glossary, result) if piece.prose else piece.text
        for piece in pieces(message)
    )
    return result
