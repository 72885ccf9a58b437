"""Numbers as authors write them: any decimal digits, any length, compared without ``int()``.

§ numbers, chapter numbers and cited line numbers come from free text. Full-width digits
(``１２``, what a Chinese input method types in full-width mode) mean the same as ASCII ones,
and a number may be longer than Python's ``int()`` converts (4,300 digits), so numbers stay
digit strings: normalised once here, ordered and incremented as strings.
"""

from __future__ import annotations


def ascii_digits(text: str) -> str:
    """*text* with every decimal digit (``１``, ``١`` …) written as its ASCII digit."""
    if text.isascii():
        return text
    return "".join(str(int(c)) if c.isdecimal() else c for c in text)


def canonical(digits: str) -> str:
    """A number's one spelling: ASCII digits, no leading zeros (``０７`` → ``7``)."""
    return ascii_digits(digits).lstrip("0") or "0"


def number_key(digits: str) -> tuple[int, str]:
    """Sorts digit strings by value, however long they are."""
    value = canonical(digits)
    return len(value), value


def successor(digits: str) -> str:
    """The number after *digits* (``199`` → ``200``), as a canonical digit string."""
    value = canonical(digits)
    kept = value.rstrip("9")
    nines = len(value) - len(kept)
    if not kept:
        return "1" + "0" * nines
    return kept[:-1] + str(int(kept[-1]) + 1) + "0" * nines
