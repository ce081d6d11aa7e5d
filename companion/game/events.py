"""Event cards and event deck lists (MT 7, MT 9.03).

A deck list is a YAML file::

    name: My events
    cards:
      - {name: Problème de Vol, count: 4, rarity: common, supertype: natural, turns: 3, text: "..."}

`supertype` (magical | natural, MT 7.06.b), `turns` (the turn-counter box X, MT 7.06.d) and
`text` may be left empty (null) when the table has not written them yet: the game then asks
for the counter when such an event is revealed. Loading is `yaml.safe_load` only.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path


from boards.yamlfile import read_yaml
from companion.game.errors import EventDeckError

RARITY_LIMITS = {"mythic": 1, "uncommon": 2, "common": 4}  # MT 7.02.c
SUPERTYPES = ("magical", "natural")  # MT 7.06.b
CARD_KEYS = {"name", "count", "rarity", "supertype", "turns", "text"}
DECK_KEYS = {"name", "note", "cards"}
PREBUILT_PATH = Path(__file__).parent / "data" / "prebuilt-events.yaml"


@dataclass(frozen=True)
class EventCard:
    """One event card (MT 7.01); events have no owner or controller (MT 7.04)."""

    name: str
    rarity: str
    supertype: str | None = None  # MT 7.06.b; None = not written on the card yet
    turns: int | None = None      # turn-counter box X (MT 7.06.d); None = ask the table on reveal
    text: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "EventCard":
        return cls(**{k: data.get(k) for k in ("name", "rarity", "supertype", "turns")}, text=data.get("text") or "")


@dataclass(frozen=True)
class EventDeckList:
    """A named list of event cards, one item per physical card."""

    name: str
    cards: tuple[EventCard, ...]


def minimum_deck_size(players: int) -> int:
    """MT 7.02.a: at least 25 cards for two players, 4 more per extra player."""
    return 25 + 4 * max(0, players - 2)


def check_deck_size(cards, players: int, path=None) -> None:
    """MT 7.02.a: raise EventDeckError when the deck is too small for `players`."""
    needed = minimum_deck_size(players)
    if len(cards) < needed:
        raise EventDeckError(
            f"the event deck has {len(cards)} cards; {players} players need at least {needed} "
            "(25 for two players, +4 per extra player, MT 7.02.a)", path=path, field="cards")


def _entry_error(path, index, field, message):
    return EventDeckError(message, path=path, entry=index, field=field)


def _parse_card(entry, index: int, path) -> tuple[EventCard, int]:
    if not isinstance(entry, dict):
        raise _entry_error(path, index, None, "expected a mapping with name, count, rarity, supertype, turns, text")
    unknown = sorted(set(map(str, entry)) - CARD_KEYS)
    if unknown:
        raise _entry_error(path, index, unknown[0], f"unknown key; expected some of {sorted(CARD_KEYS)}")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _entry_error(path, index, "name", "expected the event's name (text)")
    count = entry.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise _entry_error(path, index, "count", f"expected a whole number of copies ≥ 1, got {count!r}")
    rarity = entry.get("rarity")
    if rarity not in RARITY_LIMITS:
        raise _entry_error(path, index, "rarity", f"expected one of {', '.join(RARITY_LIMITS)}, got {rarity!r}")
    supertype = entry.get("supertype")
    if supertype is not None and supertype not in SUPERTYPES:
        raise _entry_error(path, index, "supertype",
                           f"expected magical or natural (MT 7.06.b), or empty, got {supertype!r}")
    turns = entry.get("turns")
    if turns is not None and (not isinstance(turns, int) or isinstance(turns, bool) or turns < 1):
        raise _entry_error(path, index, "turns", f"expected a turn counter ≥ 1 (MT 7.06.d), or empty, got {turns!r}")
    text = entry.get("text") or ""
    if not isinstance(text, str):
        raise _entry_error(path, index, "text", "expected text")
    return EventCard(name.strip(), rarity, supertype, turns, text), count


def parse_event_deck(data, path=None) -> EventDeckList:
    """Check a loaded deck list (MT 7.02.b–c copies by rarity); errors name the entry and field."""
    if not isinstance(data, dict):
        raise EventDeckError("expected a mapping with 'name' and 'cards'", path=path)
    unknown = sorted(set(map(str, data)) - DECK_KEYS)
    if unknown:
        raise EventDeckError(f"unknown key; expected some of {sorted(DECK_KEYS)}", path=path, field=unknown[0])
    cards_data = data.get("cards")
    if not isinstance(cards_data, list) or not cards_data:
        raise EventDeckError("expected a non-empty list of cards", path=path, field="cards")
    cards: list[EventCard] = []
    copies: Counter[str] = Counter()
    rarity_of: dict[str, str] = {}
    for index, entry in enumerate(cards_data, start=1):
        card, count = _parse_card(entry, index, path)
        key = card.name.casefold()
        if rarity_of.setdefault(key, card.rarity) != card.rarity:
            raise _entry_error(path, index, "rarity", f"'{card.name}' is listed earlier as {rarity_of[key]}")
        copies[key] += count
        limit = RARITY_LIMITS[card.rarity]
        if copies[key] > limit:
            raise _entry_error(path, index, "count",
                               f"{copies[key]} copies of '{card.name}', but a {card.rarity} event "
                               f"may appear at most {limit} time(s) (MT 7.02.c)")
        cards.extend([card] * count)
    name = data.get("name") or (Path(path).stem if path else "Events")
    return EventDeckList(str(name), tuple(cards))


def load_event_deck(path) -> EventDeckList:
    """Read and check a deck list file (YAML or JSON); raise EventDeckError saying where it is wrong."""
    data = read_yaml(path, lambda message: EventDeckError(message, path=path))
    return parse_event_deck(data, path)


def prebuilt_event_deck() -> EventDeckList:
    """The prebuilt event deck of MT 9.03 (26 cards; texts and counters left for the table)."""
    return load_event_deck(PREBUILT_PATH)
