"""``seriesbook update-po``: bring a language's catalogs up to date with the page templates.

What ``sphinx-intl update`` did (Babel's :meth:`~babel.messages.catalog.Catalog.update`, one
catalog per template, obsolete messages kept as ``#~`` entries, no line wrapping, a file written
only when it changes), plus what a translator needs to trust an update:

* **Previous text.** A message whose source changed keeps its old translation, marked
  ``#, fuzzy``, with the source text that translation was made from as ``#| msgid`` lines
  (``seriesbook.editions``' previous-text reader and writer). They stay, update after
  update, until the translator removes the flag.
* **Moved text** (like ``msgmerge --compendium``). Every catalog of the language, as it was
  before this update, live and obsolete entries alike, is the compendium. A message without a
  translation whose text a compendium entry translates (not fuzzy) gets that translation, not
  fuzzy. A *new* message (in no catalog of its page before) of at least 20 characters close to
  a translated one (``difflib`` ratio ≥ *similarity*, 0.8 by default) gets its translation
  marked fuzzy, with that message as its ``#|`` previous text and a comment naming the catalog
  it came from (a suggestion for the translator: the edition does not show it to readers).
  So a paragraph or § section moved to another page keeps its translation.
* A fuzzy message whose source text is back to its previous text (an edit undone) is
  translated again, not fuzzy.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from difflib import SequenceMatcher, get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError

from seriesbook.commands.stops import UsageError
from seriesbook.editions import COMMENT_PREFIX, PreviousParser, write_catalog

if TYPE_CHECKING:
    from collections.abc import Iterable

DEFAULT_SIMILARITY = 0.8
#: Shorter messages (labels, short titles) are too often alike by chance to be offered.
NEAR_MIN_LENGTH = 20


@dataclass(frozen=True)
class Known:
    """A translated message of the compendium and the catalog (``ch01.po``) it is in."""

    msgid: str
    translation: str
    origin: str


@dataclass(frozen=True)
class Reused:
    """A translation the update took from the compendium (``similarity`` 1.0: the same text)."""

    msgid: str
    origin: str
    similarity: float


@dataclass
class CatalogUpdate:
    """One catalog's update: its new text, and what changed for the summary."""

    path: Path
    created: bool
    changed: bool
    text: bytes
    added: int = 0
    removed: int = 0
    fuzzy: int = 0
    reused: list[Reused] = field(default_factory=list)

    def summary(self, shown: Path) -> str:
        if self.created:
            head = f"Create: {shown}"
        elif self.changed:
            head = f"Update: {shown} +{self.added}, -{self.removed}"
        else:
            return f"Not changed: {shown}"
        notes = []
        if self.fuzzy:
            notes.append(f"{self.fuzzy} fuzzy with the previous text (#|)")
        exact = sum(1 for reused in self.reused if reused.similarity == 1.0)
        if exact:
            notes.append(f"{exact} translated from other catalogs")
        if len(self.reused) > exact:
            notes.append(f"{len(self.reused) - exact} fuzzy from similar messages")
        return head + (f" ({'; '.join(notes)})" if notes else "")


class Compendium:
    """Every translated (not fuzzy) message of a language's catalogs, live ones first."""

    def __init__(self, catalogs: dict[str, Catalog]) -> None:
        self.messages: dict[str, Known] = {}
        for live in (True, False):
            for domain in sorted(catalogs):
                catalog = catalogs[domain]
                messages = catalog if live else catalog.obsolete.values()
                for message in messages:
                    if isinstance(message.id, str) and message.id and _translated(message):
                        known = Known(message.id, str(message.string), f"{domain}.po")
                        self.messages.setdefault(message.id, known)

    def exact(self, msgid: str) -> Known | None:
        return self.messages.get(msgid)

    def near(self, msgid: str, similarity: float) -> tuple[Known, float] | None:
        """The most similar translated message with a ratio of at least *similarity*."""
        found = get_close_matches(msgid, self.messages.keys(), 1, similarity)
        if not found:
            return None
        known = self.messages[found[0]]
        return known, SequenceMatcher(None, known.msgid, msgid).ratio()


def _translated(message: Message) -> bool:
    return bool(message.string) and not message.fuzzy


def read_catalog_file(path: Path) -> Catalog:
    """A ``.po``/``.pot`` file with its previous msgids; a broken one stops the update."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 (byte {error.start}); nothing was written") from None
    catalog = Catalog()
    try:
        PreviousParser(catalog, abort_invalid=True).parse(io.StringIO(text))
    except PoFileError as error:
        raise UsageError(
            f"{path}:{error.lineno + 1}: not a valid .po file: {error.args[0]}; nothing was written"
        ) from None
    except (ValueError, LookupError, TypeError) as error:
        raise UsageError(f"{path}: not a valid .po file: {error}; nothing was written") from None
    return catalog


def _files(directory: Path, suffix: str) -> dict[str, Path]:
    """Files under *directory* by domain: the path relative to it without the suffix."""
    if not directory.is_dir():
        return {}
    return {
        path.relative_to(directory).with_suffix("").as_posix(): path
        for path in sorted(directory.rglob(f"*{suffix}"))
        if path.is_file()
    }


def _without_creation_date(text: bytes) -> bytes:
    """The catalog's text without the header line every ``make gettext`` changes."""
    return b"\n".join(
        line for line in text.split(b"\n") if not line.startswith(b'"POT-Creation-Date:')
    )


def _drop_our_comments(message: Message) -> None:
    message.user_comments = [c for c in message.user_comments if not c.startswith(COMMENT_PREFIX)]


def _update_catalog(
    old: Catalog | None,
    template: Catalog,
    language: str,
    compendium: Compendium,
    similarity: float,
) -> tuple[Catalog, CatalogUpdate]:
    if old is None:
        catalog = template
        catalog.locale = language  # Babel parses the string
        before: dict[str, Message] = {}
        seen: set[str] = set()
    else:
        catalog = old
        before = {str(m.id): m for m in old if isinstance(m.id, str) and m.id}
        seen = set(before) | {str(key) for key in old.obsolete}
        catalog.update(template)
    update = CatalogUpdate(Path(), created=old is None, changed=False, text=b"")
    for message in catalog:
        if not isinstance(message.id, str) or not message.id:
            continue
        msgid = message.id
        guessed = bool(message.fuzzy and message.previous_id and msgid not in before)
        if message.fuzzy and not message.previous_id and msgid in before:
            message.previous_id = list(before[msgid].previous_id)  # kept until the flag goes
        origin = before.get(str(message.previous_id[0])) if guessed else None
        if origin is not None and origin.fuzzy and origin.previous_id:
            message.previous_id = list(origin.previous_id)  # its translation was made from that
        if message.fuzzy and message.previous_id and message.previous_id[0] == msgid:
            message.flags.discard("fuzzy")  # the source is back to the text translated
        if not message.fuzzy:
            message.previous_id = []
            _drop_our_comments(message)
        if message.string and not guessed:
            continue
        known = compendium.exact(msgid)
        if known is not None:
            if guessed:
                _keep_obsolete(catalog, before, str(message.previous_id[0]))
            message.string = known.translation
            message.flags.discard("fuzzy")
            message.previous_id = []
            _drop_our_comments(message)
            update.reused.append(Reused(msgid, known.origin, 1.0))
            continue
        if message.string or msgid in seen or len(msgid) < NEAR_MIN_LENGTH:
            update.fuzzy += guessed and message.fuzzy
            continue
        near = compendium.near(msgid, similarity)
        if near is not None:
            similar, ratio = near
            message.string = similar.translation
            message.flags.add("fuzzy")
            message.previous_id = [similar.msgid]
            message.user_comments.append(
                f"{COMMENT_PREFIX} the translation of a similar message in {similar.origin} "
                f"({int(ratio * 100)}% alike)"
            )
            update.reused.append(Reused(msgid, similar.origin, ratio))
    now = {str(m.id) for m in catalog if isinstance(m.id, str) and m.id}
    update.added, update.removed = len(now - set(before)), len(set(before) - now)
    return catalog, update


def _keep_obsolete(catalog: Catalog, before: dict[str, Message], msgid: str) -> None:
    """Babel consumed *msgid* for a guess the compendium replaced: keep it as obsolete."""
    if msgid in before and msgid not in catalog and msgid not in catalog.obsolete:
        catalog.obsolete[msgid] = before[msgid]


def plan_language(
    pot_dir: Path, locale_dir: Path, language: str, similarity: float = DEFAULT_SIMILARITY
) -> list[CatalogUpdate]:
    """Every template's catalog for *language*, updated in memory (nothing written)."""
    templates = _files(pot_dir, ".pot")
    catalog_dir = locale_dir / language / "LC_MESSAGES"
    olds = {domain: read_catalog_file(path) for domain, path in _files(catalog_dir, ".po").items()}
    compendium = Compendium(olds)
    originals = {domain: (catalog_dir / f"{domain}.po") for domain in olds}
    updates = []
    for domain, pot_path in templates.items():
        path = originals.get(domain, catalog_dir / f"{domain}.po")
        catalog, update = _update_catalog(
            olds.get(domain), read_catalog_file(pot_path), language, compendium, similarity
        )
        update.path = path
        update.text = write_catalog(catalog)
        if update.created:
            update.changed = True
        else:
            old_text = path.read_bytes()
            update.changed = _without_creation_date(old_text) != _without_creation_date(
                update.text
            )
        updates.append(update)
    return updates


def check_similarity(value: float) -> None:
    if not 0.0 < value <= 1.0:
        raise UsageError(f"--similarity must be above 0 and at most 1, not {value}")


def write_updates(updates: Iterable[CatalogUpdate]) -> list[Path]:
    """Write every changed catalog in one all-or-nothing step; return the files written."""
    from seriesbook.commands.rewrite import Plan

    whole: dict[Path, str] = {}
    for update in updates:
        if not update.changed:
            continue
        target = update.path.resolve()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"{target.parent}: cannot create: {error.strerror}") from None
        whole[target] = update.text.decode("utf-8")
    try:
        return Plan().apply(whole)
    except OSError as error:
        raise UsageError(f"cannot write the catalogs ({error}); nothing was written") from None
