"""The theme's icons as a few lines of CSS: no 1.5 MB ``fontawesome.js``, no icon web fonts.

pydata-sphinx-theme (under sphinx-book-theme) loads Font Awesome's whole ``fontawesome.js``
(1.56 MB: every icon of Font Awesome Free, to turn each ``<i class="fa-…">`` into an SVG) in
every page's ``<head>``, and its CSS names the same icons again as three web fonts (225 KB)
(pydata/pydata-sphinx-theme#2379, #2115; #2494 is the upstream fix, open). Here:

* the theme's ``head_js_preload`` macro is replaced by ours (``templates/static/
  webpack-macros.html``), which loads no ``fontawesome.js`` (the theme's two own scripts in its
  place);
* when the build has finished, every page's icon classes (``fa-bars``, ``fab fa-github`` …) and
  those the theme's scripts insert are collected, and ``_static/seriesbook-icons.css`` draws
  exactly those icons: each one's SVG path, taken from the theme's own copy of Font Awesome
  (the same version the theme would show), as a CSS mask over the icon's ``::before``, so the
  icon is in the page's first paint, takes the text colour (dark mode included) and needs no
  font and no script. An icon class the theme's Font Awesome does not hold is a
  ``seriesbook.icon-unknown`` warning, never a silent blank.

Font Awesome Free's icons are licensed CC BY 4.0 (https://fontawesome.com/license/free); the
comment at the top of the written CSS says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from seriesbook.core.builders import is_website
from seriesbook.core.config import get_config
from seriesbook.core.problems import Problem, warn
from seriesbook.site._icons_kept import kept_stylesheet

if TYPE_CHECKING:
    from sphinx.application import Sphinx

STYLE = "seriesbook-icons.css"
# the theme's Font Awesome bundle and the scripts that insert icons of their own
BUNDLE = Path("scripts") / "fontawesome.js"
THEME_SCRIPTS = (
    Path("scripts") / "pydata-sphinx-theme.js",
    Path("scripts") / "sphinx-book-theme.js",
)

# An icon in the bundle: name: [width, height, [aliases], "codepoint", "path"] (minified JS).
_ICON = re.compile(
    r'(?:"(?P<quoted>[\w-]+)"|(?P<bare>[A-Za-z_$][\w$]*)):\[(?P<width>\d+),(?P<height>\d+),'
    r'\[(?P<aliases>[^\]]*)\],"(?P<code>[0-9a-f]+)","(?P<path>[^"]+)"\]'
)
# where a pack of icons is registered: p("fab", b) (the pack's short prefix)
_PACK = re.compile(r'\bp\("(?P<prefix>fa[a-z]?)",')
_CLASS_ATTRIBUTE = re.compile(r'class="(?P<classes>[^"]*\bfa[srb]?\b[^"]*|[^"]*\bfa-[^"]*)"')
_SCRIPT_CLASSES = re.compile(
    r'["\'`](?P<classes>(?:fa-solid|fa-brands|fa-regular|fa[srb]?) fa-[\w -]+)'
)

# the theme's CSS draws each admonition's icon by a variable naming a Font Awesome icon
_ADMONITION_ICON = re.compile(
    r"--pst-icon-admonition-(?P<kind>[\w-]+):var\(--pst-icon-(?P<icon>[\w-]+)\)"
)
THEME_STYLE = Path("styles") / "pydata-sphinx-theme.css"

PACKS = {"fas": "solid", "far": "regular", "fab": "brands"}
STYLE_CLASSES = {
    "fa": "solid", "fas": "solid", "fa-solid": "solid", "fa-classic": "solid",
    "far": "regular", "fa-regular": "regular", "fab": "brands", "fa-brands": "brands",
}  # fmt: skip
# Font Awesome's utility classes: sizes, widths, animations, lists (not icons)
_UTILITY = re.compile(
    r"fa-(?:\d+x|2?xs|sm|lg|xl|2xl|fw|width-auto|li|ul|border|pull-(?:left|right|start|end)|"
    r"spin(?:-pulse|-reverse)?|pulse|beat(?:-fade)?|fade|bounce|flip(?:-\w+)?|shake|"
    r"rotate-\w+|stack(?:-\dx)?|inverse|swap-opacity|layers(?:-\w+)?)"
)


@dataclass(frozen=True)
class Icon:
    """One icon of a Font Awesome pack: its box and its SVG path."""

    name: str
    width: int
    height: int
    path: str

    def data_url(self) -> str:
        svg = (
            f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {self.width} {self.height}'>"
            f"<path d='{self.path}'/></svg>"
        )
        # single quotes inside, so the URL sits in url("…") as it is
        return "data:image/svg+xml," + quote(svg, safe=" /:='")


def read_bundle(text: str) -> dict[str, dict[str, Icon]]:
    """Each pack's icons (``solid``, ``regular``, ``brands``) by name and alias, from the
    theme's minified ``fontawesome.js``: the icons of a pack come in one run, followed by the
    call that registers the run under the pack's prefix."""
    packs: dict[str, dict[str, Icon]] = {}
    run: dict[str, Icon] = {}
    previous_end = -1
    for match in _ICON.finditer(text):
        if run and match.start() - previous_end > 2:
            _close_run(text, previous_end, run, packs)
            run = {}
        name = match["quoted"] or match["bare"]
        icon = Icon(name, int(match["width"]), int(match["height"]), match["path"])
        run[name] = icon
        for alias in re.findall(r'"([\w-]+)"', match["aliases"]):
            run.setdefault(alias, icon)
        previous_end = match.end()
    if run:
        _close_run(text, previous_end, run, packs)
    return packs


def _close_run(
    text: str, end: int, run: dict[str, Icon], packs: dict[str, dict[str, Icon]]
) -> None:
    registered = _PACK.search(text, end)
    if registered is not None and registered["prefix"] in PACKS:
        packs.setdefault(PACKS[registered["prefix"]], {}).update(run)


def icons_in(classes: str) -> set[tuple[str, str]]:
    """The (pack, name) of each icon one element's class attribute names."""
    tokens = classes.split()
    styles = [STYLE_CLASSES[token] for token in tokens if token in STYLE_CLASSES]
    pack = styles[0] if styles else "solid"
    return {
        (pack, token.removeprefix("fa-"))
        for token in tokens
        if token.startswith("fa-") and token not in STYLE_CLASSES and not _UTILITY.fullmatch(token)
    }


def page_icons(html: str) -> frozenset[tuple[str, str]]:
    """Every icon one page's class attributes name."""
    used: set[tuple[str, str]] = set()
    for match in _CLASS_ATTRIBUTE.finditer(html):
        used |= icons_in(match["classes"])
    return frozenset(used)


def script_icons(script: str) -> frozenset[tuple[str, str]]:
    """Every icon one of the theme's scripts inserts."""
    used: set[tuple[str, str]] = set()
    for match in _SCRIPT_CLASSES.finditer(script):
        used |= icons_in(match["classes"])
    return frozenset(used)


def used_icons(pages: Iterable[str], scripts: Iterable[str]) -> set[tuple[str, str]]:
    """Every icon the pages' class attributes and the theme's scripts name."""
    used: set[tuple[str, str]] = set()
    for html in pages:
        used |= page_icons(html)
    for script in scripts:
        used |= script_icons(script)
    return used


def stylesheet(
    used: Iterable[tuple[str, str]], bundle: Path, style: Path | None
) -> tuple[str, list[str]]:
    """The stylesheet drawing *used* and the admonitions' icons from the theme's *bundle* and
    *style*, and the icon classes the bundle does not hold."""
    packs = read_bundle(bundle.read_text("utf-8"))
    css, unknown = icon_css(used, packs)
    if style is not None:
        css += admonition_css(admonition_icons(style.read_text("utf-8")), packs)
    return css, unknown


def icon_css(
    used: Iterable[tuple[str, str]], packs: dict[str, dict[str, Icon]]
) -> tuple[str, list[str]]:
    """The stylesheet drawing *used*, and the icon classes the packs do not hold."""
    rules: list[str] = []
    unknown: list[str] = []
    selectors: list[str] = []
    for pack, name in sorted(used):
        icon = packs.get(pack, {}).get(name) or packs.get("solid", {}).get(name)
        if icon is None:
            unknown.append(f"fa-{name}")
            continue
        selector = (
            f".fa-{name}" if pack == "solid" else f".fa-{pack}.fa-{name}, .fa{pack[0]}.fa-{name}"
        )
        selectors.extend(f"{part.strip()}::before" for part in selector.split(","))
        rules.append(
            f'{selector} {{ --seriesbook-icon: url("{icon.data_url()}"); '
            f"--seriesbook-icon-width: {icon.width / icon.height:.4g}em; }}"
        )
    head = (
        "/* seriesbook: the theme's icons drawn from Font Awesome Free's SVGs (CC BY 4.0,\n"
        " * https://fontawesome.com/license/free), only those the site uses: no icon font,\n"
        " * no fontawesome.js (pydata/pydata-sphinx-theme#2379). Written by seriesbook.site. */\n"
    )
    if not selectors:
        return head, unknown
    common = (
        ",\n".join(selectors) + ' {\n  content: "" !important;\n  display: inline-block;\n'
        "  width: var(--seriesbook-icon-width);\n  height: 1em;\n  vertical-align: -0.125em;\n"
        "  background-color: currentColor;\n"
        "  -webkit-mask: var(--seriesbook-icon) center / contain no-repeat;\n"
        "  mask: var(--seriesbook-icon) center / contain no-repeat;\n}\n"
        # an icon element in Font Awesome's font family makes the browser fetch the font for
        # the line's metrics even with no glyph drawn: the page's own font instead
        + ",\n".join(selector.removesuffix("::before") for selector in selectors)
        + " {\n  font-family: inherit;\n}\n"
    )
    return head + "\n".join(rules) + "\n" + common, unknown


def admonition_icons(theme_css: str) -> dict[str, str]:
    """Each admonition kind's Font Awesome icon, as the theme's CSS names it."""
    return {m["kind"]: m["icon"] for m in _ADMONITION_ICON.finditer(theme_css)}


def admonition_css(kinds: dict[str, str], packs: dict[str, dict[str, Icon]]) -> str:
    """The admonitions' title icons (a ``::after`` in the theme's icon font) as SVG masks."""
    solid = packs.get("solid", {})
    title = "> .admonition-title::after"
    rules = []
    for kind, name in sorted(kinds.items()):
        icon = solid.get(name)
        if icon is None:
            continue
        where = "" if kind == "default" else f".{kind}"
        rules.append(
            f".admonition{where} {title}, div.admonition{where} {title} "
            f'{{ --seriesbook-icon: url("{icon.data_url()}"); }}'
        )
    if not rules:
        return ""
    return (
        "\n".join(rules)
        + f"\n.admonition {title}, div.admonition {title} {{\n"
        + '  content: "" !important;\n  font-family: inherit;\n  background-color: currentColor;\n'
        + "  -webkit-mask: var(--seriesbook-icon) center / contain no-repeat;\n"
        + "  mask: var(--seriesbook-icon) center / contain no-repeat;\n}\n"
    )


def theme_static(app: Sphinx) -> list[Path]:
    """The theme's static directories (its own first, then the themes it inherits)."""
    theme = getattr(app.builder, "theme", None)
    if theme is None:
        return []
    return [Path(directory) / "static" for directory in theme.get_theme_dirs()]


def forget_written(app: Sphinx) -> None:
    """``builder-inited``: remove the stylesheet an earlier build wrote.

    Sphinx versions a page's stylesheet link by the file it finds in the output directory when
    it writes the page (``?v=<checksum>``). This one is written after every page, so a page would
    carry the checksum of the earlier build's file, not of the one it gets, and a second build
    would write other pages than the first. Without the file, no page claims a version.
    """
    (Path(app.outdir) / "_static" / STYLE).unlink(missing_ok=True)


def write_icons(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: draw the icons every page and the theme's scripts use."""
    if exception is not None or not is_website(app):
        return
    statics = theme_static(app)
    bundle = next(
        (directory / BUNDLE for directory in statics if (directory / BUNDLE).is_file()), None
    )
    outdir = Path(app.outdir)
    if bundle is None:
        (outdir / "_static" / STYLE).write_text("/* no Font Awesome in this theme */\n", "utf-8")
        return
    pages = sorted(outdir.glob("**/*.html"))
    scripts = [
        directory / script
        for directory in statics
        for script in THEME_SCRIPTS
        if (directory / script).is_file()
    ]
    style = next((d / THEME_STYLE for d in statics if (d / THEME_STYLE).is_file()), None)
    if get_config(app.config).speedups:
        css, unknown = kept_stylesheet(
            Path(app.doctreedir), pages, scripts, bundle, style,
            (page_icons, script_icons), stylesheet, Path(__file__),
        )
    else:
        used = used_icons((page.read_text("utf-8") for page in pages),
                          (script.read_text("utf-8") for script in scripts))
        css, unknown = stylesheet(used, bundle, style)
    (outdir / "_static" / STYLE).write_text(css, "utf-8")
    for name in unknown:
        warn(
            Problem.ICON_UNKNOWN,
            f"the icon class {name} names no icon of the theme's Font Awesome ({bundle}): "
            "it is drawn blank; check its spelling",
            None,
        )
