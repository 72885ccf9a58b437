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


def _owner(target: str) -> str | None:
    """The package a module's private part belongs to (``seriesbook.commands.rewrite`` for
    ``seriesbook.commands.rewrite._conf``), or None when it is public."""
    parts = target.split(".")
    for index, part in enumerate(parts[1:], 1):
        if part.startswith("_") and part != "__init__":
            return ".".join(parts[:index])
    return None


def _inside(module: str, package: str | None) -> bool:
    return package is None or module == package or module.startswith(f"{package}.")


def test_no_package_reaches_into_another_packages_private_module() -> None:
    """Also between subpackages (``commands.repin`` uses ``commands.rewrite``'s public names)."""
    sources = _sources()
    known = set(sources)
    reached = [
        f"{module} -> {target}"
        for module, (path, tree) in sources.items()
        for target in sorted(_imports(module, path, tree, known))
        if not _inside(module, _owner(target))
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


class _Replacements(ast.NodeVisitor):
    """What a module replaces on objects and modules that are not its own, read from its AST:

    * an attribute of an imported module of another library written (``i18n._NodeUpdater =``);
    * a method put on an object: an attribute (not of ``self``/``cls``) given a lambda or a
      function defined in the module, by assignment or by ``setattr``;
    * an item of another library's mapping written (``sphinx.search.languages["zh"] =``).
    """

    def __init__(self, tree: ast.Module) -> None:
        self.foreign: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                self.foreign |= {
                    (alias.asname or alias.name).split(".")[0]
                    for alias in node.names if not alias.name.startswith("seriesbook")
                }
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module and (
                not node.module.startswith("seriesbook")
            ):
                self.foreign |= {alias.asname or alias.name for alias in node.names}
        self.module_functions = {
            node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)
        }
        self.scopes: list[tuple[set[str], set[str]]] = []  # (nested functions, parameters)
        self.found: list[str] = []

    def _is_function(self, value: ast.expr) -> bool:
        if isinstance(value, ast.Lambda):
            return True
        if not isinstance(value, ast.Name):
            return False
        nested, parameters = self.scopes[-1] if self.scopes else (set(), set())
        if value.id in parameters:
            return False
        return value.id in nested or value.id in self.module_functions

    @staticmethod
    def _base(node: ast.expr) -> str | None:
        while isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        nested = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        self.scopes.append((nested, {argument.arg for argument in arguments}))
        self.generic_visit(node)
        self.scopes.pop()

    def _target(self, target: ast.expr, value: ast.expr | None) -> None:
        base = self._base(target)
        if isinstance(target, ast.Attribute) and base not in ("self", "cls"):
            if (isinstance(target.value, ast.Name) and base in self.foreign) or (
                value is not None and self._is_function(value)
            ):
                self.found.append(ast.unparse(target))
        elif isinstance(target, ast.Subscript) and base in self.foreign:
            self.found.append(ast.unparse(target.value))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, None)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(node.args) == 3:
            owner, name, value = node.args
            if self._base(owner) not in ("self", "cls") and self._is_function(value):
                label = name.value if isinstance(name, ast.Constant) else ast.unparse(name)
                self.found.append(f"{ast.unparse(owner)}.{label}")
        self.generic_visit(node)


def replacements(tree: ast.Module) -> list[str]:
    scan = _Replacements(tree)
    scan.visit(tree)
    return scan.found


def test_nothing_of_sphinxs_is_replaced_but_the_stated_exceptions() -> None:
    """The house rule, from the AST: no method of Sphinx's objects (nor a function or class of
    its modules, nor an entry of its registries) is reassigned, except what
    ``seriesbook.compat.REASSIGNED`` states, each in its door, with why."""
    from seriesbook.compat import REASSIGNED

    found = {
        f"{path.relative_to(PACKAGE).as_posix()}: {target}"
        for _, (path, tree) in _sources().items()
        for target in replacements(tree)
    }
    stated = {f"compat/_sphinx.py: {exception.target}" for exception in REASSIGNED}
    assert found == stated, "use a subclass or public API, or state the exception in compat"


def test_the_replacement_scan_finds_what_it_looks_for() -> None:
    source = (
        "from sphinx.search import languages\n"
        "from sphinx.transforms import i18n\n"
        "def door(builder, total):\n"
        "    def mine(name): return name\n"
        "    builder.get_contentsname = lambda indexfile: 'x'\n"
        "    setattr(builder, 'compile_catalogs', mine)\n"
        "    languages['zh'] = 'x.Y'\n"
        "    i18n._NodeUpdater = object\n"
        "    builder.total = total\n"  # data: a parameter, not a function
        "    self_made = {}\n"
        "    self_made['x'] = mine\n"  # its own mapping
    )
    assert replacements(ast.parse(source)) == [
        "builder.get_contentsname", "builder.compile_catalogs", "languages", "i18n._NodeUpdater",
    ]
