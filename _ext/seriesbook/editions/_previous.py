"""The previous msgid of a fuzzy entry (``#| msgid "…"``), read and written as gettext does.

``make update-po`` marks a message whose source text changed ``#, fuzzy`` and keeps the text its
translation was made from as ``#| msgid`` lines, like GNU ``msgmerge --previous``, so the translator
sees what changed. Babel sets :attr:`~babel.messages.catalog.Message.previous_id` when it updates
a catalog, but its parser reads ``#|`` lines as translator comments, and its writer wraps them at
76 columns without quotes (``msgfmt`` rejects that), wraps translator comments, and writes an
obsolete (``#~``) entry without its flags or previous text (a fuzzy translation deleted and
restored would come back as a confirmed one). So :class:`PreviousParser` reads ``#|`` and
``#~|`` lines into ``previous_id`` and :func:`write_catalog` writes every entry as GNU gettext
does: translator comments verbatim, one a line, flags and previous text of live and obsolete
entries alike, unwrapped strings.
"""

from __future__ import annotations

from textwrap import TextWrapper
from typing import TYPE_CHECKING, Any

from babel.messages.pofile import normalize

if TYPE_CHECKING:
    from collections.abc import Iterator

    from babel.messages.catalog import Catalog, Message


#: The prefix of the comments ``seriesbook update-po`` writes (where a translation it carried
#: came from). It never removes a comment, its own included: the translator does.
COMMENT_PREFIX = "seriesbook:"
#: The comment of a similar message's translation offered as fuzzy: the edition never shows it.
SUGGESTION_PREFIX = f"{COMMENT_PREFIX} the translation of a similar message"

#: Babel's width for reference and extracted comments (so ``make gettext``'s lines stay as
#: they were); strings and translator comments are never wrapped.
_WRAPPER = TextWrapper(width=76, break_long_words=False)


def previous_text(message: Any) -> str | None:
    """The source text a fuzzy message's translation was made from, if the catalog says."""
    previous = getattr(message, "previous_id", None)
    return str(previous[0]) if previous else None


def _quoted(keyword: str, text: str, prefix: str = "") -> str:
    """``msgid "…"`` lines: one quoted piece per source line, never wrapped."""
    return f"{prefix}{keyword} {normalize(text, prefix=prefix, width=0)}\n"


def _entry(message: Message, prefix: str, num_plurals: int) -> Iterator[str]:
    for comment in message.user_comments:
        yield f"# {comment}\n" if comment else "#\n"
    if not prefix:  # an obsolete entry's template comments and places are gone with it
        for comment in message.auto_comments:
            yield from (f"#. {line.strip()}\n" for line in _WRAPPER.wrap(comment))
        places = dict.fromkeys(
            f"{file}:{line}" if line else file
            for file, line in sorted(message.locations, key=lambda p: (p[0], p[1] or -1))
        )
        if places:
            yield from (f"#: {line.strip()}\n" for line in _WRAPPER.wrap(" ".join(places)))
    if message.flags:
        yield "#, " + ", ".join(sorted(message.flags)) + "\n"
    previous = previous_text(message) if message.fuzzy else None
    if previous is not None:
        yield _quoted("msgid", previous, "#~| " if prefix else "#| ")
    if message.context:
        yield _quoted("msgctxt", message.context, prefix)
    if isinstance(message.id, (list, tuple)):
        yield _quoted("msgid", message.id[0], prefix)
        yield _quoted("msgid_plural", message.id[1], prefix)
        strings = list(message.string) if isinstance(message.string, (list, tuple)) else []
        for index in range(num_plurals):
            string = strings[index] if index < len(strings) else ""
            yield _quoted(f"msgstr[{index}]", string or "", prefix)
    else:
        yield _quoted("msgid", message.id, prefix)
        yield _quoted("msgstr", str(message.string or ""), prefix)


def write_catalog(catalog: Catalog) -> bytes:
    """*catalog* as a ``.po`` file (UTF-8, as it declares): its header as Babel writes it, then
    every live entry in order, then every obsolete one, with nothing of a translator's dropped."""
    header, *messages = list(catalog)
    parts = [f"{catalog.header_comment}\n"]
    parts.extend(_entry(header, "", catalog.num_plurals))
    parts.append("\n")
    for message in messages:
        parts.extend(_entry(message, "", catalog.num_plurals))
        parts.append("\n")
    for message in catalog.obsolete.values():
        parts.extend(_entry(message, "#~ ", catalog.num_plurals))
        parts.append("\n")
    return "".join(parts).encode("utf-8")
