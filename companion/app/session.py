"""The app's one door to the game: it owns the `companion.game.Game`, asks `companion.rules` for
overlays, and turns state into the short texts the screens show.

No rule is decided here: actions are `Game` methods (which check the rules
and autosave), overlays are `companion.rules.overlay`. What lives here is
caching (the board image, the overlay of the selected token) and wording.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from boards import Board, COLOURS, library_boards, load_board, square_label
from boards.model import Square as BoardSquare
from boards.tokens import PLAYER_COLOURS, PLAYER_NAMES, render_token
from companion.i18n import translate
from companion.app.widgets.board_image import BoardPicture, board_picture
from companion.game import (MOVEMENT_STEPS, Dice, Game, GameError, GameSetup, PlayerSetup, SaveError, latest_game,
                            load_game, prebuilt_event_deck)
from companion.rules import HouseRules, Piece, PieceOverlay, movement_dice, overlay, why_cannot_move

Token = tuple[int, int]
Square = tuple[int, int]
PLANES_PER_DECK = 10  # planar cards the table did not name are numbered in deck order
# A doubtful square the table confirmed is journaled as a game note "✓ E5 = WU#" (board-file code):
# undoable, autosaved and in the history, until companion.game has a board-edit action.
DOUBTS_FILE = "board-doubts.json"  # a scanned board's squares to confirm, beside the game's save


class ScanError(ValueError):
    """A board photo that cannot become a game board, said plainly (file and reason)."""


@dataclass(frozen=True)
class ScannedBoard:
    """A board read from a photo by `vision.scan`, and the squares the table should confirm (MT 2.02.e)."""

    board: Board
    doubtful: tuple[Square, ...]
    source: str


def plane_names(text: str) -> list[str]:
    """A planar deck typed at the table: names separated by commas or lines, blanks dropped."""
    return [name.strip() for name in re.split(r"[,\n;]", text) if name.strip()]


@dataclass(frozen=True)
class Overlay:
    """What the board view draws for one token: filled layers and ringed squares, plus the rules' answer."""

    rules: PieceOverlay
    layers: dict[str, frozenset[Square]]
    rings: dict[str, frozenset[Square]]


class GameSession:
    """Holds the game in progress (autosaved in `save_dir`) and answers the screens' questions."""

    refusals = (GameError, SaveError, ValueError)  # shown to the table, never a crash (ScanError, house
    # rules and event-deck errors are ValueErrors naming the file and field)

    def __init__(self, save_dir: Path, *, demo: bool = False):
        self.save_dir = Path(save_dir)
        self.demo = demo
        self.game: Game | None = None
        self._picture_cache: tuple[Board, BoardPicture] | None = None
        self._overlay_cache: dict[tuple[int, Token], Overlay] = {}
        self._confirmed_cache: tuple[int, set[Square]] | None = None
        self.board_doubts: frozenset[Square] = frozenset()  # a scanned board's squares still to confirm
        self.demo_focus: Token | None = None  # the demo's token shown selected at start
        if latest_game(self.save_dir) is not None:
            self.continue_game()  # a killed app continues where it was
        elif demo:
            self._start_demo()

    # -- game life cycle -----------------------------------------------------------
    def _start_demo(self) -> None:
        from companion.app.demo import DEMO_PLANAR_DECKS, DEMO_PLAYERS, DEMO_SEED, demo_board, demo_pieces

        board = demo_board()
        players = [PlayerSetup(name, colour, planar_deck=list(planes))
                   for (name, colour), planes in zip(DEMO_PLAYERS, DEMO_PLANAR_DECKS)]
        setup = GameSetup(players=players, board=board, starting_player=DEMO_PLAYERS[0][1],
                          events=prebuilt_event_deck(), planechase=True)
        # The demo is set up with seeded dice (same deck order and same first roll every time, so a
        # newcomer and the screenshots always see the selected flyer's moves), then plays with real dice.
        self.game = Game.new(setup, save_dir=self.save_dir, dice=Dice.seeded(DEMO_SEED))
        for piece in demo_pieces(board):
            self.game.add_piece(piece)
        while self.state.turn.phase != "movement" or self.state.turn.step != "creatures":
            self.game.next_phase()
        active = self.state.turn.active[0]
        self.demo_focus = next(p.token for p in self.state.pieces_of(active)
                               if p.kind == "creature" and "flying" in p.keywords)
        self.roll_movement(self.demo_focus)
        self.game.dice = Dice.system()

    def new_game(self, choices) -> Game:
        """Start a game from the new-game form (`NewGameChoices`): board, players, variant, planar decks
        (names typed per player; numbered cards only when left empty), event deck, house rules."""
        board = choices.scanned.board if choices.board == "scanned" and choices.scanned else \
            self.board_from_choice(choices.board, len(choices.players))
        house = choices.house_rules
        planes = list(choices.planes) + [""] * (len(choices.players) - len(choices.planes))
        players = [PlayerSetup(name, colour, team=(seat // 2 + 1) if choices.variant == "two_headed_giant" else None,
                               planar_deck=(plane_names(planes[seat])
                                            or [f"{name} {n}" for n in range(1, PLANES_PER_DECK + 1)])
                               if choices.planechase else [])
                   for seat, (name, colour) in enumerate(choices.players)]
        setup = GameSetup(players=players, board=board, format=choices.variant, planechase=choices.planechase,
                          events=choices.event_deck if choices.events else None,
                          horde_difficulty=choices.horde_difficulty, house_rules=house)
        self.close()
        self.game = Game.new(setup, save_dir=self.save_dir)
        self.board_doubts = frozenset(choices.scanned.doubtful) if choices.board == "scanned" and choices.scanned \
            else frozenset()
        self._save_doubts()
        return self.game

    def _save_doubts(self) -> None:
        """Keep a scanned board's doubtful squares with the game, so a restarted app still lists them."""
        store = self.game.store
        if store is not None:
            (self.save_dir / DOUBTS_FILE).write_text(json.dumps(
                {"game": str(store.path), "squares": sorted(map(list, self.board_doubts))}), encoding="utf-8")

    def _load_doubts(self, path: Path) -> frozenset[Square]:
        try:
            saved = json.loads((self.save_dir / DOUBTS_FILE).read_text(encoding="utf-8"))
            return frozenset(tuple(at) for at in saved["squares"]) if saved["game"] == str(path) else frozenset()
        except (OSError, ValueError, KeyError, TypeError):  # none yet, or unreadable: nothing left to confirm
            return frozenset()

    def continue_game(self) -> Game:
        """Reload the most recent autosaved game (a damaged save comes back from its backup)."""
        path = latest_game(self.save_dir)
        if path is None:
            raise GameError("no saved game to continue")
        self.close()
        self.game = load_game(path)
        self.board_doubts = self._load_doubts(path)
        return self.game

    def close(self) -> None:
        if self.game is not None and self.game.store is not None:
            self.game.store.close()

    @property
    def has_game(self) -> bool:
        return self.game is not None

    @property
    def can_continue(self) -> bool:
        return latest_game(self.save_dir) is not None

    # -- actions (called through App.perform) ------------------------------------------
    def undo(self):
        return self.game.undo()

    def redo(self):
        return self.game.redo()

    def next_phase(self):
        return self.game.next_phase()

    def roll_movement(self, token: Token) -> dict:
        return self.game.roll_movement(token)

    def roll_d6(self) -> int:
        return self.game.roll_die("D6")

    def roll_planar(self) -> str:
        return self.game.roll_planar_die()

    def change_life(self, player: int, amount: int):
        return self.game.change_life(player, amount)

    def change_poison(self, player: int, amount: int):
        return self.game.change_poison(player, amount)

    def set_event_counter(self, turns: int):
        return self.game.set_event_counter(turns)

    def bonus_choices_open(self, token: Token) -> list[str]:
        """Colours the token's controller may pick now as its bonus (MT 2.02.c: in their upkeep)."""
        state = self.state
        piece = state.pieces.get(tuple(token))
        if piece is None or state.turn.phase != "upkeep" or piece.player not in state.turn.active:
            return []
        return self.game.bonus_options(tuple(token))

    def choose_bonus(self, token: Token, colour: str):
        return self.game.choose_bonus(tuple(token), colour)

    def mulligan(self, player: int) -> int:
        """Before the first turn: a new hand, one card fewer (multiplayer, Planechase, Horde: first one free)."""
        return self.game.mulligan(player)

    def hand_size(self, player: int) -> int:
        return self.game.hand_size(player)

    def commander_damage(self, player: int, source: int, amount: int):
        """Damage to `player` from `source`'s commander: tracked per commander and lost as life."""
        return self.game.commander_damage(player, source, amount)

    def horde_draw(self):
        """HO 201.2: the Horde's draw step."""
        return self.game.horde_draw()

    def damage_horde(self, amount: int):
        """HO 301.3: damage to the Horde mills that many cards."""
        return self.game.damage_horde(amount)

    def resolve_planar_trigger(self):
        return self.game.resolve_planar_trigger(0)

    @property
    def horde(self) -> bool:
        return self.has_game and self.state.horde is not None

    @property
    def planar_pending(self) -> bool:
        return self.planechase and bool(self.state.planar.pending)

    def add_piece(self, player: int) -> Token:
        """A new token of `player` with the smallest free number, off the grid until placed (MT 1.03)."""
        used = {n for p, n in self.state.pieces if p == player}
        number = next(n for n in range(1, len(used) + 2) if n not in used)
        self.game.add_piece(Piece(player, number))
        return player, number

    def keep_hand(self, player: int):
        """Before the first turn: the player keeps this hand (no more mulligans)."""
        return self.game.keep_hand(player)

    def player_leaves(self, player: int):
        """The player loses or concedes and leaves the game (their team too in Two-Headed Giant)."""
        return self.game.player_leaves(player, "conceded")

    def confirm_square(self, at: Square, colours: str, obstacle: bool):
        """The table says what a doubtful square really is (MT 2.02.e): a game action, so it is
        saved, logged and undoable like any other. Start and Temple marks of the square are kept
        (a colourless square is an obstacle, MT 2.03.a)."""
        current = self.board.square(*at)
        obstacle = obstacle or not colours
        square = BoardSquare(frozenset(colours), obstacle=obstacle, start=current.start and not obstacle,
                             temple=current.temple and not obstacle)
        return self.game.set_square(at, square.code)

    def confirmed_squares(self) -> set[Square]:
        """Squares the table confirmed, from the actions in effect (undo takes one back)."""
        state = self.state
        if self._confirmed_cache is None or self._confirmed_cache[0] != id(state):
            found = {tuple(entry.action.data["at"]) for entry in self.game.history_entries()
                     if entry.action.kind == "set_square"}
            self._confirmed_cache = (id(state), found)
        return self._confirmed_cache[1]

    def remove_piece(self, token: Token):
        """The permanent left the grid: its token number is free again (MT 5.02.d)."""
        return self.game.remove_piece(token)

    def move_piece(self, token: Token, at: Square):
        return self.game.move_piece(token, at)

    def update_piece(self, token: Token, **changes):
        return self.game.update_piece(token, **changes)

    # -- state -------------------------------------------------------------------------
    @property
    def state(self):
        return self.game.state

    @property
    def board(self) -> Board:
        """The game's board, squares confirmed by the table included."""
        return self.state.board

    def doubtful_squares(self, seen: list[Square] = ()) -> list[Square]:
        """Squares still to confirm: the camera's doubts and a scanned board's, minus the confirmed ones."""
        confirmed = self.confirmed_squares() if self.has_game else set()
        return sorted((set(seen) | self.board_doubts) - confirmed)

    @property
    def can_undo(self) -> bool:
        return self.has_game and self.game.can_undo

    @property
    def can_redo(self) -> bool:
        return self.has_game and self.game.can_redo

    @property
    def planechase(self) -> bool:
        return self.has_game and self.state.planechase

    @property
    def event_needs_counter(self) -> bool:
        return self.has_game and self.game.event_needs_counter

    @property
    def active_player(self) -> int | None:
        """The player whose turn it is (the first of a team), None on the Horde's turn."""
        active = self.state.turn.active if self.has_game else []
        return active[0] if active else None

    @property
    def planar_cost(self) -> int:
        return self.game.planar_die_cost if self.has_game else 0

    def history(self, lang: str) -> list[str]:
        return self.game.history(lang)

    def tokens(self) -> list[Token]:
        return sorted(self.state.pieces) if self.has_game else []

    def piece(self, token: Token):
        return self.state.pieces[tuple(token)]

    def piece_at(self, at: Square):
        return next((p for p in self.state.pieces.values() if p.at == tuple(at)), None)

    def tokens_on_board(self) -> list[tuple[int, int, Square]]:
        return [(p.player, p.number, p.at) for p in self.state.pieces.values() if p.at is not None]

    def photo_tokens(self) -> list[tuple[int, int, int, int]]:
        """Tokens as the synthetic photographer takes them: (player, number, x, y)."""
        return [(player, number, x, y) for player, number, (x, y) in self.tokens_on_board()]

    # -- drawing -----------------------------------------------------------------------
    def board_picture(self) -> BoardPicture:
        board = self.board
        if self._picture_cache is None or self._picture_cache[0] is not board:
            self._picture_cache = (board, board_picture(board))
        return self._picture_cache[1]

    @staticmethod
    def render_token(player: int, number: int, diameter: int):
        return render_token(player, number, diameter)

    def overlays(self, token: Token) -> Overlay:
        """Everything drawn for one token, from `companion.rules.overlay` (cached per game state)."""
        state = self.state
        key = (id(state), tuple(token))
        if key not in self._overlay_cache:
            self._overlay_cache = {k: v for k, v in self._overlay_cache.items() if k[0] == id(state)}
            piece = state.pieces[tuple(token)]
            roll = state.movement_rolls.get(piece.roll_key)
            rules = overlay(self.board, piece, state.pieces.values(), dice=roll["results"] if roll else (),
                            bonus_choice=state.bonus_choices.get(piece.token), house=state.house)
            if rules is None:  # off the grid: nothing to draw
                self._overlay_cache[key] = Overlay(rules, {}, {})
            else:
                moves = rules.moves | rules.jump_targets if roll or rules.jump_targets else frozenset()
                self._overlay_cache[key] = Overlay(
                    rules,
                    layers={"zone": rules.zone, "moves": moves, "attack": rules.attack_squares},
                    rings={"blockers": frozenset(b.at for b in rules.blockers), "selected": frozenset({piece.at})})
        return self._overlay_cache[key]

    # -- wording -----------------------------------------------------------------------
    def token_text(self, token: Token, lang: str) -> str:
        player, number = token
        piece = self.state.pieces.get(tuple(token))
        colour = PLAYER_NAMES[lang][player - 1] if 1 <= player <= len(PLAYER_NAMES[lang]) else str(player)
        label = translate(lang, "pieces.token", colour=colour, number=number)
        return f"{label} · {piece.name}" if piece is not None and piece.name else label

    def colour_names(self, lang: str) -> list[str]:
        return list(PLAYER_NAMES[lang])

    @staticmethod
    def player_rgba(player: int) -> tuple[float, float, float, float]:
        b, g, r = PLAYER_COLOURS[(player - 1) % len(PLAYER_COLOURS)]
        return r / 255, g / 255, b / 255, 1.0

    def _colour_words(self, colours, lang: str) -> str:
        return ", ".join(translate(lang, f"colours.{c}") for c in COLOURS if c in colours)

    def describe_piece(self, token: Token, lang: str) -> str:
        """The side panel for a tapped token: stats, zone, moves, bonus, blockers, attack squares."""
        piece = self.piece(token)
        t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
        lines = [t("piece.header", token=self.token_text(token, lang), name=f"({t('kinds.' + piece.kind)})")]
        if piece.kind != "player":
            pt = f"{piece.power}/{piece.toughness}" if piece.power is not None else "–"
            lines.append(t("piece.stats", mv=piece.mana_value, pt=pt) + "  " + self._colour_words(piece.colours, lang))
        if piece.at is None:
            return "\n".join(lines + [t("piece.off_grid") + " " + t("pieces.place_hint")])
        lines.append(t("piece.at", label=square_label(piece.at)))
        view = self.overlays(token)
        rules = view.rules
        if piece.kind != "player":
            lines.append(t("piece.zone", count=len(rules.zone)))
        roll = self.game.movement_roll(token)
        allowance = self.game.movement_allowance(token)
        if roll is None:
            lines.append(t("piece.no_roll"))
        elif allowance == 0:
            reason = why_cannot_move(self.board, piece, chosen_bonus=self.state.bonus_choices.get(piece.token),
                                     house=self.state.house) or "0"
            lines.append(t("piece.cannot_move", reason=reason))
        else:
            dice = " + ".join(str(r) for r in roll["results"])
            lines.append(t("piece.moves", count=len(rules.moves), dice=dice, allowance=allowance))
        if rules.jump_targets:
            lines.append(t("piece.jumps", count=len(rules.jump_targets)))
        bonus_words = lambda names: ", ".join(t(f"bonuses.{b}") for b in sorted(names))  # noqa: E731
        if rules.bonus.active:
            lines.append(t("piece.bonus", bonus=bonus_words(rules.bonus.active)))
        elif rules.bonus.needs_choice:
            lines.append(t("piece.bonus_choice", bonus=bonus_words(rules.bonus.available)))
        elif piece.kind == "creature":
            lines.append(t("piece.no_bonus"))
        if piece.kind == "creature":
            names = ", ".join(self.token_text(b.token, lang) for b in rules.blockers)
            lines.append(t("piece.blockers", names=names) if names else t("piece.no_blockers"))
            lines.append(t("piece.attack", count=len(rules.attack_squares)))
        return "\n".join(lines)

    def describe_square(self, at: Square, lang: str) -> str:
        """The side panel for a tapped square: its colours, marks and what stands there."""
        square = self.board.square(*at)
        t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
        colours = self._colour_words(square.colours, lang) or t("square.colourless")
        lines = [t("square.header", label=square_label(at)), t("square.colours", colours=colours)]
        if square.obstacle:
            lines.append(t("square.obstacle"))
        if square.start:
            lines.append(t("square.start"))
        if square.temple:
            lines.append(t("square.temple"))
        piece = self.piece_at(at)
        lines.append(t("square.occupant", token=self.token_text(piece.token, lang)) if piece else t("square.empty"))
        return "\n".join(lines)

    def selected_dice_text(self, token: Token | None, lang: str) -> str:
        if not self.has_game or token is None or tuple(token) not in self.state.pieces:
            return translate(lang, "dice.none_selected")
        count = movement_dice(self.piece(token), self.state.house)
        return translate(lang, "dice.selected", token=self.token_text(token, lang), count=count,
                         die=self.state.movement_die)

    def last_roll_text(self, lang: str) -> tuple[str, str]:
        """(big result, detail line) of the game's last roll (from its roll log, so undo takes it back)."""
        rolls = self.state.rolls
        if not rolls:
            return "–", translate(lang, "dice.nothing_yet")
        roll = rolls[-1]
        if roll["die"] == "planar":
            face = translate(lang, f"dice.planar_faces.{roll['results'][0]}")
            return face, translate(lang, "dice.planar_result", face=face)
        if "token" in roll:  # a movement roll (MT 3.03–3.04)
            token = tuple(roll["token"])
            dice = " + ".join(str(r) for r in roll["results"])
            allowance = self.game.movement_allowance(token) if token in self.state.pieces else roll["total"]
            return str(roll["total"]), translate(lang, "dice.movement_result", token=self.token_text(token, lang),
                                                 dice=f"{roll['die']} {dice}", allowance=allowance)
        return str(roll["total"]), translate(lang, "dice.die_result", die=roll["die"])

    def turn_text(self, lang: str) -> str:
        state, t = self.state, (lambda key, **kw: translate(lang, key, **kw))
        turn = state.turn
        if turn.phase == "pregame":
            return t("turn.pregame")
        active = t("turn.horde") if turn.horde else " & ".join(state.player(p).name for p in turn.active)
        lines = [t("turn.header", number=turn.number, active=active), t("turn.phase", phase=t(f"phases.{turn.phase}"))]
        if turn.phase == "movement":
            steps = " » ".join(f"[b][color=ffd919]{t('steps.' + s)}[/color][/b]" if s == turn.step
                               else t("steps." + s) for s in MOVEMENT_STEPS)
            lines.append(t("turn.steps", steps=steps))
        return "\n".join(lines)

    def event_text(self, lang: str) -> str:
        events = self.state.events
        if events is None:
            return ""
        t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
        if events.revealed is None:
            head = t("event.none")
        elif events.counter is None:
            head = t("event.no_counter", name=events.revealed.name)
        else:
            head = t("event.revealed", name=events.revealed.name, counted=events.counted, counter=events.counter)
        return head + "\n" + t("event.deck", count=len(events.deck))

    def plane_text(self, lang: str) -> str:
        planar = self.state.planar
        if planar is None:
            return ""
        if planar.face_up is None:
            return translate(lang, "plane.none")
        names = self.state.names
        lines = [translate(lang, "plane.face_up", plane=planar.face_up, owner=names.get(planar.owner, "?"),
                           controller=names.get(planar.controller, "?"))]
        lines += [translate(lang, "plane.pending", face=translate(lang, f"dice.planar_faces.{p['kind']}"),
                            plane=p.get("plane") or "–") for p in planar.pending]
        return "\n".join(lines)

    def horde_text(self, lang: str) -> str:
        horde = self.state.horde
        if horde is None:
            return ""
        t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
        lines = [t("horde.city", life=horde.city_life, start=horde.city_start),
                 t("horde.wave", wave=horde.wave, total=horde.wave_total, level=t(f"horde.level_{horde.level}"),
                   cards=len(horde.library))]
        if horde.result:
            lines.append(t(f"horde.result_{horde.result}"))
        return "\n".join(lines)

    def commander_text(self, player, lang: str) -> str:
        if not player.commander_damage:
            return ""
        names = self.state.names
        parts = ", ".join(f"{names.get(src, src)} {dmg}" for src, dmg in sorted(player.commander_damage.items()))
        return translate(lang, "table.commander", list=parts)

    # -- the camera --------------------------------------------------------------------
    def camera_view(self, positions):
        """The camera's stable positions (token → square) against the game: moves seen and not
        recorded, each with its verdict (`companion.camera.seen_moves`); changes nothing."""
        from companion.camera import seen_moves

        return seen_moves(self.game, positions)

    def apply_camera_moves(self, positions: dict) -> int:
        """Record where the camera sees the tokens (token → square), legal or not (cards may allow
        it): one undoable action."""
        if positions:
            self.game.set_positions(dict(positions), source="camera")
        return len(positions)

    # -- boards ------------------------------------------------------------------------
    def board_choices(self) -> list[str]:
        return [*library_boards(), "generated", "scanned"]

    @staticmethod
    def scan_board(photo: str, grid: str = "") -> ScannedBoard:
        """Build a board from a photo of one (`vision.scan`): each square's colours and marks; squares
        read with low confidence or hidden by a token are listed for the table to confirm (MT 2.02.e).
        `grid` "40x25" fixes the size (needed when the board has no markers of ours)."""
        from calibration.sources import SourceError, read_image
        from vision import scan

        size = None
        if grid.strip():
            match = re.fullmatch(r"\s*(\d+)\s*[x×*]\s*(\d+)\s*", grid)
            if not match:
                raise ScanError(f"grid size: expected WIDTHxHEIGHT such as 40x25, got {grid!r}")
            size = (int(match[1]), int(match[2]))
        try:
            image = read_image(Path(photo.strip()))
        except SourceError as exc:
            raise ScanError(str(exc)) from None
        result = scan(image, grid=size)
        if not result.found:
            raise ScanError(f"{photo.strip()}: {result.error}")
        rows, doubtful = [], []
        for y in range(result.height):
            row = []
            for x in range(result.width):
                read = result.square(x, y)
                obstacle = read.obstacle or not read.colours
                row.append(BoardSquare(frozenset(read.colours), obstacle=obstacle, start=read.start and not obstacle,
                                       temple=read.temple and not obstacle))
                if read.uncertain or read.covered:
                    doubtful.append((x, y))
            rows.append(tuple(row))
        board = Board(tuple(rows), name=f"scanned {Path(photo.strip()).stem}", players=2)
        return ScannedBoard(board, tuple(doubtful), photo.strip())

    @staticmethod
    def board_from_choice(choice: str, players: int) -> Board:
        """A bundled board by name, or a freshly generated fair one of the recommended size (MT 1.02.a)."""
        boards = library_boards()
        if choice in boards:
            return load_board(boards[choice])
        if choice == "scanned":
            raise GameError("scan a photo of the board first (photo file, then Scan)")
        if choice == "generated":
            import secrets

            from boards.generator import generate_board

            width, height = (20, 12) if players <= 2 else (40, 25)
            return generate_board(width, height, max(players, 2), seed=secrets.randbits(32))
        raise GameError(f"unknown board {choice!r}; choose one of {', '.join(boards)} or 'generated'")
