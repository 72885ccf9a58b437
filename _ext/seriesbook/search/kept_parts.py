"""Each page's § parts kept by their text across builds, so an unchanged page costs no scan.

A page's § parts (:mod:`~seriesbook.search.sections`) are a function of the texts of its
parts (:func:`~seriesbook.search.sections.page_texts`) and of the search language's stems,
which for a few short stems also depend on whether the build has seen the word as a Latin
term (:meth:`seriesbook.search.zh.SearchChinese.stem`). So the parts are kept in
``<doctreedir>/seriesbook-search-parts.pickle`` under a fingerprint of the texts, with the
words whose stem depended on that and what it was; a kept entry is used only if the texts are
the same and each of those words is (or is not) a Latin term of this build as it was then, and
then it is what the scan would give. The file follows :mod:`seriesbook.core.pagestore`'s rules
(another format or a damaged file is an empty store; a page keeps exactly what it used).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from seriesbook.core.pagestore import PageStore, digest
from seriesbook.search.sections import PageTexts, SectionText, parts_of

if TYPE_CHECKING:
    from seriesbook.search.zh import SearchChinese

STORE_NAME = "seriesbook-search-parts.pickle"
STORE_KEY = ("seriesbook-search-parts", 1)


class KeptParts(NamedTuple):
    """A page's parts, and the Latin words whose stems depended on the build's Latin terms
    (each with whether it was one)."""

    depends: tuple[tuple[str, bool], ...]
    parts: tuple[SectionText, ...]


def fingerprint(texts: PageTexts) -> str:
    """What a page's parts are kept under: a digest of the texts they are made from."""
    return digest(texts)


def scan(texts: PageTexts, lang: SearchChinese) -> KeptParts:
    """The parts of *texts*, stemmed by *lang*, noting the stems that depended on its terms."""
    depends: dict[str, bool] = {}

    def latin(text: str) -> list[str]:
        keys = []
        for found in lang.latin1_letters.findall(text):
            word = found.strip()
            keys.append(lang.stem(word))
            if lang.stem_depends_on_terms(word):
                depends[word] = word in lang.latin_terms
        return keys

    parts = parts_of(texts, latin)
    return KeptParts(tuple(depends.items()), tuple(parts))


class PartsCache(PageStore[str, KeptParts]):
    """Parts by fingerprint (:class:`~seriesbook.core.pagestore.PageStore` rules); ``used``
    holds what each page of this build used."""

    def __init__(self, path: Path, key: tuple[object, ...]) -> None:
        super().__init__(path, key)
        self.used: dict[str, dict[str, KeptParts]] = {}

    @staticmethod
    def entry_ok(entry: object) -> bool:
        return isinstance(entry, KeptParts)

    @classmethod
    def open(cls, doctreedir: Path) -> PartsCache:
        return cls.read(doctreedir / STORE_NAME, STORE_KEY)

    def parts(self, docname: str, texts: PageTexts, lang: SearchChinese) -> list[SectionText]:
        """The parts of *docname* made of *texts*: kept ones if still right, else scanned."""
        if not texts:
            return []
        key = fingerprint(texts)
        kept = self.lookup.get(key)
        if kept is None or any((word in lang.latin_terms) != was for word, was in kept.depends):
            kept = self.lookup[key] = scan(texts, lang)
        self.used[docname] = {key: kept}
        return list(kept.parts)
