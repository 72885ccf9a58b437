"""Every ``seriesbook_*`` option of ``conf.py``, in one dataclass.

Each field is one option: its name (without the ``seriesbook_`` prefix), type, default and help
text live together, so the README's configuration table, Sphinx's registration and the code that
reads the options cannot drift apart. ``setup()`` registers every field as a Sphinx config value;
capabilities read them back as a typed object with :func:`get_config`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.typing import ExtensionMetadata

PREFIX = "seriesbook_"
Rebuild = Literal["env", "html", ""]

DEFAULT_CHAPTER_PATTERNS: dict[str, str] = {
    "zh": r"第(?P<chapter>\d+)章",
    "en": r"Chapter (?P<chapter>\d+)",
}
DEFAULT_GATES: dict[str, int] = {"min_han": 6500, "min_mermaid": 4, "min_excerpts": 2}
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


def _option(default: Any, help: str, rebuild: Rebuild = "env") -> Any:
    """A dataclass field carrying the option's help text and Sphinx rebuild kind."""
    meta = {"help": help, "rebuild": rebuild}
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
        ["zh_CN"], "Languages `make html` builds, each into `_build/html/<language>/`.", "html"
    )
    edition_url: str = _option(
        "../{language}/{target}",
        "Link to the same page in another edition (language switcher): fields {language}, "
        "{rtd_language} (zh_CN → zh-cn), {pagename}, {target} (the page's file); relative to "
        "the edition's root, or absolute, e.g. `/{rtd_language}/latest/{target}`.",
        "html",
    )
    download_url: str = _option(
        "",
        "Link to the book's PDF and EPUB in the theme's download menu: fields {format} "
        "(pdf, epub), {language}, {rtd_language}; relative to the edition's root, or absolute, "
        "e.g. `/_/downloads/{rtd_language}/latest/{format}/` on Read the Docs. Empty: no links.",
        "html",
    )
    mermaid_dir: str = _option(
        "",
        "Directory holding npm's `mermaid/dist` (default: `node_modules/mermaid/dist` next to "
        "conf.py, or $SERIESBOOK_MERMAID_DIR). Copied into the site so no CDN is needed.",
        "html",
    )
    chapter_patterns: dict[str, str] = _option(
        DEFAULT_CHAPTER_PATTERNS,
        "Per-language regex for chapter mentions, keyed by language or its prefix; "
        "the group `chapter` is the chapter number.",
    )
    sources: dict[str, dict[str, str]] = _option(
        {},
        "Cited repositories: name → {repo, ref, commit (optional), path (optional local copy)}.",
    )
    default_source: str = _option("", "Source used by citations that name none.")
    source_paths: dict[str, str] = _option(
        {},
        "Local copies of sources (name → git repository or directory); normally given by "
        "`--source NAME=PATH` or $SERIESBOOK_SOURCE_<NAME>, not in conf.py.",
    )
    source_suffixes: list[str] = _option(
        list(DEFAULT_SOURCE_SUFFIXES),
        "File suffixes that make a slash-less `name:LINE` literal a citation.",
    )
    lock_file: str = _option(
        "citations.lock.json", "Citation lock, relative to the directory of conf.py."
    )
    gates: dict[str, int] = _option(
        DEFAULT_GATES, "Chapter gates for chapters not marked `status: draft`.", "env"
    )
    search_cache: bool = _option(
        True,
        "Keep jieba's segmentation of each text in the doctree directory, so a rebuild only "
        "segments changed text (the index is the same as Sphinx's either way).",
        "",
    )


def option_fields() -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(SeriesbookConfig)


def get_config(config: Config) -> SeriesbookConfig:
    """The options of one build as a typed, read-only object."""
    return SeriesbookConfig(**{f.name: getattr(config, PREFIX + f.name) for f in option_fields()})


def source_language(config: Config) -> str:
    """The book's own language: the first of ``seriesbook_editions``."""
    editions = get_config(config).editions
    return editions[0] if editions else str(config.language or "en")


def is_translated_edition(config: Config) -> bool:
    """Whether this build is a translated edition (its text comes from the catalogs)."""
    return bool(config.language) and config.language != source_language(config)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def setup(app: Sphinx) -> ExtensionMetadata:
    from seriesbook import __version__

    for f in option_fields():
        default = _default(f)
        app.add_config_value(
            PREFIX + f.name, default, f.metadata["rebuild"], types=frozenset({type(default)})
        )
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
