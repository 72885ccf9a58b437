"""The mapping engine under random edit scripts (Hypothesis), on real files in directories.

Whatever the edits — lines inserted, deleted or replaced, a block moved inside its file or split
out into a new file, the file renamed — an ``unchanged`` or ``moved`` citation must point at
text identical to what it cited, a ``changed`` one at lines of the new file, and a ``lost`` one
at nothing (so it is never rewritten).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from seriesbook.citations._parse import Citation
from seriesbook.commands.repin._map import Cited, Mapper, Status, line_diff
from seriesbook.commands.repin._rewrites import new_text
from seriesbook.commands.repin._search import distinctive, occurrences
from seriesbook.commands.repin._trees import open_pair

#: Repeated short lines (blank, braces) make alignment ambiguous, as in real code.
LINE = st.one_of(
    st.sampled_from(["", "}", "    return x", "pass"]),
    st.integers(0, 40).map(lambda n: f"    value_{n} = compute_{n}(value_{n - 1})"),
)
EDIT = st.tuples(
    st.sampled_from(["insert", "delete", "replace", "move", "split"]),
    st.integers(0, 10_000), st.integers(1, 4), st.lists(LINE, min_size=1, max_size=3),
)


def apply(lines: list[str], script: list[tuple[str, int, int, list[str]]]
          ) -> tuple[list[str], list[str]]:
    """The edited file, and the lines split out into another file."""
    new, split = list(lines), []
    for kind, where, size, text in script:
        at = where % (len(new) + 1)
        block = new[at : at + size]
        if kind == "insert":
            new[at:at] = text
        elif kind == "delete":
            del new[at : at + size]
        elif kind == "replace":
            new[at : at + size] = text
        elif kind == "move" and block:
            del new[at : at + size]
            to = (where // 7) % (len(new) + 1)
            new[to:to] = block
        elif kind == "split" and block:
            del new[at : at + size]
            split += block
    return new, split


def write(root: Path, files: dict[str, list[str]]) -> None:
    for name, lines in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("".join(line + "\n" for line in lines))


@settings(max_examples=150, deadline=None)
@given(
    old=st.lists(LINE, min_size=1, max_size=40),
    script=st.lists(EDIT, max_size=6),
    rename=st.booleans(),
)
def test_every_kept_citation_points_at_identical_text(
    old: list[str], script: list[tuple[str, int, int, list[str]]], rename: bool
) -> None:
    new, split = apply(old, script)
    new_name = "pkg/renamed.py" if rename else "pkg/mod.py"
    with tempfile.TemporaryDirectory() as tmp:
        before, after = Path(tmp) / "old", Path(tmp) / "new"
        write(before, {"pkg/mod.py": old})
        write(after, {new_name: new, "pkg/mod_split.py": split} if split else {new_name: new})
        pair = open_pair(before, "v1", "", after, "v2", "")
        try:
            mapper = Mapper(pair)
            for start in range(1, len(old) + 1):
                for end in range(start, min(len(old), start + 3) + 1):
                    _check(mapper, Cited("pkg/mod.py", start, end), old, after)
        finally:
            pair.close()


def _check(mapper: Mapper, cited: Cited, old: list[str], after: Path) -> None:
    result = mapper.map(cited)
    citation = Citation("", cited.path, cited.start, cited.end)
    rewritten = new_text(citation, result)
    if result.status is Status.LOST:
        assert result.path is None and rewritten is None
        return
    assert result.path is not None
    lines = (after / result.path).read_text().split("\n")[:-1]
    assert 1 <= result.start <= result.end <= len(lines)
    if result.status in (Status.UNCHANGED, Status.MOVED):
        assert lines[result.start - 1 : result.end] == old[cited.start - 1 : cited.end]
    if result.status is Status.MOVED:  # never a pick among more copies than there were
        block = [line.encode() for line in old[cited.start - 1 : cited.end]]
        if distinctive(block) is not None:
            copies = len(occurrences(block, [x.encode() for x in lines]))
            assert copies <= max(1, len(occurrences(block, [x.encode() for x in old])))
    if result.status is Status.UNCHANGED:
        assert (result.path, result.start, result.end) == (cited.path, cited.start, cited.end)
        assert rewritten is None
    else:
        assert rewritten == f"{result.path}:{result.start}" + (
            f"-{result.end}" if result.end != result.start else ""
        )


@given(old=st.lists(LINE, max_size=60), script=st.lists(EDIT, max_size=8))
def test_line_diff_is_a_diff(old: list[str], script: list[tuple[str, int, int, list[str]]]) -> None:
    """The anchored diff's opcodes cover both files and its equal blocks are equal."""
    new, _ = apply(old, script)
    a, b = tuple(s.encode() for s in old), tuple(s.encode() for s in new)
    i = j = 0
    for tag, i1, i2, j1, j2 in line_diff(a, b):
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
