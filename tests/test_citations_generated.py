"""Files a source generates at build time: a citation into one is reported, never a dead link."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from seriesbook.citations._generated import generated_instead
from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-citations-generated"
MakeApp = Callable[..., SphinxTestApp]
FILES = {
    "build/ops/add.h": "// generated\nint add(int, int);\n",
    "build/ops/sub/mul.h": "int mul(int, int);\n",
    "pkg/version.py": "version = '1.0'\n",
    "gen/ops.py": "def write_ops(): ...\n",
}


@pytest.mark.parametrize(
    ("path", "instead"),
    [
        ("build/ops/add.h", "gen/ops.py"),
        ("build/ops/sub/mul.h", None),  # `*` stays within one part of the path
        ("build/ops", None),
        ("pkg/version.py", "tools/make_version.py"),
        ("pkg/version.pyi", None),
    ],
)
def test_patterns(path: str, instead: str | None) -> None:
    spec = {"generated": {"build/ops/*": "gen/ops.py", "pkg/version.py": "tools/make_version.py"}}
    assert generated_instead(spec, path) == instead
    assert generated_instead({}, path) is None


def test_citations_into_generated_files_are_reported_and_not_linked(
    make_app: MakeApp, tmp_path: Path
) -> None:
    srcdir, copy = tmp_path / "book", tmp_path / "copy"
    shutil.copytree(ROOT, srcdir)
    for name, text in FILES.items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text(text)
    app = make_app("html", srcdir=srcdir, freshenv=True,
                   confoverrides={"seriesbook_source_paths": {"demo": str(copy)}})
    app.build()
    app.cleanup()
    warnings = [w for w in app.warning.getvalue().splitlines() if "[seriesbook." in w]
    assert len(warnings) == 3, warnings
    assert all("[seriesbook.cite-generated]" in w for w in warnings), warnings
    assert any("index.md:3:" in w and "build/ops/add.h is generated at build time, not in "
               "the repository at v1.0: cite gen/ops.py instead" in w for w in warnings)
    assert any("index.md:5:" in w for w in warnings)
    assert any("index.md:9:" in w and "cite tools/make_version.py instead" in w
               for w in warnings)
    html = (app.outdir / "index.html").read_text()
    assert "blob/v1.0/build/ops/add.h" not in html and "blob/v1.0/pkg/version.py" not in html
    assert "https://example.org/demo/blob/v1.0/build/ops/sub/mul.h#L1" in html
    assert "https://example.org/demo/blob/v1.0/gen/ops.py#L1" in html
