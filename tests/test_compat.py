"""Every private Sphinx/jieba internal is behind a door in ``seriesbook.compat``, and pinned.

The scan reads the package's source (no import): outside ``compat/``, reaching a private name of
another library (``obj._name``, ``from lib import _name``, ``getattr(obj, "_name")``,
``obj.__dict__``) fails; inside it, each private name reached must be listed in
``compat.INTERNALS``, whose upstream code is pinned by the hash of its source. (Reassigning a
method: ``tests/test_architecture.py`` reads the AST for it.)
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest
import seriesbook
from seriesbook.compat import INTERNALS, Internal

PACKAGE = Path(seriesbook.__file__).parent
COMPAT = PACKAGE / "compat"
# Python's own documented underscore names (namedtuple, Enum).
PYTHON_NAMES = frozenset({"_fields", "_asdict", "_replace", "_make", "_value_", "_name_"})


def _resolve(path: str) -> Any:
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            found = getattr(found, part)
        return found
    raise ImportError(path)


@pytest.mark.parametrize("internal", INTERNALS, ids=lambda i: f"{i.door}:{i.name}")
def test_the_upstream_code_a_door_relies_on_is_the_pinned_one(internal: Internal) -> None:
    """Guard: upstream changed the code named; re-read it, fix the door, then re-pin."""
    source = inspect.getsource(_resolve(internal.owner))
    assert hashlib.sha256(source.encode()).hexdigest() == internal.sha256


def _modules() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))}


def _own_names(trees: dict[Path, ast.Module]) -> set[str]:
    """Every name seriesbook itself defines or assigns: its own privates are its business."""
    own: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
            elif isinstance(node, ast.alias) and node.asname:
                own.add(node.asname)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}):
                own.add(node.attr)
    return own


def _private(name: str, own: set[str]) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in own | PYTHON_NAMES


def private_uses(path: Path, tree: ast.Module, own: set[str]) -> list[str]:
    """Each private name of another library that *tree* reaches, as ``file:line: name``."""
    found: list[str] = []

    def note(node: ast.AST, name: str) -> None:
        found.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}: {name}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if _private(node.attr, own) or node.attr == "__dict__":  # a write behind an API
                note(node, node.attr)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if not node.module.startswith("seriesbook"):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "_":
                        note(node, alias.name)
                if any(_private(part, set()) for part in node.module.split(".")):
                    note(node, node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in {"getattr", "setattr", "hasattr", "delattr"}
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
              and _private(str(node.args[1].value), own)):
            note(node, str(node.args[1].value))
    return found


def test_no_private_internal_outside_compat() -> None:
    trees = _modules()
    own = _own_names(trees)
    outside = [
        use for path, tree in trees.items() if COMPAT not in path.parents
        for use in private_uses(path, tree, own)
    ]
    assert outside == [], "reach it through a door in seriesbook.compat (and list it there)"


def test_every_private_internal_in_compat_is_listed() -> None:
    trees = _modules()
    own = _own_names(trees)
    # a write through __dict__ is named by the internal it writes (docutils' Node._document)
    listed = {part for internal in INTERNALS for part in internal.name.split(".")} | {"__dict__"}
    inside = [
        use for path, tree in trees.items() if COMPAT in path.parents
        for use in private_uses(path, tree, own)
    ]
    assert inside, "the scan finds the doors' own accesses"
    unlisted = [use for use in inside if use.rsplit(": ", 1)[1].split(".")[-1] not in listed]
    assert unlisted == [], "list each internal in compat.INTERNALS with its pinned upstream code"


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan itself: a private attribute, import and getattr of another library are found."""
    source = (
        "from sphinx.ext.intersphinx._load import _InvConfig\n"
        "x = env._builder_cls\n"
        "y = getattr(config, '_raw_config', {})\n"
        "z = record._fields\n"
    )
    path = PACKAGE / "probe.py"
    found = private_uses(path, ast.parse(source), own={"x", "y", "z"})
    assert [use.split(": ")[1] for use in found] == [
        "_InvConfig", "sphinx.ext.intersphinx._load", "_builder_cls", "_raw_config",
    ]


def test_each_internal_a_door_names_is_in_the_code_it_pins() -> None:
    """The attributes and names listed are really where the pinned code says they are."""
    missing = [
        internal.name for internal in INTERNALS
        if internal.name.rsplit(".", 1)[-1] not in inspect.getsource(_resolve(internal.owner))
        and not internal.name.endswith(("__init__", "_NodeUpdater", "translators"))
    ]
    assert missing == []


def test_jieba_imported_without_pkg_resources_reads_the_same_files() -> None:
    """``compat.import_jieba`` leaves jieba's fallback reader in place: the same bytes."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from seriesbook import compat\n"
        "compat.import_jieba()\n"
        "assert 'pkg_resources' not in sys.modules\n"
        "import jieba._compat as c\n"
        "ours = c.get_module_res('dict.txt').read()\n"
        "import pkg_resources\n"
        "theirs = pkg_resources.resource_stream('jieba', 'dict.txt').read()\n"
        "assert ours == theirs and len(ours) > 1000000, len(ours)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
