"""``seriesbook.speed.smartquotes``: SmartQuotes skips the blocks it would leave as they are, and
the translated test books' doctrees and pages are byte for byte Sphinx's own."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.transforms.universal import SmartQuotes
from docutils.utils import new_document
from docutils.utils.smartquotes import educate_tokens
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.compat import educate_quotes
from seriesbook.speed.smartquotes import EDUCABLE, QuickSmartQuotes, needs_educating
from sphinx import addnodes
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


@given(st.one_of(st.text(), st.lists(st.sampled_from(
    ["a", " ", ".", ". ", "-", "x-", '"', "'", "`", "\\", "&", "\n", "中", "…"])).map("".join)))
def test_needs_educating_is_any_educable_in_the_text(text: str) -> None:
    """The quick test (``in``, a regular expression for the dots) is :data:`EDUCABLE`'s."""
    assert needs_educating(text) is any(piece in text for piece in EDUCABLE)


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


# --- the quick loop against docutils' own, node for node, on documents made to trip it ------------

# (the last five: educable only joined with others, or educated twice)
_WORDS = st.sampled_from(["a", "a", "\n", "don't", '"q"', "x -- y", "b", "...", "中文", "",
                          "-", ".", ". ", "x-", '\\"'])


@st.composite
def _documents(draw: st.DrawFn) -> Callable[[], tuple[nodes.document, StringIO]]:
    """A recipe for a document (made twice, the same): paragraphs whose texts repeat (docutils
    finds a text to replace by equality), nested inline markup, a reference between two text
    elements (the inner one is a block of its own, educated twice), a cross-reference (Sphinx's
    ``pending_xref`` is no text element: the inline in it is a block, maybe of another language),
    an option string (and one as a block), a literal, a text subclass, a language class without
    quotes, texts from another document (what a translated message's nodes keep) and in an
    element of another document, inline markup whose texts' parents have no document of their
    own, and a block whose ``parent`` is not the node holding it."""
    plan = draw(st.lists(st.tuples(
        st.lists(st.tuples(st.sampled_from(["text", "strong", "ref", "literal", "option",
                                            "subclass", "foreign", "stray", "xref", "xref-xx",
                                            "option-block", "deep", "foreign-parent"]), _WORDS),
                 min_size=1, max_size=6),
        st.sampled_from(["", "language-en", "language-xx", "language-de"]),
    ), min_size=1, max_size=4))
    alternative = draw(st.booleans())

    class Sub(nodes.Text):
        pass

    def make() -> tuple[nodes.document, StringIO]:
        stream = StringIO()
        settings = get_default_settings()
        settings.smart_quotes = "alt" if alternative else True
        settings.language_code = "en"
        settings.smartquotes_locales = []
        settings.warning_stream = stream
        document = new_document("<test>", settings)
        other = new_document("<translated>", settings)
        other.current_line = 7
        for pieces, language in plan:
            paragraph = nodes.paragraph(classes=[language] if language else [])
            document += paragraph
            for kind, word in pieces:
                if kind == "text":
                    paragraph += nodes.Text(word)
                elif kind == "strong":
                    paragraph += nodes.strong("", "", nodes.Text(word), nodes.Text(word))
                elif kind == "ref":
                    paragraph += nodes.reference("", "", nodes.inline("", word), refuri="x")
                    reference = nodes.Element()  # not a text element: its child is a block
                    reference += nodes.inline("", "", nodes.Text(word))
                    paragraph += reference
                elif kind == "literal":
                    paragraph += nodes.literal("", word)
                elif kind == "option":
                    paragraph += nodes.option_string("", word)
                elif kind == "subclass":
                    paragraph += Sub(word)
                elif kind in {"xref", "xref-xx"}:
                    xref = addnodes.pending_xref("", nodes.inline(
                        "", "", nodes.Text(word), nodes.literal("", word),
                        classes=["xref"] + (["language-xx"] if kind == "xref-xx" else [])))
                    paragraph += xref
                    paragraph += nodes.Text(word)
                elif kind == "option-block":
                    paragraph += nodes.option("", nodes.option_string("", word))
                elif kind == "deep":  # made before it is placed: the inner ones have no document
                    paragraph += nodes.inline("", "", nodes.emphasis("", word), nodes.Text(word))
                elif kind == "foreign-parent":
                    inline = nodes.inline("", word)
                    paragraph += inline
                    inline.document = other
                elif kind == "stray":  # a node whose parent is not where it sits
                    stray = nodes.inline("", "", nodes.Text(word))
                    document += nodes.container("", stray)
                    stray.parent = nodes.container(classes=["language-de"])
                else:
                    text = nodes.Text(word)
                    paragraph += text
                    text.document = other
                    text.line = 3
        return document, stream

    return make


def _shape(document: nodes.document) -> list[object]:
    """Every node, in order: its class, text and state, nodes named by their place (a node of
    another document by its text)."""
    found = list(document.findall())
    place = {id(node): index for index, node in enumerate(found)}

    def named(value: object) -> object:
        if isinstance(value, nodes.Node):
            return place.get(id(value), f"{value.__class__.__name__}:{str(value)[:20]}")
        if isinstance(value, dict):
            return [(key, named(item)) for key, item in value.items()]
        if isinstance(value, list):
            return [named(item) for item in value]
        return value

    skipped = {"children", "settings", "reporter", "transformer"}
    return [(type(node).__name__, str(node) if isinstance(node, nodes.Text) else None,
             [(key, named(value)) for key, value in node.__dict__.items() if key not in skipped])
            for node in found]


@given(_documents(), st.sampled_from(ACTIONS))
def test_the_quick_loop_leaves_what_docutils_leaves(
        make: Callable[[], tuple[nodes.document, StringIO]], action: str) -> None:
    theirs, their_warnings = make()
    transform = SmartQuotes(theirs, startnode=None)
    transform.smartquotes_action = action
    transform.apply()
    ours, our_warnings = make()
    quick = SmartQuotes(ours, startnode=None)
    quick.smartquotes_action = action
    educate_quotes(quick, needs_educating)
    assert _shape(ours) == _shape(theirs)
    assert our_warnings.getvalue() == their_warnings.getvalue()
