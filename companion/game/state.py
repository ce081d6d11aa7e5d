"""The game's state: plain dataclasses, rebuilt by folding actions (see `reducer`).

Nothing here rolls dice or reads the clock; the state is a pure function of the
action log, so replaying a save gives back exactly the same game.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from typing import Any, TypeVar

from boards import XY, Board
from companion.game.events import EventCard, EventDeckList
from companion.rules import DEFAULT_HOUSE_RULES, HouseRules, Piece, Token, movement_allowance

FORMATS = ("free_for_all", "two_headed_giant", "horde")
# MT 3.01.a: the movement phase sits between upkeep and main 1; untap and draw stay where
# the base game has them (basic rules).
PHASES = ("untap", "upkeep", "draw", "movement", "main1", "combat", "main2", "end")
MOVEMENT_STEPS = ("players", "planeswalkers", "creatures")  # MT 3.01.c
STEP_OF_KIND = {"player": "players", "planeswalker": "planeswalkers", "creature": "creatures"}  # MT 3.01.c
PAWN_NUMBER = 1  # a player's pawn is their token number 1 (MT 2.05); their permanents take 2, 3 …
# The rules a game was started under, recorded in its `start` action, so that a save replays as it was played:
# 1: before pawns and checked moves; 2: before the seeds' review (doubtful squares not applied, no automatic
# summoning sickness, unplaced pawns allowed on turn 1, the Horde's graveyard put on top of its deck …);
# 3: before issue 30 (the controller chose a multicoloured creature's bonus, MT 2.02.c; Two-Headed Giant
# poison counted per player); 4: games started now.
RULES_EDITION = 4
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


@dataclass(frozen=True)
class HordeCard:
    """One card of the Horde's decks (HO 200.2), as the table described it.

    `permanent` None: the wave did not say, the table says when it is cast (`horde_cast_resolves`).
    `wave`: on the battlefield, the wave it came from (a card of an earlier deck leaving it is
    exiled face down, HO 202.5b); None elsewhere. `boss`: the boss as it is revealed (HO 202.1),
    only in `HordeState.last_revealed`. Decks known only by their counts have empty names.
    """

    name: str = ""
    token: bool = False
    permanent: bool | None = None
    wave: int | None = None
    boss: bool = False

    def to_dict(self) -> dict[str, object]:
        """The plain record saves and exports have always shown (a boss has no `permanent`)."""
        if self.boss:
            return {"name": self.name, "token": self.token, "boss": True}
        data: dict[str, object] = {"name": self.name, "token": self.token, "permanent": self.permanent}
        if self.wave is not None:
            data["wave"] = self.wave
        return data

    def setup_data(self) -> dict[str, object]:
        """The card in the `start` action: `permanent` only when the wave says it."""
        data: dict[str, object] = {"name": self.name, "token": self.token}
        if self.permanent is not None:
            data["permanent"] = self.permanent
        return data


@dataclass(frozen=True)
class HordeWave:
    """One Horde deck (a wave, HO 200.1): cards above the boss, top first once shuffled."""

    level: str
    cards: tuple[HordeCard, ...]
    boss: str = "Boss"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))  # a list given is kept as a tuple: never changed

    @classmethod
    def by_counts(cls, level: str, tokens: int = HORDE_TOKENS_PER_DECK, spells: int = HORDE_SPELLS_PER_DECK,
                  boss: str = "Boss") -> "HordeWave":
        """A wave the app knows only by its counts (HO 200.2: 66 tokens, 33 spells, a boss)."""
        return cls(level, (HordeCard("", True),) * tokens + (HordeCard("", False),) * spells, boss)

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "cards": [card.to_dict() for card in self.cards], "boss": self.boss}


@dataclass
class GameSetup:
    """Everything decided before the first turn; stored whole in the game's first action."""

    players: list[PlayerSetup]
    board: Board
    format: str = "free_for_all"
    planechase: bool = False
    events: EventDeckList | list[EventCard] | None = None
    house_rules: HouseRules = DEFAULT_HOUSE_RULES  # table options, incl. D10/D12 movement dice (MT 1.04, 8.04)
    starting_player: int | None = None  # colour; None = drawn at random (and said so in the history)
    starting_life: int = 20             # the table's choice: 20 (basic rules), 30, 40 or any number ≥ 1
    team_life: int = 30                 # Two-Headed Giant shared life (Comprehensive Rules 810, not in the seeds)
    horde_difficulty: str = "beginner"
    horde_waves: list[HordeWave] | None = None  # None = waves known by counts only
    secret_boss: str = "Boss secret"
    horde_colour: int | None = None     # the Horde's token colour; None = the last one no player uses
    doubtful_squares: tuple[XY, ...] = ()  # a board read from a photo: squares to confirm (MT 2.02.e)


@dataclass
class Player:
    id: int            # token colour
    name: str
    team: int | None = None
    life: int = 20
    poison: int = 0
    # combat damage from each commander: "2" = player 2's commander, "2:Tymna" = one of player 2's partners
    commander_damage: dict[str, int] = field(default_factory=dict)
    left: bool = False
    left_reason: str = ""
    mulligans: int = 0
    kept: bool = False
    # the counters tables keep beside life and poison (#27); 0 until used, and left out of `to_dict` at 0
    energy: int = 0      # CR 122.1 (energy counters)
    experience: int = 0  # CR 122.1 (experience counters)
    rad: int = 0         # CR 122.1 (rad counters)


# The player counters `change_counter` keeps (the names of `Player`'s fields), in the order the Table shows them.
PLAYER_COUNTERS = ("energy", "experience", "rad")
DAY_NIGHT = ("day", "night")  # CR 726: once it is day or night, it stays one of the two


@dataclass
class Turn:
    number: int = 0                       # turns started so far; 0 before the first
    active: list[int] = field(default_factory=list)  # active player ids ([] on the Horde's turn)
    horde: bool = False                   # the Horde's turn (HO 104)
    phase: str = PREGAME
    step: str | None = None               # movement step (MT 3.01.c)
    players_turns: int = 0                # turns the players (or a player) have started
    extra_turns: list[str] = field(default_factory=list)  # queued sides: "horde" | "players"
    draw_instead_of_attack: bool = False  # the Horde's combat phase is a draw phase this turn (HO 201.3a)


@dataclass
class EventState:
    """MT 7: deck top first, at most one revealed card (7.07.a), turns counted since it was revealed."""

    deck: list[EventCard] = field(default_factory=list)
    revealed: EventCard | None = None
    revealed_by: int | None = None
    counter: int | None = None   # X of the revealed card, or the one the table entered
    counted: int = 0             # turns ended since the reveal (MT 7.06.d.1)


@dataclass(frozen=True)
class PlanarTrigger:
    """A planar die's chaos or planeswalk face waiting to resolve (PC): who rolled it, over which plane."""

    kind: str               # "chaos" | "planeswalk"
    controller: int
    plane: str | None


@dataclass
class PlanarState:
    """PC: each player's planar deck (top first), the face-up plane, its owner and controller."""

    decks: dict[int, list[str]] = field(default_factory=dict)
    face_up: str | None = None
    owner: int | None = None
    controller: int | None = None
    rolls_this_turn: int = 0
    pending: list[PlanarTrigger] = field(default_factory=list)  # rolled, not resolved yet, oldest first

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "pending": [asdict(trigger) for trigger in self.pending]}


@dataclass
class HordeState:
    """HO: the City, the waves, the current deck (top first) and where the Horde's cards are."""

    difficulty: str = "beginner"
    city_start: int = 0
    city_life: int = 0
    waves: list[HordeWave] = field(default_factory=list)  # waves not started yet
    wave: int = 0                 # current wave, from 1
    wave_total: int = 0
    level: str = ""
    library: list[HordeCard] = field(default_factory=list)  # current deck above the boss, top first
    boss: str = ""
    boss_in_library: bool = True   # still at the bottom of the deck (HO 200.2a)
    boss_on_battlefield: bool = False
    secret_boss: str = ""
    secret_boss_on_battlefield: bool = False
    earlier_bosses: list[str] = field(default_factory=list)  # bosses of earlier waves still in play (HO 202.5a)
    graveyard: list[HordeCard] = field(default_factory=list)
    battlefield: list[HordeCard] = field(default_factory=list)  # tokens entered, permanents cast (HO 201.2, 202.5a)
    casting: list[HordeCard] = field(default_factory=list)      # cast cards the table has not said are permanents
    last_revealed: list[HordeCard] = field(default_factory=list)
    attacks_replaced: int = 0      # Horde attack phases to replace by a draw (HO 201.3a)
    colour: int = 0                # the Horde's token colour: its creatures on the grid (MT 5.01.a)
    result: str | None = None      # "city_defeated" | "horde_defeated"

    def to_dict(self) -> dict[str, object]:
        cards = {name: [card.to_dict() for card in getattr(self, name)]
                 for name in ("library", "graveyard", "battlefield", "casting", "last_revealed")}
        return {**asdict(self), "waves": [wave.to_dict() for wave in self.waves], **cards}


ENTRY_KINDS = ("cast", "effect", "becomes", "returns", "phases_in", "setup")
ENTRY_RULES = {"cast": "MT 4.09.c", "effect": "MT 4.10.a", "becomes": "MT 5.02.a", "returns": "MT 5.02.h",
               "phases_in": "MT 6.02", "setup": None}
# Entries of a permanent its controller already had on the battlefield: it does not get summoning sick
# (CR 302.6; a phased-in permanent was never gone, CR 702.26), nor does a piece set up before turn 1.
ENTRIES_WITHOUT_SICKNESS = frozenset({"becomes", "phases_in", "setup"})


@dataclass(frozen=True)
class Entry:
    """How a piece comes onto the grid, which decides the squares it may enter on.

    cast: a creature spell, anywhere in the spell's zone around its caster (MT 4.09.a, 4.09.c; the
    whole grid from a Temple du Deus, 4.09.d). effect: put onto the battlefield by an effect: in the
    source's action zone (4.10.a) — `source`, a token on the grid (or one that just died: its zone
    before its death, 4.11.b), or an off-grid source's `source_mana_value`, its zone centred on the
    source's controller (`source_controller`, the entering piece's controller unless said); a spell
    as source (`source_spell`) has its spell zone (4.09.a). becomes: a permanent off the grid becomes
    a creature or planeswalker (5.02.a). returns: comes back onto the battlefield (5.02.h).
    phases_in: phases in, in its controller's range (6.02). setup: placed before the first turn,
    anywhere free (a scenario the table sets up). A full zone falls back on the nearest free squares
    (4.10.b).
    """

    kind: str = "cast"
    source: Token | None = None
    source_mana_value: int | None = None
    source_spell: bool = False
    source_controller: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "source": list(self.source) if self.source else None,
                "source_mana_value": self.source_mana_value, "source_spell": self.source_spell}
        if self.source_controller is not None:
            data["source_controller"] = self.source_controller
        return data


@dataclass(frozen=True)
class Roll:
    """One roll of the roll log: a movement roll (MT 3.03–3.04: `token` set), a free roll, the planar
    die (`cost`, PC), the Infernal Horde's D6 (HO 404.3) or a random choice of the Horde (HO 201.5,
    `die` "choice": `results` holds the option chosen). `purpose` is what it was rolled for (a piece's
    name, a plane, a rule, the table's reason); `by` a player's colour, "horde", or None."""

    die: str
    results: tuple[Any, ...]
    by: int | str | None
    purpose: str | None
    total: int | None = None
    token: Token | None = None
    cost: int | None = None

    def to_dict(self) -> dict[str, object]:
        """The record saves and exports have always shown ("for" is the purpose)."""
        data: dict[str, object] = {"die": self.die, "results": list(self.results)}
        if self.total is not None:
            data["total"] = self.total
        if self.token is not None:
            data["token"] = list(self.token)
        data.update({"by": self.by, "for": self.purpose})
        if self.cost is not None:
            data["cost"] = self.cost
        return data


@dataclass(frozen=True)
class Movement:
    """What a token has moved this turn: where its movement began (landwalk and a red square's haste
    are read there, MT 6.09, 2.02.b.04) and the squares spent so far (MT 3.04.a–c)."""

    start: XY
    spent: int = 0


@dataclass
class GameState:
    format: str = "free_for_all"
    planechase: bool = False
    house_rules: HouseRules = DEFAULT_HOUSE_RULES  # the table's options (MT 8.04)
    board_name: str = ""
    board_rows: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)   # seat (turn) order
    starting_player: int = 0  # a player's colour once the game has started
    pieces: dict[Token, Piece] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    movement_rolls: dict[str, Roll] = field(default_factory=dict)  # Piece.roll_key -> this turn's roll
    movement: dict[Token, Movement] = field(default_factory=dict)  # tokens that moved this turn (MT 3.04)
    bonus_choices: dict[Token, str] = field(default_factory=dict)  # MT 2.02.c
    events: EventState | None = None
    planar: PlanarState | None = None
    horde: HordeState | None = None
    rolls: list[Roll] = field(default_factory=list)  # the roll log
    winner: list[int] | None = None
    starting_player_drawn: bool = False  # drawn at random at setup (else chosen by the table)
    kept_in: dict[int, list[Any]] = field(default_factory=dict)  # player -> the totals at which the table kept them in
    rules_edition: int = 1  # RULES_EDITION of the game's start (1: a save from before pawns and checked moves)
    doubtful_squares: list[XY] = field(default_factory=list)  # still to confirm (MT 2.02.e)
    # tokens that left the battlefield, as they last stood, until their number is used again (MT 4.11.b)
    last_known: dict[Token, Piece] = field(default_factory=dict)
    # who controlled a piece as it entered the battlefield, when not its owner (PC "Quitter la partie")
    entered_under: dict[Token, int] = field(default_factory=dict)
    # table-wide designations (#27): who is the monarch (CR 724) and who has the initiative (CR 725), one
    # player or nobody; day/night (CR 726), None until a card makes it day or night. Left out of `to_dict`
    # while unset, so an older game exports as it always has.
    monarch: int | None = None
    initiative: int | None = None
    day_night: str | None = None

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
        return self.house_rules

    @property
    def movement_die(self) -> str:
        """D10 or D12, shared by everyone (MT 1.04)."""
        return f"D{self.house.die_sides}"

    @property
    def over(self) -> bool:
        return self.winner is not None or bool(self.horde and self.horde.result)

    def pieces_of(self, player_id: int) -> list[Piece]:
        return [p for p in self.pieces.values() if p.player == player_id]

    def pawn(self, player_id: int) -> Piece | None:
        """The player's pawn (MT 2.05), or None (a save from before pawns)."""
        piece = self.pieces.get((player_id, PAWN_NUMBER))
        return piece if piece is not None and piece.kind == "player" else None

    @property
    def uncertain(self) -> frozenset[XY]:
        """The doubtful squares, whose colours do not count (MT 2.02.e), for every rules function's
        `uncertain` argument; none for a save started before they were applied (edition 2)."""
        return frozenset(self.doubtful_squares) if self.rules_edition >= 3 else frozenset()

    def movement_left(self, token: Token) -> int | None:
        """Squares the token may still move this turn (MT 3.04.a–c), None before its object rolled.

        The allowance of the roll (dice summed, horsemanship, landwalk: `movement_allowance`, read
        where its movement began) minus what it moved already; 0 outside the movement phase and once
        the step of its kind is over (MT 3.01.c: unused movement is lost with the step).
        """
        piece = self.pieces.get((token[0], token[1]))
        roll = self.movement_rolls.get(piece.roll_key) if piece else None
        if piece is None or roll is None:
            return None
        turn = self.turn
        if turn.phase != "movement" or turn.step is None or (MOVEMENT_STEPS.index(STEP_OF_KIND[piece.kind])
                                                             < MOVEMENT_STEPS.index(turn.step)):
            return 0
        moved = self.movement.get(piece.token)
        start = moved.start if moved else piece.at
        if start is None:
            return 0
        allowance = movement_allowance(self.board, piece.moved(start), roll.results, uncertain=self.uncertain,
                                       chosen_bonus=self.bonus_choices.get(piece.token), house=self.house)
        return max(0, allowance - (moved.spent if moved else 0))

    def movement_start(self, token: Token) -> XY | None:
        """Where the token's movement began this turn (its square if it has not moved)."""
        moved = self.movement.get((token[0], token[1]))
        return moved.start if moved else self.pieces[(token[0], token[1])].at

    @property
    def acting(self) -> frozenset[int]:
        """Controllers whose turn it is: the active players, or the Horde on its turn (HO 104)."""
        if self.turn.horde:
            return frozenset({self.horde.colour}) if self.horde else frozenset()
        return frozenset(self.turn.active)

    @property
    def sides(self) -> dict[int, int]:
        """Controller -> side: teammates share one (Two-Headed Giant teams; the Horde's players, HO 102.1)."""
        if self.format == "two_headed_giant":
            return {p.id: -(p.team or 0) for p in self.players}  # every player has a team (checked at start)
        if self.horde:
            return {**{p.id: 0 for p in self.players}, self.horde.colour: self.horde.colour}
        return {p.id: p.id for p in self.players}

    def clone(self) -> "GameState":
        """A copy the reducer may change. Pieces, event cards, rolls and Horde cards are never changed in
        place (they are replaced), so only the containers are copied: much faster than a deep copy."""
        new = _copy(self)
        new.players = [_copy(p, commander_damage=dict(p.commander_damage)) for p in self.players]
        new.pieces, new.bonus_choices, new.movement = dict(self.pieces), dict(self.bonus_choices), dict(self.movement)
        new.kept_in, new.last_known = dict(self.kept_in), dict(self.last_known)
        new.entered_under = dict(self.entered_under)
        new.movement_rolls, new.rolls = dict(self.movement_rolls), list(self.rolls)
        new.turn = _copy(self.turn, active=list(self.turn.active), extra_turns=list(self.turn.extra_turns))
        new.winner = list(self.winner) if self.winner is not None else None
        if self.events:
            new.events = _copy(self.events, deck=list(self.events.deck))
        if self.planar:
            new.planar = _copy(self.planar, decks={k: list(v) for k, v in self.planar.decks.items()},
                               pending=list(self.planar.pending))
        if self.horde:
            horde = self.horde
            new.horde = _copy(horde, waves=list(horde.waves), library=list(horde.library),
                              graveyard=list(horde.graveyard), last_revealed=list(horde.last_revealed),
                              battlefield=list(horde.battlefield), casting=list(horde.casting),
                              earlier_bosses=list(horde.earlier_bosses))
        return new

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON/YAML-ready picture of the state (for export and for people to read)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["players"] = [_player_to_dict(p) for p in self.players]
        for name in ("monarch", "initiative", "day_night"):
            if out[name] is None:
                del out[name]
        out["pieces"] = [piece_to_dict(p) for p in self.pieces.values()]
        out["turn"] = asdict(self.turn)
        out["bonus_choices"] = [{"token": list(k), "colour": v} for k, v in self.bonus_choices.items()]
        out["movement"] = [{"token": list(k), "start": list(v.start), "spent": v.spent} for k, v in self.movement.items()]
        out["last_known"] = [piece_to_dict(p) for p in self.last_known.values()]
        out["entered_under"] = [{"token": list(k), "controller": v} for k, v in self.entered_under.items()]
        out["doubtful_squares"] = [list(at) for at in self.doubtful_squares]
        out["house_rules"] = asdict(self.house_rules)
        out["movement_rolls"] = {key: roll.to_dict() for key, roll in self.movement_rolls.items()}
        out["rolls"] = [roll.to_dict() for roll in self.rolls]
        if self.events:
            out["events"] = {**asdict(self.events), "deck": [c.to_dict() for c in self.events.deck],
                             "revealed": self.events.revealed.to_dict() if self.events.revealed else None}
        if self.planar is not None:
            out["planar"] = self.planar.to_dict()
        if self.horde is not None:
            out["horde"] = self.horde.to_dict()
        return out


Record = TypeVar("Record")


def _copy(obj: Record, **changes: Any) -> Record:
    """A shallow copy of a (non-frozen) dataclass with some fields replaced: `dataclasses.replace` without
    running `__init__` again, since the state is copied once per action."""
    new: Record = object.__new__(type(obj))
    new.__dict__ = {**obj.__dict__, **changes}
    return new


@lru_cache(maxsize=8)
def _board(rows: tuple[str, ...], name: str) -> Board:
    return Board.from_rows(list(rows), name=name)


def _player_to_dict(player: Player) -> dict[str, Any]:
    """A player as saves and exports show them: the counters added in #27 only once used (not 0)."""
    data = asdict(player)
    for name in PLAYER_COUNTERS:
        if not data[name]:
            del data[name]
    return data


def piece_to_dict(piece: Piece) -> dict[str, Any]:
    data = asdict(piece)
    data["colours"] = sorted(piece.colours)
    data["keywords"] = sorted(piece.keywords)
    data["at"] = list(piece.at) if piece.at is not None else None
    return data
