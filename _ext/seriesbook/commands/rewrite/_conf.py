"""Where a plain literal of ``conf.py`` is, so a command can rewrite one value and nothing else.

``conf.py`` is Python: the value is found with :mod:`ast` (never a regex), only where it is a
literal the author wrote (``name = {"key": "value"}``); anything computed returns None and the
caller prints the edit for the author to make instead.
"""

from __future__ import annotations

import ast


def _offset(text: str, lines: list[str], lineno: int, col_bytes: int) -> int:
    """Character offset of (1-based line, UTF-8 byte column), as :mod:`ast` reports positions."""
    before = sum(len(line) for line in lines[:lineno - 1])
    return before + len(lines[lineno - 1].encode("utf-8")[:col_bytes].decode("utf-8"))


def _assigned(tree: ast.Module, variable: str) -> ast.expr | None:
    """The value of the last top-level ``variable = …`` (the one Sphinx sees)."""
    value: ast.expr | None = None
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == variable for t in targets):
            value = statement.value
    return value


def _lookup(
    node: ast.expr | None, keys: tuple[str, ...]
) -> tuple[ast.Dict | None, int, ast.expr | None]:
    """Follow dict-literal *keys*; return the last dict, the key's index in it, and the value."""
    parent: ast.Dict | None = None
    index = -1
    if not keys:
        return None, -1, node
    for key in keys:
        if not isinstance(node, ast.Dict):
            return None, -1, None
        parent = node
        index = next(
            (i for i, k in enumerate(node.keys)
             if isinstance(k, ast.Constant) and k.value == key), -1
        )
        if index < 0:
            return parent, -1, None
        node = node.values[index]
    return parent, index, node


def literal_span(text: str, variable: str, *keys: str) -> tuple[int, int] | None:
    """The span of the literal (quotes included) at ``variable[key1][key2]…``, or None.

    None when the variable, a key or a literal is not there as written constants.
    """
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    _, _, node = _lookup(_assigned(tree, variable), keys)
    if not isinstance(node, ast.Constant) or node.end_lineno is None or node.end_col_offset is None:
        return None
    return (_offset(text, lines, node.lineno, node.col_offset),
            _offset(text, lines, node.end_lineno, node.end_col_offset))


def entry_span(text: str, variable: str, *keys: str) -> tuple[int, int] | None:
    """The span of the dict entry ``"key": value,`` at the path *keys* (for deleting it).

    The span takes the entry's trailing comma; when the entry is alone on its lines it takes
    those whole lines, so deleting it leaves no blank line.
    """
    if not keys:
        return None
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    parent, index, value = _lookup(_assigned(tree, variable), keys)
    if parent is None or index < 0 or value is None:
        return None
    key = parent.keys[index]
    if key is None or value.end_lineno is None or value.end_col_offset is None:
        return None
    start = _offset(text, lines, key.lineno, key.col_offset)
    end = _offset(text, lines, value.end_lineno, value.end_col_offset)
    rest = text[end:]
    stripped = rest.lstrip(" \t")
    if stripped.startswith(","):
        end += len(rest) - len(stripped) + 1
    line_begin = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if not text[line_begin:start].strip() and not text[end:line_end].strip():
        return line_begin, line_end
    # inline: also take the blank after the comma
    while end < len(text) and text[end] == " ":
        end += 1
    return start, end
