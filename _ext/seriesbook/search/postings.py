"""The book's § postings, kept across builds and updated for the pages whose § parts changed.

The index locates each key in the § it occurs in (:mod:`~seriesbook.search.compact`): the §
are numbered through the book in page order, and each key's § numbers are written as a
:func:`~seriesbook.search.compact.section_list`. :func:`book_postings` makes every key's list
from every page's parts; with the last build's :class:`Postings` (in the search's store) and
the same pages, each with as many parts as before, it takes only the changed pages' keys out
and puts their new ones in: the other keys' lists are the same numbers, so the same strings.
What it gives is the same either way (``tests/test_search_pages.py`` compares both).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right, insort
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import accumulate
from json.encoder import encode_basestring_ascii
from typing import Any, NamedTuple

from seriesbook.search.digits import is_bigram, read_section_list, section_list
from seriesbook.search.sections import SectionText

Parts = Sequence[SectionText]


class Postings(NamedTuple):
    """Each page's § (anchors, lengths), the § whose titles are untranslated, and each key's
    § list and count; the pages they were made from (name and a token of its parts), and the
    keys in the order the index's budget takes them (fewest § first) with what each costs."""

    pages: tuple[tuple[str, str], ...]
    anchors: list[list[str]]
    lengths: list[list[int]]
    untranslated: list[int]
    lists: dict[str, str]
    counts: dict[str, int]
    order: list[str]
    costs: list[int]  # what each key of ``order`` costs
    spent: list[int]  # the cost of the keys up to each one in ``order``


def book_postings(
    docnames: Sequence[str],
    tokens: Sequence[str],
    parts: Callable[[str], Parts],
    kept: Postings | None = None,
    former: Callable[[str, str], Parts | None] | None = None,
) -> Postings:
    """The postings of the pages *docnames* (in order; *tokens*: of each one's parts, which
    *parts* gives). *kept*: the last build's, updated if only some pages' parts changed and each
    has as many parts as before (*former* gives a page's parts it was made from, known by their
    token, or ``None``)."""
    pages = tuple(zip(docnames, tokens, strict=True))
    if kept is not None and former is not None:
        updated = _update(pages, parts, kept, former)
        if updated is not None:
            return updated
    anchors: list[list[str]] = []
    lengths: list[list[int]] = []
    untranslated: list[int] = []
    numbers: defaultdict[str, list[int]] = defaultdict(list)
    number = 0
    for docname in docnames:
        own = parts(docname)
        anchors.append([part.anchor for part in own])
        lengths.append([part.length for part in own])
        for part in own:
            for key in part.keys:
                numbers[key].append(number)
            if part.source_title:
                untranslated.append(number)
            number += 1
    lists = {key: section_list(found) for key, found in numbers.items()}
    counts = {key: len(found) for key, found in numbers.items()}
    order = sorted(lists)
    order.sort(key=counts.__getitem__)  # stable: by count, then by key
    costs = [_cost(key, lists[key]) for key in order]
    return Postings(
        pages, anchors, lengths, untranslated, lists, counts, order, costs, list(accumulate(costs))
    )


def _cost(key: str, listed: str) -> int:
    """What writing *key*'s § list adds to the index."""
    return len(listed) + (1 if is_bigram(key) else len(encode_basestring_ascii(key)) + 3)


#: Separates keys and lists in :func:`packed` (neither a Latin stem nor a bigram holds it).
SEPARATOR = "\x00"


def packed(postings: Postings) -> tuple[object, ...]:
    """*postings* as a few strings and arrays, quick to pickle and to read back
    (:func:`unpacked`); the keys in the budget's order and their lists joined."""
    order = postings.order
    keys = SEPARATOR.join(order)
    lists = SEPARATOR.join(postings.lists[key] for key in order)
    counts = array("q", (postings.counts[key] for key in order)).tobytes()
    costs = array("q", postings.costs).tobytes()
    return (postings.pages, postings.anchors, postings.lengths, postings.untranslated, keys,
            lists, counts, costs)  # fmt: skip


def unpacked(state: tuple[Any, ...]) -> Postings | None:
    """The postings :func:`packed` wrote (``None``: not such a state)."""
    try:
        pages, anchors, lengths, untranslated, keys, lists, counts, costs = state
        order = keys.split(SEPARATOR) if keys else []
        written = lists.split(SEPARATOR) if lists else []
        numbers, spend = array("q"), array("q")
        numbers.frombytes(counts)
        spend.frombytes(costs)
        if not len(order) == len(written) == len(numbers) == len(spend):
            return None
    except (TypeError, ValueError, AttributeError):
        return None
    return Postings(
        pages, anchors, lengths, untranslated, dict(zip(order, written, strict=True)),
        dict(zip(order, numbers, strict=True)), order, spend.tolist(),
        list(accumulate(spend)),
    )  # fmt: skip


def located(postings: Postings, budget: float) -> dict[str, str]:
    """The keys whose § lists fit in *budget*, the rarest first, with their lists."""
    chosen = postings.order[: bisect_right(postings.spent, budget)]
    lists = postings.lists
    return {key: lists[key] for key in chosen}


def _update(
    pages: tuple[tuple[str, str], ...],
    parts: Callable[[str], Parts],
    kept: Postings,
    former: Callable[[str, str], Parts | None],
) -> Postings | None:
    """*kept* with the changed pages' keys taken out and put in again; ``None`` if the pages
    or their numbers of parts differ."""
    if len(pages) != len(kept.pages):
        return None
    changed: list[tuple[int, int, Parts, Parts]] = []  # page, first §, parts before, now
    start = 0
    for index, ((docname, token), (was, was_token)) in enumerate(
        zip(pages, kept.pages, strict=True)
    ):
        size = len(kept.anchors[index])
        if docname != was:
            return None
        if token != was_token:
            before, now = former(docname, was_token), parts(docname)
            if before is None or len(before) != size or len(now) != size:
                return None
            changed.append((index, start, before, now))
        start += size
    if not changed:
        return kept
    anchors, lengths = list(kept.anchors), list(kept.lengths)
    untranslated = set(kept.untranslated)
    gone: dict[str, set[int]] = defaultdict(set)
    added: dict[str, list[int]] = defaultdict(list)
    for index, first, before, now in changed:
        anchors[index] = [part.anchor for part in now]
        lengths[index] = [part.length for part in now]
        for number, (old, new) in enumerate(zip(before, now, strict=True), first):
            untranslated.discard(number)
            if new.source_title:
                untranslated.add(number)
            if old.keys == new.keys:
                continue
            old_keys, new_keys = set(old.keys), set(new.keys)
            for key in old_keys - new_keys:
                gone[key].add(number)
            for key in new_keys - old_keys:
                added[key].append(number)
    lists, counts = dict(kept.lists), dict(kept.counts)
    order, costs = list(kept.order), list(kept.costs)
    for key in gone.keys() | added.keys():
        if key in counts:  # out of the budget's order, to be put back where it now goes
            at = _place(order, counts, counts[key], key)
            del order[at], costs[at]
        numbers = [n for n in read_section_list(lists.get(key, "")) if n not in gone[key]]
        for number in added.get(key, ()):
            insort(numbers, number)
        if not numbers:
            lists.pop(key, None)
            counts.pop(key, None)
            continue
        lists[key], counts[key] = section_list(numbers), len(numbers)
        at = _place(order, counts, len(numbers), key)
        order.insert(at, key)
        costs.insert(at, _cost(key, lists[key]))
    return Postings(
        pages, anchors, lengths, sorted(untranslated), lists, counts, order, costs,
        list(accumulate(costs)),
    )  # fmt: skip


def _place(order: list[str], counts: dict[str, int], count: int, key: str) -> int:
    """Where *key* with *count* § goes in *order* (sorted by count, then key; *counts*: those
    of the keys in it)."""
    return bisect_left(order, (count, key), key=lambda other: (counts[other], other))
