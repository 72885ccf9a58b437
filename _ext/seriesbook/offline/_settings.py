"""Defaults for the LaTeX and EPUB builders: XeLaTeX with xeCJK and Noto CJK in every language.

Sphinx picks XeLaTeX only for Chinese; the English edition would fall back to pdflatex and lose
every untranslated Chinese character, so every language gets XeLaTeX here, with one set of
fonts (Debian's ``fonts-noto-cjk``: the CJK fonts' own Latin letters match the Chinese text,
and the monospaced face keeps a Chinese comment two columns per character in code).

Every value is a default: what ``conf.py`` (or ``-D``) sets wins, key by key for the
``latex_elements`` dictionary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seriesbook.core.config import is_set_by_author, is_traditional_chinese, language_tag
from seriesbook.offline._glyphs import available_fallbacks, fallback_preamble

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

MAIN_FONT = "Noto Serif CJK SC"
SANS_FONT = "Noto Sans CJK SC"
MONO_FONT = "Noto Sans Mono CJK SC"

# The CJK fonts' own Latin letters serve Latin text; their quotes, dashes and § are full-width
# unless the `pwid` feature asks for the proportional forms, which Latin text wants.
LATIN = "RawFeature=+pwid, ItalicFeatures={FakeSlant=0.15}, BoldItalicFeatures={FakeSlant=0.15}"
# Traditional Chinese editions print with Noto CJK's TC fonts (Taiwan's and Hong Kong's glyph
# forms); every other edition with the SC ones (the book's untranslated text is Simplified).


def font_names(language: str) -> tuple[str, str, str]:
    """The main, sans and mono fonts of an edition in *language*."""
    if is_traditional_chinese(language):
        names = (MAIN_FONT, SANS_FONT, MONO_FONT)
        main, sans, mono = (name.replace(" SC", " TC") for name in names)
        return main, sans, mono
    return MAIN_FONT, SANS_FONT, MONO_FONT


def fonts(language: str) -> str:
    """The fontspec and xeCJK lines of an edition in *language*."""
    main, sans, mono = font_names(language)
    return rf"""
\setmainfont{{{main}}}[{LATIN}, ItalicFont={{{main}}},
  BoldItalicFont={{{main} Bold}}]
\setsansfont{{{sans}}}[{LATIN}, ItalicFont={{{sans}}},
  BoldItalicFont={{{sans} Bold}}]
\setmonofont{{{mono}}}[ItalicFont={{{mono}}}, ItalicFeatures={{FakeSlant=0.15}}]
\usepackage{{xeCJK}}
\setCJKmainfont{{{main}}}[ItalicFont={{{main}}}]
\setCJKsansfont{{{sans}}}[ItalicFont={{{sans}}}]
\setCJKmonofont{{{mono}}}[ItalicFont={{{mono}}}]
% § is a Latin sign: "§12.3" without CJK spacing around the §.
\xeCJKDeclareCharClass{{Default}}{{"00A7}}
"""

# Named PDF destinations (see _structure.py): \phantomsection's own mechanism, with our name.
PREAMBLE = r"""
\makeatletter
\newcommand\seriesbookdestination[1]{\Hy@raisedlink{\hyper@anchorstart{#1}\hyper@anchorend}}
\makeatother
\xeCJKsetup{CheckSingle=true}
% Links are coloured; slanted Chinese (there is no italic) reads badly.
\renewcommand{\sphinxcrossref}[1]{#1}
\setlength{\headheight}{15pt}
"""

# In English text, quotes, dashes and ellipses are Latin punctuation, not full-width CJK ones.
LATIN_PUNCTUATION = r"""
\xeCJKDeclareCharClass{Default}{"2018, "2019, "201C, "201D, "2014, "2026}
"""

LATEX_ELEMENTS: dict[str, str] = {
    "fontenc": r"\usepackage{fontspec}",
    # One chapter style for every language (Sphinx's for all but English, which it capitalises).
    "fncychap": (
        r"\usepackage[Sonny]{fncychap}"
        r"\ChNameVar{\Large\normalfont\sffamily}\ChTitleVar{\Large\normalfont\sffamily}"
    ),
    # xeCJK adds no stray spaces inside Verbatim with \xeCJKVerbAddon.
    "fvset": r"\fvset{fontsize=\small,formatcom=\xeCJKVerbAddon}",
    # The § numbers are written by hand: LaTeX numbers nothing, not even parts.
    "secnumdepth": r"\setcounter{secnumdepth}{-2}",
    # Long code lines wrap, even at characters that are not natural break points.
    "sphinxsetup": "verbatimwrapslines=true, verbatimforcewraps=true, inlineliteralwraps=true",
    # No index: the book has none, and an empty one is an empty chapter.
    "makeindex": "",
    "printindex": "",
}

DEFAULTS: dict[str, Any] = {
    "latex_engine": "xelatex",
    "latex_show_urls": "no",
    "latex_show_pagerefs": False,
    "latex_use_xindy": False,
    "latex_domain_indices": False,
    "epub_show_urls": "no",
    "epub_use_index": False,
    "epub_domain_indices": False,
}


def latex_elements(language: str) -> dict[str, str]:
    """The LaTeX preamble pieces for an edition in *language*: the Chinese edition keeps xeCJK's
    full-width quotes and dashes, the others typeset them as Latin punctuation."""
    elements = dict(LATEX_ELEMENTS)
    # the edition's CJK fonts, then the fallbacks (emoji, CJK Ext. B+)
    elements["fontpkg"] = fonts(language) + fallback_preamble(available_fallbacks())
    elements["preamble"] = PREAMBLE
    if not language.startswith(("zh", "ja", "ko")):
        elements["preamble"] += LATIN_PUNCTUATION
    return elements


def apply_defaults(app: Sphinx, config: Config) -> None:
    for name, value in DEFAULTS.items():
        if not is_set_by_author(config, name):
            config[name] = value
    language = str(config.language or "en")
    authors: dict[str, str] = dict(config.latex_elements)
    ours = latex_elements(language)
    # The author's preamble comes after ours, which defines what our output uses.
    preamble = ours["preamble"] + authors.pop("preamble", "")
    config.latex_elements = {**ours, **authors, "preamble": preamble}
    if not is_set_by_author(config, "epub_language"):
        config.epub_language = language_tag(language)  # EPUB wants BCP 47: zh-CN
