"""Where a plain literal of ``conf.py`` is, so a command can rewrite one value and nothing else.

``conf.py`` is Python: the value is found with :mod:`ast` (never a regex), only where it is a
literal the author wrote (``name = {"key": "value"}``) *and* the value that takes effect: the
one top-level assignment of the variable, never referred to again (no later
``name["key"] = …``, ``name.update(…)``, alias, assignment in a block, ``import *``,
``globals()``), the last of duplicate keys. Anything else returns None and the caller tells the
author what to edit, writing nothing.

Positions are counted as :mod:`ast` counts them: lines end only at ``\n``, ``\r\n`` and
``\r`` (``str.splitlines`` also splits at ``\x0c``, ``\x1c``–``\x1e``, ``\x85``,
U+2028/9, which would shift the span), columns are UTF-8 bytes.
"""

from __future__ import annotations

import ast
import re

_PYTHON_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_DYNAMIC = frozenset({"globals", "locals", "vars", "exec", "eval", "setattr", "__import__"})


def python_lines(text: str) -> list[str]:
    """*text*'s lines as Python's tokenizer ends them, endings kept."""
    return _PYTHON_LINE.findall(text)


def _offset(text: str, lines: list[str], lineno: int, col_bytes: int) -> int:
    """Character offset of (1-based line, UTF-8 byte column), as :mod:`ast` reports positions."""
    before = sum(len(line) for line in lines[:lineno - 1])
    return before + len(lines[lineno - 1].encode("utf-8")[:col_bytes].decode("utf-8"))


def _takes_effect(tree: ast.Module, variable: str, value: ast.expr) -> bool:
    """Whether *value* (a top-level assignment's) is what Sphinx will see for *variable*: the
    name is assigned nowhere else, never referred to again, and nothing assigns names
    dynamically."""
    own = [target for statement in tree.body
           if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is value
           for target in (statement.targets if isinstance(statement, ast.Assign)
                          else [statement.target])]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return False
        if isinstance(node, ast.Name) and node.id in _DYNAMIC:
            return False
        if isinstance(node, ast.Name) and node.id == variable and node not in own:
            return False
        if isinstance(node, ast.Global | ast.Nonlocal) and variable in node.names:
            return False
        if isinstance(node, ast.Import | ast.ImportFrom) and any(
                (a.asname or a.name).split(".")[0] == variable for a in node.names):
            return False
    return True


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
        if any(k is None for k in node.keys):  # a ``**other``: it may set the key
            return parent, -1, None
        index = max(  # the last of duplicate keys is the one a dict keeps
            (i for i, k in enumerate(node.keys)
             if isinstance(k, ast.Constant) and k.value == key), default=-1
        )
        if index < 0:
            return parent, -1, None
        node = node.values[index]
    return parent, index, node


def _parse(text: str) -> tuple[ast.Module, int] | None:
    """*text* as Python (and Sphinx, which compiles the file's bytes) reads it, and how many
    characters before it the positions skip (a byte order mark); None when it does not parse
    (then nothing is edited)."""
    bom = 1 if text.startswith("\ufeff") else 0
    try:
        return ast.parse(text[bom:]), bom
    except (SyntaxError, ValueError):
        return None


def _effective_value(text: str, variable: str) -> tuple[ast.expr, str, list[str], int] | None:
    """The value of *variable* that takes effect, the text after any byte order mark, that
    text's lines as :mod:`ast` counts them, and the mark's length; None when not editable."""
    parsed = _parse(text)
    if parsed is None:
        return None
    tree, bom = parsed
    assigned = _assigned(tree, variable)
    if assigned is None or not _takes_effect(tree, variable, assigned):
        return None
    text = text[bom:]
    return assigned, text, python_lines(text), bom


def literal_span(text: str, variable: str, *keys: str) -> tuple[int, int] | None:
    """The span of the literal (quotes included) at ``variable[key1][key2]…``, or None.

    None when the variable, a key or a literal is not there as written constants.
    """
    found = _effective_value(text, variable)
    if found is None:
        return None
    assigned, text, lines, bom = found
    _, _, node = _lookup(assigned, keys)
    if (not isinstance(node, ast.Constant) or not isinstance(node.value, str)
            or node.end_lineno is None or node.end_col_offset is None):
        return None
    return (bom + _offset(text, lines, node.lineno, node.col_offset),
            bom + _offset(text, lines, node.end_lineno, node.end_col_offset))


def entry_span(text: str, variable: str, *keys: str) -> tuple[int, int] | None:
    """The span of the dict entry ``"key": value,`` at the path *keys* (for deleting it).

    The span takes the entry's trailing comma; when the entry is alone on its lines it takes
    those whole lines, so deleting it leaves no blank line.
    """
    found = _effective_value(text, variable) if keys else None
    if found is None:
        return None
    assigned, text, lines, bom = found
    parent, index, value = _lookup(assigned, keys)
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
        return bom + line_begin, bom + line_end
    # inline: also take the blank after the comma
    while end < len(text) and text[end] == " ":
        end += 1
    return bom + start, bom + end
