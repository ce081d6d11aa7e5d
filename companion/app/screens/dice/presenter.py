"""What the Dice screen shows: the dice of the chosen piece, the last roll big, and whether the planar
die may be rolled now; and what it may do to the game. Pure (no kivy)."""
from __future__ import annotations

from dataclasses import dataclass

from companion.app.words import token_text
from companion.game import Game
from companion.i18n import translate
from companion.rules import movement_dice

# What the Dice screen may do to the game, through `app.play` (which says a refusal): `Game`
# methods, so a checker and an editor follow every call.
roll_movement = Game.roll_movement    # the selected token's dice (MT 3.04.d)
roll_die = Game.roll_die
roll_planar_die = Game.roll_planar_die
resolve_planar_trigger = Game.resolve_planar_trigger


@dataclass(frozen=True)
class PlanarDie:
    """The planar die button: shown in Planechase, its cost, and why it may not be rolled now."""

    shown: bool
    cost: int = 0
    waiting: str = ""   # a planeswalk or chaos trigger waits to be resolved: no second roll before (PC)

    @property
    def may_roll(self) -> bool:
        return self.shown and not self.waiting


def selected_dice_text(game: Game | None, token, lang: str) -> str:
    if game is None or token is None or tuple(token) not in game.state.pieces:
        return translate(lang, "dice.none_selected")
    state = game.state
    count = movement_dice(state.pieces[tuple(token)], state.house)
    return translate(lang, "dice.selected", token=token_text(state, token, lang), count=count, die=state.movement_die)


def last_roll_text(game: Game, lang: str) -> tuple[str, str]:
    """(big result, detail line) of the game's last roll (from its roll log, so undo takes it back)."""
    state = game.state
    if not state.rolls:
        return "–", translate(lang, "dice.nothing_yet")
    roll = state.rolls[-1]
    if roll.die == "planar":
        face = translate(lang, f"dice.planar_faces.{roll.results[0]}")
        return face, translate(lang, "dice.planar_result", face=face)
    if roll.token is not None:  # a movement roll (MT 3.03–3.04)
        token = roll.token
        dice = " + ".join(str(r) for r in roll.results)
        allowance = game.movement_allowance(token) if token in state.pieces else roll.total
        return str(roll.total), translate(lang, "dice.movement_result", token=token_text(state, token, lang),
                                          dice=f"{roll.die} {dice}", allowance=allowance)
    return str(roll.total), translate(lang, "dice.die_result", die=roll.die)


def planar_die(game: Game | None, lang: str) -> PlanarDie:
    """PC: the planar die is rolled only while nothing waits to resolve; a pending planeswalk or chaos
    trigger is named, so the table resolves it first (the Table screen has its button)."""
    planar = game.state.planar if game is not None else None
    if planar is None:
        return PlanarDie(False)
    waiting = ""
    if planar.pending:
        trigger = translate(lang, f"game.trigger.{planar.pending[0].kind}")   # "transplanement", "chaos"
        waiting = translate(lang, "dice.planar_waiting", trigger=trigger)
    return PlanarDie(True, game.planar_die_cost, waiting)
