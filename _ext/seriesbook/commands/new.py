"""``seriesbook new DIR``: a volume that builds at once, offline, with 0 warnings.

The files come from the templates in ``volume/`` (package data, :class:`string.Template`):
``conf.py`` (title, language, the cited sources pinned to their releases), ``source/index.md``
and a first chapter (a § section, a diagram, a citation) in the volume's language, the cited
``examples/``, ``locale/``, a ``Makefile`` (``make html``, ``make test``), ``.readthedocs.yaml``,
``.ci/run`` and a README. The first chapter cites the volume's own ``examples/`` directory, read
from the directory itself, so ``seriesbook check`` verifies it without network or lock. Nothing
is ever overwritten: an existing file in the way stops the command before anything is written.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from seriesbook import __version__
from seriesbook.commands.reading import UsageError

TEMPLATES = Path(__file__).with_name("volume")
SOURCE_SPEC = re.compile(r"(?P<name>[A-Za-z0-9_.-]+)=(?P<repo>[^@\s]+)@(?P<ref>[^@\s]+)")
LANGUAGE = re.compile(r"[a-z]{2,3}([_-][A-Za-z0-9]{2,8})*")


@dataclass(frozen=True)
class Source:
    name: str
    repo: str
    ref: str


def parse_source(spec: str) -> Source:
    """``NAME=REPO@REF`` (``pytorch=https://github.com/pytorch/pytorch@v2.11.0``)."""
    match = SOURCE_SPEC.fullmatch(spec)
    if match is None:
        raise UsageError(f"--source expects NAME=REPO@REF, got {spec!r}")
    if match["name"] == "examples":
        raise UsageError("--source examples=…: 'examples' is the volume's own examples/ source")
    return Source(match["name"], match["repo"], match["ref"])


def _files(language: str) -> dict[str, str]:
    """Target path in the volume → template file."""
    flavour = "zh" if language.startswith("zh") else "en"
    return {
        "conf.py": "conf.py.txt",
        "source/index.md": f"index.{flavour}.md",
        "source/ch01.md": f"ch01.{flavour}.md",
        "examples/hello.py": "hello.py.txt",
        "locale/README.md": "locale-README.md.txt",
        "Makefile": "Makefile.txt",
        "requirements.txt": "requirements.txt.txt",
        ".readthedocs.yaml": "readthedocs.yaml.txt",
        ".ci/run": "ci.txt",
        "README.md": "README.md.txt",
    }


def volume_files(title: str, language: str, sources: list[Source]) -> dict[str, str]:
    """Every file of a new volume, by its path in the volume."""
    names = [s.name for s in sources]
    if len(set(names)) != len(names):
        raise UsageError(f"--source names a source twice: {names}")
    lines = "".join(
        f"    {s.name!r}: {{\"repo\": {s.repo!r}, \"ref\": {s.ref!r}}},\n" for s in sources
    )
    major, minor, *_ = __version__.split(".")
    values = {
        "title": title,
        "title_repr": repr(title),
        "author_repr": repr(f"The authors of {title}"),
        "copyright_repr": repr(f"the authors of {title}"),
        "language_repr": repr(language),
        "repository_repr": repr("https://github.com/OWNER/REPOSITORY"),
        "sources": lines,
        "default_source_repr": repr(sources[0].name if sources else "examples"),
        "version": f"{major}.{minor}.0" if major == "0" else f"{major}.{minor}",
    }
    return {
        target: Template((TEMPLATES / template).read_text(encoding="utf-8")).substitute(values)
        for target, template in _files(language).items()
    }


def create_volume(directory: Path, title: str, language: str, sources: list[Source]) -> list[Path]:
    """Write a new volume into *directory*; refuse (before writing) if any file exists."""
    if not LANGUAGE.fullmatch(language):
        raise UsageError(f"--language expects a language such as zh_CN or en, got {language!r}")
    files = volume_files(title, language, sources)
    existing = [path for path in files if (directory / path).exists()]
    if existing:
        raise UsageError(
            f"{directory / existing[0]} exists: seriesbook new never overwrites "
            "(choose a new directory)"
        )
    written = []
    try:
        for path, text in files.items():
            target = directory / path
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("x", encoding="utf-8") as stream:
                stream.write(text)
            written.append(target)
    except OSError as error:
        raise UsageError(f"cannot write {error.filename}: {error.strerror}") from None
    os.chmod(directory / ".ci" / "run", 0o755)
    return written


def run_new(directory: str, title: str | None, language: str, sources: list[str]) -> int:
    target = Path(directory)
    title = title or target.resolve().name
    create_volume(target, title, language, [parse_source(s) for s in sources])
    print(f"created {title!r} ({language}) in {target}: cd {target} && make html")
    return 0
