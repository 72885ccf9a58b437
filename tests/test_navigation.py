"""seriesbook.speed.navigation and .description: the theme's sidebar, page contents and page
description made without BeautifulSoup and without the whole page's text, the same pages (and
the 404 page's sidebar on speed.sidebar's reduced tocs).

The builds compare every written file with the theme's own path (``seriesbook_speedups =
False``) on a book with captioned parts (one caption with ``<&"'>``), hidden and nested
toctrees, toctrees in ``only``, a ``:tocdepth:`` page, external entries (one with a fragment,
which the theme drops), math and markup in titles, a page with one heading and none below it,
one with subsections, one with several top headings, a page in no toctree, the search and index
pages, for each ``show_navbar_depth`` (0 wraps the parts), ``collapse_navbar`` and
``show_toc_level``, with ``-j 2``, after an edit, and in a translated edition. Hypothesis writes
markup for the functions themselves (free text in titles, links and captions) and compares them
with the theme's.
"""

from __future__ import annotations

import functools
import hashlib
import html
import importlib
import inspect
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from conftest import assert_same_files, warning_lines
from docutils import nodes
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydata_sphinx_theme.toctree import add_toctree_functions
from seriesbook.core.escape import script_json
from seriesbook.speed import description, markup, navigation
from seriesbook.speed import sidebar as speed_sidebar
from sphinx.testing.util import SphinxTestApp

MakeApp = Callable[..., SphinxTestApp]
IGNORED = {".buildinfo", ".buildinfo.bak"}

# The theme's, bs4's and sphinx-notfound-page's code reproduced in speed/navigation.py,
# speed/description.py, speed/markup.py and speed/sidebar.py, by the sha256 of its source.
# When one changes upstream, read the change, carry it into our copy (or fall back to the
# theme for it), then update the hash.
UPSTREAM = {
    "pydata_sphinx_theme.toctree.add_toctree_functions":
        "909fd5123b27d0403343b68582690b584f575b07afdd3fd3174eb980915f3f26",
    "pydata_sphinx_theme.toctree.add_collapse_checkboxes":
        "0aa15f95206e01d89180e77156e969d55490ae84e386c3c2974db0dd9d402cb3",
    "sphinx_book_theme.add_metadata_to_page":
        "0639faa48d0a33b6e5f4e9d2d51d911411755882eeda4ee50fdcd6007dec44f8",
    # sphinx-notfound-page's toctree() of the 404 page, in speed/sidebar.py (notfound_toctree)
    "notfound.extension.finalize_media":
        "89600aa57e3a6e38f55814ffe0fc4debc28b400a8062d39912705e2218be21c4",
    "bs4.BeautifulSoup.endData": "016f04cc7ea46f447c1134991feb12fadf6accb0c21db77cd277bedc5cff1c1c",
    "bs4.dammit.EntitySubstitution.quoted_attribute_value":
        "dc0282fba9407ad4554c7ef4ffe6088a9569d245531ac8b3d194bd1cedb77176",
    "bs4.formatter.Formatter.attributes":
        "328ccca465ff772fd5aa578b9efcc2e2a843f666f71b41449c764ab3f74d0705",
    "bs4.builder.HTMLTreeBuilder":
        "6c8e30dce7f00d821b65ffcc79281a792f9496fff7095525ada49c7f53089b91",
}


def _resolve(path: str) -> Any:
    module, _, rest = path.partition(".")
    found: Any = importlib.import_module(module)
    for part in rest.split("."):
        found = getattr(found, part) if hasattr(found, part) else importlib.import_module(
            f"{found.__name__}.{part}")
    return found


@pytest.mark.parametrize("path", sorted(UPSTREAM))
def test_the_upstream_code_reproduced_is_the_pinned_one(path: str) -> None:
    source = inspect.getsource(_resolve(path))
    assert hashlib.sha256(source.encode()).hexdigest() == UPSTREAM[path], (
        f"{path} changed upstream: carry the change into seriesbook.speed, then re-pin")


# --- the functions against the theme's, on markup Hypothesis writes ---------------------------

def theme_functions(toctree_html: Any, toc_html: Any, show_toc_level: Any = 1) -> dict[str, Any]:
    """A page context with the theme's own functions, over the given toctree and toc."""
    context: dict[str, Any] = {"toctree": lambda **kwargs: toctree_html,
                               "theme_show_toc_level": show_toc_level}
    if toc_html is not None:
        context["toc"] = toc_html
    add_toctree_functions(None, "page", "page.html", context, None)  # type: ignore[arg-type]
    return context


def as_used(result: Any) -> tuple[str, int, bool, bool]:
    """What the templates use of a result: its text, length, truth, and whether it is a str."""
    return str(result), len(result), bool(result), isinstance(result, str)


def theme_sidebar(html_text: str, show_nav_level: int) -> Any:
    context = theme_functions(html_text, None)
    return context["generate_toctree_html"](
        startdepth=0, kind="sidebar", maxdepth=4, collapse=False, includehidden=True,
        titles_only=True, show_nav_level=show_nav_level)


def theme_toc(html_text: str, show_toc_level: int) -> Any:
    return theme_functions("", html_text, show_toc_level)["generate_toc_html"]()


def same_as_theme(ours: Callable[[], Any], theirs: Callable[[], Any]) -> bool:
    """Ours gives what the theme gives; or declines (the theme answers, right or failing).
    True when ours answered."""
    try:
        result = ours()
    except markup.Unsupported:
        return False
    assert as_used(result) == as_used(theirs())
    return True


TEXT = st.text(alphabet=st.sampled_from(list("ab 章 <>&\"'@#;\n\t\xa0\u3000")), max_size=12)
ESCAPED = TEXT.map(lambda text: html.escape(text, quote=True).replace("@", "&#64;"))
INLINE = st.one_of(
    ESCAPED,
    ESCAPED.map(lambda t: f'<code class="docutils literal notranslate"><span class="pre">{t}'
                          "</span></code>"),
    ESCAPED.map(lambda t: f'<span class="math notranslate nohighlight">\\({t}\\)</span>'),
    ESCAPED.map(lambda t: f"<em>{t}</em>"),
)
TITLE = st.lists(INLINE, min_size=1, max_size=3).map("".join)  # as Sphinx writes titles
# and free text, unescaped: markup.parse declines what it cannot read as bs4 does
FREE_TITLE = st.lists(st.one_of(INLINE, TEXT), min_size=1, max_size=3).map("".join)
HREF = st.one_of(
    st.sampled_from(["#", "ch01.html", "sub/ch02.html", "../index.html", "ch01.html#sec-1",
                     "#sec-2", "https://example.com/a?b=1&amp;c=2", "https://example.com/p#f"]),
    ESCAPED,
)


@st.composite
def items(draw: st.DrawFn, level: int, section_links: bool, title: st.SearchStrategy[str]
          ) -> str:
    """A ``<li>`` as Sphinx writes a toctree's (or a page toc's) entry, with its subtree."""
    current = draw(st.booleans())
    href = draw(HREF) if not section_links else draw(st.sampled_from(["#", "#s-1", "#s-2"]))
    link_class = ("current " if current else "") + draw(
        st.sampled_from(["reference internal", "reference external", "reference"]))
    li_class = f"toctree-l{level}" + (" current" if current else "")
    if section_links:
        li_class = draw(st.sampled_from(["", li_class]))
    opening = f'<li class="{li_class}">' if li_class else "<li>"
    below = ""
    if level < 4 and draw(st.integers(0, 3)) == 0:
        below = draw(lists(level + 1, section_links, title))
    return f'{opening}<a class="{link_class}" href="{href}">{draw(title)}</a>{below}</li>'


@st.composite
def lists(draw: st.DrawFn, level: int = 1, section_links: bool = False,
          title: st.SearchStrategy[str] = TITLE) -> str:
    entries = draw(st.lists(items(level, section_links, title), min_size=0 if level > 1 else 1,
                            max_size=4))
    ul_class = draw(st.sampled_from(["", ' class="current"', ' class="simple"']))
    return f"<ul{ul_class}>\n" + "\n".join(entries) + "\n</ul>\n"


@st.composite
def toctrees(draw: st.DrawFn, title: st.SearchStrategy[str] = TITLE) -> str:
    """Sphinx's global toctree HTML: parts, each an optional caption and a list."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        caption = ""
        if draw(st.booleans()):
            lang = draw(st.sampled_from(["", ' lang="zh-CN"']))
            caption = (f'<p class="caption"{lang} role="heading"><span class="caption-text">'
                       f"{draw(title)}</span></p>\n")
        parts.append(caption + draw(lists(title=title)))
    return "".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(toctrees(), st.integers(0, 3))
@example('<p class="caption" role="heading"><span class="caption-text">部</span></p>\n<ul>\n'
         '<li class="toctree-l1 current"><a class="current reference internal" href="#">当前</a>'
         '<ul>\n<li class="toctree-l2"><a class="reference internal" href="a.html#s">节</a></li>'
         '\n<li class="toctree-l2"><a class="reference internal" href="b.html">页</a></li>\n'
         "</ul>\n</li>\n</ul>\n", 0)
def test_the_sidebar_is_the_themes(toctree_html: str, show_nav_level: int) -> None:
    """Markup as Sphinx writes it: ours answers, and gives what the theme gives."""
    assert same_as_theme(lambda: navigation.sidebar_html(toctree_html, show_nav_level),
                         lambda: theme_sidebar(toctree_html, show_nav_level))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(toctrees(FREE_TITLE), st.integers(0, 2))
def test_a_sidebar_of_free_text_is_the_themes_or_the_theme_makes_it(
        toctree_html: str, show_nav_level: int) -> None:
    same_as_theme(lambda: navigation.sidebar_html(toctree_html, show_nav_level),
                  lambda: theme_sidebar(toctree_html, show_nav_level))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists(section_links=True), st.integers(0, 3))
@example('<ul>\n<li><a class="reference internal" href="#">标题</a></li>\n</ul>\n', 1)
@example('<ul>\n<li><a class="reference internal" href="#">一</a><ul>\n<li><a class="reference '
         'internal" href="#s">节</a></li>\n</ul>\n</li>\n<li><a class="reference internal" '
         'href="#t">二</a></li>\n</ul>\n', 2)
@example("", 1)
def test_the_page_contents_are_the_themes(toc_html: str, show_toc_level: int) -> None:
    assert same_as_theme(lambda: navigation.page_toc_html(toc_html, lambda: show_toc_level),
                         lambda: theme_toc(toc_html, show_toc_level))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists(section_links=True, title=FREE_TITLE), st.integers(0, 2))
def test_page_contents_of_free_text_are_the_themes_or_the_theme_makes_them(
        toc_html: str, show_toc_level: int) -> None:
    same_as_theme(lambda: navigation.page_toc_html(toc_html, lambda: show_toc_level),
                  lambda: theme_toc(toc_html, show_toc_level))


# Free text where Sphinx's markup would be: whatever markup.parse reads, bs4 reads the same.
SOUP = st.lists(st.sampled_from(
    ["<", ">", "&", ";", '"', "'", "=", " ", "\n", "\t", "/", "a", "b", "x", "#", "1", "é", "章",
     "\xa0", "\r", "\x0c", "<a ", "<li>", "</li>", "<ul>", "</ul>", "<p>", "</p>", "<br>", "<a>",
     "</a>", '<a href="', '<span class="', "&amp;", "&lt;", "&quot;", "&#64;", "&#x41;", "&#150;",
     "&#0;", "&nbsp;", "&amp", "<!--", "-->", "<script>", "</script>"]), max_size=40).map(
    "".join)
CHARACTERS = st.lists(st.sampled_from(
    [*"ab 章é<>&\"'=;#@\n\t\r\x0c\xa0\u3000\u2028", "&amp;", "&lt;", "&gt;", "&quot;",
     "&#64;", "&#x27;", "&#160;", "&#1;", "&#128;", "&#xFFFE;", "&#65533;", "&copy;"]),
    max_size=8).map("".join)


@st.composite
def fragments(draw: st.DrawFn, depth: int = 0) -> str:
    """Well-nested markup, its texts and attribute values free."""
    out = []
    for _ in range(draw(st.integers(0, 3))):
        if depth >= 3 or draw(st.booleans()):
            out.append(draw(CHARACTERS))
            continue
        name = draw(st.sampled_from(["a", "li", "ul", "p", "span", "em", "details", "summary"]))
        keys = draw(st.lists(st.sampled_from(["class", "href", "title", "rel", "lang", "data-x",
                                              "accesskey", "role"]), max_size=3, unique=True))
        attributes = "".join(f' {key}="{draw(CHARACTERS)}"' for key in keys)
        out.append(f"<{name}{attributes}>{draw(fragments(depth + 1))}</{name}>")
    return "".join(out)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(SOUP, fragments()))
@example('<a href="a&amp;b" class="x  y" title="&quot;\'">t &amp; &#64; &quot;</a>')
@example("<p>  </p>\n\n<ul>\n \n</ul>")
def test_markup_reads_and_writes_as_bs4(text: str) -> None:
    try:
        tree = markup.parse(text)
    except markup.Unsupported:
        return
    assert markup.write(tree) == str(BeautifulSoup(text, "html.parser"))


def test_markup_declines_what_bs4_reads_its_own_way() -> None:
    for text in ("<br>", "a &nbsp; b", "<!-- c -->", "<li>open", "</p>", "<a href=x>",
                 "&#150;", "<script>x</script>", "<p class='a'>x</p>", "<a  href=\"x\">y</a>"):
        with pytest.raises(markup.Unsupported):
            markup.parse(text)


def test_the_theme_answers_what_is_not_reproduced() -> None:
    """Another kind, a show_nav_level that is no number, markup outside markup's: the theme's
    own function answers (its cached result); a toc that is no list at all: the theme's ''."""
    toctree = '<ul>\n<li class="toctree-l1"><a href="a.html">A</a></li>\n</ul>\n'
    toc = '<ul>\n<li><a href="#">T</a><ul>\n<li><a href="#s">S</a></li>\n</ul>\n</li>\n</ul>\n'
    for toctree_html, toc_html, level, nav_level in (
        (toctree.replace("A<", "A<br/><"), toc.replace('"#"', "'#'"), 2, 1),  # void, quotes
        (toctree, toc, 2.0, "1"),  # numbers of other types
    ):
        context = theme_functions(toctree_html, toc_html, level)
        theirs_toctree, theirs_toc = context["generate_toctree_html"], context["generate_toc_html"]
        ours_toctree, ours_toc = navigation.page_functions(context, theirs_toctree, theirs_toc)
        assert ours_toctree("raw", startdepth=0) is theirs_toctree("raw", startdepth=0)
        assert ours_toctree(kind="sidebar", startdepth=0, show_nav_level=nav_level) is (
            theirs_toctree(kind="sidebar", startdepth=0, show_nav_level=nav_level))
        assert ours_toc() is theirs_toc()
    context = theme_functions(toctree, None)
    ours_toctree, ours_toc = navigation.page_functions(
        context, context["generate_toctree_html"], context["generate_toc_html"])
    assert ours_toc() == "" and ours_toc() is ours_toc()  # no toc (search, genindex)
    sidebar = ours_toctree(kind="sidebar", startdepth=0)
    assert isinstance(sidebar, navigation.Fragment) and sidebar is ours_toctree(
        kind="sidebar", startdepth=0)  # ours, cached as the theme's are


def test_a_replaced_listener_keeps_its_place_and_a_wrapped_handler_is_found() -> None:
    from types import SimpleNamespace

    from seriesbook import compat
    from sphinx.events import EventManager

    events = EventManager(SimpleNamespace(pdb=False))  # type: ignore[arg-type]
    events.add("html-page-context")  # as the HTML builder adds it

    def theirs(*args: Any) -> None:
        return None

    @functools.wraps(theirs)
    def timed(*args: Any) -> None:  # a profiler's timer around it (benchmarks/where.py)
        return theirs(*args)

    for handler in (print, timed, repr):
        events.connect("html-page-context", handler, 500)
    before = list(events.listeners["html-page-context"])
    app = SimpleNamespace(events=events)
    made: list[Any] = []

    def ours(handler: Any) -> Any:
        made.append(handler)
        return len

    assert compat.replace_listener(app, "html-page-context", theirs, ours)  # type: ignore[arg-type]
    after = events.listeners["html-page-context"]
    assert made == [timed]
    assert [(x.id, x.priority) for x in after] == [(x.id, x.priority) for x in before]
    assert [x.handler for x in after] == [print, len, repr]
    assert not compat.replace_listener(app, "html-page-context", theirs, ours)  # type: ignore[arg-type]


# --- the page description ----------------------------------------------------------------------

def theme_description(doctree: nodes.Node) -> str:
    text = ""
    for section in doctree.findall(nodes.section):
        text += section.astext().replace("\n", " ")
    return text[:160]


SECTION_TEXT = st.text(alphabet=st.sampled_from(list("ab 章\n")), max_size=70)


@st.composite
def sections(draw: st.DrawFn, depth: int = 0) -> nodes.section:
    section = nodes.section()
    section += nodes.title(text=draw(SECTION_TEXT))
    for _ in range(draw(st.integers(0, 3))):
        paragraph = nodes.paragraph()
        paragraph += nodes.Text(draw(SECTION_TEXT))
        paragraph += nodes.emphasis(text=draw(SECTION_TEXT))
        section += paragraph
        if draw(st.booleans()):
            section += nodes.image(alt=draw(SECTION_TEXT))  # its own astext
    if depth < 3:
        for _ in range(draw(st.integers(0, 2))):
            section += draw(sections(depth + 1))
    return section


@settings(max_examples=200, deadline=None)
@given(st.lists(sections(), max_size=3))
def test_the_description_is_the_themes(tops: list[nodes.section]) -> None:
    document = nodes.document(None, None)  # type: ignore[arg-type]
    for section in tops:
        document += section
    assert description.page_description(document) == theme_description(document)


@given(st.text())
def test_script_json_escapes_what_it_escaped(text: str) -> None:
    import json

    unsafe = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
              "\u2029": "\\u2029"}
    expected = re.sub("[<>&\u2028\u2029]", lambda m: unsafe[m.group()],
                      json.dumps({"t": text}, ensure_ascii=False))
    assert script_json({"t": text}) == expected


# --- whole books, both paths -------------------------------------------------------------------

def _written(outdir: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and path.name not in IGNORED and ".doctrees" not in path.parts
    }


def _build(make_app: MakeApp, src: Path, *, enabled: bool, jobs: int = 1, fresh: bool = True,
           descriptions: dict[str, str] | None = None, **conf: Any
           ) -> tuple[SphinxTestApp, dict[str, bytes]]:
    app = make_app("html", srcdir=src, parallel=jobs, freshenv=fresh,
                   confoverrides={"seriesbook_speedups": enabled, **conf})
    if descriptions is not None:  # no template writes it: what a template of an author's would
        def note(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
            descriptions[pagename] = context.get("page_description", "(none)")

        app.connect("html-page-context", note, priority=999)
    app.build()
    app.cleanup()  # the next app in this test registers docutils' nodes afresh
    return app, _written(Path(app.outdir))




def _copy_root(rootdir: Path, target: Path) -> Path:
    shutil.copytree(rootdir / "test-site-navigation", target)
    return target


class Answered:
    """Counts the pages our functions answered (not the theme's fallback), and the 404 page's
    toctree made on the reduced tocs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sidebars = self.tocs = self.notfound = 0
        sidebar, toc = navigation.sidebar_html, navigation.page_toc_html
        notfound = speed_sidebar.notfound_toctree

        def counted_notfound(*args: Any, **kwargs: Any) -> Any:
            self.notfound += 1
            return notfound(*args, **kwargs)

        monkeypatch.setattr(speed_sidebar, "notfound_toctree", counted_notfound)

        def counted_sidebar(*args: Any) -> Any:
            result = sidebar(*args)
            self.sidebars += 1
            return result

        def counted_toc(*args: Any) -> Any:
            result = toc(*args)
            self.tocs += 1
            return result

        monkeypatch.setattr(navigation, "sidebar_html", counted_sidebar)
        monkeypatch.setattr(navigation, "page_toc_html", counted_toc)


PAGES = {"index.html", "marks.html", "single.html", "single-sections.html", "several.html",
         "orphan.html", "search.html", "genindex.html", "part1/ch01.html"}


@pytest.mark.parametrize(
    ("options", "jobs", "language"),
    [
        ({}, 1, "zh_CN"),
        ({"show_navbar_depth": 0}, 2, "zh_CN"),
        ({"show_navbar_depth": 2, "show_toc_level": 2}, 1, "zh_CN"),
        ({"collapse_navbar": True, "show_toc_level": 3, "max_navbar_depth": 2}, 1, "zh_CN"),
        ({"show_navbar_depth": 0, "collapse_navbar": True}, 1, "en"),
        ({"show_toc_level": 0}, 1, "en"),
    ],
)
@pytest.mark.slow  # two builds per set of options
def test_pages_are_byte_identical(make_app: MakeApp, rootdir: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch, options: dict[str, Any],
                                  jobs: int, language: str) -> None:
    conf = {"html_theme_options": options, "language": language}
    their_descriptions: dict[str, str] = {}
    our_descriptions: dict[str, str] = {}
    theme_app, theirs = _build(make_app, _copy_root(rootdir, tmp_path / "off"), enabled=False,
                               jobs=jobs, descriptions=their_descriptions, **conf)
    answered = Answered(monkeypatch)
    our_app, ours = _build(make_app, _copy_root(rootdir, tmp_path / "on"), enabled=True,
                           jobs=jobs, descriptions=our_descriptions, **conf)
    assert warning_lines(our_app) == warning_lines(theme_app)
    assert_same_files(theirs, ours)
    if jobs == 1:  # (a -j 2 build's pages are written in workers)
        assert our_descriptions == their_descriptions
        assert len(their_descriptions["marks"]) == 160 and their_descriptions["search"] == "(none)"
    assert ours.keys() >= PAGES
    if jobs == 1:  # the pages were made by our functions (a -j 2 build writes in workers)
        assert answered.sidebars >= len(PAGES) and answered.tocs >= len(PAGES) - 3
        assert answered.notfound == 1 and "404.html" in ours


def test_pages_after_an_edit_are_byte_identical(make_app: MakeApp, rootdir: Path,
                                                tmp_path: Path) -> None:
    """The functions keep nothing between builds: an edited title reaches every page."""
    ours_src = _copy_root(rootdir, tmp_path / "on")
    _build(make_app, ours_src, enabled=True)
    for src in (ours_src, _copy_root(rootdir, tmp_path / "off")):
        page = src / "single-sections.md"
        page.write_text(page.read_text(encoding="utf-8").replace("## 第二节", "## 改名 a & b"),
                        encoding="utf-8")
    our_app, ours = _build(make_app, ours_src, enabled=True, fresh=False)
    assert "1 changed" in our_app.status.getvalue()
    _, theirs = _build(make_app, tmp_path / "off", enabled=False)
    pages = {name for name in theirs if name.endswith(".html")}
    assert_same_files({n: theirs[n] for n in pages}, {n: ours[n] for n in pages})
    assert "改名 a &amp; b" in ours["single-sections.html"].decode()


def test_the_theme_drops_external_entries_with_a_fragment_and_so_do_we(
        make_app: MakeApp, rootdir: Path, tmp_path: Path) -> None:
    _, ours = _build(make_app, _copy_root(rootdir, tmp_path / "on"), enabled=True)
    nav = BeautifulSoup(ours["single.html"], "html.parser").select_one("nav.bd-docs-nav")
    assert nav is not None
    hrefs = [a["href"] for a in nav.find_all("a")]
    assert "https://example.com/elsewhere?a=1&b=2" in hrefs
    assert "https://example.com/page#fragment" not in hrefs
    several = BeautifulSoup(ours["several.html"], "html.parser")
    assert [li.a.get_text() for li in several.select("#pst-page-toc-nav li.toc-h1")] == [
        "第一个一级标题", "第二个一级标题", "第三个一级标题"]
    single = BeautifulSoup(ours["single.html"], "html.parser")
    assert single.select_one("#pst-page-toc-nav") is None  # one heading, nothing below: no toc
