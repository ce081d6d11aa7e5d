"""The typed results of the card package: a card face, a search suggestion, a plane's text, the
draft of a piece, import progress and reports, and the errors. Plain frozen data."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

COLOUR_ORDER = "WUBRG"


def colour_string(colours: Iterable[str]) -> str:
    """Colour letters in WUBRG order, whatever order the data gives them in."""
    return "".join(c for c in COLOUR_ORDER if c in set(colours))


@dataclass(frozen=True)
class Card:
    """One face of a card (a single-faced card has one) with what the table needs of it.

    Values are as printed (`power` "*", "1+*"); `card_to_piece` turns them into a piece.
    Rules text is kept for planes and phenomena only (the Table screen shows it); for the
    other cards the data's keyword list, checked against the text at import, says enough.
    """

    name: str                          # English face name: "Insectile Aberration"
    card_name: str                     # English card name, "Front // Back" for multi-faced cards
    names_fr: tuple[str, ...] = ()     # French face names in the data, the usual one first
    layout: str = "normal"             # MTGJSON/Scryfall layout: normal, transform, modal_dfc, split …
    side: str = ""                     # "a", "b" … on multi-faced cards
    mana_cost: str = ""                # "{X}{R}"
    mana_value: float = 0.0            # of this face as a permanent; X counts as 0 (CR 202.3e)
    colours: str = ""                  # "WU", in WUBRG order
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    type_line: str = ""
    type_line_fr: str = ""
    types: tuple[str, ...] = ()        # card types: ("Artifact", "Creature")
    keywords: tuple[str, ...] = ()     # the face's own keyword abilities, English names from the data
    unblockable: bool = False          # a whole line of its text says it can't be blocked
    text: str = ""                     # rules text (planes and phenomena only)
    text_fr: str = ""
    popularity: int | None = None      # EDHREC rank (1 = most played): orders equal matches
    id: int = 0                        # row in the card database (0 before import)

    @property
    def name_fr(self) -> str | None:
        return self.names_fr[0] if self.names_fr else None

    def display_name(self, lang: str) -> str:
        """The face's name in `lang` when the data has it, else in English."""
        return (self.name_fr or self.name) if lang == "fr" else self.name

    @property
    def is_plane(self) -> bool:
        """A Planechase card: a plane or a phenomenon."""
        return "Plane" in self.types or "Phenomenon" in self.types


@dataclass(frozen=True)
class Suggestion:
    """One search result: a card face, with both its names, and how well it matched."""

    card_id: int
    name: str                 # English face name
    name_fr: str | None       # French face name, if the data has one
    card_name: str            # English card name ("Front // Back")
    matched: str              # the name (as stored) that matched what was typed
    matched_lang: str         # "en" | "fr"
    typos: int                # 0 = the typed text begins a word of the name exactly
    type_line: str
    mana_cost: str

    def title(self, lang: str) -> str:
        """The name to show first: the one in the table's language when there is one."""
        return (self.name_fr or self.name) if lang == "fr" else self.name

    def subtitle(self, lang: str) -> str:
        """The other language's name (or '' when the data has only one)."""
        other = self.name if lang == "fr" else self.name_fr
        return other if other and other != self.title(lang) else ""


@dataclass(frozen=True)
class PlaneText:
    """What the Table screen shows for the face-up plane, in the language the data has."""

    name: str
    type_line: str
    text: str
    lang: str                 # language of `text`: the one asked for, or "en" when the data has no other


@dataclass(frozen=True)
class PieceDraft:
    """A card (or a token description) turned into what the Pieces form holds.

    `kind` is "creature" or "planeswalker", or None for a permanent that is not on the grid
    (MT 5.01.b). `power`/`toughness` are None when the card prints a variable value ("*",
    "1+*": then `variable` names them, for the table to enter); `asks` lists every field the
    table must give before saving. Everything stays editable by hand.
    """

    name: str
    kind: str | None
    mana_value: int
    colours: frozenset[str]
    keywords: frozenset[str]
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    printed_power: str | None = None
    printed_toughness: str | None = None
    variable: tuple[str, ...] = ()     # "power", "toughness" printed as "*" or "1+*"
    x_in_cost: bool = False            # the cost has an X, counted as 0 (MT 4.03.c)
    token: bool = False
    card_id: int | None = None
    unmapped_keywords: tuple[str, ...] = ()   # the card's keywords the grid does not care about

    @property
    def on_grid(self) -> bool:
        return self.kind is not None

    @property
    def asks(self) -> tuple[str, ...]:
        return self.variable

    def piece_fields(self) -> dict[str, object]:
        """Keyword arguments for `Piece(...)` / the game's `update_piece` (kind included only
        when the piece is on the grid)."""
        fields: dict[str, object] = {"name": self.name, "mana_value": self.mana_value, "power": self.power,
                  "toughness": self.toughness, "colours": self.colours, "keywords": self.keywords}
        if self.kind:
            fields["kind"] = self.kind
        return fields


@dataclass(frozen=True)
class Progress:
    """What an import or a download is doing: `step` is an i18n key (`cards.step.*`, worded with
    `fields`), `fraction` in 0..1 of the whole job."""

    step: str
    fraction: float
    fields: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ImportReport:
    """The database an import wrote, and what went into it."""

    path: str
    source: str               # "mtgjson" | "scryfall"
    faces: int
    cards: int
    french_names: int
    planes: int
    skipped: int              # entries that are not cards for the table (tokens, art cards, Alchemy …)
    size_bytes: int
    seconds: float


class CardDataError(Exception):
    """A card file or database that cannot be used. `key`/`fields` word it through i18n
    (`cards.errors.*`); `str()` is readable English with the file and place."""

    def __init__(self, key: str, message: str, **fields: object):
        self.key, self.fields = key, fields
        super().__init__(message)


class ImportCancelled(CardDataError):
    """The import was stopped on request; the previous database is untouched."""
