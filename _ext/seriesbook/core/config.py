"""Every ``seriesbook_*`` option of ``conf.py``, in one dataclass.

Each field is one option: its name (without the ``seriesbook_`` prefix), type, default, help
text and validator live together, so the manual's configuration table (made from it), Sphinx's
registration, the validation and the code that reads the options cannot drift apart.
``setup()`` registers every field as a Sphinx config value and validates them all at
``config-inited`` (a ``ConfigError`` naming the option and what is wrong, before anything reads
them); capabilities read them back as a typed object with :func:`get_config`.

Two rules every capability shares live here too: which editions the book has
(:func:`book_editions`) and how a per-language table is looked up (:func:`language_key`).
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sphinx.errors import ConfigError

from seriesbook import compat

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

PREFIX = "seriesbook_"
Rebuild = Literal["env", "html", ""]
#: What is wrong with an option's value, in words, or None when it is fine.
Validator = Callable[[Any], "str | None"]

DEFAULT_CHAPTER_PATTERNS: dict[str, str] = {
    "zh": r"第(?P<chapter>\d+)章",
    "en": r"Chapter (?P<chapter>\d+)",
}
#: No gate by default: any volume, in any language, at any length builds clean; a book sets its
#: own house rules in its conf.py (this repository's: 6,500 Han characters, 4 diagrams, 2 excerpts).
DEFAULT_GATES: dict[str, int] = {"min_han": 0, "min_mermaid": 0, "min_excerpts": 0}
DEFAULT_SOURCE_SUFFIXES: tuple[str, ...] = (
    ".py",
    ".pyi",
    ".h",
    ".hpp",
    ".cpp",
    ".cc",
    ".cu",
    ".cuh",
    ".c",
    ".yaml",
    ".yml",
    ".txt",
    ".md",
    ".json",
    ".toml",
    ".cmake",
    ".sh",
    ".rst",
    ".ini",
    ".cfg",
    ".mm",
    ".m",
)


# --- validators: what is wrong with a value, in words ---------------------------------------


def _shown(value: Any) -> str:
    text = repr(value)
    return (text if len(text) <= 60 else text[:59] + "…") + f" ({type(value).__name__})"


def _is_str(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be a string, not {_shown(value)}"


def _is_bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be True or False, not {_shown(value)}"


def _str_list(example: str) -> Validator:
    def check(value: Any) -> str | None:
        if isinstance(value, str):
            return f"must be a list of strings, e.g. [{example!r}], not the string {value!r}"
        if not isinstance(value, list | tuple):
            return f"must be a list of strings, e.g. [{example!r}], not {_shown(value)}"
        for item in value:
            if not isinstance(item, str) or not item:
                return f"every entry must be a non-empty string, not {_shown(item)}"
        if len(set(value)) != len(value):
            return f"lists an entry twice: {list(value)!r}"
        return None

    return check


def _str_dict(what: str) -> Validator:
    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"must be a dict of {what}, not {_shown(value)}"
        for key, item in value.items():
            if not isinstance(key, str) or not key:
                return f"every key must be a non-empty string, not {_shown(key)}"
            if not isinstance(item, str):
                return f"{key!r} must map to a string, not {_shown(item)}"
        return None

    return check


SOURCE_KEYS: dict[str, str] = {
    "repo": "the repository's URL",
    "ref": "the tag or branch cited",
    "commit": "the commit the ref must resolve to (optional)",
    "path": "a local copy, relative to conf.py (optional)",
    "generated": "generated files: path or glob → what to cite instead (optional)",
    "license": "the source's license, shown under its previewed lines (optional; PyTorch and "
    "vLLM are known)",
}


def _sources(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f'must be a dict of name → {{"repo": …, "ref": …}}, not {_shown(value)}'
    for name, spec in value.items():
        if not isinstance(name, str) or not name:
            return f"every source name must be a non-empty string, not {_shown(name)}"
        if not isinstance(spec, dict):
            return f'source {name!r} must be a dict {{"repo": …, "ref": …}}, not {_shown(spec)}'
        unknown = sorted(map(str, set(spec) - set(SOURCE_KEYS)))
        if unknown:
            return f"source {name!r}: unknown key {unknown[0]!r} (known: {', '.join(SOURCE_KEYS)})"
        for key, item in spec.items():
            if key == "generated":
                problem = _str_dict("path or glob → what to cite instead")(item)
                if problem:
                    return f"source {name!r}: generated {problem}"
            elif not isinstance(item, str):
                return f"source {name!r}: {key} must be a string, not {_shown(item)}"
    return None  # a source without repo or ref is the citations' cite-source problem


def _gates(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"must be a dict of gate → whole number ≥ 0, not {_shown(value)}"
    for key, minimum in value.items():
        if key not in DEFAULT_GATES:
            return f"unknown gate {key!r} (known: {', '.join(DEFAULT_GATES)})"
        if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 0:
            return f"{key} must be a whole number ≥ 0, not {_shown(minimum)}"
    return None


def _chapter_patterns(value: Any) -> str | None:
    problem = _str_dict("language → regular expression")(value)
    if problem:
        return problem
    for language, pattern in value.items():
        try:
            compiled = re.compile(pattern)
        except re.error as error:
            return f"the pattern of {language!r} is not a regular expression: {error}"
        if "chapter" not in compiled.groupindex:
            return f"the pattern of {language!r} has no group (?P<chapter>…) for the number"
    return None


EDITION_URL_FIELDS = {
    "language": "zh_CN",
    "rtd_language": "zh-cn",
    "pagename": "ch01",
    "target": "ch01.html",
}
DOWNLOAD_URL_FIELDS = {"format": "pdf", "language": "zh_CN", "rtd_language": "zh-cn"}


def _url_pattern(fields: dict[str, str]) -> Validator:
    """A format pattern that may use only *fields* (sample values fill them in the check)."""
    known = ", ".join("{" + name + "}" for name in fields)

    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return f"must be a string, not {_shown(value)}"
        try:
            names = [name for _, name, _, _ in string.Formatter().parse(value) if name is not None]
        except ValueError as error:
            return f"{value!r} is not a valid pattern ({error}); fields: {known}"
        for name in names:
            if name not in fields:  # also {0}, {} and {target.upper}
                return f"{value!r}: unknown field {{{name}}}; fields: {known}"
        try:
            value.format(**fields)
        except (ValueError, TypeError) as error:  # a bad conversion or format spec
            return f"{value!r} is not a valid pattern ({error}); fields: {known}"
        return None

    return check


def _option(
    default: Any, help: str, rebuild: Rebuild = "env", *, check: Validator = _is_str
) -> Any:
    """A dataclass field carrying the option's help text, Sphinx rebuild kind and validator."""
    meta = {"help": help, "rebuild": rebuild, "check": check}
    if isinstance(default, dict | list):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class SeriesbookConfig:
    """The book's seriesbook options (``conf.py`` names carry the ``seriesbook_`` prefix)."""

    repository_url: str = _option(
        "", "URL of the book's repository: the theme's repository and edit buttons.", "html"
    )
    repository_branch: str = _option("main", "Branch the edit button opens.", "html")
    editions: list[str] = _option(
        [],
        "Languages `make html` builds, each into `_build/html/<language>/`; the first is the "
        "book's own language. Empty (the default): the book's `language` only "
        "(see :func:`book_editions`).",
        "html",
        check=_str_list("zh_CN"),
    )
    edition_url: str = _option(
        "../{language}/{target}",
        "Link to the same page in another edition (language switcher): fields {language}, "
        "{rtd_language} (zh_CN → zh-cn), {pagename}, {target} (the page's file); relative to "
        "the edition's root, or absolute, e.g. `/{rtd_language}/latest/{target}`.",
        "html",
        check=_url_pattern(EDITION_URL_FIELDS),
    )
    download_url: str = _option(
        "",
        "Link to the book's PDF and EPUB in the theme's download menu: fields {format} "
        "(pdf, epub), {language}, {rtd_language}; relative to the edition's root, or absolute, "
        "e.g. `/_/downloads/{rtd_language}/latest/{format}/` on Read the Docs. Empty: no links.",
        "html",
        check=_url_pattern(DOWNLOAD_URL_FIELDS),
    )
    mermaid_dir: str = _option(
        "",
        "Another mermaid for the site: a directory holding npm's `mermaid/dist` (default: "
        "$SERIESBOOK_MERMAID_DIR, else the mermaid packaged with seriesbook). Copied into the "
        "site so no CDN is needed.",
        "html",
    )
    diagrams_in_browser: bool = _option(
        False,
        "A Mermaid diagram that cannot be drawn when the book is built is left to the reader's "
        "browser (the page then loads mermaid). False: it is a `diagram-draw` warning at its "
        "line and the page shows its source.",
        "env",
        check=_is_bool,
    )
    chapter_patterns: dict[str, str] = _option(
        DEFAULT_CHAPTER_PATTERNS,
        "Per-language regex for chapter mentions, keyed by language or its prefix; "
        "the group `chapter` is the chapter number.",
        check=_chapter_patterns,
    )
    sources: dict[str, dict[str, Any]] = _option(
        {},
        "Cited repositories: name → {repo, ref, commit (optional), path (optional local copy), "
        "generated (optional: path or glob → what to cite instead)}.",
        check=_sources,
    )
    default_source: str = _option("", "Source used by citations that name none.")
    source_paths: dict[str, str] = _option(
        {},
        "Local copies of sources (name → git repository or directory); normally given by "
        "`--source NAME=PATH` or $SERIESBOOK_SOURCE_<NAME>, not in conf.py.",
        check=_str_dict("source name → path"),
    )
    source_suffixes: list[str] = _option(
        list(DEFAULT_SOURCE_SUFFIXES),
        "File suffixes that make a slash-less `name:LINE` literal a citation.",
        check=_str_list(".py"),
    )
    lock_file: str = _option(
        "citations.lock.json", "Citation lock, relative to the directory of conf.py."
    )
    gates: dict[str, int] = _option(
        DEFAULT_GATES,
        "Chapter gates for chapters not marked `status: draft`: the least Chinese characters "
        "(`min_han`), Mermaid diagrams (`min_mermaid`) and source excerpts (`min_excerpts`) "
        "a finished chapter has; keys left out are 0 (no gate).",
        "env",
        check=_gates,
    )
    outdated_translations: bool = _option(
        True,
        "In a translated edition, show a fuzzy (possibly outdated) translation, marked, instead "
        "of the source text, when it keeps its message's § numbers, chapter mentions and "
        "citations. False: the source text (Sphinx's way).",
        check=_is_bool,
    )
    previews: bool = _option(
        True,
        "Previews of § sections, chapters and cited source lines on hover, focus or tap "
        "(HTML); False turns them off.",
        "html",
        check=_is_bool,
    )
    search_cache: bool = _option(
        True,
        "Keep jieba's segmentation of each text in the doctree directory, so a rebuild only "
        "segments changed text (the index is the same as Sphinx's either way).",
        "",
        check=_is_bool,
    )
    speedups: bool = _option(
        True,
        "Build-speed machinery: the reduced sidebar tocs, kept compiled templates, translated "
        "messages parsed once and kept, the title index inside Locale, citations' highlighted "
        "lines, code blocks' highlighting and the pages' icons kept. Off: Sphinx's own paths "
        "(the pages are the same byte for byte; for comparing, or to rule them out).",
        "",
        check=_is_bool,
    )


def option_fields() -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(SeriesbookConfig)


def get_config(config: Config) -> SeriesbookConfig:
    """The options of one build as a typed, read-only object."""
    return SeriesbookConfig(**{f.name: getattr(config, PREFIX + f.name) for f in option_fields()})


def validate(app: Sphinx | None, config: Config) -> None:
    """``config-inited``: every option checked by its field's validator, before anyone reads it."""
    for f in option_fields():
        problem = f.metadata["check"](getattr(config, PREFIX + f.name))
        if problem:
            raise ConfigError(f"{PREFIX}{f.name}: {problem}")


def book_editions(config: Config) -> list[str]:
    """The languages of the book's editions, its own language first.

    ``seriesbook_editions``, or else the ``language`` of ``conf.py`` alone (not a ``-D
    language=…`` override: building another language makes a translated edition of the book).
    """
    editions = list(get_config(config).editions)
    if editions:
        return editions
    raw = conf_py_values(config)
    own = raw.get("language") if "language" in raw else config.language
    return [str(own or "en")]


def conf_py_values(config: Config) -> dict[str, Any]:
    """What conf.py itself set, before ``-D`` overrides."""
    return compat.conf_py_values(config)


def is_set_by_author(config: Config, name: str) -> bool:
    """Whether conf.py or ``-D`` gave *name* a value (Sphinx keeps both, unmerged, until read):
    seriesbook's defaults for other extensions' options yield to the author's."""
    return name in config.overrides or name in conf_py_values(config)


def add_path(config: Config, name: str, path: str) -> None:
    """*path* in the list option *name* (``html_static_path``, ``templates_path``), once, in a
    list of this build's own: where conf.py sets no value, the value is Sphinx's default list,
    one object for every build of the process (the themes append to it too), so appending to it
    would reach the next build in the process (``seriesbook serve``, ``check``, the tests)."""
    current: list[str] = getattr(config, name)
    if path not in current:
        setattr(config, name, [*current, path])


def source_language(config: Config) -> str:
    """The book's own language: the first of its editions."""
    return book_editions(config)[0]


def language_key(language: str | None, keys: Iterable[str]) -> str | None:
    """The key of a per-language table for *language*: ``zh_CN`` itself, else its prefix ``zh``."""
    if not language:
        return None
    known = set(keys)
    if language in known:
        return language
    prefix = re.split(r"[_-]", language, maxsplit=1)[0]
    return prefix if prefix in known else None


def default_source(config: SeriesbookConfig) -> str:
    """The source of citations that name none: ``default_source``, else the only source."""
    if config.default_source:
        return config.default_source
    return next(iter(config.sources)) if len(config.sources) == 1 else ""


def edition_root(builder: Builder, pagename: str) -> str:
    """The way from *pagename*'s output file up to its edition's root (``""`` at the root):
    the one rule for every link an option gives relative to that root (the language switcher's
    ``edition_url``, the download menu's ``download_url``), whatever the builder's file layout
    (``ch01/sec.html``, dirhtml's ``ch01/sec/``)."""
    return "../" * builder.get_target_uri(pagename).count("/")


def from_edition_root(url: str, to_root: str) -> str:
    """An URL option's value as a link from a page: absolute as written, else relative to the
    edition's root (``edition_url``, ``download_url``), which *to_root* leads to
    (:func:`edition_root`)."""
    return url if url.startswith("/") or "://" in url else to_root + url


#: Sphinx languages whose BCP 47 tag names the script too: a Traditional Chinese edition
#: converted from the Simplified text (screen readers, fonts and search pick by script).
SCRIPT_TAGS = {"zh_TW": "zh-Hant-TW", "zh_HK": "zh-Hant-HK"}


def language_tag(language: str) -> str:
    """The BCP 47 tag of a Sphinx language, for ``lang``, ``xml:lang`` and ``hreflang``:
    ``zh_CN`` → ``zh-CN``, ``zh_TW`` → ``zh-Hant-TW`` (the one rule every mark of a language
    uses)."""
    return SCRIPT_TAGS.get(language, language.replace("_", "-"))


#: Sphinx languages written in Traditional Chinese: their PDF uses the TC fonts, their search
#: converts simplified queries to their text.
TRADITIONAL_CHINESE = ("zh_TW", "zh_HK", "zh_Hant")


def is_traditional_chinese(language: str) -> bool:
    return language.replace("-", "_").startswith(TRADITIONAL_CHINESE)


def rtd_language(language: str) -> str:
    """Read the Docs' name of a Sphinx language, as in its URLs: ``zh_CN`` → ``zh-cn``."""
    return language.lower().replace("_", "-")


def is_translated_edition(config: Config) -> bool:
    """Whether this build is a translated edition (its text comes from the catalogs)."""
    return bool(config.language) and config.language != source_language(config)


def option_default(f: dataclasses.Field[Any]) -> Any:
    """An option's default value (a fresh copy for lists and dicts)."""
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    for f in option_fields():
        default = option_default(f)
        types = {list, tuple} if isinstance(default, list) else {type(default)}
        rebuild = f.metadata["rebuild"]
        app.add_config_value(PREFIX + f.name, default, rebuild, types=frozenset(types))
    # before Sphinx's own type check (800), so a wrong option is one clear error, not two
    app.connect("config-inited", validate, priority=400)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
