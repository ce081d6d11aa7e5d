"""Event cards and event deck lists (MT 7, MT 9.03).

A deck list is a YAML file::

    name: My events
    cards:
      - {name: Problème de Vol, count: 4, rarity: common, supertype: natural, turns: 3, text: "..."}

`supertype` (magical | natural, MT 7.06.b), `turns` (the turn-counter box X, MT 7.06.d) and
`text` may be left empty (null) when the table has not written them yet: the game then asks
for the counter when such an event is revealed. Files are read by `safeio.yamlfile` (bounded, safe
constructor only) and every field is type-checked; errors name the file, line, entry and field.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sized

import yaml

from safeio.files import fsync_dir, link_problem
from safeio.yamlfile import (Limits, ListOf, Nullable, OneOf, Record, Text, Whole, YamlDocument, plain_document,
                             read_yaml_file)
from companion.game.errors import EventDeckError

RARITY_LIMITS = {"mythic": 1, "uncommon": 2, "common": 4}  # MT 7.02.c
SUPERTYPES = ("magical", "natural")  # MT 7.06.b
MAX_CARDS, MAX_COPIES = 500, 1000
CARD = Record({
    "name": Text(200, say="the event's name (a text of at most 200 characters)"),
    "count": Whole(1, MAX_COPIES, say=f"a whole number of copies ≥ 1 (at most {MAX_COPIES})"),
    "rarity": OneOf(tuple(RARITY_LIMITS)),
    "supertype": Nullable(OneOf(SUPERTYPES, say="magical or natural (MT 7.06.b), or empty")),
    "turns": Nullable(Whole(1, 1000, say="a turn counter ≥ 1 (MT 7.06.d), or empty")),
    "text": Nullable(Text(4000, empty=True)),
}, required=("name", "rarity"))
DECK = Record({"name": Nullable(Text(200)), "note": Nullable(Text(4000, empty=True)),
               "cards": ListOf(CARD, min_items=1, max_items=MAX_CARDS, say="a non-empty list of cards")})
DECK_LIMITS = Limits(max_bytes=4 << 20, max_depth=8)
PREBUILT_PATH = Path(__file__).parent / "data" / "prebuilt-events.yaml"
DECK_SUFFIX = ".yaml"


def _deck_error(message: str, *, path: str | Path | None = None, line: int | None = None,
                at: tuple[str | int, ...] = ()) -> EventDeckError:
    """Field paths of a deck ("cards", 2, "rarity") as the entry (from 1) and the field people read."""
    if len(at) >= 2 and at[0] == "cards" and isinstance(at[1], int):
        return EventDeckError(message, path=path, line=line, entry=at[1] + 1,
                              field=str(at[2]) if len(at) > 2 else None)
    return EventDeckError(message, path=path, line=line, field=str(at[0]) if at else None)


@dataclass(frozen=True)
class EventCard:
    """One event card (MT 7.01); events have no owner or controller (MT 7.04)."""

    name: str
    rarity: str
    supertype: str | None = None  # MT 7.06.b; None = not written on the card yet
    turns: int | None = None      # turn-counter box X (MT 7.06.d); None = ask the table on reveal
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EventDeckList:
    """A named list of event cards, one item per physical card."""

    name: str
    cards: tuple[EventCard, ...]


def minimum_deck_size(players: int) -> int:
    """MT 7.02.a: at least 25 cards for two players, 4 more per extra player."""
    return 25 + 4 * max(0, players - 2)


def check_deck_size(cards: Sized, players: int, path: str | Path | None = None) -> None:
    """MT 7.02.a: raise EventDeckError when the deck is too small for `players`."""
    needed = minimum_deck_size(players)
    if len(cards) < needed:
        raise EventDeckError(
            f"the event deck has {len(cards)} cards; {players} players need at least {needed} "
            "(25 for two players, +4 per extra player, MT 7.02.a)", path=path, field="cards")


def parse_event_deck(data: object, path: str | Path | None = None) -> EventDeckList:
    """Check a deck list (MT 7.02.b–c copies by rarity); errors name the file, line, entry and field."""
    document = data if isinstance(data, YamlDocument) else plain_document(data, path=path, error=_deck_error)
    if not isinstance(document.data, dict):
        raise document.fail("expected a mapping with 'name' and 'cards'")
    deck = DECK.check({"cards": None, **document.data}, document)
    cards: list[EventCard] = []
    copies: Counter[str] = Counter()
    rarity_of: dict[str, str] = {}
    for index, entry in enumerate(deck["cards"]):
        card = EventCard(entry["name"], entry["rarity"], entry.get("supertype"), entry.get("turns"),
                         entry.get("text") or "")
        count = entry.get("count", 1)
        key = card.name.casefold()
        if rarity_of.setdefault(key, card.rarity) != card.rarity:
            raise document.fail(f"'{card.name}' is listed earlier as {rarity_of[key]}", ("cards", index, "rarity"))
        copies[key] += count
        limit = RARITY_LIMITS[card.rarity]
        if copies[key] > limit:
            raise document.fail(f"{copies[key]} copies of '{card.name}', but a {card.rarity} event "
                                f"may appear at most {limit} time(s) (MT 7.02.c)", ("cards", index, "count"))
        cards.extend([card] * count)
    name = deck.get("name") or (Path(path).stem if path else "Events")
    return EventDeckList(name, tuple(cards))


def load_event_deck(path: str | Path) -> EventDeckList:
    """Read and check a deck list file (YAML or JSON); raise EventDeckError saying where it is wrong."""
    return parse_event_deck(read_yaml_file(path, limits=DECK_LIMITS, error=_deck_error), path)


def prebuilt_event_deck() -> EventDeckList:
    """The prebuilt event deck of MT 9.03 (26 cards; texts and counters left for the table)."""
    return load_event_deck(PREBUILT_PATH)


def deck_document(deck: EventDeckList) -> dict[str, Any]:
    """The deck as its list file says it: one entry per distinct card with its count, in deck order."""
    counts: Counter[EventCard] = Counter(deck.cards)
    return {"name": deck.name, "cards": [{**card.to_dict(), "count": count} for card, count in counts.items()]}


def deck_file_name(name: str) -> str:
    """A deck's file name from the name the table gave it: letters, digits and dashes only, so that
    no name can reach outside its folder or hide a file ("../x", ".hidden")."""
    stem = re.sub(r"[^\w]+", "-", name.casefold()).strip("-_")[:80]
    return (stem or "deck") + DECK_SUFFIX


def save_event_deck(deck: EventDeckList, folder: str | Path) -> Path:
    """Write the deck's list file in `folder` under its name, atomically (a temporary file, synced,
    renamed over the old one, the folder synced): a crash leaves the old file or the new, never half
    of one. The deck is checked as a read would check it first, so a saved deck always reads back."""
    folder = Path(folder)
    path = folder / deck_file_name(deck.name)
    document = deck_document(deck)
    parse_event_deck(document, path)
    problem = link_problem(path)
    if problem is not None:
        raise EventDeckError(problem, path=path)
    folder.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=".deck-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            yaml.safe_dump(document, file, allow_unicode=True, sort_keys=False, width=200)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    fsync_dir(folder)
    return path


@dataclass(frozen=True)
class SavedDeck:
    """A deck list file of the app's deck folder: its deck, or why it cannot be used (file, line, entry, field)."""

    path: Path
    deck: EventDeckList | None
    problem: EventDeckError | None = None


def saved_event_decks(folder: str | Path) -> list[SavedDeck]:
    """Every deck list file of `folder`, sorted by file name; a bad one is listed with its error, never raised."""
    folder = Path(folder)
    found: list[SavedDeck] = []
    for path in sorted(folder.glob("*" + DECK_SUFFIX)) if folder.is_dir() else []:
        problem = link_problem(path)
        try:
            if problem is not None:
                raise EventDeckError(problem, path=path)
            found.append(SavedDeck(path, load_event_deck(path)))
        except EventDeckError as exc:
            found.append(SavedDeck(path, None, exc))
    return found
