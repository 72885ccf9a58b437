"""Drawing one diagram: Mermaid code → SVG, with merman (Rust, in process, no browser).

The drawing is the same for every format and theme: labels are SVG ``<text>`` (no HTML in
``foreignObject``, which EPUB readers and PDF converters skip), measured by
:class:`._measure.LabelMeasurer`, and every colour of Mermaid's default theme is a CSS custom
property with that colour as its fallback (:func:`themed`): a page's stylesheet switches them for
dark mode, and a reader without the stylesheet (an EPUB, a saved file) sees the light drawing.
The SVG's id is :data:`ID_PLACEHOLDER`, so the page can give each copy an id of its own.

merman (a large native library) and the label measurer are imported when a diagram is drawn,
not with this module: a build whose diagrams are all in the store never loads them.
"""

from __future__ import annotations

import atexit
import json
import os
import re
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import merman

ID_PLACEHOLDER = "seriesbook-diagram-id"
FONTS = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif'
# Mermaid's defaults (classic look), except: SVG text labels, and long identifiers wrapped at
# 240 px rather than 200 (the room left for other fonts would break them mid-word).
SITE_CONFIG = {
    "theme": "default",
    "look": "classic",
    "htmlLabels": False,
    "flowchart": {"htmlLabels": False, "wrappingWidth": 240},
    "fontFamily": FONTS,
    "themeVariables": {"fontFamily": FONTS},
}
# Mermaid's default theme, colour by colour: the custom property that replaces it.
COLOURS = {
    "#333": "ink",
    "#333333": "ink",
    "#000": "ink",
    "#000000": "ink",
    "black": "ink",
    "#666": "line",
    "#999": "line",
    "#9370db": "node-stroke",
    "#ececff": "node-fill",
    "#eaeaea": "node-fill",
    "#f4f4f4": "node-fill",
    "#ffffde": "cluster-fill",
    "#aaaa33": "cluster-stroke",
    "#fff5ad": "note-fill",
    "#edf2ae": "note-fill",
    "rgba(232,232,232, 0.8)": "label-fill",
    "rgba(232, 232, 232, 0.5)": "label-fill",
    "rgba(185, 185, 185, 1)": "ink",
    "#552222": "error",
    "hsl(80, 100%, 96.2745098039%)": "cluster-fill",
}
_COLOUR = re.compile(
    "|".join(re.escape(c) for c in sorted(COLOURS, key=len, reverse=True)) + r"(?![0-9a-fA-F])",
    re.IGNORECASE,
)
_STYLE = re.compile(r"(<style>)(.*?)(</style>)", re.DOTALL)
_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_PAINT = re.compile(r'\s(fill|stroke)="([^"]+)"')
_STYLE_ATTR = re.compile(r'\sstyle="([^"]*)"')


class DrawError(Exception):
    """A diagram merman cannot draw; the message is merman's, in one line."""


def renderer_version() -> str:
    """What a drawing depends on besides its code (part of the cache key): merman's version,
    as its package is installed (the version its library reports, without loading it)."""
    return json.dumps([metadata.version("merman"), SITE_CONFIG], sort_keys=True)


@cache
def _engine(pid: int) -> merman.MermanEngine:
    """One engine per process (``-j`` forks: a worker never shares its parent's), let go at
    exit while merman is whole (imported after this module, merman is torn down first)."""
    import merman

    from seriesbook.diagrams._measure import LabelMeasurer

    services = merman.MermanEngineServices().with_text_measurer(LabelMeasurer())
    options = json.dumps({"site_config": SITE_CONFIG})
    atexit.register(_engine.cache_clear)
    return merman.MermanEngine(options, services)


def draw(code: str) -> str:
    """The themed SVG of *code*, or :class:`DrawError`."""
    import merman

    options = json.dumps({"svg": {"diagram_id": ID_PLACEHOLDER}})
    try:
        svg = _engine(os.getpid()).render_svg(code, options)
    except merman.MermanError as error:
        raise DrawError(_one_line(error)) from None
    if not svg.startswith("<svg"):
        raise DrawError("the renderer returned no SVG")
    return themed(svg)


def _one_line(error: merman.MermanError) -> str:
    message = getattr(error, "message", None) or str(error)
    return " ".join(str(message).split())


def _var(match: re.Match[str]) -> str:
    colour = match.group()
    return f"var(--seriesbook-diagram-{COLOURS[colour.lower()]}, {colour})"


def _themed_tag(match: re.Match[str]) -> str:
    """``fill="#eaeaea"`` cannot hold ``var()``: it moves into the tag's ``style``."""
    tag = match.group()
    moved = [
        f"{name}:{_COLOUR.sub(_var, value)}"
        for name, value in _PAINT.findall(tag)
        if _COLOUR.fullmatch(value.strip())
    ]
    if not moved:
        return tag
    tag = _PAINT.sub(lambda m: "" if _COLOUR.fullmatch(m.group(2).strip()) else m.group(), tag)
    style = _STYLE_ATTR.search(tag)
    if style is None:
        end = -2 if tag.endswith("/>") else -1
        return f'{tag[:end]} style="{";".join(moved)}"{tag[end:]}'
    joined = ";".join([s for s in [style.group(1).rstrip("; ")] if s] + moved)
    return tag[: style.start()] + f' style="{joined}"' + tag[style.end() :]


_THEMED = re.compile(r"var\(--seriesbook-diagram-[a-z-]+, ((?:[^()]|\([^()]*\))+)\)")


_NAME_ATTR = re.compile(r'(<[a-zA-Z][^<>]*?)\sname="[^"]*"')
_EMPTY_RECT = re.compile(r"<rect\b(?![^<>]*\bwidth=)[^<>]*/>")
_ROOT_ROLE = re.compile(r'(<svg\b[^>]*?)\srole="[^"]*"')


def standalone(svg: str, element_id: str = "diagram") -> str:
    """The drawing as a file of its own (an EPUB's image), valid SVG 1.1 for epubcheck: light
    colours and no custom properties (which older reading systems ignore, painting black), no
    attributes SVG lacks (merman's ``name``, the ARIA role list), no empty ``<rect/>``."""
    svg = _THEMED.sub(r"\1", svg).replace(ID_PLACEHOLDER, element_id)
    svg = _NAME_ATTR.sub(r"\1", svg)
    svg = _EMPTY_RECT.sub("", svg)
    return _ROOT_ROLE.sub(r'\1 role="img"', svg, count=1)


def themed(svg: str) -> str:
    """Every default-theme colour as ``var(--seriesbook-diagram-<role>, <colour>)``."""
    svg = _STYLE.sub(lambda m: m.group(1) + _COLOUR.sub(_var, m.group(2)) + m.group(3), svg)
    return _TAG.sub(_themed_tag, svg)
