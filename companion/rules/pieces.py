"""What a token on the grid stands for, as far as the rules need to know.

Plain frozen data shared by the rules engine (which reads it) and the game
state (which stores and updates it). Card text the app cannot know stays
with the players; only what changes geometry is here.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from boards.model import XY, Token

KINDS = ("creature", "planeswalker", "player")

# Keywords with a grid erratum (MT 6.xx) or a colour bonus (MT 2.02.b), canonical English keys.
LANDWALKS = {"plainswalk": "W", "islandwalk": "U", "swampwalk": "B", "mountainwalk": "R", "forestwalk": "G"}
KEYWORDS = frozenset({
    "flying", "reach", "defender", "horsemanship", "trample", "vigilance", "haste", "provoke",
    "phasing", "level_up", "distortion", "unblockable", "wither", *LANDWALKS,
})


@dataclass(frozen=True)
class Piece:
    """A token (player colour, number) and what it represents (MT 2.05).

    `player` is the token's colour: its owner (MT 1.03.a). `controller` is who controls it now
    (a stolen creature keeps its owner's token), its owner unless said. `at` is None when the
    permanent is not on the grid (MT 5.01.b); `controller` is always a player's colour once built.
    Copies of the same object share `object_key`, so
    they share one movement roll (MT 3.03). `kind` "player" is a player's pawn (MT 2.05).
    """

    player: int                    # token colour 1..5, in the token palette's order: the owner
    number: int                    # token number
    kind: str = "creature"         # "creature" | "planeswalker" | "player" (the player's pawn)
    name: str = ""
    mana_value: int = 0
    power: int | None = None
    toughness: int | None = None
    colours: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    tapped: bool = False
    summoning_sick: bool = False
    at: XY | None = None
    object_key: str | None = None
    controller: int = 0            # 0 (or None) when built: its owner; colours count from 1
    loyalty: int | None = None     # a planeswalker's loyalty, when the table tracks it (MT 3.09)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        unknown = set(self.keywords) - KEYWORDS
        if unknown:
            raise ValueError(f"unknown keywords {sorted(unknown)}; known: {sorted(KEYWORDS)}")
        object.__setattr__(self, "colours", frozenset(self.colours))
        object.__setattr__(self, "keywords", frozenset(self.keywords))
        if not self.controller:
            object.__setattr__(self, "controller", self.player)

    @property
    def owner(self) -> int:
        """The token's colour is its owner's (MT 1.03.a)."""
        return self.player

    @property
    def token(self) -> Token:
        return self.player, self.number

    @property
    def roll_key(self) -> str:
        """Identity for movement rolls: copies of one object roll once (MT 3.03, 3.04.a)."""
        return self.object_key or f"{self.player}:{self.number}"

    def moved(self, at: XY | None) -> "Piece":
        return replace(self, at=at)


def as_token(value: Sequence[int]) -> Token:
    """A token given as any pair (a JSON list [colour, number], a tuple) as the tuple the game's keys are."""
    return value[0], value[1]


def square_of(piece: Piece) -> XY:
    """Where a piece stands, for code that only handles pieces on the grid (its callers filter the others
    out: one off the grid here is a bug, said plainly)."""
    if piece.at is None:
        raise ValueError(f"token {piece.token} is not on the grid")
    return piece.at
