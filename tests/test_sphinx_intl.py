"""sphinx-intl, the translators' familiar tool, on seriesbook's catalogs: ``sphinx-intl stat``
counts what ``seriesbook translations`` counts (its "translated" includes the fuzzy entries),
``sphinx-intl build``'s ``.mo`` files change nothing in the build, and ``sphinx-intl update``
(which drops the ``#|`` previous text) is answered: ``seriesbook update-po --help`` and the
README name the command to use instead.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from seriesbook.commands.cli import build_parser
from test_translations import EDITED_NEW, EDITED_OLD, ROOT, edit, translations, update_po

BIN = Path(sys.executable).parent
STAT_LINE = re.compile(r": (\d+) translated, (\d+) fuzzy, (\d+) untranslated\.")


@pytest.fixture
def edited_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The book after an author's edit and ``make update-po``: one fuzzy message with its #|."""
    book = tmp_path / "book"
    shutil.copytree(ROOT, book)
    edit(book / "ch01.md", EDITED_OLD, EDITED_NEW)
    update_po(book, capsys)
    return book


def sphinx_intl(book: Path, *args: str) -> str:
    """sphinx-intl's output (``stat`` exits 1 while a catalog is incomplete: not an error)."""
    if shutil.which("sphinx-intl", path=str(BIN)) is None:
        pytest.skip("sphinx-intl is not installed (the test extras bring it)")
    result = subprocess.run([str(BIN / "sphinx-intl"), *args], cwd=book, capture_output=True,
                            text=True, check=False)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    return result.stdout


def test_stat_counts_what_translations_counts(
    edited_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = translations(edited_book, capsys)
    counted = [tuple(map(int, m.groups())) for m in
               STAT_LINE.finditer(sphinx_intl(edited_book, "stat", "-d", "locale", "-l", "en"))]
    assert counted, "sphinx-intl stat printed no catalog"
    totals = tuple(sum(column) for column in zip(*counted, strict=True))
    # sphinx-intl's "translated" is every entry with a msgstr, fuzzy ones included
    fuzzy = report["fuzzy"]
    assert isinstance(fuzzy, int)
    assert totals == (report["translated"] + fuzzy, fuzzy, report["untranslated"])
    assert report["fuzzy"] == 1


def english_pages(book: Path) -> dict[str, bytes]:
    """The English edition as ``make html`` builds it (its own process: Sphinx's translators of
    its interface words are per process)."""
    out = book / "_build" / "html" / "en"
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D", "language=en",
                    "-d", str(book / "_build" / "doctrees"), str(book), str(out)], check=True)
    pages = {p.name: p.read_bytes() for p in out.glob("*.html")}
    shutil.rmtree(book / "_build")
    return pages


def test_build_mo_files_change_nothing_in_the_edition(edited_book: Path) -> None:
    pages = english_pages(edited_book)
    sphinx_intl(edited_book, "build", "-d", "locale")
    assert list((edited_book / "locale").rglob("*.mo")), "sphinx-intl build wrote no .mo"
    assert english_pages(edited_book) == pages


def test_update_po_names_itself_instead_of_sphinx_intl_update(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["update-po", "--help"])
    help_text = re.sub(r"-\s+", "-", " ".join(capsys.readouterr().out.split()))  # unwrapped
    assert "not `sphinx-intl update`" in help_text
    assert "make update-po" in help_text
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "not `sphinx-intl update`" in readme
