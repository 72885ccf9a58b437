"""The message parser gives MyST's doctrees, with MyST's renderer state, only cheaper."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.utils import new_document
from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
from myst_parser.parsers.mdit import create_md_parser
from myst_parser.parsers.sphinx_ import MystParser as MystsOwnParser
from seriesbook.editions._parsing import (
    _PAGE_MESSAGES,
    TRANSLATED_SOURCE_SUFFIX,
    MessageRenderer,
    MystParser,
)
from sphinx.testing.util import SphinxTestApp

MESSAGES = [
    "See §1.2 and `pkg/engine.py:5`, with {src}`Engine.run <pkg/engine.py:5-9>`.",
    "Chapter 2 has **bold**, *emphasis*, [a link](https://example.org) and `code`.",
    "# A heading\n\nA paragraph.\n\n- a list\n- of items",
    "张量的存储见 §1.2，参见第2章。",
    "Footnote[^1].\n\n[^1]: the note",
    "",
]


def _document(app: SphinxTestApp) -> nodes.document:
    settings = get_default_settings(MystsOwnParser)
    settings.env = app.env
    return new_document(str(Path(app.srcdir) / "msg.md"), settings)


def _parse(app: SphinxTestApp, parser_class: type[MystsOwnParser], text: str) -> str:
    document = _document(app)
    parser = parser_class()
    parser._config, parser._env = app.config, app.env  # what Sphinx's registry does
    parser.parse(text, document)
    return document.pformat()


@pytest.mark.sphinx("html", testroot="core")
@pytest.mark.parametrize("text", MESSAGES)
def test_same_doctree_as_myst(app: SphinxTestApp, text: str) -> None:
    assert app.registry.get_source_parser("markdown") is MystParser  # registered by editions
    ours = _parse(app, MystParser, text)
    assert ours == _parse(app, MystsOwnParser, text)
    assert ours == _parse(app, MystParser, text)  # the reused parser keeps no state between texts


@pytest.mark.sphinx("html", testroot="core")
def test_renderer_state_matches_myst(app: SphinxTestApp) -> None:
    """A MyST release that adds state to setup_render must fail here, not render differently."""
    md = create_md_parser(app.env.myst_config, SphinxRenderer)
    document = _document(app)
    options = {**md.options, "document": document}
    theirs, ours = SphinxRenderer(md), MessageRenderer(md)
    before = set(vars(theirs))
    env: dict[str, object] = {}
    theirs.setup_render(options, env)
    ours.setup_render(options, env)
    assert set(vars(ours)) == set(vars(theirs))
    for name in set(vars(theirs)) - before:
        assert vars(ours)[name] == vars(theirs)[name], name


def _publish_twice(app: SphinxTestApp, text: str) -> tuple[str, str, bool]:
    """Parse a message twice as Locale's two passes do (same page settings, same source)."""
    settings = get_default_settings(MystsOwnParser)
    settings.env = app.env
    source = f"{app.srcdir}/index.md:3{TRANSLATED_SOURCE_SUFFIX}"
    results = []
    for _ in range(2):
        document = new_document(source, settings)
        parser = MystParser()
        parser._config, parser._env = app.config, app.env
        parser.parse(text, document)
        results.append(document.pformat())
    remembered = (text, source) in _PAGE_MESSAGES.of(settings)
    return results[0], results[1], remembered


@pytest.mark.sphinx("html", testroot="core")
@pytest.mark.parametrize("text", MESSAGES)
def test_second_publish_of_a_message_is_the_same_doctree(app: SphinxTestApp, text: str) -> None:
    first, second, remembered = _publish_twice(app, text)
    assert remembered
    assert (
        first
        == second
        == _parse(app, MystsOwnParser, text).replace(
            "msg.md", f"index.md:3{TRANSLATED_SOURCE_SUFFIX}"
        )
    )


@pytest.mark.sphinx("html", testroot="core")
def test_a_message_that_warns_is_parsed_and_warns_again(app: SphinxTestApp) -> None:
    text = "An {unknown-role}`x` here."
    first, second, remembered = _publish_twice(app, text)
    assert not remembered and first == second
    assert app.warning.getvalue().count("unknown-role") == 2


@pytest.mark.parametrize("jobs", [1, 2])
def test_english_edition_is_byte_identical_with_and_without_reuse(
    make_app: Callable[..., SphinxTestApp],
    rootdir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    jobs: int,
) -> None:
    pages = []
    for reuse in (False, True):
        src = tmp_path / f"reuse-{reuse}"
        shutil.copytree(rootdir / "test-editions-book", src)
        app = make_app(
            "html", srcdir=src, parallel=jobs, freshenv=True,
            confoverrides={"language": "en", "seriesbook_speedups": reuse},
        )
        app.build()
        warnings = app.warning.getvalue().replace(str(src), "<src>").splitlines()
        app.cleanup()
        out = Path(app.outdir)
        html = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.html"))}
        pages.append((html, warnings))
    assert pages[0][0].keys() == pages[1][0].keys()
    assert [name for name in pages[0][0] if pages[0][0][name] != pages[1][0][name]] == []
    assert pages[0][1] == pages[1][1]
