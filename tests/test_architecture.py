"""The layout's rules, read from the source: what a build imports, who imports whom.

* A Sphinx build imports no module of ``seriesbook.commands`` (the command line and what only
  it does).
* One package reaches another only through its ``__init__`` (public names), never through
  another package's ``_module``.
* No import cycle between seriesbook's modules, counting imports made only for type checking.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import seriesbook

PACKAGE = Path(seriesbook.__file__).parent
ROOTS = Path(__file__).parent / "roots"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, tuple[Path, ast.Module]]:
    return {
        _module_name(path): (path, ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imports(module: str, path: Path, tree: ast.Module, known: set[str]) -> set[str]:
    """The seriesbook modules *module* imports (any import, type-only ones included)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    found.add(submodule)
                elif base in known:
                    found.add(base)
    found.discard(module)
    return found


def _top_package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_package_reaches_into_another_packages_private_module() -> None:
    sources = _sources()
    known = set(sources)
    reached = [
        f"{module} -> {target}"
        for module, (path, tree) in sources.items()
        for target in sorted(_imports(module, path, tree, known))
        if _top_package(target) != _top_package(module)
        and any(part.startswith("_") and part != "__init__" for part in target.split(".")[2:])
    ]
    assert reached == [], "import the package and use its public names"


def test_no_import_cycle_even_type_only() -> None:
    sources = _sources()
    known = set(sources)
    graph = {m: _imports(m, path, tree, known) for m, (path, tree) in sources.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target):], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert cycles == []


def test_a_build_imports_no_command_module(tmp_path: Path) -> None:
    """Run in a fresh interpreter: the tests themselves import the commands."""
    book = tmp_path / "book"
    shutil.copytree(ROOTS / "test-renumber", book)
    script = (
        "import sys\n"
        "from sphinx.cmd.build import build_main\n"
        f"status = build_main(['-q', '-b', 'html', {str(book)!r}, {str(tmp_path / 'out')!r}])\n"
        "assert status == 0, status\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('seriesbook'))\n"
        "assert 'seriesbook.sections' in loaded, loaded\n"
        "print('\\n'.join(m for m in loaded if m.startswith('seriesbook.commands')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []
