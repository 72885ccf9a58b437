"""Mermaid diagrams as catalog messages: one message per text label, structure untouched.

sphinxcontrib-mermaid keeps a diagram's source in a ``mermaid`` node that Sphinx's i18n never
sees. Here the ``mermaid`` directive is the same directive plus one step: it splits the source
(:mod:`._mermaid`) and hangs one :class:`diagram_label` per label under the node. Each label
implements :class:`sphinx.addnodes.translatable`, so :func:`sphinx.util.nodes.extract_messages`
yields it to the gettext builder: one msgid per label. In a build with catalogs,
:class:`TranslateLabels` hands each label its translation just before Sphinx's ``Locale`` (from
the same catalogs; ``Locale`` itself would too, only slower); the label then re-renders its
diagram's ``code`` with every label's current text, escaped so that a translation cannot change
the diagram's structure and mermaid shows it as written (:func:`._mermaid.render_label`).

A diagram that cannot be split is reported (``i18n-diagram``, at its line in the source file)
and left exactly as written, untranslatable. A translation mermaid cannot show as written
(:func:`._mermaid.unsafe`) is reported by :func:`check_labels` (``i18n-diagram``, at the ``.po``
file and line) and that label stays untranslated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinxcontrib.mermaid import Mermaid, mermaid

from seriesbook import compat
from seriesbook.core.problems import Problem, warn
from seriesbook.editions import _walked
from seriesbook.editions._facts import compiled_catalogs
from seriesbook.editions._mermaid import Diagram, DiagramError, Label, parse, unsafe

if TYPE_CHECKING:
    from pathlib import Path

    from docutils.nodes import Node

    from seriesbook.editions._facts import CatalogFacts

STRUCTURE = "seriesbook_structure"
TRANSLATED_EARLY = "seriesbook_translated_early"


class diagram_label(nodes.Invisible, nodes.Element, addnodes.translatable):
    """One text label of a Mermaid diagram: a catalog message of its own."""

    def preserve_original_messages(self) -> None:
        """The original stays in ``message``; only ``text`` changes."""

    def extract_original_messages(self) -> Sequence[str]:
        if self.get(TRANSLATED_EARLY):
            return []  # already looked up by TranslateLabels: nothing left for Locale
        return [self["message"]]

    def apply_translated_message(self, original_message: str, translated_message: str) -> None:
        if unsafe(self.label(), translated_message) is not None:
            return  # reported by check_labels; the label stays as written
        self["text"] = translated_message
        if isinstance(self.parent, mermaid):
            render_diagram(self.parent)

    def label(self) -> Label:
        return Label(self["raw"], self["message"], self["kind"])


class TranslateLabels(SphinxTransform):
    """Translate diagram labels just before Sphinx's ``Locale``, from the same catalogs.

    ``Locale`` would do the same through :meth:`diagram_label.apply_translated_message`, but it
    first publishes every translation as a Markdown document (for titles' sake): for hundreds of
    short labels that doubles a translated edition's reading time.
    """

    default_priority = 19  # Locale is 20

    def apply(self, **kwargs: Any) -> None:
        builder = compat.builder_class(self.env)  # as Sphinx's own i18n transforms do
        if builder is None or not builder.use_message_catalog or not self.config.language:
            return  # the gettext builder extracts the labels instead
        # Locale's, looked up once per page
        catalog, has_catalog = compat.page_catalog(self, compiled_catalogs(self.config))
        if not has_catalog:
            return
        labels = _walked.found(self.document, diagram_label)  # NoteMessages' walk found them
        for label in self.document.findall(diagram_label) if labels is None else labels:
            message = label["message"]
            translation = catalog.gettext(message)
            label[TRANSLATED_EARLY] = True
            label["translated"] = bool(translation.strip()) and translation != message
            if label["translated"]:
                label.apply_translated_message(message, translation)


def render_diagram(node: mermaid) -> None:
    """Write the diagram's code from its structure and its labels' current texts."""
    labels = [child for child in node.children if isinstance(child, diagram_label)]
    diagram = Diagram(structure=list(node[STRUCTURE]), labels=[label.label() for label in labels])
    node["code"] = diagram.render([label["text"] for label in labels])


def check_labels(labels: Iterable[diagram_label], catalog: CatalogFacts, path: Path) -> None:
    """Warn about every translation of the page's diagram *labels* mermaid cannot show as
    written."""
    reported: set[str] = set()
    for node in labels:
        message = node["message"]
        entry = catalog.get(message)
        if entry is None or entry.fuzzy or not isinstance(entry.string, str):
            continue
        translation = entry.string
        if not translation or translation == message or message in reported:
            continue
        label = node.label()
        reason = unsafe(label, translation)
        if reason is not None:
            reported.add(label.message)
            warn(
                Problem.I18N_DIAGRAM,
                f"the translation of the diagram label {label.message!r} cannot be shown as "
                f"written: {reason}; the label is left untranslated",
                f"{path}:{entry.lineno}",
            )


def attach_labels(node: mermaid, diagram: Diagram) -> None:
    node[STRUCTURE] = diagram.structure
    for label in diagram.labels:
        node += diagram_label(
            raw=label.raw, message=label.message, kind=label.kind, text=label.message
        )


class TranslatableMermaid(Mermaid):  # type: ignore[misc]
    """sphinxcontrib-mermaid's directive, whose diagrams carry their labels as messages."""

    def run(self, **kwargs: Any) -> list[Node]:
        result: list[Node] = super().run(**kwargs)
        source, line = self.state_machine.get_source_and_line(self.lineno)
        for top in result:
            for node in top.findall(mermaid):
                node.source, node.line = source, line
                self._split(node)
        return result

    def _split(self, node: mermaid) -> None:
        code: str = node["code"]
        try:
            diagram = parse(code)
        except DiagramError as error:
            env = self.state.document.settings.env
            warn(
                Problem.I18N_DIAGRAM,
                f"Mermaid diagram not translatable: {error.reason}; it is left as written",
                (env.docname, self._source_line(code, error.line)),
            )
            return
        attach_labels(node, diagram)

    def _source_line(self, code: str, line: int) -> int:
        """Line *line* of the diagram's code as a line of the document (content, not options)."""
        added = len(code.splitlines()) - len(self.content)  # front matter from the options
        index = line - 1 - added
        if self.arguments or index < 0:
            return int(self.lineno)
        offset = int(self.content_offset)
        if offset < self.lineno:  # MyST counts the content from the line after the fence
            return int(self.lineno) + 1 + offset + index
        return offset + 1 + index  # docutils: the content's 0-based line in the document


def skip_node(translator: nodes.NodeVisitor, node: diagram_label) -> None:
    raise nodes.SkipNode
