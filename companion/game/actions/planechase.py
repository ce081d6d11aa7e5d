"""Planechase (PC): the planar die, its triggers, planeswalking."""
from __future__ import annotations

from typing import Any

from companion.game.actions.common import find_player, handles, player_name, require, said, words
from companion.game.data import ActionData
from companion.game.dice import PLANAR_FACES
from companion.game.errors import GameError
from companion.game.state import GameState, PlanarState, PlanarTrigger, Roll
from companion.rules.wording import Message


def planar_of(state: GameState) -> PlanarState:
    """The game's planar state, or the refusal of an action that needs Planechase."""
    if state.planar is None:
        raise GameError("game.error.not_planechase")
    return state.planar


def planeswalk_to_top(state: GameState, player_id: int | None) -> None:
    """The player turns the top plane of their own planar deck face up (PC)."""
    planar = planar_of(state)
    deck = planar.decks.get(player_id) if player_id is not None else None
    if not deck:
        raise GameError("game.error.planar_deck_empty", name=player_name(state, player_id))
    planar.face_up, planar.owner = deck.pop(0), player_id


@handles("roll_planar")
def _roll_planar(state: GameState, d: ActionData) -> None:
    """PC: only the active player rolls, in a main phase; the n-th roll of a turn costs n−1 mana
    (not reset by planeswalking); chaos or planeswalk triggers one pending ability."""
    planar = planar_of(state)
    player = find_player(state, d.integer("player"))
    require(player.id in state.turn.active, "game.error.planar_not_active", "PC")
    require(state.turn.phase in ("main1", "main2"), "game.error.planar_timing", "PC")
    require(not planar.pending or state.rules_edition < 3, "game.error.planar_pending", "PC",
            count=len(planar.pending))  # "à tout moment où vous pourriez lancer un rituel": an empty stack
    face = d.choice("face", set(PLANAR_FACES))
    cost = d.integer("cost")
    require(cost == planar.rolls_this_turn, "game.error.planar_cost", "PC", cost=planar.rolls_this_turn)
    planar.rolls_this_turn += 1
    state.rolls.append(Roll("planar", (face,), player.id, planar.face_up, cost=cost))
    if face != "blank":
        planar.pending.append(PlanarTrigger(face, player.id, planar.face_up))


@handles("resolve_planar")
def _resolve_planar(state: GameState, d: ActionData) -> None:
    """PC: a chaos trigger resolves (the table reads the plane); a planeswalk trigger puts the plane
    on the bottom of its OWNER's deck and its controller turns the top of THEIR OWN deck face up."""
    planar = state.planar
    if planar is None or not planar.pending:
        raise GameError("game.error.no_pending")
    index = d.integer("index", default=0)
    require(0 <= index < len(planar.pending), "game.error.no_pending_index", index=index)
    trigger = planar.pending.pop(index)
    if trigger.kind == "planeswalk" and planar.face_up is not None and planar.owner is not None:
        planar.decks.setdefault(planar.owner, []).append(planar.face_up)
        planeswalk_to_top(state, trigger.controller)


@words("roll_planar")
def _planar_rolled(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("roll_planar", player=player_name(after, data.get("player")), cost=data["cost"],
                face_key=f"game.face.{data['face']}")


@words("resolve_planar")
def _planar_resolved(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    trigger = planar_of(before).pending[data.get("index", 0)]
    return said("resolve_planar", trigger_key=f"game.trigger.{trigger.kind}")
