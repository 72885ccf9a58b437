"""Sphinx's Chinese search language: jieba's words plus Han bigrams, segmentations cached.

:class:`SearchChinese` subclasses Sphinx's own (:mod:`sphinx.search.zh`). Every term Sphinx's
index would hold is still there, for the same pages; each text also gives its Han bigrams
(:func:`~seriesbook.search.splitter.han_bigrams`), so any Chinese phrase a reader types can be
found, and the search page gets seriesbook's query splitter and ranking
(``search/seriesbook-search.js``, through Sphinx's ``js_splitter_code`` hook). Further:

* ``split`` asks the :class:`~seriesbook.search.cache.Splits` first (a kept text's words
  and Latin words, so neither jieba nor the bigram and Latin scans run again); on a miss it runs
  ``cut_for_search`` of a private :class:`jieba.Tokenizer` prepared exactly as Sphinx prepares
  jieba's global one (default dictionary, then ``html_search_options["dict"]`` loaded once more
  as a user dictionary, which doubles the total frequency and so shapes every segmentation);
* that tokenizer is made on the first miss only, so a build whose texts are all cached never
  loads jieba's dictionary (the slowest step of a cold index), and once the dictionary has been
  stored by first character (:mod:`~seriesbook.search.dictionary`) a miss loads only the
  entries it needs;
* each text's words come back once each, in order of first occurrence: ``IndexBuilder.feed``
  only adds words to sets, so repeats change nothing but cost time;
* the English stems of Latin words are memoised across pages, not only within one page, and a
  word without an ASCII character is its own stem, without asking the stemmer.

Latin terms are still collected from every text as Sphinx does, because ``stem`` depends on them;
while a page is indexed for keeping (:mod:`~seriesbook.search.pages`), the Latin words it adds
(:attr:`SearchChinese.page_latin`) and the words whose stems depended on them
(:attr:`SearchChinese.noted`) are noted.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.search.zh import JIEBA_DEFAULT_DICT
from sphinx.search.zh import SearchChinese as SphinxSearchChinese

from seriesbook import compat
from seriesbook.core.problems import Problem, warn
from seriesbook.search.cache import Splits, signature, words_of
from seriesbook.search.dictionary import DB_NAME, PartialDictionary, write_table
from seriesbook.search.splitter import diagram_texts, han_bigrams, inline_junctions

if TYPE_CHECKING:
    import jieba
    from docutils import nodes

#: Mermaid's own words, left out of a diagram's indexed words.
MERMAID = frozenset({
    "flowchart", "graph", "td", "tb", "lr", "rl", "bt", "subgraph", "direction", "end",
    "sequencediagram", "participant", "actor", "as", "note", "over", "left", "right", "of",
    "loop", "alt", "else", "opt", "par", "and", "critical", "break", "rect", "rgb", "activate",
    "deactivate", "autonumber", "classdef", "class", "style", "fill", "stroke", "linkstyle",
    "click", "statediagram", "classdiagram", "erdiagram", "gantt", "pie", "state",
})
#: Any ASCII character (a word without one needs no English stemming).
ASCII = re.compile(r"[\x00-\x7f]")
#: The search page's query splitter and ranking, appended to ``language_data.js``.
SEARCH_SCRIPT = Path(__file__).parent / "seriesbook-search.js"


def user_dictionary(options: dict[str, str]) -> str | None:
    """The dictionary Sphinx loads as a user dictionary for *options*, if any."""
    path = options.get("dict", JIEBA_DEFAULT_DICT)
    return path if path and Path(path).is_file() else None


def make_tokenizer(userdict: str | None) -> jieba.Tokenizer:
    """A tokenizer in the state Sphinx's ``SearchChinese.__init__`` leaves jieba's global one.

    Loading jieba's own ``dict.txt`` again as a user dictionary keeps every frequency and adds
    each line's frequency to the total a second time; doing that arithmetic directly gives the
    same tokenizer without re-reading 349,000 lines (``tests/test_search.py`` compares both).
    """
    import jieba

    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    if userdict is None:
        return tokenizer
    if Path(userdict).resolve() == Path(JIEBA_DEFAULT_DICT).resolve():
        compat.double_total(tokenizer)
    else:
        tokenizer.load_userdict(userdict)
    return tokenizer


class SearchChinese(SphinxSearchChinese):
    """Sphinx's Chinese search language with Han bigrams, segmenting each distinct text once."""

    js_splitter_code = SEARCH_SCRIPT.read_text(encoding="utf-8")

    def __init__(self, options: dict[str, str]) -> None:
        # Sphinx's __init__ loads jieba's dictionary; do its other work and defer that.
        compat.init_search_language(self, options)
        import snowballstemmer  # type: ignore[import-untyped]

        self.latin_terms: set[str] = set()
        self.stemmer = snowballstemmer.stemmer("english")
        self.userdict = user_dictionary(options)
        self.splits: Splits | None = None
        self.table: Path | None = None
        self.key: tuple[Any, ...] = ()
        self._tokenizer: jieba.Tokenizer | None = None
        self._partial: PartialDictionary | None = None
        self._stems: dict[str, str] = {}
        self.extras: dict[str, list[str]] = {}
        self.titles: set[str] = set()
        self.given: set[str] | None = None
        #: While a page is noted: the Latin words its texts add to :attr:`latin_terms`, and
        #: each word whose stem depended on them, with whether it was one.
        self.page_latin: set[str] | None = None
        self.noted: dict[str, bool] | None = None

    def attach(self, doctreedir: Path) -> None:
        """Take split texts from :attr:`splits` and keep jieba's split dictionary in
        *doctreedir* (once per build)."""
        self.key = signature(self.userdict)
        self.splits = Splits()
        self.table = doctreedir / DB_NAME

    def _open_tokenizer(self) -> jieba.Tokenizer:
        if self.table is not None:
            self._partial = PartialDictionary.open(self.table, self.key)
            if self._partial is not None:
                return self._partial.tokenizer
        tokenizer = make_tokenizer(self.userdict)
        if self.table is not None:
            try:
                write_table(self.table, self.key, tokenizer)
            except (OSError, sqlite3.Error) as error:
                warn(Problem.SEARCH_CACHE, f"cannot store jieba's dictionary: {error}", None)
        return tokenizer

    def close(self) -> None:
        if self._partial is not None:
            self._partial.close()

    def segment(self, text: str) -> list[str]:
        """The distinct words of jieba's ``cut_for_search`` of *text*."""
        if self._tokenizer is None:
            self._tokenizer = self._open_tokenizer()
        if self._partial is not None:
            self._partial.prepare(text)
        return list(dict.fromkeys(self._tokenizer.cut_for_search(text)))

    def split(self, input: str) -> list[str]:
        """jieba's words (as Sphinx's), the text's Han bigrams, its Latin words: each once.

        Words of the page that no text node holds come with the text before them
        (:attr:`extras`, set by :meth:`begin_page`). Within a page, a word already given for
        another text (not a title) is not given again: ``IndexBuilder.feed`` adds the page's
        words to sets, so repeats would change nothing but cost most of its time.
        """
        cached = self.splits.get(input) if self.splits is not None else None
        if cached is None:
            latin1 = [term.strip() for term in self.latin1_letters.findall(input)]
            own = list(dict.fromkeys(self.segment(input) + han_bigrams(input) + latin1))
            if self.splits is not None:
                self.splits.put(input, own, latin1)
        else:
            own, latin1 = words_of(cached[0]), words_of(cached[1])
        self.latin_terms.update(latin1)
        if self.page_latin is not None:
            self.page_latin.update(latin1)
        extras = self.extras.get(input)
        words = list(dict.fromkeys(own + extras)) if extras else own
        if self.given is None or input in self.titles:
            return words
        new = [word for word in words if word not in self.given]
        self.given.update(new)
        return new

    def begin_page(self, doctree: nodes.document) -> None:
        """Before *doctree* is indexed: the bigrams across its inline markup, its diagrams."""
        self.extras, self.given = {}, None
        extras = inline_junctions(doctree)
        diagrams, self.titles = diagram_texts(doctree)
        for text, codes in diagrams.items():
            words = [w for code in codes for w in self.split(code) if w.lower() not in MERMAID]
            extras[text] = extras.get(text, []) + words
        self.extras = extras
        self.given = set()

    def stem_depends_on_terms(self, word: str) -> bool:
        """Whether :meth:`stem` of *word* (stemmed already) depends on :attr:`latin_terms`."""
        return len(word) >= 3 > len(self._stems[word])

    def stem(self, word: str) -> str:
        stemmed = self._stems.get(word)
        if stemmed is None:
            lowered = word.lower()
            # the English stemmer's suffixes, vowels and apostrophe are all ASCII: a word with
            # no ASCII character (most of a Chinese book's) is its own stem, and is not handed
            # to it (tests/test_search_kept.py checks that against the stemmer)
            own = ASCII.search(lowered) is None
            stemmed = self._stems[word] = lowered if own else self.stemmer.stemWord(lowered)
        if len(word) >= 3 > len(stemmed):
            seen = word in self.latin_terms
            if self.noted is not None:
                self.noted[word] = seen
            if seen:
                return word.lower()
        return stemmed
