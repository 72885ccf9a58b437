"""A converted edition: Traditional Chinese (``zh_TW``) catalogs made from the simplified source.

``seriesbook convert zh_TW`` (``make convert``) brings ``locale/zh_TW/LC_MESSAGES/*.po`` up to
date with ``make gettext``'s templates as ``update-po`` does, then fills every message no
person has translated by converting its source text: the prose pieces only (:mod:`._spans`:
code, roles, link destinations, URLs stay byte for byte), through the book's glossary and
OpenCC's ``s2twp`` (:mod:`._convert`, :mod:`._glossary`). Converted entries are marked
``# machine-converted`` until a person reviews them; a reviewed or hand-edited translation
is never converted again (:mod:`._catalog`). The edition is then built from its catalogs like
any translated edition.
"""

from __future__ import annotations

from seriesbook.convert._catalog import CatalogConversion, convert_catalog
from seriesbook.convert._convert import OPENCC_CONFIG, Conversion, convert_message
from seriesbook.convert._glossary import (
    DEFAULT_FALSE_FRIENDS,
    GLOSSARY_FILE,
    Glossary,
    GlossaryError,
    glossary_path,
    read_glossary,
)
from seriesbook.convert._spans import Piece, pieces, protected

#: The editions made by conversion from the book's simplified text, and OpenCC's configuration.
CONVERTED_LANGUAGES = {"zh_TW": OPENCC_CONFIG}

__all__ = [
    "CONVERTED_LANGUAGES",
    "DEFAULT_FALSE_FRIENDS",
    "GLOSSARY_FILE",
    "OPENCC_CONFIG",
    "CatalogConversion",
    "Conversion",
    "Glossary",
    "GlossaryError",
    "Piece",
    "convert_catalog",
    "convert_message",
    "glossary_path",
    "pieces",
    "protected",
    "read_glossary",
]
