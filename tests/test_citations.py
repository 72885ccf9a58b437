"""seriesbook.citations in real builds: links, every warning, git and directory sources, lock.

The demo source is made here: a git repository whose tag ``v1.0`` holds the cited lines, then a
later commit and uncommitted edits that move and change them (reading HEAD or the working tree
fails the tests), and a plain directory with the v1.0 files plus symlinks that point outside.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from seriesbook.citations import citation_counts
from seriesbook.citations.lockfile import write_lock
from seriesbook.commands.cli import main
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_escape_sequences

ROOTS = Path(__file__).parent / "roots"
MakeApp = Callable[..., SphinxTestApp]

ENGINE_PY = '''"""Demo engine."""


class Engine:
    def run(self, graph):
        ready = list(graph)
        while ready:
            node = ready.pop()
            node.execute()
        return None
'''
ENGINE_H = """#pragma once
namespace demo {
struct Engine {
  void execute(int x);
  friend bool operator<(const Engine& a, const Engine& b);
};
}  // namespace demo
"""
V1_FILES = {
    "pkg/engine.py": ENGINE_PY,
    "include/engine.h": ENGINE_H,
    "tool.py": "import sys\nprint(sys.argv)\n",
    'odd/a&b"<c>.py': 'x = "<b>&amp;"\n',
}
OUTSIDE_TEXT = "secret = 1\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
         "-c", "init.defaultBranch=main", *args],
        cwd=repo, check=True, capture_output=True, env=env,
    )


@pytest.fixture(scope="session")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file and a directory next to the sources, which no citation may read."""
    base = tmp_path_factory.mktemp("sources")
    (base / "outside.py").write_text(OUTSIDE_TEXT)
    (base / "outside_dir").mkdir()
    (base / "outside_dir" / "secret.py").write_text(OUTSIDE_TEXT)
    return base


@pytest.fixture(scope="session")
def git_source(outside: Path) -> Path:
    repo = outside / "git"
    repo.mkdir()
    _git(repo, "init", "-q")
    _write(repo, V1_FILES)
    (repo / "link_in.py").symlink_to("pkg/engine.py")
    (repo / "link_out.py").symlink_to("../outside.py")
    (repo / "escape").symlink_to(outside / "outside_dir")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "v1.0")
    _git(repo, "tag", "-a", "v1.0", "-m", "release 1.0")
    # Later history moves and changes every cited line …
    _write(repo, {
        "pkg/engine.py": "# moved\n# moved\n# moved\n" + ENGINE_PY.replace("run", "go"),
        "include/engine.h": "// moved\n" + ENGINE_H.replace("execute", "launch"),
        "tool.py": "import os\n",
    })
    _git(repo, "commit", "-q", "-am", "later")
    # … and so does the working tree.
    (repo / "pkg/engine.py").write_text("working tree\n")
    (repo / "include/engine.h").write_text("")
    return repo


@pytest.fixture(scope="session")
def dir_source(outside: Path) -> Path:
    root = outside / "plain"
    root.mkdir()
    _write(root, V1_FILES)
    (root / "link_in.py").symlink_to("pkg/engine.py")
    (root / "link_out.py").symlink_to("../outside.py")
    (root / "escape").symlink_to(outside / "outside_dir")
    return root


@pytest.fixture
def git_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `git` first on PATH that logs every invocation, also from forked workers."""
    real = shutil.which("git")
    assert real is not None
    bindir, log = tmp_path / "bin", tmp_path / "git.log"
    bindir.mkdir()
    wrapper = bindir / "git"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    log.touch()
    return log


def book(tmp_path: Path, root: str, name: str = "book") -> Path:
    """A private copy of a test root, so a lock written into it stays in this test."""
    srcdir = tmp_path / name
    shutil.copytree(ROOTS / f"test-citations-{root}", srcdir)
    return srcdir


def build(make_app: MakeApp, srcdir: Path, source: Path | None = None, **kw: Any) -> SphinxTestApp:
    overrides = dict(kw.pop("confoverrides", {}))
    if source is not None:
        overrides["seriesbook_source_paths"] = {"demo": str(source)}
    kw.setdefault("freshenv", True)
    app = make_app("html", srcdir=srcdir, confoverrides=overrides, **kw)
    app.build()
    app.cleanup()  # unregister node classes, so the next app of this test starts clean
    return app


def warnings(app: SphinxTestApp) -> list[str]:
    return [w for w in app.warning.getvalue().splitlines() if "[seriesbook." in w]


def line_of(srcdir: Path, needle: str, doc: str = "index.md") -> int:
    lines = (srcdir / doc).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if needle in line)


# --- links ------------------------------------------------------------------------------------


def test_links_point_to_the_pinned_lines(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    app = build(make_app, book(tmp_path, "forms"), git_source)
    assert warnings(app) == []
    html = (app.outdir / "index.html").read_text()
    base = "https://example.org/demo/blob/v1.0/"
    for href, text in [
        ("pkg/engine.py#L5", "pkg/engine.py:5"),
        ("pkg/engine.py#L5-L10", "pkg/engine.py:5-10"),
        ("include/engine.h#L3-L6", "demo:include/engine.h:3-6"),
        ("tool.py#L2", "tool.py:2"),
        ("pkg/engine.py#L9", "pkg/engine.py:9"),
        ("pkg/engine.py#L5-L9", "Engine.run"),
        ("include/engine.h#L4", "Engine::execute"),
    ]:
        pattern = rf'<a class="[^"]*seriesbook-citation[^"]*" href="{re.escape(base + href)}">'
        pattern += rf'<code[^>]*><span class="pre">{re.escape(text)}</span>'
        assert re.search(pattern, html), text
    for text in ("torch.add", "x:1", "a/b", "engine.py"):
        assert f'<span class="pre">{text}</span></code></a>' not in html
    caption = rf'<span class="caption-text"><a class="[^"]*seriesbook-citation[^"]*" href="{base}'
    assert re.search(caption + r'pkg/engine\.py#L5-L10">pkg/engine\.py:5-10</a></span>', html)


def test_odd_characters_are_escaped_never_markup(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    app = build(make_app, book(tmp_path, "forms"), git_source)
    html = (app.outdir / "index.html").read_text()
    assert 'href="https://example.org/demo/blob/v1.0/odd/a%26b%22%3Cc%3E.py#L1"' in html
    assert "odd/a&amp;b&quot;&lt;c&gt;.py:1" in html
    assert "operator&lt;" in html
    assert "<c>" not in html and "operator<" not in html


def test_counts(make_app: MakeApp, tmp_path: Path, git_source: Path) -> None:
    app = build(make_app, book(tmp_path, "forms"), git_source)
    counts = citation_counts(app.env, "index")
    assert (counts.citations, counts.with_symbol, counts.excerpts, counts.verified) == (
        11, 3, 1, 11
    )
    assert counts.by_source == {"demo": 11}
    assert counts.by_problem == {}


def test_translated_text_is_linked(make_app: MakeApp, tmp_path: Path, git_source: Path) -> None:
    app = build(make_app, book(tmp_path, "i18n"), git_source)
    assert warnings(app) == []
    html = (app.outdir / "index.html").read_text()
    assert "Die Maschine" in html
    assert 'href="https://example.org/demo/blob/v1.0/pkg/engine.py#L9"' in html
    assert 'href="https://example.org/demo/blob/v1.0/pkg/engine.py#L5"' in html
    counts = citation_counts(app.env, "index")
    assert (counts.citations, counts.with_symbol, counts.verified) == (2, 1, 2)


def test_translated_problems_are_at_the_source_line(make_app: MakeApp, tmp_path: Path) -> None:
    """Sphinx parses a translation as a one-line document; warnings still name the .md line."""
    srcdir = book(tmp_path, "i18n")
    app = build(make_app, srcdir)  # no copy, no lock: both citations are unverified
    line = line_of(srcdir, "The engine runs at")
    where = [strip_escape_sequences(w).split(": WARNING")[0] for w in warnings(app)]
    assert where == [f"{srcdir / 'index.md'}:{line}"] * 2


# --- every warning, from git and from a plain directory ----------------------------------------

EXPECTED = [
    ("nosuch:pkg", "cite-unknown-source"),
    ("../secret.py", "cite-path"),
    ("/etc/passwd", "cite-path"),
    ("pkg\\engine.py", "cite-path"),
    ("pkg//engine.py", "cite-path"),
    ("pkg/nothing.py", "cite-missing-file"),
    ("pkg/engine.py:0", "cite-line-range"),
    ("pkg/engine.py:5-99", "cite-line-range"),
    ("pkg/engine.py:9-5", "cite-line-range"),
    ("Scheduler", "cite-symbol"),
    ("nothing here", "cite-syntax"),
    ("No symbol before", "cite-syntax"),
    ("link_out.py", "cite-path"),
    ("escape/secret.py", "cite-path"),
    ("Runner", "cite-symbol"),  # in a table cell: at its row, not the table's first line
    ("pkg/gone.py", "cite-missing-file"),
    (":caption: pkg/engine.py:5-6", "cite-excerpt"),
]


@pytest.mark.parametrize("kind", ["git", "directory"])
def test_every_problem_at_its_line(
    make_app: MakeApp, tmp_path: Path, git_source: Path, dir_source: Path, kind: str
) -> None:
    srcdir = book(tmp_path, "problems")
    app = build(make_app, srcdir, git_source if kind == "git" else dir_source)
    reported = r"index\.md:(\d+): WARNING: .*\[seriesbook\.([\w-]+)\]"
    found = {(int(m[1]), m[2]) for m in re.finditer(reported, app.warning.getvalue())}
    expected = {(line_of(srcdir, needle), code) for needle, code in EXPECTED}
    # A code block's warning is at the block, whose line MyST gives as the fence.
    expected = {(line - 1 if code == "cite-excerpt" else line, code) for line, code in expected}
    assert found == expected
    assert len(warnings(app)) == len(EXPECTED)
    assert OUTSIDE_TEXT.strip() not in app.warning.getvalue()
    counts = citation_counts(app.env, "index")
    assert counts.verified == 0
    assert counts.by_problem["cite-path"] == 6
    assert counts.by_problem["cite-syntax"] == 2


def test_unsafe_and_unknown_citations_are_not_linked(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    app = build(make_app, book(tmp_path, "problems"), git_source)
    hrefs = re.findall(r'href="([^"]*)"', (app.outdir / "index.html").read_text())
    linked = [h for h in hrefs if h.startswith("https://example.org/")]
    assert len(linked) == 10  # nothing linked for unknown, unsafe or non-citations
    for bad in ("..", "passwd", "%5C", "//pkg", "nosuch"):
        assert not any(bad in h.removeprefix("https://") for h in linked), bad


def test_reads_the_tag_not_head_or_working_tree(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    """Every forms citation holds at v1.0 only; a later ref fails them."""
    app = build(make_app, book(tmp_path, "forms"), git_source)
    assert warnings(app) == []
    later = {"demo": {"repo": "https://example.org/demo", "ref": "main"}}
    app = build(make_app, book(tmp_path, "forms", "later"), git_source,
                confoverrides={"seriesbook_sources": later})
    assert "cite-symbol" in app.warning.getvalue()


def test_pinned_commit_must_match_the_ref(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    tag = subprocess.run(["git", "rev-parse", "v1.0^{commit}"], cwd=git_source,
                         capture_output=True, text=True, check=True).stdout.strip()
    pinned = {"demo": {"repo": "https://example.org/demo", "ref": "v1.0", "commit": tag[:7]}}
    app = build(make_app, book(tmp_path, "forms"), git_source,
                confoverrides={"seriesbook_sources": pinned})
    assert warnings(app) == []
    wrong = {"demo": {**pinned["demo"], "commit": "0000000"}}
    app = build(make_app, book(tmp_path, "forms", "wrong"), git_source,
                confoverrides={"seriesbook_sources": wrong})
    out = app.warning.getvalue()
    mismatch = r"conf\.py:3: WARNING: source 'demo': v1\.0 is commit \w+ .* commit 0000000"
    assert re.search(mismatch, out)
    assert "[seriesbook.cite-source]" in out
    assert "[seriesbook.cite-unverified]" in out  # nothing read from the mismatching copy


def test_unknown_ref_and_missing_copy_are_source_problems(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    bad = {"demo": {"repo": "https://example.org/demo", "ref": "v9.9"}}
    app = build(make_app, book(tmp_path, "forms"), git_source,
                confoverrides={"seriesbook_sources": bad})
    assert "ref 'v9.9' does not resolve to a commit" in app.warning.getvalue()
    app = build(make_app, book(tmp_path, "forms", "gone"), tmp_path / "no-such-dir")
    assert "local copy not found" in app.warning.getvalue()
    refless = {"demo": {"repo": "https://example.org/demo"}}
    app = build(make_app, book(tmp_path, "forms", "refless"),
                confoverrides={"seriesbook_sources": refless,
                               "seriesbook_source_paths": {"demo": str(git_source), "typo": "x"}})
    out = app.warning.getvalue()
    assert "source 'demo' needs a 'repo' and a 'ref'" in out
    assert "--source typo=…: no source 'typo' in conf.py [seriesbook.cite-source]" in out


@pytest.mark.parametrize("parallel", [0, 2])
def test_one_git_process_per_source_per_build(
    make_app: MakeApp, tmp_path: Path, git_source: Path, git_log: Path, parallel: int
) -> None:
    srcdir = book(tmp_path, "forms")
    for n in range(6):  # enough documents for -j 2 to fork readers
        shutil.copy(srcdir / "index.md", srcdir / f"copy{n}.md")
    app = build(make_app, srcdir, git_source, parallel=parallel)
    calls = git_log.read_text().splitlines()
    assert [c for c in calls if "cat-file" in c] == [
        f"-C {git_source} cat-file --batch --follow-symlinks"
    ]
    assert len(calls) == 1
    assert sum(citation_counts(app.env, d).verified for d in app.env.found_docs) == 77


def test_environment_variable_and_config_path(
    make_app: MakeApp, tmp_path: Path, dir_source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SERIESBOOK_SOURCE_DEMO", str(dir_source))
    app = build(make_app, book(tmp_path, "forms"))
    assert warnings(app) == []
    monkeypatch.delenv("SERIESBOOK_SOURCE_DEMO")
    srcdir = book(tmp_path, "forms", "configured")
    rel = os.path.relpath(dir_source, srcdir)
    sources = {"demo": {"repo": "https://example.org/demo", "ref": "v1.0", "path": rel}}
    app = build(make_app, srcdir, confoverrides={"seriesbook_sources": sources})
    assert warnings(app) == []


def test_no_copy_and_no_lock_is_unverified(make_app: MakeApp, tmp_path: Path) -> None:
    app = build(make_app, book(tmp_path, "forms"))
    out = app.warning.getvalue()
    assert out.count("[seriesbook.cite-unverified]") == 11
    assert "index.md:3: WARNING: `pkg/engine.py:5`: the lock does not cover" in out


# --- the lock ---------------------------------------------------------------------------------


def _lock(make_app: MakeApp, srcdir: Path, source: Path | None) -> Path:
    app = build(make_app, srcdir, source)
    return write_lock(app)


def test_lock_round_trip_verifies_offline(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    srcdir = book(tmp_path, "problems")
    path = _lock(make_app, srcdir, git_source)
    assert path == srcdir / "citations.lock.json"
    online = build(make_app, srcdir, git_source)
    offline = build(make_app, srcdir)
    assert offline.warning.getvalue() == online.warning.getvalue()
    assert citation_counts(offline.env, "index") == citation_counts(online.env, "index")
    forms = book(tmp_path, "forms", "forms")
    _lock(make_app, forms, git_source)
    offline = build(make_app, forms)
    assert warnings(offline) == []
    assert citation_counts(offline.env, "index").verified == 11


def test_lock_is_deterministic_small_and_text_only_for_previews(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    first = _lock(make_app, book(tmp_path, "forms", "a"), git_source).read_bytes()
    second = _lock(make_app, book(tmp_path, "forms", "b"), git_source).read_bytes()
    assert first == second
    data = json.loads(first)
    assert list(data) == sorted(data)
    demo = data["sources"]["demo"]
    assert demo["ref"] == "v1.0" and len(demo["commit"]) == 40
    assert demo["files"]["pkg/engine.py"]["lines"] == 10
    # source text only under "text": each cited range's lines (for previews), nowhere else
    assert demo["text"]["pkg/engine.py:5-5"] == "    def run(self, graph):"
    del demo["text"]
    rest = json.dumps(data, ensure_ascii=False)
    assert "ready" not in rest and "execute(" not in rest
    assert len(first) < 4000


def test_lock_from_a_directory_equals_lock_from_git_but_for_the_commit(
    make_app: MakeApp, tmp_path: Path, git_source: Path, dir_source: Path
) -> None:
    from_git = json.loads(_lock(make_app, book(tmp_path, "problems", "g"), git_source).read_text())
    from_dir = json.loads(_lock(make_app, book(tmp_path, "problems", "d"), dir_source).read_text())
    assert from_dir["sources"]["demo"]["commit"] == ""
    from_git["sources"]["demo"]["commit"] = ""
    assert from_git == from_dir


def test_stale_lock_is_reported_with_a_local_copy(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    srcdir = book(tmp_path, "forms")
    path = _lock(make_app, srcdir, git_source)
    data = json.loads(path.read_text())
    data["sources"]["demo"]["files"]["pkg/engine.py"]["lines"] = 12
    path.write_text(json.dumps(data))
    app = build(make_app, srcdir, git_source)
    stale = [w for w in warnings(app) if "cite-lock-stale" in w]
    assert len(stale) == 1
    assert "pkg/engine.py changed since the lock was written" in stale[0]
    assert "index.md:3:" in stale[0]


def test_lock_for_another_release_does_not_vouch(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    srcdir = book(tmp_path, "forms")
    _lock(make_app, srcdir, git_source)
    other = {"demo": {"repo": "https://example.org/demo", "ref": "v2.0"}}
    app = build(make_app, srcdir, confoverrides={"seriesbook_sources": other})
    assert app.warning.getvalue().count("[seriesbook.cite-unverified]") == 11
    app = build(make_app, srcdir, git_source, confoverrides={"seriesbook_sources": other})
    assert "cite-source" in app.warning.getvalue()


def test_citation_missing_from_the_lock_is_unverified(
    make_app: MakeApp, tmp_path: Path, git_source: Path
) -> None:
    srcdir = book(tmp_path, "forms")
    _lock(make_app, srcdir, git_source)
    with (srcdir / "index.md").open("a") as file:
        file.write("\nNew: `pkg/engine.py:6`.\n")
    app = build(make_app, srcdir)
    [warning] = warnings(app)
    assert f"index.md:{line_of(srcdir, 'New:')}: WARNING: `pkg/engine.py:6`" in warning
    assert "[seriesbook.cite-unverified]" in warning


def test_unreadable_lock_is_reported(make_app: MakeApp, tmp_path: Path) -> None:
    srcdir = book(tmp_path, "forms")
    (srcdir / "citations.lock.json").write_text("{not json")
    app = build(make_app, srcdir)
    assert "citations.lock.json:1: WARNING: unreadable citation lock" in app.warning.getvalue()
    assert "[seriesbook.cite-lock]" in app.warning.getvalue()


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda data: data["sources"]["demo"]["files"]["pkg/engine.py"].update(lines="many"),
         '"pkg/engine.py": {'),
        (lambda data: data["sources"]["demo"]["files"].update({"tool.py": {"lines": True}}),
         '"tool.py": {'),
        (lambda data: data["sources"]["demo"].update(ranges=["x"]), '"ranges":'),
        (lambda data: data["sources"]["demo"]["symbols"].update({"k": "yes"}), '"k":'),
        (lambda data: data["sources"]["demo"].update(repo=5), '"repo":'),
        (lambda data: data["sources"].update(demo="v1.0"), '"demo":'),
        (lambda data: data.update(sources=[]), '"sources":'),
    ],
)
def test_malformed_lock_is_reported_at_its_line_and_ignored(
    make_app: MakeApp, tmp_path: Path, git_source: Path,
    edit: Callable[[dict[str, Any]], None], needle: str,
) -> None:
    """A hand edit of the wrong shape is `cite-lock` at the edited line; the build goes on."""
    srcdir = book(tmp_path, "forms")
    path = _lock(make_app, srcdir, git_source)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data, indent=1, sort_keys=True))
    app = build(make_app, srcdir)
    [problem] = [w for w in warnings(app) if "cite-lock" in w]
    assert f"citations.lock.json:{line_of(srcdir, needle, 'citations.lock.json')}: " in problem
    unverified = [w for w in warnings(app) if "cite-unverified" in w]
    assert len(unverified) == 11  # the lock's word is not taken; every citation still reported


def test_incremental_builds_verify_only_what_was_read(
    make_app: MakeApp, tmp_path: Path, git_source: Path, git_log: Path
) -> None:
    srcdir = book(tmp_path, "forms")
    (srcdir / "other.md").write_text("# Other\n\nSee `pkg/engine.py:4`.\n")

    def cat_files() -> int:
        return sum("cat-file" in c for c in git_log.read_text().splitlines())

    build(make_app, srcdir, git_source)
    assert cat_files() == 1
    (srcdir / "other.md").write_text("# Other\n\nSee `pkg/engine.py:4` and `pkg/engine.py:99`.\n")
    app = build(make_app, srcdir, git_source, freshenv=False)
    assert cat_files() == 2
    assert [w for w in warnings(app) if "index.md" in w] == []  # index was not read again
    assert citation_counts(app.env, "index").verified == 11  # and keeps its results
    assert citation_counts(app.env, "other").by_problem == {"cite-line-range": 1}
    app = build(make_app, srcdir, git_source, freshenv=False)
    assert cat_files() == 2  # nothing read, nothing to verify
    write_lock(app)
    app = build(make_app, srcdir, freshenv=False)  # a new lock re-verifies every citing page
    assert citation_counts(app.env, "index").verified == 11
    assert citation_counts(app.env, "other").verified == 1
    assert cat_files() == 2


# --- seriesbook check / lock ------------------------------------------------------------------


def test_check_prints_citation_problems_like_section_problems(
    tmp_path: Path, git_source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = book(tmp_path, "problems")
    index = srcdir / "index.md"
    assert main(["check", str(srcdir), "--source", f"demo={git_source}"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(EXPECTED)
    assert (
        f"{index}:{line_of(srcdir, 'Missing file')}: cite-missing-file: "
        "`pkg/nothing.py:1`: no file pkg/nothing.py in demo v1.0"
    ) in lines
    assert main(["check", str(srcdir), "--source", f"demo={git_source}", "--format", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert {
        "file": str(index),
        "line": line_of(srcdir, "Past the end"),
        "code": "cite-line-range",
        "message": "`pkg/engine.py:5-99`: pkg/engine.py has 10 lines in demo v1.0; cited 5-99",
    } in problems


def test_lock_command_then_check_offline(
    tmp_path: Path, git_source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = book(tmp_path, "forms")
    assert main(["lock", str(srcdir), "--source", f"demo={git_source}"]) == 0
    assert (srcdir / "citations.lock.json").is_file()
    capsys.readouterr()
    assert main(["check", str(srcdir)]) == 0
    assert capsys.readouterr().out == ""
    (srcdir / "citations.lock.json").unlink()
    assert main(["check", str(srcdir)]) == 1
    assert capsys.readouterr().out.count(": cite-unverified: ") == 11


def test_git_that_cannot_run_is_a_source_problem(
    make_app: MakeApp, tmp_path: Path, git_source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    app = build(make_app, book(tmp_path, "forms"), git_source)
    out = app.warning.getvalue()
    assert "cannot run git" in out and "[seriesbook.cite-source]" in out
    assert out.count("[seriesbook.cite-unverified]") == 11
