"""``seriesbook.speed.smartquotes``: SmartQuotes skips the blocks it would leave as they are, and
the translated test books' doctrees and pages are byte for byte Sphinx's own."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from docutils.utils.smartquotes import educate_tokens
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.speed.smartquotes import QuickSmartQuotes, needs_educating
from sphinx.testing.util import SphinxTestApp
from sphinx.transforms import SphinxSmartQuotes

MakeApp = Callable[..., SphinxTestApp]
ROOTS = Path(__file__).parent / "roots"
#: The translated test books: every English message, plain and with quotes, dashes, ellipses.
TRANSLATED = ("book", "lang", "titles")
ACTIONS = ("qDe", "qde", "qbDe", "qBiew", "1", "0")


@given(st.text(alphabet=st.sampled_from(list("ab '\"`-.\\&;#9x\x00 —“’…中")), max_size=24),
       st.sampled_from(ACTIONS), st.sampled_from(["en", "de", "fr", "ja"]))
def test_a_text_that_needs_no_educating_is_given_back_unchanged(
        text: str, action: str, language: str) -> None:
    if not needs_educating(text):
        assert list(educate_tokens([("plain", text)], attr=action, language=language)) == [text]


@pytest.mark.parametrize("text", ["don't", '"quoted"', "a -- b", "wait...", ". . .", r"a\b",
                                  "&#8220;", "``double''"])
def test_what_educating_changes_is_seen(text: str) -> None:
    assert needs_educating(text)


def test_sphinx_reads_with_the_quick_transform(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-book", srcdir)
    app = make_app("html", srcdir=srcdir, confoverrides={"language": "en"})
    transforms = app.registry.get_transforms()
    assert QuickSmartQuotes in transforms
    assert not any(t.__name__ == "SphinxSmartQuotes" for t in transforms)


def _outputs(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix in {".html", ".doctree"}}


@pytest.mark.parametrize("name", TRANSLATED)
def test_translated_edition_is_sphinxs_own_with_the_quick_transform(
        make_app: MakeApp, tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """English edition with the quick SmartQuotes and with Sphinx's (everything else the same):
    the same doctrees and HTML, byte for byte, and the same warnings."""
    srcdir = tmp_path / name
    shutil.copytree(ROOTS / f"test-editions-{name}", srcdir)
    built = {}
    for quick in (True, False):
        if not quick:
            monkeypatch.setattr(QuickSmartQuotes, "apply", SphinxSmartQuotes.apply)
        builddir = srcdir / "_build" / str(quick)
        app = make_app("html", srcdir=srcdir, builddir=builddir, freshenv=True,
                       confoverrides={"language": "en"})
        app.build()
        warnings = [line for line in app.warning.getvalue().replace(str(builddir), "").splitlines()
                    if "while setting up extension" not in line]  # a second app, harmlessly
        built[quick] = (_outputs(builddir), warnings)
    (ours, our_warnings), (sphinx, sphinx_warnings) = built[True], built[False]
    assert any(key.endswith(".doctree") for key in ours)
    assert ours.keys() == sphinx.keys()
    assert [key for key in ours if ours[key] != sphinx[key]] == []
    assert our_warnings == sphinx_warnings


def test_speedups_off_is_sphinxs_transform(
        make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``seriesbook_speedups = False``: Sphinx's own SmartQuotes runs, never the quick loop."""
    import seriesbook.speed.smartquotes as quick

    srcdir = tmp_path / "book"
    shutil.copytree(ROOTS / "test-editions-book", srcdir)
    calls: list[object] = []
    monkeypatch.setattr(quick, "educate_quotes", lambda *args: calls.append(args))
    app = make_app("html", srcdir=srcdir, freshenv=True,
                   confoverrides={"language": "en", "seriesbook_speedups": False})
    app.build()
    assert calls == []
    monkeypatch.undo()
