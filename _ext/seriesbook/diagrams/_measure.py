"""How wide a label is, in the fonts the page shows it in, with room for the reader's own.

merman lays a diagram out with widths it asks its host for (:class:`LabelMeasurer`). The answer
is the sum of the characters' advances from ``metrics.json`` (``.ci/diagram-metrics``): Han,
kana, Hangul and full-width forms 1 em (so they are in every CJK font: Noto, Source Han,
PingFang, YaHei), every other character the wider of Noto Sans CJK SC and DejaVu Sans, which is
wider than the Latin of the common system fonts; a character the table lacks counts 1 em. So a
box fits its label in the page's fonts and in a reader's system CJK font alike, without a font
file at build time (Read the Docs has none).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import merman

METRICS = Path(__file__).with_name("metrics.json")
WIDE = re.compile(
    r"[\u1100-\u11ff\u2e80-\u2fff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff"
    r"\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]"
)
EM = 1000
_BREAK = re.compile(r"<br\s*/?>|\n", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
Op = merman.MermanTextMeasurementOperation
Kind = merman.MermanTextMeasurementResultKind
_WIDTH_OPS = frozenset(
    {
        Op.COMPUTED_LENGTH, Op.SIMPLE_B_BOX_WIDTH, Op.RAW_B_BOX_WIDTH, Op.TSPAN_B_BOX_WIDTH,
        Op.WRAP_PROBE_B_BOX_WIDTH, Op.BOUNDING_CLIENT_RECT_WIDTH, Op.CANVAS_MEASURE_TEXT_WIDTH,
    }
)
_BOX_OPS = frozenset({Op.MEASURE, Op.WRAPPED, Op.MERMAID_CALCULATE_TEXT_DIMENSIONS})
_HEIGHT_OPS = frozenset({Op.TSPAN_B_BOX_HEIGHT, Op.SIMPLE_B_BOX_HEIGHT, Op.RAW_B_BOX_HEIGHT})
# A line's box in the CJK fonts (Noto Sans CJK: ascent 1.16 em + descent 0.288 em), taller than
# the Latin fonts' that merman assumes: a label's background then covers its text.
LINE_BOX_EM = 1.45
ASCENT_EM = 1.16


@cache
def advances() -> dict[str, dict[str, int]]:
    """Weight (``normal``, ``bold``) → character → advance in 1/1000 em."""
    data: dict[str, dict[str, int]] = json.loads(METRICS.read_text(encoding="utf-8"))
    return data


def _is_bold(weight: str | None) -> bool:
    return weight is not None and (weight == "bold" or (weight.isdigit() and int(weight) >= 600))


def line_width(text: str, size: float, bold: bool = False) -> float:
    """The advance of one line of *text* at *size* px."""
    table = advances()["bold" if bold else "normal"]
    total = 0
    for char in text:
        width = table.get(char)
        total += width if width is not None else EM  # wide characters and the unknown alike
    return total * size / EM


def text_lines(text: str) -> list[str]:
    """A label's lines: split at ``<br>`` and newlines, other markup dropped."""
    return [_TAG.sub("", line) for line in _BREAK.split(text)]


def text_height(lines: int, size: float, line_height: float) -> float:
    """The box of *lines* lines: the line spacing between them, a CJK line box for the last."""
    return (lines - 1) * line_height + size * LINE_BOX_EM


def _wrap(line: str, size: float, bold: bool, limit: float) -> list[str]:
    """Greedy wrapping at spaces and between wide characters, as a browser breaks lines."""
    pieces = re.findall(rf"{WIDE.pattern}|[^\s\u3000-\u9fff]+\s*|\s+", line)
    lines, current = [], ""
    for piece in pieces:
        candidate = current + piece
        if current and line_width(candidate.rstrip(), size, bold) > limit:
            lines.append(current.rstrip())
            current = piece.lstrip()
        else:
            current = candidate
    lines.append(current.rstrip())
    return lines


class LabelMeasurer(merman.MermanTextMeasurer):  # type: ignore[misc]
    """merman's host text measurer: widths from :func:`line_width`; heights are merman's own."""

    def measure(
        self, request: merman.MermanTextMeasureRequest
    ) -> merman.MermanTextMeasureResult | None:
        size, bold = float(request.font_size), _is_bold(request.font_weight)
        if request.operation in _WIDTH_OPS:
            width = line_width(request.text, size, bold)
            return _result(Kind.LENGTH, width=width, length=width)
        if request.operation is Op.CREATE_TEXT_B_BOX_Y_OFFSET:
            # the first baseline is 1 em below the text's origin; its box starts an ascent above
            offset = size * (1.0 - ASCENT_EM)
            return _result(Kind.LENGTH, width=offset, length=offset)
        if request.operation in _HEIGHT_OPS:
            height = text_height(len(text_lines(request.text)), size, size * 1.1)
            return _result(Kind.LENGTH, width=height, length=height)
        if request.operation in _BOX_OPS:
            lines = text_lines(request.text)
            limit = request.max_width
            if limit:
                lines = [part for line in lines for part in _wrap(line, size, bold, limit)]
            width = max(line_width(line, size, bold) for line in lines)
            height = text_height(len(lines), size, float(request.line_height or size * 1.1))
            return _result(Kind.METRICS, width=width, height=height, lines=len(lines))
        return None  # heights and offsets: merman's own, which do not depend on the font


def _result(
    kind: merman.MermanTextMeasurementResultKind,
    *,
    width: float,
    height: float = 0.0,
    length: float = 0.0,
    lines: int = 1,
) -> merman.MermanTextMeasureResult:
    return merman.MermanTextMeasureResult(
        result_kind=kind,
        width=width,
        height=height,
        length=length,
        line_count=lines,
        bbox_left=None,
        bbox_right=None,
        raw_width=None,
    )
