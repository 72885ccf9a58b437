"""The configuration dataclass and the problem table are the single sources the docs follow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from seriesbook import CAPABILITIES
from seriesbook.core.config import PREFIX, SeriesbookConfig, get_config, option_fields
from seriesbook.core.problems import Problem
from sphinx.testing.util import SphinxTestApp

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
# the manual: the README and the pages of docs/ (issue 30 moves the manual there)
MANUAL = README + "".join(path.read_text("utf-8") for path in sorted(REPO.glob("docs/*.md")))


@pytest.mark.parametrize("name", [f.name for f in option_fields()])
def test_readme_documents_every_option(name: str) -> None:
    assert re.search(rf"`{PREFIX}{name}`", README), f"README lacks {PREFIX}{name}"


@pytest.mark.parametrize("problem", list(Problem))
def test_readme_documents_every_problem_code(problem: Problem) -> None:
    assert f"`{problem.code}`" in MANUAL, f"README and docs/ lack problem code {problem.code}"


def test_problem_codes_are_unique_and_documented() -> None:
    codes = [p.code for p in Problem]
    assert len(codes) == len(set(codes))
    assert all(p.__doc__ and p.__doc__ != Problem.__doc__ for p in Problem)


def test_every_option_has_help_text() -> None:
    for f in option_fields():
        assert f.metadata["help"], f.name


@pytest.mark.sphinx("html", testroot="core", confoverrides={"seriesbook_editions": ["zh_CN", "en"]})
def test_config_round_trip(app: SphinxTestApp) -> None:
    options = get_config(app.config)
    assert isinstance(options, SeriesbookConfig)
    assert options.editions == ["zh_CN", "en"]
    assert options.gates == {"min_han": 6500, "min_mermaid": 4, "min_excerpts": 2}


@pytest.mark.sphinx("html", testroot="core")
def test_seriesbook_enables_every_capability(app: SphinxTestApp) -> None:
    for name in ("myst_parser", "sphinxcontrib.mermaid", *CAPABILITIES):
        assert name in app.extensions, name
    for name in ("seriesbook", *CAPABILITIES):
        metadata = app.extensions[name]
        assert metadata.version
        assert metadata.parallel_read_safe is True
        assert metadata.parallel_write_safe is True


def test_check_reports_translated_text_at_the_authors_line() -> None:
    """Sphinx names translated text "<file>:<line>:<translated>:<line in the message>"."""
    from seriesbook.commands.reading import _Collector

    collector = _Collector.__new__(_Collector)  # _where needs no app for "file:line" locations
    assert collector._where("/book/ch05.md:63:<translated>:1") == ("/book/ch05.md", 63)
    assert collector._where("/book/ch05.md:12") == ("/book/ch05.md", 12)
