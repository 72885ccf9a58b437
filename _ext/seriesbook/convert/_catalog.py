"""Fill a catalog by conversion, never over a person's work.

A converted entry carries a translator comment ``# machine-converted <hash>``: the mark that no
person has reviewed it, and the hash of the msgstr the conversion wrote. For each message:

* **no translation** (or only update-po's fuzzy suggestion from a similar message): converted,
  marked;
* **marked, msgstr unchanged since** (the hash matches): converted again, so a changed source
  or glossary reaches it; a fuzzy flag update-po set (the source changed) goes with it, since
  the new conversion is made from the new source;
* **marked, msgstr edited** (the hash differs): a person's translation now: the mark goes, the
  text stays;
* **copied** by update-po from another catalog (the text moved there), without a mark: marked
  again when it is exactly what the conversion writes, so a machine's text never passes for a
  person's;
* **no mark** (reviewed: the translator deleted the comment, or translated by hand): never
  touched; when its source changes update-po makes it fuzzy with ``#|`` previous text, as any
  translation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from seriesbook.convert._convert import convert_message
from seriesbook.editions import COMMENT_PREFIX, MACHINE_MARK, fingerprint, machine_mark

if TYPE_CHECKING:
    from collections.abc import Collection

    from babel.messages.catalog import Catalog, Message

    from seriesbook.convert._glossary import Glossary


def _without_mark(comments: list[str]) -> list[str]:
    return [c for c in comments if c.strip().split()[:1] != [MACHINE_MARK]]


def _unmark(message: Message) -> None:
    message.user_comments = _without_mark(message.user_comments)


def _is_suggestion(message: Message) -> bool:
    """update-po's fuzzy translation of a *similar* message: a guess, not a person's work."""
    return bool(message.fuzzy) and any(c.startswith(COMMENT_PREFIX) for c in message.user_comments)


@dataclass
class CatalogConversion:
    """What converting one catalog did."""

    converted: list[str] = field(default_factory=list)
    hand_edited: list[str] = field(default_factory=list)
    glossary: Counter[tuple[str, str]] = field(default_factory=Counter)
    false_friends: list[tuple[str, str, str]] = field(default_factory=list)  # msgid, term, output


def convert_catalog(
    catalog: Catalog, glossary: Glossary, copied: Collection[str] = ()
) -> CatalogConversion:
    """Convert *catalog*'s messages in place by the rules above.

    *copied*: messages whose translation update-po has just copied from another catalog (text
    moved between pages); a copy of a machine conversion is marked as one again."""
    done = CatalogConversion()
    for message in catalog:
        if not isinstance(message.id, str) or not message.id:
            continue
        msgstr = str(message.string or "")
        mark = machine_mark(message)
        if mark is None and message.id in copied and not message.fuzzy:
            if msgstr == convert_message(message.id, glossary).text:
                message.user_comments.append(f"{MACHINE_MARK} {fingerprint(msgstr)}")
            continue
        if mark is not None and mark != fingerprint(msgstr):
            _unmark(message)  # edited by a person: theirs now
            done.hand_edited.append(message.id)
            continue
        if mark is None and msgstr and not _is_suggestion(message):
            continue  # reviewed or translated by hand
        conversion = convert_message(message.id, glossary)
        if conversion.text != msgstr or message.fuzzy:
            done.converted.append(message.id)
            done.glossary.update(conversion.glossary)  # what the glossary changed this time
        message.string = conversion.text
        message.flags.discard("fuzzy")
        message.previous_id = []
        message.user_comments = [
            c for c in _without_mark(message.user_comments) if not c.startswith(COMMENT_PREFIX)
        ]
        message.user_comments.append(f"{MACHINE_MARK} {fingerprint(conversion.text)}")
        done.false_friends.extend((message.id, t, o) for t, o in conversion.false_friends)
    return done
