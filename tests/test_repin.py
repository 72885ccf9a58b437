"""``seriesbook repin`` on a book whose source gets a second release, from git and directories.

The source is made here: release ``v1.0`` and release ``v2.0`` of a small package, with lines
inserted above one cited range, edits below another and inside a third, a renamed file, a file
split into a package and a deleted file. The same two releases exist as a git repository with
two tags and as two plain directories; both must give the same report and the same rewrite.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from seriesbook.citations.lockfile import read_lock
from seriesbook.commands.cli import main
from sphinx.testing.util import SphinxTestApp

ROOT = Path(__file__).parent / "roots" / "test-repin"
MakeApp = Callable[..., SphinxTestApp]

ENGINE_V1 = '''"""Demo engine, release one."""
import collections


class Engine:
    """Runs a graph of nodes."""

    def run(self, graph):
        ready = collections.deque(graph)
        while ready:
            node = ready.popleft()
            node.execute()
        return None

    def stop(self, reason):
        self.stopped_because = reason
        return reason


def make_engine():
    return Engine()
'''
ENGINE_V2 = (
    ENGINE_V1.replace("import collections\n", "import collections\nimport logging\n"
                      'LOG = logging.getLogger("demo.engine")\nTIMEOUT_SECONDS = 30\n')
    .replace("self.stopped_because = reason", "self.stopped_because = str(reason)")
    + "\n\ndef make_default_engine():\n    return make_engine()\n"
)
HELPERS = '''def helper_function_alpha(value):
    return value * 2 + 1


def helper_function_beta(value):
    return value - 7
'''
BIG = '''def first_part_of_big(items):
    return sorted(items)


def second_part_of_big(items):
    total = sum(items)
    return total / max(len(items), 1)
'''
V1 = {
    "pkg/engine.py": ENGINE_V1,
    "pkg/old_name.py": HELPERS,
    "pkg/big.py": BIG,
    "pkg/gone.py": "GONE_CONSTANT_VALUE = 42\n",
}
V2 = {
    "pkg/engine.py": ENGINE_V2,
    "pkg/new_name.py": HELPERS + "\n\ndef helper_function_gamma(value):\n    return -value\n",
    "pkg/big/__init__.py": "from pkg.big.helpers import second_part_of_big\n\n\n"
    + BIG.split("\n\n\n")[0] + "\n",
    "pkg/big/helpers.py": '"""Helpers split out of big.py."""\n\n\n' + BIG.split("\n\n\n")[1],
}
#: citation as written → (status, as written after the re-pin)
EXPECTED = {
    "pkg/engine.py:8-13": ("moved", "pkg/engine.py:11-16"),
    "pkg/engine.py:1-2": ("unchanged", "pkg/engine.py:1-2"),
    "pkg/engine.py:15-17": ("changed", "pkg/engine.py:18-20"),
    "pkg/old_name.py:1-2": ("moved", "pkg/new_name.py:1-2"),
    "demo:pkg/big.py:5-7": ("moved", "demo:pkg/big/helpers.py:4-6"),
    "pkg/gone.py:1": ("lost", None),
}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
         "-c", "init.defaultBranch=main", *args],
        cwd=repo, check=True, capture_output=True, env=env, text=True,
    ).stdout


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The two releases: a git repository tagged v1.0 and v2.0, and two directories."""
    base = tmp_path_factory.mktemp("releases")
    repo, old, new = base / "git", base / "v1.0", base / "v2.0"
    for folder in (repo, old, new):
        folder.mkdir()
    _git(repo, "init", "-q")
    _write(repo, V1)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "v1.0")
    _git(repo, "tag", "v1.0")
    for name in V1:
        if name not in V2:
            (repo / name).unlink()
    _write(repo, V2)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "v2.0")
    _git(repo, "tag", "v2.0")
    (repo / "pkg/engine.py").write_text("the work tree is never read\n")
    _write(old, V1)
    _write(new, V2)
    return {"git": repo, "old": old, "new": new}


def book(tmp_path: Path) -> Path:
    srcdir = tmp_path / "book"
    shutil.copytree(ROOT, srcdir)
    return srcdir


def copies(releases: dict[str, Path], kind: str) -> list[str]:
    if kind == "git":
        return ["--source", f"demo={releases['git']}"]
    return ["--source", f"demo={releases['old']}", "--to-source", f"demo={releases['new']}"]


def repin(srcdir: Path, releases: dict[str, Path], kind: str, *extra: str,
          capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["repin", str(srcdir), *copies(releases, kind), "--to", "demo=v2.0", *extra])
    return status, capsys.readouterr().out


def snapshot(srcdir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(srcdir)): p.read_bytes() for p in sorted(srcdir.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("kind", ["git", "dir"])
def test_dry_run_reports_every_kind_of_edit_and_writes_nothing(
    tmp_path: Path, releases: dict[str, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = book(tmp_path)
    before = snapshot(srcdir)
    status, out = repin(srcdir, releases, kind, "--format", "json", capsys=capsys)
    assert status == 1
    assert snapshot(srcdir) == before
    report = json.loads(out)
    assert (report["source"], report["from"], report["to"]) == ("demo", "v1.0", "v2.0")
    in_source = [c for c in report["citations"] if c["file"] == "index.md"]
    found = {(c["old"], c["status"], c["new"]) for c in in_source}
    assert found == {(old, status, new) for old, (status, new) in EXPECTED.items()}
    assert not any(c["old"].startswith("other:") for c in report["citations"])
    kinds = {c["old"] for c in in_source if c["line"] == 14}
    assert kinds == {"pkg/engine.py:8-13"}, "the excerpt's caption, at its line"
    changed = next(c for c in in_source if c["status"] == "changed")
    assert "-        self.stopped_because = reason" in changed["diff"]
    assert "+        self.stopped_because = str(reason)" in changed["diff"]
    catalog = [c for c in report["citations"] if c["file"].endswith("index.po")]
    assert {(c["old"], c["new"]) for c in catalog} == {
        (old, new if new else None) for old, (_, new) in EXPECTED.items()
    }
    assert report["summary"] == {
        "unchanged": 2, "moved": 10, "changed": 4, "lost": 2,
    }


@pytest.mark.parametrize("kind", ["git", "dir"])
def test_write_moves_sources_catalogs_conf_and_lock_and_a_second_run_rewrites_nothing(
    make_app: MakeApp, tmp_path: Path, releases: dict[str, Path], kind: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    srcdir = book(tmp_path)
    md, conf = srcdir / "index.md", srcdir / "conf.py"
    po = srcdir / "locale/en/LC_MESSAGES/index.po"
    before = {p: p.read_text() for p in (md, po, conf)}
    status, out = repin(srcdir, releases, kind, "--write", capsys=capsys)
    assert status == 1, out  # written, but a changed and a lost citation are for review
    assert "wrote 3 files" in out

    def moved(text: str) -> str:
        text, code, rest = text.partition("```text")  # a code block is never a citation
        for old, (status, new) in EXPECTED.items():
            if new is not None and status != "unchanged":
                text = text.replace(old, new)
        return text + code + rest

    assert md.read_text() == moved(before[md])  # every other byte as it was
    assert "代码块里的 pkg/engine.py:8-13 不是引用。" in md.read_text()
    assert po.read_text() == moved(before[po])
    assert conf.read_text() == before[conf].replace('"ref": "v1.0"', '"ref": "v2.0"')
    subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(po)], check=True)
    lock = read_lock(srcdir / "citations.lock.json").sources["demo"]
    assert lock.identity.ref == "v2.0"
    assert "pkg/engine.py:11-16" in lock.ranges and "pkg/big/helpers.py:4-6" in lock.ranges

    again = snapshot(srcdir)
    status, out = repin(srcdir, releases, kind, "--write", capsys=capsys)
    assert out.splitlines() == [
        "index.md:9: lost: pkg/gone.py:1 (no file pkg/gone.py in v2.0)",
        "locale/en/LC_MESSAGES/index.po:17: lost: pkg/gone.py:1 (no file pkg/gone.py in v2.0)",
        "demo v2.0 → v2.0: 16 unchanged, 0 moved, 0 changed, 2 lost",
        "nothing to rewrite; 2 citations to review",
    ]
    assert status == 1
    assert snapshot(srcdir) == again

    app = make_app("html", srcdir=srcdir, freshenv=True, confoverrides={"language": "en"})
    app.build()
    html = (app.outdir / "index.html").read_text()
    app.cleanup()
    assert "The run loop is at" in html and "A renamed file:" in html  # still translated
    assert "https://example.org/demo/blob/v2.0/pkg/engine.py#L11-L16" in html
    assert "https://example.org/demo/blob/v2.0/pkg/new_name.py#L1-L2" in html
    assert "https://example.org/demo/blob/v2.0/pkg/gone.py#L1" in html  # lost: as written


def test_text_report(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = repin(book(tmp_path), releases, "git", capsys=capsys)
    assert status == 1
    lines = out.splitlines()
    assert "index.md:5: moved: pkg/engine.py:8-13 → pkg/engine.py:11-16" in lines
    assert "index.md:9: lost: pkg/gone.py:1 (pkg/gone.py is gone in v2.0)" in lines
    assert 'conf.py:9: ref "v1.0" → "v2.0"' in lines
    assert lines[-2] == "demo v1.0 → v2.0: 2 unchanged, 10 moved, 4 changed, 2 lost"
    assert not any("unchanged:" in line for line in lines)


def test_a_book_at_the_release_has_nothing_to_do(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = book(tmp_path)
    before = snapshot(srcdir)
    status = main(["repin", str(srcdir), "--source", f"demo={releases['git']}",
                   "--to", "demo=v1.0", "--write"])
    assert (status, capsys.readouterr().out.splitlines()[-1]) == (0, "nothing to do")
    assert snapshot(srcdir) == before


def test_commit_is_pinned_with_at_commit_and_checked_in_git(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    srcdir = book(tmp_path)
    commit = _git(releases["git"], "rev-parse", "--short", "v2.0").strip()
    status = main(["repin", str(srcdir), *copies(releases, "git"), "--to", "demo=v2.0@0000000"])
    assert status == 2
    assert f"v2.0 is commit {commit}" in capsys.readouterr().err
    status = main(["repin", str(srcdir), *copies(releases, "git"), "--to", f"demo=v2.0@{commit}",
                   "--write"])
    out = capsys.readouterr().out
    assert status == 1  # written; the changed and lost citations are for review
    assert f"conf.py:9: commit {commit!r} added" in out  # in the plain literal dict
    assert f'"ref": "v2.0", "commit": "{commit}",' in (srcdir / "conf.py").read_text()
    locked = read_lock(srcdir / "citations.lock.json").sources["demo"]
    assert locked.identity.commit.startswith(commit)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--source", "demo={git}", "--to", "nope=v2.0"], "no source 'nope' in conf.py"),
        (["--source", "demo={missing}", "--to", "demo=v2.0"], "local copy not found"),
        (["--source", "demo={git}", "--to", "demo=v9.9"], "ref 'v9.9' does not resolve"),
        (["--source", "demo={old}", "--to", "demo=v2.0"], "give the new release's copy"),
        (["--to", "demo=v2.0"], "no local copy of 'demo'"),
        (["--source", "demo={git}", "--to", "demo"], "--to expects NAME=REF"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str],
    arguments: list[str], message: str,
) -> None:
    srcdir = book(tmp_path)
    before = snapshot(srcdir)
    paths: dict[str, Any] = {**releases, "missing": tmp_path / "missing"}
    status = main(["repin", str(srcdir), *(a.format(**paths) for a in arguments), "--write"])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert snapshot(srcdir) == before


def test_a_citation_not_found_in_the_text_is_never_rewritten_anywhere(
    tmp_path: Path, releases: dict[str, Path], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The build read a citation the text search did not find (here: made to miss the heading):
    its every occurrence stays as written, in sources and catalogs, and is reported by hand."""
    import seriesbook.commands.repin.command as command

    def missing_the_heading(*args: Any) -> Any:
        return [w for w in in_source(*args) if args[2].count("\n", 0, w.start) != 2]

    in_source = command.in_source
    monkeypatch.setattr(command, "in_source", missing_the_heading)
    srcdir = book(tmp_path)
    md, po = srcdir / "index.md", srcdir / "locale/en/LC_MESSAGES/index.po"
    before = md.read_text(), po.read_text()
    status, out = repin(srcdir, releases, "git", "--write", "--format", "json", capsys=capsys)
    assert status == 1
    by_hand = [c for c in json.loads(out)["citations"] if c.get("by_hand")]
    assert {c["old"] for c in by_hand} == {"pkg/engine.py:8-13"}
    assert {(c["file"], c["line"]) for c in by_hand} >= {("index.md", 3), ("index.md", 5)}
    assert all("index.md:3" in c["reason"] for c in by_hand)
    assert md.read_text().count("pkg/engine.py:8-13") == before[0].count("pkg/engine.py:8-13")
    assert po.read_text().count("pkg/engine.py:8-13") == before[1].count("pkg/engine.py:8-13")
    assert "pkg/new_name.py:1-2" in md.read_text() and "pkg/new_name.py:1-2" in po.read_text()
