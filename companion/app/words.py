"""Words and colours several screens share: a token's name, a player's colour, the turn line, a refusal.

Pure functions of the game state and a language (no kivy), so every presenter uses the same
wording and the tests read it without a window.
"""
from __future__ import annotations

from boards import COLOURS
from boards.tokens import PLAYER_COLOURS
from companion.game import MOVEMENT_STEPS, PREGAME, GameState
from companion.i18n import translate
from companion.rules import word

PRINTED_COLOURS = len(PLAYER_COLOURS)  # MT 9.02.a: five token colours are printed (and read by the camera)
# A sixth seat plays with a colour shown on screen only (the seeds set no maximum of players, MT 1.01;
# the printed tokens stop at five): its tokens are drawn here and never read by the camera.
SCREEN_ONLY_COLOURS: tuple[tuple[int, int, int], ...] = ((150, 150, 150),)  # BGR: 6 grey
MAX_PLAYERS = PRINTED_COLOURS + len(SCREEN_ONLY_COLOURS)


def player_bgr(player: int) -> tuple[int, int, int]:
    colours = (*PLAYER_COLOURS, *SCREEN_ONLY_COLOURS)
    return colours[(player - 1) % len(colours)]


def player_rgba(player: int) -> tuple[float, float, float, float]:
    b, g, r = player_bgr(player)
    return r / 255, g / 255, b / 255, 1.0


def colour_name(player: int, lang: str) -> str:
    """'yellow' / 'jaune' … for a token colour 1..6."""
    if 1 <= player <= MAX_PLAYERS:
        return translate(lang, f"token_colours.c{player}")
    return str(player)


def printed(player: int) -> bool:
    """Whether tokens of this colour exist on paper (and so can be read by the camera)."""
    return 1 <= player <= PRINTED_COLOURS


def token_text(state: GameState, token, lang: str) -> str:
    """'yellow 2 · Serra Angel': the token as people read it (colour, number, what it stands for)."""
    player, number = token
    label = translate(lang, "pieces.token", colour=colour_name(player, lang), number=number)
    piece = state.pieces.get(tuple(token))
    return f"{label} · {piece.name}" if piece is not None and piece.name else label


def colour_words(colours, lang: str) -> str:
    return ", ".join(translate(lang, f"colours.{c}") for c in COLOURS if c in colours)


def side_name(state: GameState, lang: str) -> str:
    """Whose turn it is: the active player (or team), or the Horde."""
    turn = state.turn
    if turn.horde:
        return translate(lang, "turn.horde")
    return " & ".join(state.player(p).name for p in turn.active)


def turn_header(state: GameState, lang: str) -> str:
    """'Turn 3 — Anna' (before the first turn: that it has not begun)."""
    if state.turn.phase == PREGAME:
        return translate(lang, "turn.pregame")
    return translate(lang, "turn.header", number=state.turn.number, active=side_name(state, lang))


def turn_text(state: GameState, lang: str) -> str:
    """Turn number and who plays, the phase, and the movement steps with the current one marked."""
    turn = state.turn
    if turn.phase == PREGAME:
        return translate(lang, "turn.pregame")
    lines = [turn_header(state, lang), translate(lang, "turn.phase", phase=translate(lang, f"phases.{turn.phase}"))]
    if turn.phase == "movement":
        steps = " » ".join(f"[b][color=ffd919]{translate(lang, 'steps.' + s)}[/color][/b]" if s == turn.step
                           else translate(lang, "steps." + s) for s in MOVEMENT_STEPS)
        lines.append(translate(lang, "turn.steps", steps=steps))
    return "\n".join(lines)


def refusal(error: Exception, lang: str) -> str:
    """A refused action in the UI language: errors that carry an i18n key (`.key`, `.fields`, `.rule`,
    see docs/game.md) are worded from the i18n files; others say what they say."""
    key = getattr(error, "key", None)
    if key:
        text = word(lang, key, getattr(error, "fields", None) or {})
        rule = getattr(error, "rule", None)
        return f"{text} ({rule})" if rule and rule not in text else text
    return str(error)
