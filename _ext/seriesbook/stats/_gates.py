"""Chapter gates: the bar every finished chapter must clear (``seriesbook_gates``).

A chapter whose front matter says ``status: draft`` is exempt. A gate whose figure is absent
(``excerpts`` when ``seriesbook.citations`` is not loaded) is not judged. A minimum of 0 turns a
gate off; options left out keep their defaults.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seriesbook.core.config import DEFAULT_GATES, get_config
from seriesbook.core.problems import Problem, warn

if TYPE_CHECKING:
    from sphinx.config import Config

#: (problem, option key, chapter figure, what the figure counts)
GATES: tuple[tuple[Problem, str, str, str], ...] = (
    (Problem.GATE_HAN, "min_han", "han", "Chinese characters"),
    (Problem.GATE_MERMAID, "min_mermaid", "mermaid", "Mermaid diagrams"),
    (Problem.GATE_EXCERPTS, "min_excerpts", "excerpts", "source excerpts"),
)


def gate_minimums(config: Config) -> dict[str, int]:
    """The configured minimums, defaults filled in."""
    return {**DEFAULT_GATES, **get_config(config).gates}


def failed_gates(chapter: dict[str, Any], minimums: dict[str, int]) -> list[str]:
    """Codes of the gates *chapter* fails; none for a draft."""
    if chapter["draft"]:
        return []
    return [
        problem.code
        for problem, key, figure, _ in GATES
        if chapter[figure] is not None and chapter[figure] < minimums[key]
    ]


def warn_failed_gates(chapter: dict[str, Any], minimums: dict[str, int]) -> None:
    """One ``gate-*`` warning per failed gate, at line 1 of the chapter's file."""
    for problem, key, figure, what in GATES:
        if problem.code in chapter["gates"]:
            warn(
                problem,
                f"{chapter['title']} has too few {what}: {chapter[figure]:,}, the gate is "
                f"{minimums[key]:,} ({key}); mark the chapter `status: draft` until it is done",
                (chapter["docname"], 1),
            )
