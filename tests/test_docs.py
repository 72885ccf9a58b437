"""The manual (``docs/``) is a Sphinx site built with seriesbook, with ``-W``; its option and
problem tables are made from the code; the README is a front page; LICENSE and CHANGELOG ship."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from seriesbook import __version__
from seriesbook.core.config import PREFIX, option_fields
from seriesbook.core.problems import Problem

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
README_MOST_LINES = 250


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("manual")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-c",
         str(DOCS), "-d", str(out / "doctrees"), str(DOCS), str(out / "html")],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert not result.stderr.strip(), result.stderr
    return out / "html"


def _cells(page: Path) -> list[list[str]]:
    """The manual's generated table on *page*, as the reader sees its text, row by row."""
    html = page.read_text(encoding="utf-8")
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row,
                                                                     re.S)]
        for row in rows
    ]


def test_every_page_of_docs_is_in_the_manual(manual: Path) -> None:
    index = (manual / "index.html").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        assert (manual / f"{page.stem}.html").is_file(), page.name
        if page.stem != "index":
            assert f'href="{page.stem}.html"' in index, f"{page.name} is in no toctree"


def test_options_table_lists_every_field_with_type_and_default(manual: Path) -> None:
    rows = {row[0]: row for row in _cells(manual / "configuration.html")}
    assert list(rows) == [PREFIX + f.name for f in option_fields()]
    for f in option_fields():
        name, kind, default, meaning = rows[PREFIX + f.name]
        assert kind == str(f.type) and default and meaning, name
    assert rows["seriesbook_gates"][2] == "{'min_han': 0, 'min_mermaid': 0, 'min_excerpts': 0}"


def test_problems_table_lists_every_code(manual: Path) -> None:
    rows = _cells(manual / "problems.html")
    assert [row[0] for row in rows] == [problem.code for problem in Problem]
    assert all(meaning for _code, meaning in rows)


def test_readme_is_a_front_page() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MOST_LINES
    commands = re.findall(r"^(make \w[\w-]*)", readme, re.M)
    assert commands[:2] == ["make html", "make test"]
    assert "docs/" in readme  # where the manual is


def test_license_and_changelog_of_this_release() -> None:
    assert "MIT License" in (REPO / "LICENSE").read_text(encoding="utf-8")
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {re.escape(__version__)} ", changelog, re.M)
