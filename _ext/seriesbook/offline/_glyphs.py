"""Characters the PDF's fonts cannot print: a fallback font prints them, or a warning names them.

XeTeX drops a character its font lacks and only says so in the ``.log`` (``Missing character``),
so an emoji or a rare Han character (CJK Extension B and beyond, ``𠀀``) would become an empty
space in the PDF with exit status 0. Two fallbacks from Debian cover them:

* ``HanaMinB`` (``fonts-hanazono``): CJK Extensions B–F, for the Han characters the Noto CJK
  fonts lack;
* ``Symbola`` (``fonts-symbola``): emoji and pictographs, in a monochrome outline font XeTeX can
  embed (Noto Color Emoji's bitmaps it cannot).

xeCJK tries them in that order (``AutoFallBack``) for every character of its CJK classes, to
which the emoji and pictograph blocks are added. Only fallbacks installed on this machine are
named (a missing font would stop LaTeX); what is still not covered — by the main font, or for
CJK-class characters by the CJK font and the fallbacks — is a ``pdf-glyph`` warning at the
character's file and line, from the same fontconfig XeTeX asks.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from typing import TYPE_CHECKING

from docutils import nodes

from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

#: Fallback fonts, tried in order, with the Debian package that installs each.
FALLBACKS: tuple[tuple[str, str], ...] = (("HanaMinB", "fonts-hanazono"),
                                          ("Symbola", "fonts-symbola"))
#: Emoji and pictographs, set by xeCJK (so with its fallbacks) like CJK characters.
EMOJI_RANGES = ((0x2600, 0x27BF), (0x1F000, 0x1FAFF))
#: xeCJK's own CJK class (its default ranges that a fallback can fill: Han, extensions).
CJK_RANGES = ((0x2E80, 0x2FDF), (0x3000, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F),
              (0xFF00, 0xFFEF), (0x20000, 0x3134F))


@functools.cache
def installed(family: str) -> bool:
    """Whether fontconfig has a font of *family* (as fontspec will look it up)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    result = subprocess.run([fc_list, "-q", family], capture_output=True, check=False)
    return result.returncode == 0


@functools.cache
def charset(family: str) -> tuple[tuple[int, int], ...]:
    """The code point ranges a font of *family* covers (fontconfig's charset); () if unknown."""
    fc_match = shutil.which("fc-match")
    if fc_match is None or not installed(family):
        return ()
    result = subprocess.run([fc_match, "-f", "%{charset}", family],
                            capture_output=True, text=True, check=False)
    ranges = []
    for part in result.stdout.split():
        low, _, high = part.partition("-")
        try:
            ranges.append((int(low, 16), int(high or low, 16)))
        except ValueError:
            continue
    return tuple(ranges)


def fallback_preamble(families: list[str]) -> str:
    """xeCJK's fallback setup for the CJK families ``rm``, ``sf``, ``tt``."""
    classes = ", ".join(f'"{low:X} -> "{high:X}' for low, high in EMOJI_RANGES)
    lines = [r"\xeCJKDeclareCharClass{CJK}{" + classes + "}"]
    if families:
        fonts = ",".join(f"{{{family}}}" for family in families)
        lines.append(r"\xeCJKsetup{AutoFallBack=true}")
        lines += [rf"\setCJKfallbackfamilyfont{{{family}}}{{{fonts}}}" for family in
                  ("rm", "sf", "tt")]
    return "\n".join(lines) + "\n"


def available_fallbacks() -> list[str]:
    return [family for family, _ in FALLBACKS if installed(family)]


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" if high > low
                   else re.escape(chr(low)) for low, high in ranges if low >= 0x20)


@functools.cache
def unprintable(main: str, cjk: str, fallbacks: tuple[str, ...]) -> re.Pattern[str] | None:
    """A character no font will print: outside the main font, and, for the CJK and emoji
    classes, outside the CJK font and every fallback. None when fontconfig cannot tell."""
    main_set = charset(main)
    if not main_set:
        return None
    cjk_set = tuple(r for family in (cjk, *fallbacks) for r in charset(family))
    cjk_class = CJK_RANGES + EMOJI_RANGES
    covered_cjk = tuple(
        (max(low, c_low), min(high, c_high))
        for low, high in cjk_set for c_low, c_high in cjk_class
        if max(low, c_low) <= min(high, c_high)
    )
    # whitespace and controls print as nothing on purpose
    return re.compile(f"[^\\s\\x00-\\x1f{_class(main_set)}{_class(covered_cjk)}]")


def glyph_checker(main_font: str) -> Callable[[Sphinx, nodes.document, str], None]:
    """The ``doctree-resolved`` handler for a PDF whose main and CJK font is *main_font*:
    ``pdf-glyph`` for each character of the LaTeX output no font prints, at its line."""

    def check_glyphs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
        if app.builder.format != "latex":
            return
        pattern = unprintable(main_font, main_font, tuple(available_fallbacks()))
        if pattern is None:
            return
        for text in doctree.findall(nodes.Text):
            missing = dict.fromkeys(pattern.findall(str(text)))
            if missing and text.parent is not None:
                chars = ", ".join(f"{char!r} (U+{ord(char):04X})" for char in missing)
                packages = " ".join(package for family, package in FALLBACKS
                                    if not installed(family))
                hint = (f"apt-get install {packages}, or " if packages else "")
                warn(Problem.PDF_GLYPH,
                     f"{chars}: no font of the PDF has this character, which would print as "
                     f"nothing; {hint}name a font that has it in latex_elements, or write it "
                     "otherwise", text.parent)

    return check_glyphs
