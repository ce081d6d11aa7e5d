"""What the camera sees, against the game: moves seen but not recorded, each with its verdict
against the roll and what the piece already moved this turn; and the camera's words (tracking
events, squares too small for tokens, move lines), from companion/i18n/<lang>/camera.yaml; and
the camera's settings (`camera_settings`: the vision YAML in the app's data folder).

One place for `tactical watch --game`, `tactical scan` and the app, so the command line and the
tablet say the same thing about the same video. Pure: no cv2, no Kivy (the camera's positions
come in as plain data). The verdict is the engine's (`Game.judge_move`, that is
`companion.rules.judge_move` with the house rules, the chosen bonus and what is left this turn),
and a move the board allows but `Game.move_piece` would refuse now (not the mover's movement
phase or step, MT 3.01) says so: the camera never judges a move another way than the game would.
Recording what the camera saw (`record_seen`) goes through `Game.move_piece`, each move judged and
spent, a refused one recorded only as allowed by a card (`by_card`, the table's call).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from boards import XY, Token, square_label
from boards.tokens import player_name
from calibration.config import DEFAULT_CONFIG, VisionConfig
from companion.game import Game, Message
from companion.i18n import translate
from companion.rules import MoveVerdict

SETTINGS_FILE = "vision.yaml"      # the camera's settings, in the app's data folder


def camera_settings(folder: Path) -> VisionConfig:
    """The settings of the camera pipeline for the app's Camera screen and `tactical watch`: the
    vision YAML (`calibration.config.VisionConfig`'s sections: registration … tokens, tracking) at
    `vision.yaml` in the app's data folder, the defaults when there is none. A file that cannot be
    used raises `ConfigError` naming the file, the line and the field."""
    path = Path(folder) / SETTINGS_FILE
    return VisionConfig.load(path) if path.exists() else DEFAULT_CONFIG


@dataclass(frozen=True)
class SeenMove:
    """A token the camera sees away from the square the game has it on, judged by the rules."""

    token: Token
    frm: XY | None                 # where the game has it (None: not on the grid yet)
    to: XY                         # where the camera sees it
    roll: int | None               # squares its roll allows this turn (None: not rolled yet)
    verdict: MoveVerdict           # the engine's: steps, what is left, legal or why not, the rule
    refusal: Message | None = None  # why `move_piece` refuses it now, beyond the verdict (MT 3.01)

    @property
    def legal(self) -> bool:
        """`Game.move_piece` records it as it is (else only as allowed by a card)."""
        return self.verdict.legal and self.refusal is None

    @property
    def reason(self) -> Message:
        return self.refusal or self.verdict.message

    def text(self, lang: str, name=None) -> str:
        """'orange 7 : C3 → F3, jet 4 : 5 cases, il en reste 4 : trop loin (MT 3.04.a)';
        `name(token, lang)` words the token (default: its colour and number)."""
        roll = translate(lang, "camera.no_roll") if self.roll is None else translate(lang, "camera.roll",
                                                                                      roll=self.roll)
        return translate(lang, "camera.move", token=(name or token_name)(self.token, lang),
                         src=square_label(self.frm) if self.frm else "–", dst=square_label(self.to), roll=roll,
                         verdict=self.reason.text(lang))


@dataclass(frozen=True)
class Catching:
    """A token the table moved by hand on a screen that the camera still sees where it stood: the
    real token has yet to be carried there. Not a move to record (that would move it back)."""

    token: Token
    seen: XY        # the square it left in the game, where the camera still sees it
    to: XY          # where the game has it now

    def text(self, lang: str, name=None) -> str:
        """'jaune 4 · Llanowar Elves : en attente du jeton en D6 (encore vu en Q5)'."""
        return translate(lang, "camera.catching_up", token=(name or token_name)(self.token, lang),
                         dst=square_label(self.to), src=square_label(self.seen))


@dataclass(frozen=True)
class CameraView:
    """The camera's positions against the game: moves to confirm, tokens the game does not know,
    tokens the table moved by hand whose real token has not followed yet."""

    moves: tuple[SeenMove, ...]
    unknown: tuple[tuple[Token, XY], ...]
    catching_up: tuple[Catching, ...] = ()

    @property
    def positions(self) -> dict[Token, XY]:
        """The squares seen, token → square (what `record_seen` records)."""
        return {move.token: move.to for move in self.moves}


def seen_moves(game, positions: Mapping[Token, XY]) -> CameraView:
    """Compare the camera's stable positions (token → square) with `game` (a `companion.game.Game`):
    each token seen elsewhere than recorded, judged as the game judges it (`Game.judge_move`:
    MT 3.02–3.08, 2.03.b, 6.03–6.10, with the roll and what the piece already moved this turn);
    never changes the game. A token the table last moved by hand (`Game.last_moves`) and still seen
    on the square it left is catching up, not a move: recording it would move it back."""
    state = game.state
    moves, unknown, catching = [], [], []
    last_moves = None   # replayed once, and only when a token is seen away from its square
    for token, square in sorted(positions.items()):
        piece = state.pieces.get(token)
        if piece is None:
            unknown.append((token, square))
            continue
        if piece.at == square:
            continue
        if last_moves is None:
            last_moves = game.last_moves()
        last = last_moves.get(token)
        if piece.at is not None and last is not None and last.source == "hand" and last.frm == square:
            catching.append(Catching(token, square, piece.at))
            continue
        moves.append(SeenMove(token, piece.at, square, game.movement_allowance(token),
                              game.judge_move(token, square), _refusal(game, token, square)))
    return CameraView(tuple(moves), tuple(unknown), tuple(catching))


# The engine's refusals the verdict already says in its own words (with the squares and what is left).
SAID_BY_THE_VERDICT = ("game.error.move_refused", "game.error.not_rolled")


def _refusal(game, token: Token, to: XY) -> Message | None:
    """Why the game refuses this move now beyond the board's verdict (another player's turn, not
    the movement phase or not the step of its kind, MT 3.01; off the grid until it enters): the
    engine's own answer (`Game.move_refusal`; nothing is recorded)."""
    refused = game.move_refusal(token, to, source="camera")
    return None if refused is None or refused.key in SAID_BY_THE_VERDICT else refused.message


def record_seen(game, positions: Mapping[Token, XY], play) -> int:
    """Record the moves the camera saw (token → square seen) through `play(Game.move_piece, token, to,
    source="camera", by_card=…)` (the app's `play`: None when the game refused, said to the table),
    one judged move each: legal ones spend their steps; one the game refuses is recorded as allowed
    by a card (`by_card=True`: the table tapped Record, MT 3.04 is theirs to waive), never silently
    as a correction. Each is judged against the game as the previous ones left it, a move onto a
    square another seen move frees coming after it. Stops at the first the game refuses
    (two tokens on a square, MT 3.06.a: card or not); returns how many were recorded."""
    recorded = 0
    for _ in range(len(positions)):
        moves = seen_moves(game, positions).moves
        if not moves:
            break
        taken = {p.at for p in game.state.pieces.values() if p.at is not None}
        move = next((m for m in moves if m.to not in taken), moves[0])
        if play(Game.move_piece, move.token, move.to, source="camera", by_card=not move.legal) is None:
            break
        recorded += 1
    return recorded


def token_name(token: Token, lang: str) -> str:
    """'orange 7': the player's colour and the number, as printed on the token."""
    return f"{player_name(token[0], lang)} {token[1]}"


def event_text(event, lang: str, name=token_name) -> str:
    """A `vision.tracking.TrackEvent` worded: 'orange 7 : C3 → F3' / 'orange 7 moved C3 → F3'
    (and 'left', 'new', 'shared');
    `name(token, lang)` words a token (the app adds the card's name)."""
    return translate(lang, f"camera.events.{event.kind}", token=name(event.token, lang),
                     other=name(event.other, lang) if event.other else "",
                     frm=square_label(event.frm) if event.frm else "", to=square_label(event.to) if event.to else "")


def too_small_advice(squares: Collection[XY], lang: str) -> str:
    """What to tell the table when tokens on some squares are too small to read well
    (`vision.tokens.squares_too_small`, MT 2.05); empty when every square is fine."""
    if not squares:
        return ""
    rows = sorted({y + 1 for _, y in squares})
    spans, start = [], rows[0]
    for prev, row in zip(rows, rows[1:] + [None]):
        if row != prev + 1:
            spans.append(f"{start}" if start == prev else f"{start}–{prev}")
            start = row
    squares_word = translate(lang, "camera.squares.one" if len(squares) == 1 else "camera.squares.many")
    rows_word = translate(lang, "camera.rows.one" if len(rows) == 1 else "camera.rows.many")
    return translate(lang, "camera.too_small", count=f"{len(squares)} {squares_word}",
                     rows=f"{rows_word} {', '.join(spans)}")
