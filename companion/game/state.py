"""The game's state: plain dataclasses, rebuilt by folding actions (see `reducer`).

Nothing here rolls dice or reads the clock; the state is a pure function of the
action log, so replaying a save gives back exactly the same game.
"""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache

from boards import Board
from companion.game.events import EventCard, EventDeckList
from companion.rules import DEFAULT_HOUSE_RULES, HouseRules, Piece

FORMATS = ("free_for_all", "two_headed_giant", "horde")
# MT 3.01.a: the movement phase sits between upkeep and main 1; untap and draw stay where
# the base game has them (basic rules).
PHASES = ("untap", "upkeep", "draw", "movement", "main1", "combat", "main2", "end")
MOVEMENT_STEPS = ("players", "planeswalkers", "creatures")  # MT 3.01.c
PREGAME = "pregame"  # mulligans, before the first turn
HORDE_DIFFICULTIES = {  # HO 401–404: base City life, wave levels
    "beginner": (100, ("low",)),
    "intermediate": (80, ("low", "medium")),
    "confirmed": (60, ("low", "medium", "high")),
    "infernal": (1, ("low", "medium", "high")),
}
HORDE_TOKENS_PER_DECK, HORDE_SPELLS_PER_DECK = 66, 33  # HO 200.2b–c


@dataclass
class PlayerSetup:
    """A player at the table; `colour` is their token colour (1..5) and also their id (MT 1.03.a)."""

    name: str
    colour: int
    team: int | None = None             # Two-Headed Giant team number
    planar_deck: list[str] = field(default_factory=list)  # plane names, Planechase only


@dataclass
class HordeWave:
    """One Horde deck (a wave, HO 200.1): cards above the boss, top first once shuffled.

    Each card is {"name": str, "token": bool}; decks known only by counts use empty names.
    """

    level: str
    cards: list[dict]
    boss: str = "Boss"

    @classmethod
    def by_counts(cls, level: str, tokens: int = HORDE_TOKENS_PER_DECK, spells: int = HORDE_SPELLS_PER_DECK,
                  boss: str = "Boss") -> "HordeWave":
        """A wave the app knows only by its counts (HO 200.2: 66 tokens, 33 spells, a boss)."""
        return cls(level, [{"name": "", "token": True}] * tokens + [{"name": "", "token": False}] * spells, boss)


@dataclass
class GameSetup:
    """Everything decided before the first turn; stored whole in the game's first action."""

    players: list[PlayerSetup]
    board: Board
    format: str = "free_for_all"
    planechase: bool = False
    events: EventDeckList | list[EventCard] | None = None
    house_rules: HouseRules = DEFAULT_HOUSE_RULES  # table options, incl. D10/D12 movement dice (MT 1.04, 8.04)
    starting_player: int | None = None  # colour; None = drawn at random
    starting_life: int = 20             # basic rules
    team_life: int = 30                 # Two-Headed Giant shared life (Comprehensive Rules 810, not in the seeds)
    horde_difficulty: str = "beginner"
    horde_waves: list[HordeWave] | None = None  # None = waves known by counts only
    secret_boss: str = "Boss secret"
    doubtful_squares: tuple[tuple[int, int], ...] = ()  # a board read from a photo: squares to confirm (MT 2.02.e)


@dataclass
class Player:
    id: int            # token colour
    name: str
    team: int | None = None
    life: int = 20
    poison: int = 0
    commander_damage: dict[int, int] = field(default_factory=dict)  # source player id -> damage
    left: bool = False
    left_reason: str = ""
    mulligans: int = 0
    kept: bool = False


@dataclass
class Turn:
    number: int = 0                       # turns started so far; 0 before the first
    active: list[int] = field(default_factory=list)  # active player ids ([] on the Horde's turn)
    horde: bool = False                   # the Horde's turn (HO 104)
    phase: str = PREGAME
    step: str | None = None               # movement step (MT 3.01.c)
    players_turns: int = 0                # turns the players (or a player) have started
    extra_turns: list[str] = field(default_factory=list)  # queued sides: "horde" | "players"


@dataclass
class EventState:
    """MT 7: deck top first, at most one revealed card (7.07.a), turns counted since it was revealed."""

    deck: list[EventCard] = field(default_factory=list)
    revealed: EventCard | None = None
    revealed_by: int | None = None
    counter: int | None = None   # X of the revealed card, or the one the table entered
    counted: int = 0             # turns ended since the reveal (MT 7.06.d.1)


@dataclass
class PlanarState:
    """PC: each player's planar deck (top first), the face-up plane, its owner and controller."""

    decks: dict[int, list[str]] = field(default_factory=dict)
    face_up: str | None = None
    owner: int | None = None
    controller: int | None = None
    rolls_this_turn: int = 0
    pending: list[dict] = field(default_factory=list)  # {"kind": "chaos"|"planeswalk", "controller", "plane"}


@dataclass
class HordeState:
    difficulty: str = "beginner"
    city_start: int = 0
    city_life: int = 0
    waves: list[dict] = field(default_factory=list)  # waves not started yet: {"level", "cards", "boss"}
    wave: int = 0                 # current wave, from 1
    wave_total: int = 0
    level: str = ""
    library: list[dict] = field(default_factory=list)  # current deck above the boss, top first
    boss: str = ""
    boss_in_library: bool = True   # still at the bottom of the deck (HO 200.2a)
    boss_on_battlefield: bool = False
    secret_boss: str = ""
    secret_boss_on_battlefield: bool = False
    graveyard: list[dict] = field(default_factory=list)
    last_revealed: list[dict] = field(default_factory=list)
    result: str | None = None      # "city_defeated" | "horde_defeated"


@dataclass
class GameState:
    format: str = "free_for_all"
    planechase: bool = False
    house_rules: dict = field(default_factory=dict)  # companion.rules.HouseRules fields (MT 8.04)
    board_name: str = ""
    board_rows: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)   # seat (turn) order
    starting_player: int | None = None
    pieces: dict[tuple[int, int], Piece] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    movement_rolls: dict[str, dict] = field(default_factory=dict)  # roll_key -> {"die", "results", "total"}
    bonus_choices: dict[tuple[int, int], str] = field(default_factory=dict)  # MT 2.02.c
    events: EventState | None = None
    planar: PlanarState | None = None
    horde: HordeState | None = None
    rolls: list[dict] = field(default_factory=list)  # the roll log
    winner: list[int] | None = None
    doubtful_squares: list[tuple[int, int]] = field(default_factory=list)  # still to confirm (MT 2.02.e)

    # -- queries ---------------------------------------------------------
    def player(self, player_id: int) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    @property
    def alive(self) -> list[Player]:
        return [p for p in self.players if not p.left]

    @property
    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.players}

    @property
    def board(self) -> Board:
        return _board(tuple(self.board_rows), self.board_name)

    @property
    def house(self) -> HouseRules:
        return HouseRules(**self.house_rules)

    @property
    def movement_die(self) -> str:
        """D10 or D12, shared by everyone (MT 1.04)."""
        return f"D{self.house.die_sides}"

    @property
    def over(self) -> bool:
        return self.winner is not None or bool(self.horde and self.horde.result)

    def pieces_of(self, player_id: int) -> list[Piece]:
        return [p for p in self.pieces.values() if p.player == player_id]

    def clone(self) -> "GameState":
        """A copy the reducer may change. Pieces, event cards, rolls and Horde cards are never changed in
        place (they are replaced), so only the containers are copied: much faster than a deep copy."""
        new = copy.copy(self)
        new.players = [replace(p, commander_damage=dict(p.commander_damage)) for p in self.players]
        new.pieces, new.bonus_choices = dict(self.pieces), dict(self.bonus_choices)
        new.movement_rolls, new.rolls = dict(self.movement_rolls), list(self.rolls)
        new.turn = replace(self.turn, active=list(self.turn.active), extra_turns=list(self.turn.extra_turns))
        new.winner = list(self.winner) if self.winner is not None else None
        if self.events:
            new.events = replace(self.events, deck=list(self.events.deck))
        if self.planar:
            new.planar = replace(self.planar, decks={k: list(v) for k, v in self.planar.decks.items()},
                                 pending=list(self.planar.pending))
        if self.horde:
            new.horde = replace(self.horde, waves=list(self.horde.waves), library=list(self.horde.library),
                                graveyard=list(self.horde.graveyard), last_revealed=list(self.horde.last_revealed))
        return new

    def to_dict(self) -> dict:
        """A plain, JSON/YAML-ready picture of the state (for export and for people to read)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["players"] = [asdict(p) for p in self.players]
        out["pieces"] = [piece_to_dict(p) for p in self.pieces.values()]
        out["turn"] = asdict(self.turn)
        out["bonus_choices"] = [{"token": list(k), "colour": v} for k, v in self.bonus_choices.items()]
        if self.events:
            out["events"] = {**asdict(self.events), "deck": [c.to_dict() for c in self.events.deck],
                             "revealed": self.events.revealed.to_dict() if self.events.revealed else None}
        for name in ("planar", "horde"):
            if getattr(self, name) is not None:
                out[name] = asdict(getattr(self, name))
        return out


@lru_cache(maxsize=8)
def _board(rows: tuple[str, ...], name: str) -> Board:
    return Board.from_rows(list(rows), name=name)


def piece_to_dict(piece: Piece) -> dict:
    data = asdict(piece)
    data["colours"] = sorted(piece.colours)
    data["keywords"] = sorted(piece.keywords)
    data["at"] = list(piece.at) if piece.at is not None else None
    return data


def piece_from_dict(data: dict) -> Piece:
    known = {f.name for f in fields(Piece)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown piece fields {unknown}")
    values = dict(data)
    if values.get("at") is not None:
        values["at"] = tuple(values["at"])
    return Piece(**values)
