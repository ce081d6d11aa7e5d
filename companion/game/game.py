"""`Game`: the one object the app talks to. Event sourcing: every method records one
`Action` (randomness included), the state is the fold of the actions up to a cursor,
undo/redo move the cursor, and the history is read back from the log.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import yaml

from boards import XY
from safeio.yamlfile import FileError, Limits, read_yaml_file
from companion.game.actions import common, life, movement, pieces, turns
from companion.game.actions import setup as setup_actions
from companion.game.actions.horde import horde_of
from companion.game.actions.life import Elimination
from companion.game.dice import Dice
from companion.game.errors import GameError, SaveError
from companion.game.events import EventDeckList
from companion.game.history import HistoryEntry, describe, summarise
from companion.game.journal import SAVE_FORMAT, SAVE_VERSION, Operation
from companion.game.reducer import Action, NeedsShuffle, apply
from companion.game.setup import board_warnings
from companion.game.state import (HORDE_DIFFICULTIES, RULES_EDITION, Entry, GameSetup, GameState, HordeCard, HordeWave,
                                  Roll, piece_to_dict)
from companion.rules import (EntrySquares, Message, MoveVerdict, Piece, Token, as_token, blockers, movement_allowance,
                             movement_dice)

if TYPE_CHECKING:  # store.py imports this module
    from companion.game.store import GameStore

SNAPSHOT_EVERY = 16
EXPORT_LIMITS = Limits(max_bytes=64 << 20, max_depth=32, max_values=4_000_000, max_text=8_000_000)
JOIN_SECONDS = 3          # taps on a counter closer than this make one change ("−7"), one line, one undo
LAST_MOVE_LOOKBACK = 32   # actions `last_moves` replays: a hand move the camera has yet to see is recent (a few ms)


@dataclass(frozen=True)
class LastMove:
    """The last change of where a token stands: from, to (None: off the grid) and who made it."""

    frm: XY | None
    to: XY | None
    source: str    # "camera" (recorded from what the camera saw) or "hand" (the table, on a screen)


def setup_to_data(setup: GameSetup, dice: Dice) -> dict[str, Any]:
    """The data of the 'start' action: the setup plus its random draws (starting player, shuffles)."""
    players = [{"name": p.name, "colour": p.colour, "team": p.team} for p in setup.players]
    events = setup.events.cards if isinstance(setup.events, EventDeckList) else setup.events
    data = {
        "format": setup.format, "planechase": setup.planechase, "players": players,
        "board_name": setup.board.name, "board_rows": setup.board.to_rows(),
        "house_rules": asdict(setup.house_rules), "starting_life": setup.starting_life, "team_life": setup.team_life,
        "starting_player": setup.starting_player if setup.starting_player is not None
        else dice.choice([p.colour for p in setup.players]),
        "starting_player_drawn": setup.starting_player is None, "rules": RULES_EDITION,
        "events": [c.to_dict() for c in dice.shuffled(list(events))] if events is not None else None,
    }
    if setup.doubtful_squares:
        data["doubtful_squares"] = [list(at) for at in setup.doubtful_squares]
    if setup.planechase:
        data["planar_decks"] = [[p.colour, dice.shuffled(list(p.planar_deck))] for p in setup.players]
    if setup.format == "horde":
        levels = HORDE_DIFFICULTIES.get(setup.horde_difficulty, (0, ()))[1]
        waves = setup.horde_waves if setup.horde_waves is not None else [HordeWave.by_counts(lv) for lv in levels]
        data.update(horde_difficulty=setup.horde_difficulty, secret_boss=setup.secret_boss,
                    horde_waves=[{"level": w.level, "cards": [c.setup_data() for c in dice.shuffled(list(w.cards))],
                                  "boss": w.boss} for w in waves])
        if setup.horde_colour is not None:
            data["horde_colour"] = setup.horde_colour
    return data


def local_now() -> datetime:
    return datetime.now().astimezone()


def _within(recorded: str, now: datetime, seconds: float) -> bool:
    """Was an action recorded at `recorded` (ISO) at most `seconds` before `now`? False when its time
    cannot be compared (none recorded, or one with a time zone and the other without)."""
    try:
        return 0 <= (now - datetime.fromisoformat(recorded)).total_seconds() <= seconds
    except (ValueError, TypeError):
        return False


@dataclass
class Game:
    """A game in progress. Create with `Game.new(setup)`; every change goes through a method
    below, is recorded as one action and, when a store is attached, saved at once."""

    dice: Dice
    clock: Callable[[], datetime] = local_now
    store: GameStore | None = None
    recovered: SaveError | None = None  # set by load_game when it repaired the save: what was wrong, kept, lost

    def __post_init__(self) -> None:
        self._actions: list[Action] = []
        self._summaries: list[tuple[Message, ...]] = []  # each action's history messages
        self._cursor = 0
        self._snapshots: dict[int, GameState] = {0: GameState()}
        self._state = GameState()

    # -- creating and loading ----------------------------------------------------------
    @classmethod
    def new(cls, setup: GameSetup, *, dice: Dice | None = None, clock: Callable[[], datetime] = local_now,
            save_dir: str | Path | None = None) -> "Game":
        """Start a game; with `save_dir`, autosave every action there (see `companion.game.store`)."""
        from companion.game.store import GameStore

        game = cls(dice or Dice.system(), clock)
        data = setup_to_data(setup, game.dice)
        game._record("start", data)
        if save_dir is not None:  # the game's files appear with their first entry, or not at all
            game.store = GameStore.create(save_dir, {"op": "do", "action": game._actions[0].to_dict()})
        return game

    @classmethod
    def replay(cls, ops: list[Operation], *, dice: Dice | None = None, clock: Callable[[], datetime] = local_now,
               where: str = "journal") -> "Game":
        """Rebuild a game from journal operations ({"op": "do", "action"} | {"op": "undo"} | {"op": "redo"});
        ANY failure of an operation raises SaveError naming its position (`.entry`, from 1)."""
        game = cls(dice or Dice.system(), clock)
        for index, op in enumerate(ops, start=1):
            try:
                kind = op.get("op") if isinstance(op, dict) else None
                if kind == "do":
                    action = Action.from_dict(op.get("action"))
                    game._push(action, apply(game._state, action))
                elif kind in ("undo", "redo"):
                    getattr(game, f"_{kind}")()
                else:
                    raise ValueError(f"unknown operation {op!r}")
            except (GameError, ValueError, NeedsShuffle) as exc:
                raise SaveError(f"{where} entry {index} cannot be replayed: {exc}", entry=index) from None
            except Exception as exc:  # a malformed entry the reducer did not foresee: still the save's fault
                raise SaveError(f"{where} entry {index} cannot be replayed ({type(exc).__name__}: {str(exc)[:120]})",
                                entry=index) from None
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole game as one plain document: version, actions, cursor, and the current state."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "cursor": self._cursor,
                "actions": [a.to_dict() for a in self._actions], "state": self.state.to_dict()}

    @classmethod
    def from_dict(cls, data: object, *, dice: Dice | None = None, clock: Callable[[], datetime] = local_now,
                  where: str = "document") -> "Game":
        """Rebuild from `to_dict()`'s document; the state is recomputed from the actions, never trusted."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a Magic Tactical game (expected format: {SAVE_FORMAT})", path=where)
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"unsupported version {data.get('version')!r} (this app reads {SAVE_VERSION})", path=where)
        actions = data.get("actions")
        cursor = data.get("cursor")
        if not isinstance(actions, list) or not isinstance(cursor, int) or not 0 < cursor <= len(actions):
            raise SaveError("'actions' must be a list and 'cursor' a position in it", path=where)
        game = cls.replay([{"op": "do", "action": a} for a in actions], dice=dice, clock=clock, where=where)
        while game._cursor > cursor:
            game._undo()
        return game

    def export(self, path: str | Path) -> Path:
        """Write the game as one YAML (.yaml/.yml) or JSON file."""
        path = Path(path)
        document = self.to_dict()
        text = (yaml.safe_dump(document, allow_unicode=True, sort_keys=False) if path.suffix in (".yaml", ".yml")
                else json.dumps(document, ensure_ascii=False, indent=1))
        path.write_text(text, encoding="utf-8")
        return path

    @classmethod
    def import_file(cls, path: str | Path, *, dice: Dice | None = None,
                    clock: Callable[[], datetime] = local_now) -> "Game":
        """Read a file written by `export` (YAML or JSON, through the bounded reader of safeio.yamlfile);
        SaveError says what is wrong."""
        path = Path(path)
        try:
            data = read_yaml_file(path, limits=EXPORT_LIMITS).data
        except FileError as exc:
            raise SaveError(f"cannot read the game file: {exc}", path=path) from None
        return cls.from_dict(data, dice=dice, clock=clock, where=str(path))

    # -- the log, the cursor, undo and redo ----------------------------------------------
    @property
    def state(self) -> GameState:
        """The state at the cursor. Treat it as read-only: change the game through its methods."""
        return self._state

    @property
    def actions(self) -> tuple[Action, ...]:
        """Actions in effect (up to the cursor)."""
        return tuple(self._actions[:self._cursor])

    @property
    def can_undo(self) -> bool:
        return self._cursor > 1  # the setup itself is not undone

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._actions)

    def undo(self) -> GameState:
        """Step back one action (its dice results are kept for redo)."""
        if not self.can_undo:
            raise GameError("game.error.nothing_to_undo")
        self._save({"op": "undo"})
        self._undo()
        return self._state

    def redo(self) -> GameState:
        """Re-apply the action undone last, with the same recorded results."""
        if not self.can_redo:
            raise GameError("game.error.nothing_to_redo")
        self._save({"op": "redo"})
        self._redo()
        return self._state

    def _undo(self) -> None:
        if not self.can_undo:
            raise GameError("game.error.nothing_to_undo")
        self._cursor -= 1
        self._state = self._state_at(self._cursor)

    def _redo(self) -> None:
        if not self.can_redo:
            raise GameError("game.error.nothing_to_redo")
        self._state = apply(self._state, self._actions[self._cursor])
        self._cursor += 1

    def _state_at(self, index: int) -> GameState:
        base = max(i for i in self._snapshots if i <= index)
        state = self._snapshots[base]
        for action in self._actions[base:index]:
            state = apply(state, action)
        return state

    def _push(self, action: Action, state: GameState) -> None:
        before = self._state
        del self._actions[self._cursor:]
        del self._summaries[self._cursor:]
        for index in [i for i in self._snapshots if i > self._cursor]:
            del self._snapshots[index]
        self._actions.append(action)
        self._summaries.append(summarise(before, state, action))
        self._cursor += 1
        self._state = state
        if self._cursor % SNAPSHOT_EVERY == 0:
            self._snapshots[self._cursor] = state

    def _save(self, op: Operation) -> None:
        if self.store is not None:
            self.store.append(op)

    def _record_joined(self, kind: str, data: dict[str, Any]) -> GameState:
        """Record a counter change (`data["amount"]`), joined to the last action when that is the same
        change of the same counter, recorded less than JOIN_SECONDS ago and not undone since: taps in
        quick succession are one change ("−7"), one history line and one undo step, as life counters
        do. The journal gets the undo of the last action and the joined action in one write, so a game
        killed meanwhile has either or both; a join that would not end where the taps one by one
        would (a counter that stops at 0) is recorded as its own action instead."""
        if not self.can_undo or self.can_redo:
            return self._record(kind, data)
        last = self._actions[self._cursor - 1]
        same = last.kind == kind and {k: v for k, v in last.data.items() if k != "amount"} == \
            {k: v for k, v in data.items() if k != "amount"}
        now = self.clock()
        if not same or not _within(last.time, now, JOIN_SECONDS):
            return self._record(kind, data)
        one_by_one = apply(self._state, Action(kind, data, now.isoformat(timespec="seconds")))  # refused: raises
        before = self._state_at(self._cursor - 1)
        joined = Action(kind, {**data, "amount": last.data["amount"] + data["amount"]},
                        now.isoformat(timespec="seconds"))
        if joined.data["amount"] == 0 and one_by_one == before:   # the taps took each other back
            self.undo()
            return self._state
        state = apply(before, joined)
        if state != one_by_one:
            return self._record(kind, data)
        if self.store is not None:
            self.store.append_all([{"op": "undo"}, {"op": "do", "action": joined.to_dict()}])
        self._undo()
        self._push(joined, state)
        return state

    def _record(self, kind: str, data: dict[str, Any]) -> GameState:
        """Apply one new action (drawing any shuffle it needs), save it, then make it current."""
        action = Action(kind, data, self.clock().isoformat(timespec="seconds"))
        while True:
            try:
                state = apply(self._state, action)
                break
            except NeedsShuffle as need:
                action = Action(kind, {**action.data, need.key: self.dice.shuffled(list(range(need.size)))}, action.time)
        self._save({"op": "do", "action": action.to_dict()})
        self._push(action, state)
        return state

    # -- history -----------------------------------------------------------------------
    def history_entries(self) -> list[HistoryEntry]:
        """One entry per action in effect, oldest first."""
        return [HistoryEntry(action, summary) for action, summary in
                zip(self._actions[:self._cursor], self._summaries[:self._cursor])]

    def warnings(self) -> list[Message]:
        """What the table should know of the last action, which applied all the same (the app shows it and
        the table may pass over it): a creature cast while a movement step is under way (MT 3.01.d). The
        history keeps it with the action."""
        if self._cursor == 0:
            return []
        return [m for m in self._summaries[self._cursor - 1] if m.key.startswith("game.warning.")]

    def history(self, lang: str = "en") -> list[str]:
        """The readable log, e.g. "14:02 Anna a lancé D12 : 7 pour Serra Angel (#3)" (lang "fr" or "en")."""
        return [describe(entry, lang) for entry in self.history_entries()]

    # -- turns ---------------------------------------------------------------------------
    def next_phase(self) -> GameState:
        """Next phase or movement step (MT 3.01); from the end step, the next turn. From the pregame,
        turn 1 begins: the first event (MT 7.03) and the first plane (PC) are revealed.
        The Infernal Horde's end-step D6 (HO 404.3) is rolled here."""
        data = {}
        turn, horde = self._state.turn, self._state.horde
        if turn.phase == "end" and turn.horde and horde and horde.difficulty == "infernal":
            data["d6"] = self.dice.roll("D6")[0]
        return self._record("next_phase", data)

    def end_turn(self) -> GameState:
        """End the turn now (the table skips the remaining phases)."""
        data = {}
        turn, horde = self._state.turn, self._state.horde
        if turn.horde and horde and horde.difficulty == "infernal":
            data["d6"] = self.dice.roll("D6")[0]
        return self._record("end_turn", data)

    def mulligan(self, player: int) -> int:
        """Mulligan before the first turn; returns the new hand size (BR; PC/HO: first one free)."""
        self._record("mulligan", {"player": player})
        return self.hand_size(player)

    def keep_hand(self, player: int) -> GameState:
        return self._record("keep_hand", {"player": player})

    def hand_size(self, player: int) -> int:
        return turns.hand_size(self._state, player)

    def draws_this_turn(self) -> int:
        return turns.draws_this_turn(self._state)

    # -- setting up -------------------------------------------------------------------------
    def setup_warnings(self) -> list[Message]:
        """What the table should know about the board for these players: smaller than 20×12
        (MT 2.01), fewer start squares than players, whose pawns the table places (MT 2.04.a)."""
        state = self._state
        return board_warnings(state.board, [p.name for p in state.players])

    def place_pawn(self, player: int, at: XY) -> GameState:
        """Put a player's pawn on the grid: before the first turn on a free start square (MT 2.04.a), or
        anywhere free when no start square is left for them; later, a pawn off the grid goes back where
        it stands (any free square). Turn 1 does not begin while a pawn is off the grid."""
        return self._record("place_pawn", {"player": player, "at": list(at)})

    def pawn_squares(self, player: int) -> frozenset[XY]:
        """Where `place_pawn` may put the player's pawn now (empty: it may not be placed or moved)."""
        return setup_actions.pawn_squares(self._state, player)

    @property
    def unplaced_pawns(self) -> list[int]:
        """Players still in whose pawn is off the grid: the table places them (`place_pawn`) before turn 1."""
        return common.unplaced_pawns(self._state)

    # -- pieces ----------------------------------------------------------------------------
    def entry_squares(self, piece: Piece, entry: Entry = Entry("cast")) -> EntrySquares:
        """Where `piece` may come onto the grid by `entry` (MT 4.09.c, 4.10.a–b, 5.02.a, 5.02.h, 6.02):
        the free squares of the zone, or the nearest free squares when it is full (`zone_full`)."""
        return pieces.entry_squares(self._state, piece, entry)

    def add_piece(self, piece: Piece, *, entry: Entry | None = None, by_card: bool = False) -> GameState:
        """Put a token (player colour, number ≥ 2; 1 is the pawn) in play standing for `piece`: off the
        grid when `piece.at` is None (MT 5.01.b), else entering on `piece.at` by `entry` — by default
        anywhere free before the first turn (Entry("setup")), a creature spell cast afterwards
        (Entry("cast"), MT 4.09.c) — refused outside `entry_squares` unless a card allows it (`by_card`)."""
        data = {"piece": piece_to_dict(piece), "by_card": by_card}
        if entry is not None:
            data["entry"] = entry.to_dict()
        return self._record("add_piece", data)

    def place_piece(self, token: Token, at: XY, *, entry: Entry = Entry("returns"), by_card: bool = False) -> GameState:
        """A token in play but off the grid comes onto it by `entry` (returns by default: MT 5.02.h, 6.02;
        Entry("becomes") for MT 5.02.a)."""
        return self._record("place_piece", {"token": list(token), "at": list(at), "entry": entry.to_dict(),
                                            "by_card": by_card})

    def enter_horde_piece(self, piece: Piece, entry: Entry = Entry("cast")) -> GameState:
        """A creature of the Horde enters the grid on a square chosen at random among the legal ones
        (HO 201.5: the Horde chooses at random; MT 5.01.a: its creatures stand on the grid). It has
        haste (HO 201.3). `piece.player` is the Horde's colour (`state.horde.colour`)."""
        squares = sorted(self.entry_squares(piece.moved(None), entry).squares)
        if not squares:
            raise GameError("game.error.grid_full", "MT 4.10.b")
        return self.add_piece(piece.moved(self.dice.choice(squares)), entry=entry)

    def update_piece(self, token: Token, **changes: Any) -> GameState:
        """Change what a token stands for (tapped, power, keywords, controller, ...); not where it stands."""
        for key in ("colours", "keywords"):
            if key in changes:
                changes[key] = sorted(changes[key])
        return self._record("update_piece", {"token": list(token), "changes": changes})

    def move_piece(self, token: Token, at: XY | None, *, source: str = "hand", by_card: bool = False) -> GameState:
        """The token moves to `at` (None: it leaves the grid). In the movement phase, a piece of the
        active player walks in the step of its kind (MT 3.01.c) within what it has left (MT 3.04):
        `judge_move(token, at)` says beforehand; the move spends its steps. A refused move is
        recorded only when the table says a card allows it (`by_card=True`: it then uses all the
        movement left). `source` is "camera" or "hand"."""
        return self._record("move_piece", {"token": list(token), "at": list(at) if at is not None else None,
                                           "source": source, "by_card": by_card})

    def set_positions(self, positions: dict[Token, XY | None], *, source: str = "camera") -> GameState:
        """Where several tokens truly stand, e.g. what one camera reading saw, or the table putting a
        knocked token back: one action, one undo step, no movement spent (a correction, not a move)."""
        moves = [{"token": list(t), "at": list(at) if at is not None else None} for t, at in positions.items()]
        return self._record("set_positions", {"positions": moves, "source": source})

    def remove_piece(self, token: Token) -> GameState:
        """The permanent left the battlefield: its token is free again (MT 5.02.d, 5.02.f)."""
        return self._record("remove_piece", {"token": list(token)})

    def move_to_target(self, token: Token, at: XY) -> GameState:
        """"Move to target square in its action zone": a defender's {T} ability (MT 3.08.b) or a
        planeswalker's loyalty ability (MT 3.09, house rule planeswalker_move_loyalty)."""
        return self._record("move_to_target", {"token": list(token), "at": list(at)})

    def bonus_options(self, token: Token) -> list[str]:
        """MT 2.02.c: the colours a multicoloured creature may pick as its bonus this upkeep."""
        return movement.bonus_options(self._state, token)

    def choose_bonus(self, token: Token, colour: str) -> GameState:
        """MT 2.02.c: the controller picks one bonus in their upkeep; it lasts until the next one."""
        return self._record("choose_bonus", {"token": list(token), "colour": colour})

    def blockers(self, attacker: Token, attacked: int | None = None) -> tuple[Piece, ...]:
        """The pieces that may block `attacker` where it stands (MT 5.04.a, 5.05, 6.09): an opponent's
        (teammates never, Two-Headed Giant and the Horde's players); once the attack is declared, only
        those of the attacked player (`attacked`, PC multiplayer) and their team. The Horde never blocks
        (HO 301.2)."""
        state = self._state
        piece = state.pieces[as_token(attacker)]
        horde = state.horde.colour if state.horde else None
        pieces = [p for p in state.pieces.values() if p.controller != horde]  # HO 301.2: the Horde never blocks
        return blockers(state.board, piece, pieces, attacker_bonus=state.bonus_choices.get(piece.token),
                        attacked=attacked, sides=state.sides, uncertain=state.uncertain, house=state.house)

    # -- movement ------------------------------------------------------------------------------
    def roll_movement(self, token: Token) -> Roll:
        """MT 3.03–3.04: roll the movement dice of the token's object (one extra die when power and
        toughness are both below 3, MT 3.04.d). Copies of the object share the roll; a second roll
        for the same object in a turn is refused. Returns the roll (`.die`, `.results`, `.total`)."""
        piece = self._state.pieces.get(as_token(token))
        if piece is None:
            raise GameError("game.error.no_token", token=f"{token[0]}-{token[1]}")
        results = self.dice.roll(self._state.movement_die, movement_dice(piece, self._state.house))
        state = self._record("roll_movement", {"token": list(token), "results": results})
        return state.movement_rolls[piece.roll_key]

    def movement_roll(self, token: Token) -> Roll | None:
        """This turn's roll for the token's object, if any (MT 3.03)."""
        piece = self._state.pieces.get(as_token(token))
        return self._state.movement_rolls.get(piece.roll_key) if piece else None

    def movement_allowance(self, token: Token) -> int | None:
        """Squares the token may move this turn in all (rules engine: dice total, horsemanship, landwalk
        where its movement began, MT 3.04, 6.04, 6.09), None before its roll; see `movement_left`."""
        roll = self.movement_roll(token)
        if roll is None:
            return None
        state = self._state
        piece = state.pieces[as_token(token)]
        return movement_allowance(state.board, piece.moved(self.movement_start(token)), roll.results,
                                  chosen_bonus=state.bonus_choices.get(piece.token), uncertain=state.uncertain,
                                  house=state.house)

    def movement_left(self, token: Token) -> int | None:
        """Squares the token may still move this turn: its allowance minus what it moved already
        (MT 3.04.a–c), 0 once the step of its kind is over (MT 3.01.c), None before its roll. The
        board's green squares are `companion.rules.overlay(..., left=movement_left, start=movement_start)`
        (`GameState.movement_left` is the same, for presenters that hold only the state)."""
        return self._state.movement_left(token)

    def movement_start(self, token: Token) -> XY | None:
        """Where the token's movement began this turn (its square if it has not moved)."""
        return self._state.movement_start(token)

    def judge_move(self, token: Token, to: XY) -> MoveVerdict:
        """`companion.rules.judge_move` for this token now (what it has left, its chosen bonus, the
        house rules, the other tokens): what `move_piece` will say, before it is asked."""
        return movement.judge(self._state, as_token(token), (to[0], to[1]))

    def move_refusal(self, token: Token, to: XY, *, source: str = "hand") -> GameError | None:
        """Why `move_piece(token, to)` would be refused now, or None: the board's verdict (MT 3.02–3.08)
        and the turn's (another player's turn, not the movement phase or the step of its kind, MT 3.01;
        off the grid until it enters). Nothing is recorded: the move is applied to the state alone."""
        try:
            apply(self._state, Action("move_piece", {"token": list(token), "at": list(to), "source": source}))
        except GameError as refused:
            return refused
        return None

    def last_moves(self) -> dict[Token, LastMove]:
        """For each token that an action among the last `LAST_MOVE_LOOKBACK` in effect moved: where it
        stood before the last such action, where it went and who moved it. The camera needs it: a
        token the table moved by hand on a screen is still seen at its old square until a hand carries
        it — that is not a move back to record. Read by replaying those actions once for every token
        (the camera asks on each view): nothing is recorded."""
        start = max(1, self._cursor - LAST_MOVE_LOOKBACK)
        state, moves = self._state_at(start), {}
        for action in self._actions[start:self._cursor]:
            after = apply(state, action)
            for token, now in after.pieces.items():
                was = state.pieces.get(token)
                if was is not None and was.at != now.at:
                    moves[token] = LastMove(was.at, now.at,
                                            "camera" if action.data.get("source") == "camera" else "hand")
            state = after
        return moves

    def roll_die(self, die: str = "D6", *, player: int | None = None, reason: str = "") -> int:
        """Roll any die for the log (the D6, a D20 ...) and return the result."""
        result = self.dice.roll(die)[0]
        self._record("roll_die", {"die": die, "results": [result], "player": player, "reason": reason})
        return result

    # -- life and the end of the game -----------------------------------------------------------
    def change_life(self, player: int, amount: int, *, join: bool = False) -> GameState:
        """Gain (+) or lose (−) life. Two-Headed Giant: the team's total; Horde: the City's (HO 300.3–300.5).
        `join`: a tap on a counter, joined to the same change a moment ago (see `_record_joined`)."""
        data = {"player": player, "amount": amount}
        return self._record_joined("change_life", data) if join else self._record("change_life", data)

    def set_life(self, player: int, value: int) -> GameState:
        return self._record("set_life", {"player": player, "value": value})

    def change_poison(self, player: int, amount: int, *, join: bool = False) -> GameState:
        """`join`: a tap on a counter, joined to the same change a moment ago (see `_record_joined`)."""
        data = {"player": player, "amount": amount}
        return self._record_joined("change_poison", data) if join else self._record("change_poison", data)

    def commander_damage(self, player: int, source: int, amount: int, *, partner: str = "",
                         join: bool = False) -> GameState:
        """Combat damage from `source`'s commander (`partner`: which of two partner commanders, counted
        apart): tracked per commander and lost as life. `join`: a tap, joined to the same damage a
        moment ago (see `_record_joined`)."""
        data = {"player": player, "source": source, "amount": amount, "partner": partner}
        return self._record_joined("commander_damage", data) if join else self._record("commander_damage", data)

    def change_counter(self, player: int, counter: str, amount: int, *, join: bool = False) -> GameState:
        """A player's energy, experience or rad counters (`PLAYER_COUNTERS`), never below 0. `join`: a tap,
        joined to the same change a moment ago (see `_record_joined`)."""
        data = {"player": player, "counter": counter, "amount": amount}
        return self._record_joined("change_counter", data) if join else self._record("change_counter", data)

    def give_monarch(self, player: int) -> GameState:
        """`player` becomes the monarch (CR 724): the only one; the last monarch is no longer."""
        return self._record("give_designation", {"designation": "monarch", "player": player})

    def give_initiative(self, player: int) -> GameState:
        """`player` takes the initiative (CR 725): the only one to have it."""
        return self._record("give_designation", {"designation": "initiative", "player": player})

    def set_day_night(self, value: str) -> GameState:
        """It becomes "day" or "night" (CR 726), for the whole table; unset until a card says so."""
        return self._record("set_day_night", {"value": value})

    def mana_burn(self, player: int, mana: int) -> GameState:
        """BR mana burn, when the house rule is on: the player loses 1 life per unspent mana."""
        return self._record("mana_burn", {"player": player, "mana": mana})

    def eliminations(self) -> list[Elimination]:
        """Players the game proposes to eliminate, with the reasons (life ≤ 0, 10 poison, 21 damage
        from one commander); the table confirms with `player_leaves(player)` or `keep_in_game(player)`."""
        return life.eliminations(self._state)

    def losing_players(self) -> list[int]:
        return life.losing_players(self._state)

    def keep_in_game(self, player: int) -> GameState:
        """The table says a proposed elimination does not happen (a card says so); proposed again
        once the player's totals change."""
        return self._record("keep_in_game", {"player": player})

    def player_leaves(self, player: int, reason: str = "lost") -> GameState:
        """A player loses ("lost") or concedes ("conceded"); Planechase control/ownership rules apply
        (PC); when one side is left it wins (`state.winner`)."""
        return self._record("player_leaves", {"player": player, "reason": reason})

    # -- events (MT 7) -------------------------------------------------------------------------
    def set_event_counter(self, turns: int) -> GameState:
        """Enter the turn counter X of the revealed event when its card gives none (MT 7.06.d)."""
        return self._record("set_event_counter", {"turns": turns})

    @property
    def event_needs_counter(self) -> bool:
        """True when the revealed event has no counter yet: the app asks the table for one."""
        events = self._state.events
        return bool(events and events.revealed is not None and events.counter is None)

    # -- Planechase ---------------------------------------------------------------------------
    @property
    def planar_die_cost(self) -> int:
        """Mana the next planar die roll costs this turn: 0, then 1, 2, ... (PC)."""
        return self._state.planar.rolls_this_turn if self._state.planar else 0

    def roll_planar_die(self, player: int | None = None) -> str:
        """The active player rolls the planar die (PC): returns "planeswalk", "chaos" or "blank".
        A chaos or planeswalk face adds one pending trigger; resolve it with `resolve_planar_trigger`."""
        if player is None:
            player = self._state.turn.active[0] if self._state.turn.active else None
        face = self.dice.planar()
        self._record("roll_planar", {"player": player, "face": face, "cost": self.planar_die_cost})
        return face

    def resolve_planar_trigger(self, index: int = 0) -> GameState:
        return self._record("resolve_planar", {"index": index})

    # -- Horde ----------------------------------------------------------------------------------
    def horde_draw(self) -> list[HordeCard]:
        """HO 201.2: the Horde's draw step (or an attack phase replaced by a draw, HO 201.3a); returns
        the cards revealed (tokens, then the spell)."""
        return horde_of(self._record("horde_draw", {})).last_revealed

    def horde_draws(self, count: int = 1) -> list[HordeCard]:
        """HO 201.7: an effect makes the Horde draw: each card exiled from the top enters (a token) or
        is cast; returns the cards revealed."""
        return horde_of(self._record("horde_draws", {"count": count})).last_revealed

    def damage_horde(self, amount: int) -> list[HordeCard]:
        """HO 301.3: damage to the Horde mills that many cards; returns the cards revealed."""
        return horde_of(self._record("damage_horde", {"amount": amount})).last_revealed

    def horde_cast_resolves(self, index: int = 0, *, permanent: bool) -> GameState:
        """Where a card the Horde cast went, when its wave did not say (`state.horde.casting`): a
        permanent stays on the battlefield, another spell goes to the graveyard (HO 201.2)."""
        return self._record("horde_cast_resolves", {"index": index, "permanent": permanent})

    def horde_leaves_battlefield(self, index: int) -> GameState:
        """The Horde's permanent `state.horde.battlefield[index]` leaves the battlefield (HO 202.5b)."""
        return self._record("horde_leaves_battlefield", {"index": index})

    def horde_boss_leaves(self, which: str | None = None, index: int = 0) -> GameState:
        """HO 202.2: a boss left the battlefield: "wave", "secret", or "earlier" (a boss of an earlier wave
        still in play, HO 202.5a: `state.horde.earlier_bosses[index]`); `which` may be left out when only
        one boss is out. The wave changes when no boss is left (or the Horde is defeated after the last,
        202.4)."""
        data: dict[str, Any] = {} if which is None else {"which": which}
        if index:
            data["index"] = index
        return self._record("horde_boss_leaves", data)

    def horde_secret_boss(self, reason: str = "") -> GameState:
        """HO 203: a win/lose effect or an infinite loop brings the secret boss instead."""
        return self._record("horde_secret_boss", {"reason": reason})

    def horde_attack_prevented(self, source: str = "") -> GameState:
        """HO 201.3a: an effect kept a Horde creature from attacking: the Horde's next attack phase
        becomes a draw phase (the table exiles the effect's source)."""
        return self._record("horde_attack_prevented", {"source": source})

    def city_defeated(self, reason: str = "") -> GameState:
        """HO 105.4–105.5: an effect makes a player lose or an opponent win."""
        return self._record("city_defeated", {"reason": reason})

    def horde_choice(self, options: list[Any], question: str = "") -> Any:
        """HO 201.5: the Horde makes a choice at random; returns the chosen option (logged)."""
        chosen = self.dice.choice(list(options))
        self._record("horde_choice", {"options": list(options), "chosen": chosen, "question": question})
        return chosen

    def set_square(self, at: XY, code: str) -> GameState:
        """The table confirms what a square is, in board-file notation ("WU", "R#", "."): MT 2.02.e."""
        return self._record("set_square", {"at": list(at), "code": code})

    def note(self, text: str) -> GameState:
        return self._record("note", {"text": text})
