"""Locale's title mapping through an index: the same renaming as Sphinx's walk, byte for byte."""

from __future__ import annotations

import pickle
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document
from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.editions import _titles
from sphinx.testing.util import SphinxTestApp
from sphinx.transforms import i18n

NAMES = ["Alpha", "Beta", "Gamma", "Delta"]


def test_sphinx_method_is_the_pinned_one() -> None:
    """Guard: Sphinx changed ``_NodeUpdater.update_title_mapping``; re-read it and re-pin."""
    assert _titles.sphinx_method_is_pinned()
    assert _titles._SphinxNodeUpdater.__name__ == "_NodeUpdater"
    assert i18n.Locale.default_priority == 20  # between OpenTitleIndex and CloseTitleIndex
    assert _titles.OpenTitleIndex.default_priority < 20 < _titles.CloseTitleIndex.default_priority


def _rst_document(titles: list[str], aliases: list[tuple[str, str]]) -> nodes.document:
    """Sections titled ``titles`` and indirect targets ``alias → title`` (refname targets)."""
    lines = []
    for alias, title in aliases:
        lines += [f".. _{alias}: {title}_", ""]
    for title in titles:
        lines += [title, "=" * len(title), "", "Text.", ""]
    settings_ = get_default_settings(Parser)
    settings_.report_level = 5
    document = new_document("<titles>", settings_)
    Parser().parse("\n".join(lines), document)
    return document


def _translate_titles(
    document: nodes.document, translations: dict[str, str], updater: type[i18n._NodeUpdater]
) -> str:
    """Phase 1 of Locale for the titles: mapping, then the translated title's leaves."""
    for title in list(document.findall(nodes.title)):
        patch = nodes.paragraph("", translations[title.astext()])
        update = updater(title, patch, document, noqa=False)
        if update.update_title_mapping():
            update.update_leaves()
    ids = sorted(document.ids)
    return f"{document.pformat()}{sorted(document.nameids.items())}{document.nametypes}{ids}"


@settings(max_examples=150, deadline=None)
@given(
    titles=st.lists(st.sampled_from(NAMES), min_size=1, max_size=6),
    translations=st.fixed_dictionaries({name: st.sampled_from(NAMES) for name in NAMES}),
    aliases=st.lists(
        st.tuples(st.sampled_from(["a1", "a2", "a3"]), st.sampled_from(NAMES)),
        max_size=4,
        unique_by=lambda pair: pair[0],
    ),
)
def test_same_renaming_as_sphinx(
    titles: list[str], translations: dict[str, str], aliases: list[tuple[str, str]]
) -> None:
    """Chains (Alpha→Beta, Beta→Gamma), duplicate titles, aliases of aliases' targets."""
    sphinx = _translate_titles(_rst_document(titles, aliases), translations, i18n._NodeUpdater)
    document = _rst_document(titles, aliases)
    _titles._OPEN[document] = None  # inside Locale, as OpenTitleIndex marks it
    ours = _translate_titles(document, translations, _titles.IndexedNodeUpdater)
    assert ours == sphinx


def test_a_title_holding_a_target_rebuilds_the_index() -> None:
    document = _rst_document(["Alpha", "Beta"], [("a1", "Alpha")])
    _titles._OPEN[document] = {}
    title = next(document.findall(nodes.title))
    patch = nodes.paragraph("", "", nodes.target("", "", refname="beta"))
    update = _titles.IndexedNodeUpdater(title, patch, document, noqa=False)
    update.update_leaves()
    assert _titles._OPEN[document] is None


def _english_pages(
    make_app: Callable[..., SphinxTestApp], src: Path, jobs: int, *, speedups: bool = True
) -> tuple[dict[str, bytes], list[str]]:
    app = make_app(
        "html", srcdir=src, parallel=jobs, freshenv=True,
        confoverrides={"language": "en", "seriesbook_speedups": speedups},
    )
    app.build()
    warnings = app.warning.getvalue().replace(str(src), "<src>").splitlines()
    app.cleanup()
    out, doctrees = Path(app.outdir), Path(app.doctreedir)
    pages = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.html"))}
    for path in sorted(doctrees.glob("*.doctree")):
        doctree = pickle.loads(path.read_bytes())
        pages[path.name] = doctree.pformat().replace(str(src), "<src>").encode()
    return pages, warnings


@pytest.mark.parametrize("root", ["test-editions-book", "test-editions-titles"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_english_edition_is_the_same_with_and_without_the_index(
    make_app: Callable[..., SphinxTestApp],
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    root: str,
    jobs: int,
) -> None:
    renamed: list[tuple[str, str]] = []
    rename = _titles._rename_targets

    def counting(document: nodes.document, old: str, new: str) -> None:
        renamed.append((old, new))
        rename(document, old, new)

    monkeypatch.setattr(_titles, "_rename_targets", counting)
    # HTML byte for byte, and the doctrees (a renamed target's refname is not in the HTML)
    builds = []
    for indexed in (False, True):
        src = tmp_path / f"indexed-{indexed}"
        shutil.copytree(rootdir / root, src)
        builds.append(_english_pages(make_app, src, jobs, speedups=indexed))
    (off, off_warnings), (on, on_warnings) = builds
    assert off.keys() == on.keys()
    assert [name for name in off if off[name] != on[name]] == []
    assert off_warnings == on_warnings
    if jobs == 1:  # -j 2 renames in the workers
        assert renamed, "the index was not used"
