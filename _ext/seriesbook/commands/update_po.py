"""``seriesbook update-po``: bring a language's catalogs up to date with the page templates.

What ``sphinx-intl update`` did (one catalog per template, obsolete messages kept as ``#~``
entries, no line wrapping, a file written only when it changes), with one promise on top:
**nothing a translator wrote is lost, and nothing is marked done that a translator did not
confirm** (``docs/translators.md`` is the manual):

* A message still in its template keeps everything of the translator's: msgstr, comments
  (``seriesbook:`` ones too: update-po never removes a comment), flags, ``#|`` previous text.
* A message gone from its template is kept as an obsolete ``#~`` entry with its msgstr,
  comments, flags and previous text (unless it holds nothing: no msgstr, comment or flag).
* **Edited text.** A new message close to one that left its page (``difflib``'s ratio ≥ 0.6,
  as Babel and ``msgmerge`` match) takes that translation ``#, fuzzy`` with the text it was
  made from as ``#| msgid`` lines, until the translator removes the flag.
* **Carried text.** A translation taken from anywhere but the message's own live entry (its
  page's obsolete ``#~`` entry when the text is restored; the same text in another catalog of
  the language or in another context, live or obsolete: the compendium) is ``#, fuzzy``, with
  a ``seriesbook:`` comment naming where it came from. A *new* message (in no catalog of its
  page before) of at least 20 characters close to a translated one (ratio ≥ *similarity*)
  gets that translation as a fuzzy suggestion (``seriesbook: the translation of a similar
  message …``; the edition does not show it to readers).
* Every catalog is read as it declares (:func:`seriesbook.editions.parse_catalog`: UTF-8, no
  duplicate msgid, valid syntax) before any is written; the first that is not stops the
  command with one line naming file and line, exit 2, nothing written. A second run changes
  nothing.
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass, field
from difflib import SequenceMatcher, get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from seriesbook.commands.stops import UsageError
from seriesbook.editions import COMMENT_PREFIX, SUGGESTION_PREFIX, parse_catalog, write_catalog

if TYPE_CHECKING:
    from collections.abc import Iterable

DEFAULT_SIMILARITY = 0.8
#: Babel's and ``msgmerge``'s cut-off for an edited message of the same page.
EDIT_SIMILARITY = 0.6
#: Shorter messages (labels, short titles) are too often alike by chance to be offered.
NEAR_MIN_LENGTH = 20


@dataclass(frozen=True)
class Known:
    """A translated entry of the language's catalogs before the update, and where it is."""

    message: Message
    domain: str
    live: bool

    @property
    def origin(self) -> str:
        place = f"{self.domain}.po" if self.live else f"an obsolete entry (#~) of {self.domain}.po"
        context = f", context {self.message.context!r}" if self.message.context else ""
        return place + context


@dataclass(frozen=True)
class Reused:
    """A translation the update carried (``similarity`` 1.0: the same text)."""

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
            notes.append(f"{exact} fuzzy from the same text elsewhere")
        if len(self.reused) > exact:
            notes.append(f"{len(self.reused) - exact} fuzzy from similar messages")
        return head + (f" ({'; '.join(notes)})" if notes else "")


def _key(message: Message) -> tuple[str, str | None]:
    return str(message.id), message.context


def _entries(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if isinstance(m.id, str) and m.id]


class Compendium:
    """Every translated entry of a language's catalogs before the update, by msgid: confirmed
    live ones first, then confirmed obsolete ones, then fuzzy ones, each in catalog order."""

    def __init__(self, catalogs: dict[str, Catalog]) -> None:
        ranked: list[tuple[int, Known]] = []
        for domain in sorted(catalogs):
            catalog = catalogs[domain]
            for live, messages in ((True, _entries(catalog)), (False, catalog.obsolete.values())):
                for message in messages:
                    if isinstance(message.id, str) and message.id and message.string:
                        rank = (0 if live else 1) + (2 if message.fuzzy else 0)
                        ranked.append((rank, Known(message, domain, live)))
        self.messages: dict[str, list[Known]] = {}
        for _, known in sorted(ranked, key=lambda pair: pair[0]):
            self.messages.setdefault(str(known.message.id), []).append(known)
        self.confirmed = {
            msgid: found[0] for msgid, found in self.messages.items() if not found[0].message.fuzzy
        }

    def exact(self, msgid: str) -> Known | None:
        """The best entry translating *msgid* (confirmed before fuzzy, live before obsolete)."""
        found = self.messages.get(msgid)
        return found[0] if found else None

    def near(self, msgid: str, similarity: float) -> tuple[Known, float] | None:
        """The most similar confirmed message with a ratio of at least *similarity*."""
        found = get_close_matches(msgid, self.confirmed.keys(), 1, similarity)
        if not found:
            return None
        known = self.confirmed[found[0]]
        return known, SequenceMatcher(None, found[0], msgid).ratio()


def read_catalog_file(path: Path) -> Catalog:
    """A ``.po``/``.pot`` file read exactly as it declares; any problem stops the update."""
    loaded = parse_catalog(path)
    if loaded.problems or loaded.catalog is None:
        problem = loaded.problems[0]
        line = f":{problem.line}" if problem.line else ""
        message = problem.message.replace("the catalog is not used", "nothing was written")
        message = message.replace("the first translation is used", "nothing was written")
        raise UsageError(f"{path}{line}: {message}")
    return loaded.catalog


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


def _carried(template: Message, source: Message, comment: str | None) -> Message:
    """*template*'s message with *source*'s translation, comments and flags, ``#, fuzzy``."""
    message = copy(template)
    message.string = source.string
    message.user_comments = list(source.user_comments)
    if comment is not None and comment not in message.user_comments:
        message.user_comments.append(comment)
    message.flags = set(template.flags) | set(source.flags) | {"fuzzy"}
    message.previous_id = list(source.previous_id) if source.fuzzy else []
    return message


def _kept(template: Message, old: Message) -> Message:
    """*template*'s message (places, extracted comments) with all the translator wrote."""
    message = copy(template)
    message.string = old.string
    message.user_comments = list(old.user_comments)
    message.flags = set(template.flags) | set(old.flags)
    message.previous_id = list(old.previous_id)
    return message


def _obsolete_key(key: tuple[str, str | None]) -> str | tuple[str, str]:
    """How Babel keys ``Catalog.obsolete``: the msgid, or msgid and context."""
    msgid, context = key
    return msgid if context is None else (msgid, context)


def _holds_anything(message: Message) -> bool:
    return bool(message.string or message.user_comments or message.flags or message.previous_id)


def _language(language: str) -> str:
    """The language of a locale directory as a header writes it: ``zh_TW`` for ``zh_TW`` and
    for ``zh-TW`` (as BCP 47 writes it), which Babel cannot parse as it is."""
    identifier = language.replace("-", "_")
    try:
        Locale.parse(identifier)
        return identifier
    except (ValueError, UnknownLocaleError):
        raise UsageError(
            f"{language!r} (a directory of the locale directory) is not a language name "
            "Babel knows, such as en or zh_TW; name the languages with -l"
        ) from None


def _merge(
    old: Catalog | None,
    template: Catalog,
    language: str,
    compendium: Compendium,
    similarity: float,
) -> tuple[Catalog, CatalogUpdate]:
    """*template*'s messages with every translation of *old* kept or carried."""
    if old is None:
        catalog = template
        catalog.locale = _language(language)
        before: dict[tuple[str, str | None], Message] = {}
        obsolete: dict[tuple[str, str | None], Message] = {}
    else:
        catalog = old
        catalog.creation_date = template.creation_date
        before = {_key(m): m for m in _entries(old)}
        obsolete = {_key(m): m for m in old.obsolete.values()}
    seen = {msgid for msgid, _ in before} | {msgid for msgid, _ in obsolete}
    wanted = [copy(m) for m in _entries(template)]
    for message in _entries(catalog):
        catalog.delete(message.id, message.context)
    catalog.obsolete.clear()
    update = CatalogUpdate(Path(), created=old is None, changed=False, text=b"")
    wanted_keys = {_key(m) for m in wanted}
    # what left the page and may have become one of the new messages
    left = {key: m for key, m in before.items() if key not in wanted_keys and m.string}
    merged: list[Message] = []
    consumed: set[tuple[str, str | None]] = set()
    for new in wanted:
        key = _key(new)
        msgid = str(new.id)
        if key in before:
            merged.append(_kept(new, before[key]))
            continue
        if key in obsolete:
            restored = obsolete.pop(key)
            comment = f"{COMMENT_PREFIX} translation restored from its obsolete entry (#~)"
            if restored.string:
                merged.append(_carried(new, restored, comment))
                update.reused.append(Reused(msgid, "#~", 1.0))
            else:
                merged.append(_kept(new, restored))
            continue
        known = compendium.exact(msgid)
        if known is not None:
            comment = f"{COMMENT_PREFIX} translation carried from {known.origin}"
            merged.append(_carried(new, known.message, comment))
            update.reused.append(Reused(msgid, known.origin, 1.0))
            continue
        edited = get_close_matches(msgid, [k[0] for k in left], 1, EDIT_SIMILARITY)
        if edited:
            old_key = next(k for k in left if k[0] == edited[0])
            source = left.pop(old_key)
            consumed.add(old_key)
            message = _carried(new, source, None)
            # the text its translation was made from
            message.previous_id = list(source.previous_id) or [str(source.id)]
            merged.append(message)
            update.fuzzy += 1
            continue
        near = None
        if msgid not in seen and len(msgid) >= NEAR_MIN_LENGTH:
            near = compendium.near(msgid, similarity)
        if near is not None:
            similar, ratio = near
            comment = f"{SUGGESTION_PREFIX} in {similar.origin} ({int(ratio * 100)}% alike)"
            message = _carried(new, similar.message, comment)
            message.previous_id = [str(similar.message.id)]
            merged.append(message)
            update.reused.append(Reused(msgid, similar.origin, ratio))
            continue
        merged.append(new)
    for message in merged:
        catalog[message.id] = message
    for key, message in obsolete.items():
        catalog.obsolete[_obsolete_key(key)] = message
    for key, message in before.items():
        if key in wanted_keys or key in consumed:
            continue  # still live, or carried whole into the message it became
        if _holds_anything(message):
            catalog.obsolete[_obsolete_key(key)] = message
    now = {_key(m) for m in merged}
    update.added, update.removed = len(now - set(before)), len(set(before) - now)
    return catalog, update


def plan_language(
    pot_dir: Path, locale_dir: Path, language: str, similarity: float = DEFAULT_SIMILARITY
) -> list[CatalogUpdate]:
    """Every template's catalog for *language*, updated in memory (nothing written)."""
    _language(language)
    templates = {domain: read_catalog_file(p) for domain, p in _files(pot_dir, ".pot").items()}
    catalog_dir = locale_dir / language / "LC_MESSAGES"
    paths = _files(catalog_dir, ".po")
    olds = {domain: read_catalog_file(path) for domain, path in paths.items()}
    compendium = Compendium(olds)
    updates = []
    for domain, template in templates.items():
        path = paths.get(domain, catalog_dir / f"{domain}.po")
        catalog, update = _merge(olds.get(domain), template, language, compendium, similarity)
        update.path = path
        update.text = write_catalog(catalog)
        if update.created:
            update.changed = True
        else:
            update.changed = _without_creation_date(path.read_bytes()) != _without_creation_date(
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
