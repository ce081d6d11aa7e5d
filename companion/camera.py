"""What the camera sees, against the game: moves seen but not recorded, each with its verdict
against the roll and what the piece already moved this turn; and the camera's words (tracking
events, squares too small for tokens, move lines), from companion/i18n/<lang>/camera.yaml.

One place for `tactical watch --game`, `tactical scan` and the app, so the command line and the
tablet say the same thing about the same video. Pure: no cv2, no Kivy (the camera's positions
come in as plain data); the verdict itself is the rules' (`companion.move_check` until the engine's
`companion.rules.judge_move` lands).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from boards import XY, square_label
from boards.tokens import player_name
from companion.i18n import translate
from companion.move_check import MoveCheck, check_move

Token = tuple[int, int]            # (player, number)


@dataclass(frozen=True)
class SeenMove:
    """A token the camera sees away from the square the game has it on, judged by the rules."""

    token: Token
    frm: XY | None                 # where the game has it (None: not on the grid yet)
    to: XY                         # where the camera sees it
    allowance: int | None          # squares its roll allows this turn (None: not rolled yet)
    left: int | None               # ... of which still to move
    check: MoveCheck

    @property
    def legal(self) -> bool:
        return self.check.legal

    def verdict(self, lang: str) -> str:
        """'5 cases, jet 4 : trop loin (MT 3.04.b)'."""
        return verdict_text(self.check.steps, self.allowance, self.left, self.check.legal,
                            self.check.text(lang), lang)

    def text(self, lang: str, name=None) -> str:
        """'orange 7 : C3 → F3, 5 cases, jet 4 : trop loin (MT 3.04.b)'; `name(token, lang)` words
        the token (default: its colour and number)."""
        return move_text((name or token_name)(self.token, lang), self.frm, self.to, self.verdict(lang), lang)


@dataclass(frozen=True)
class CameraView:
    """The camera's positions against the game: moves to confirm, tokens the game does not know."""

    moves: tuple[SeenMove, ...]
    unknown: tuple[tuple[Token, XY], ...]

    @property
    def positions(self) -> dict[Token, XY]:
        """What recording the moves sets: token → square seen (one undoable action)."""
        return {move.token: move.to for move in self.moves}


def seen_moves(game, positions: Mapping[Token, XY]) -> CameraView:
    """Compare the camera's stable positions (token → square) with `game` (a `companion.game.Game`):
    each token seen elsewhere than recorded, judged against its roll this turn (MT 3.02–3.07,
    2.03.b); never changes the game."""
    state = game.state
    moves, unknown = [], []
    for token, square in sorted(positions.items()):
        piece = state.pieces.get(token)
        if piece is None:
            unknown.append((token, square))
            continue
        if piece.at == square:
            continue
        occupied = frozenset(p.at for p in state.pieces.values() if p.at is not None and p.token != token)
        allowance = game.movement_allowance(token)
        check = check_move(state.board, piece, square, allowance or 0, occupied=occupied)
        moves.append(SeenMove(token, piece.at, square, allowance, allowance, check))
    return CameraView(tuple(moves), tuple(unknown))


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


def verdict_text(steps: int | None, roll: int | None, left: int | None, legal: bool, reason: str,
                 lang: str) -> str:
    """'5 cases, jet 4 : trop loin (MT 3.04.a)': the path length, the roll and what is left of it
    this turn, then the verdict (`reason` already worded, with its rule)."""
    parts = [translate(lang, "camera.steps", steps=steps) if steps is not None else translate(lang, "camera.no_path")]
    if roll is None:
        parts.append(translate(lang, "camera.no_roll"))
    elif left is not None and left != roll:
        parts.append(translate(lang, "camera.roll_left", roll=roll, left=left))
    else:
        parts.append(translate(lang, "camera.roll", roll=roll))
    outcome = translate(lang, "camera.legal") if legal else translate(lang, "camera.illegal", reason=reason)
    return f"{', '.join(parts)}{' :' if lang == 'fr' else ':'} {outcome}"


def move_text(token_label: str, frm: XY | None, to: XY, verdict: str, lang: str) -> str:
    """'orange 7 : C3 → F3, 5 cases, jet 4 : trop loin (MT 3.04.a)'."""
    return translate(lang, "camera.move", token=token_label, src=square_label(frm) if frm else "–",
                     dst=square_label(to), verdict=verdict)
