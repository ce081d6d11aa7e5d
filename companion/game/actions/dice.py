"""Movement rolls (MT 3.03–3.04) and free rolls of any die, for the roll log."""
from __future__ import annotations

from typing import Any

from companion.game.actions.common import (find_piece, handles, nested, piece_label, piece_name, player_name, require,
                                           said, words)
from companion.game.data import ActionData
from companion.game.dice import die_sides
from companion.game.errors import GameError
from companion.game.state import MOVEMENT_STEPS, STEP_OF_KIND, GameState, Roll
from companion.rules import (movement_blocker, movement_dice)
from companion.rules.wording import Message


@handles("roll_movement")
def _roll_movement(state: GameState, d: ActionData) -> None:
    """MT 3.03–3.04: one roll per distinct object per turn, by its controller, in the movement phase,
    no later than the step of its kind (MT 3.01.c)."""
    piece = find_piece(state, d.token())
    name = piece_label(piece)
    turn = state.turn
    require(turn.phase == "movement", "game.error.roll_timing", "MT 3.01.a")
    require(piece.controller in state.acting, "game.error.roll_not_active", "MT 3.01.b", name=name)
    step = STEP_OF_KIND[piece.kind]
    require(MOVEMENT_STEPS.index(step) >= MOVEMENT_STEPS.index(turn.step), "game.error.step_over", "MT 3.01.c",
            name=name, step_key=f"game.step.{step}")
    blocked = movement_blocker(state.board, piece, chosen_bonus=state.bonus_choices.get(piece.token),
                               uncertain=state.uncertain, house=state.house)
    if blocked is not None:
        raise GameError("game.error.cannot_move", blocked.rule, name=name, reason_key=blocked.key)
    require(piece.roll_key not in state.movement_rolls, "game.error.already_rolled", "MT 3.03", name=name)
    die = state.movement_die
    count = movement_dice(piece, state.house)
    results = d.sequence("results", limit=8)
    require(len(results) == count and all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= die_sides(die)
                                           for r in results),
            "game.error.dice_results", "MT 3.04.d", count=count, die=die)
    roll = Roll(die, tuple(results), piece.controller, piece.name, total=sum(results), token=piece.token)
    state.movement_rolls[piece.roll_key] = roll
    state.rolls.append(roll)


@handles("roll_die")
def _roll_die(state: GameState, d: ActionData) -> None:
    """A free roll of any die (the D6 and others) for the roll log."""
    die = d.text("die", default="D6", limit=8)
    try:
        sides = die_sides(die)
    except ValueError:
        raise GameError("game.error.not_a_die", die=die) from None
    results = d.sequence("results", limit=100)
    require(bool(results) and all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= sides
                                   for r in results), "game.error.die_results", sides=sides)
    player = d.optional_integer("player")
    state.rolls.append(Roll(die, tuple(results), player, d.text("reason", default="", limit=200), total=sum(results)))


def dice_words(roll: Roll) -> list[dict[str, Any]]:
    """A roll's dice, worded: "D12: 7", "2 D10: 3 + 4 = 7"."""
    results, die = roll.results, roll.die
    if len(results) == 1:
        return [nested("game.dice.one", die=die, result=results[0])]
    return [nested("game.dice.many", count=len(results), die=die, results=" + ".join(map(str, results)),
                   total=roll.total)]


@words("roll_movement")
def _movement_rolled(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    roll = after.rolls[-1]
    return said("roll_movement", player=player_name(after, roll.by), piece=piece_name(before, after, data),
                dice_words=dice_words(roll))


@words("roll_die")
def _die_rolled(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    reason = data.get("reason") or ""
    player = player_name(after, data.get("player")) if data.get("player") is not None else "—"
    return said("roll_die_for" if reason else "roll_die", player=player, dice_words=dice_words(after.rolls[-1]),
                reason=reason)
