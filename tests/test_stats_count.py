"""The counting rules: Chinese characters and English words, over a doctree's rendered text."""

from __future__ import annotations

from itertools import groupby

from docutils import nodes
from hypothesis import given
from hypothesis import strategies as st
from seriesbook.stats._count import count_doctree, count_text
from sphinxcontrib.mermaid import mermaid

HAN_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2EBEF), (0xF900, 0xFAFF))
WORD_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

# Text mixing the interesting classes: ASCII, CJK blocks and their edges, full-width punctuation.
mixed_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="ascii"),
        st.characters(min_codepoint=0x3400, max_codepoint=0x4DC0),
        st.characters(min_codepoint=0x4DFF, max_codepoint=0x4E01),
        st.characters(min_codepoint=0x9FFE, max_codepoint=0xA000),
        st.characters(min_codepoint=0xF8FF, max_codepoint=0xFB00),
        st.characters(min_codepoint=0x1FFFF, max_codepoint=0x20001),
        st.characters(min_codepoint=0x2EBEE, max_codepoint=0x2EBF0),
        st.sampled_from("，。、：；「」（）§—－０ａＡéß"),
    )
)


def reference_han(text: str) -> int:
    return sum(1 for c in text if any(lo <= ord(c) <= hi for lo, hi in HAN_RANGES))


def reference_english(text: str) -> int:
    runs = ("".join(group) for is_word, group in groupby(text, WORD_CHARS.__contains__) if is_word)
    return sum(1 for run in runs if any(c.isascii() and c.isalpha() for c in run))


@given(mixed_text)
def test_counts_match_the_rules(text: str) -> None:
    counts = count_text(text)
    assert counts.han == reference_han(text)
    assert counts.english == reference_english(text)
    assert counts.words == counts.han + counts.english


@given(mixed_text, mixed_text)
def test_counts_add_up_across_a_break(first: str, second: str) -> None:
    joined, a, b = count_text(first + "\n" + second), count_text(first), count_text(second)
    assert (joined.han, joined.english) == (a.han + b.han, a.english + b.english)


def test_examples() -> None:
    counts = count_text("调用 torch.add(a, b) 经过 dispatcher_v2 与 3 个 kernel，共 2024 年 x86_64")
    # han: 调用 经过 与 个 共 年 = 8; words: torch add a b dispatcher_v2 kernel x86_64 = 7
    assert (counts.han, counts.english) == (8, 7)
    # full-width letters, digits and a lone underscore are no words; __init__ is one
    assert count_text("ＡＢＣ ｄｅｆ 123 _ __init__").english == 1
    assert count_text("\U00020000\U0002ebef\U0002ebf0\uf900\ufaff\ufb00").han == 4


def test_doctree_rules() -> None:
    notice = nodes.admonition("", nodes.paragraph(text="译文未完成 notice"))
    notice["classes"] = ["seriesbook-translation-notice"]
    diagram = mermaid()
    diagram["code"] = "graph TD\n  甲 --> 乙"
    front_matter = nodes.field("", nodes.field_name(text="summary"), nodes.field_body(text="摘要"))
    doctree = nodes.section(
        "",
        nodes.docinfo("", front_matter),
        nodes.title(text="标题 Title"),
        notice,
        # **foo**bar is one word; separate paragraphs never join
        nodes.paragraph("", "", nodes.strong(text="foo"), nodes.Text("bar")),
        nodes.paragraph(text="end"),
        nodes.paragraph(text="start"),
        nodes.paragraph(
            "",
            "",
            nodes.reference("https://x.org/a", "https://x.org/a", refuri="https://x.org/a"),
            nodes.reference("链接", "链接", refuri="https://x.org/words"),
        ),
        nodes.comment(text="注释 comment"),
        nodes.raw("", "<b>raw</b>", format="html"),
        diagram,
        diagram.deepcopy(),
    )
    counts = count_doctree(doctree)
    # han: 标题 链接; words: Title foobar end start
    assert (counts.han, counts.english, counts.mermaid) == (4, 4, 2)


def test_every_diagram_counts_even_where_its_text_does_not() -> None:
    """The walk that gathers the text counts the diagrams too, those inside what it skips
    (a diagram in the translation notice, in a comment) as ``findall`` would."""
    from seriesbook.stats._count import gathered

    def diagram() -> mermaid:
        node = mermaid()
        node["code"] = "graph TD\n  甲 --> 乙"
        return node

    notice = nodes.admonition("", nodes.paragraph(text="译文"), diagram())
    notice["classes"] = ["seriesbook-translation-notice"]
    doctree = nodes.section("", nodes.title(text="标题"), notice, nodes.comment("", "", diagram()),
                            nodes.container("", diagram()), diagram())
    text, diagrams = gathered(doctree)
    assert diagrams == sum(1 for _ in doctree.findall(mermaid)) == 4
    assert "译文" not in text and "标题" in text
