"""Turns and phases (MT 3.01, BR, HO 104), mulligans and hands (BR, PC, HO 103.4)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.game.actions.common import find_player, handles, player_name, require, said, unplaced_pawns, words
from companion.game.actions.events import count_event_turn, reveal_event
from companion.game.actions.movement import bonus_chooser
from companion.game.actions.planechase import planeswalk_to_top
from companion.game.data import ActionData
from companion.game.state import MOVEMENT_STEPS, PHASES, PREGAME, GameState, Player, Roll
from companion.rules.wording import Message


def side_key(state: GameState, player: Player) -> int | None:
    """What turns go round: teams in Two-Headed Giant, players otherwise."""
    return player.team if state.format == "two_headed_giant" else player.id


def _next_side(state: GameState) -> tuple[bool, list[int]]:
    """Who plays next: (Horde's turn?, active player ids).

    Free-for-all: the next player still in, in seat order. Two-Headed Giant: the next team.
    Horde: the players together; the Horde starts after their second turn, then the sides
    alternate (HO 104.2–104.3). Queued extra turns come first.
    """
    turn = state.turn
    alive = [p.id for p in state.alive]
    if turn.extra_turns:
        queued = turn.extra_turns.pop(0)
        return (True, []) if queued == "horde" else (False, alive)
    if state.format == "horde":
        return (True, []) if turn.number and not turn.horde and turn.players_turns >= 2 else (False, alive)
    if turn.number == 0:
        side = side_key(state, state.player(state.starting_player))
    else:
        sides = list(dict.fromkeys(side_key(state, p) for p in state.players))
        current = sides.index(side_key(state, state.player(turn.active[0])))
        alive_sides = {side_key(state, p) for p in state.alive}
        side = next((sides[(current + k) % len(sides)] for k in range(1, len(sides) + 1)
                     if sides[(current + k) % len(sides)] in alive_sides), None)
    return False, [p.id for p in state.alive if side_key(state, p) == side]


def _begin_turn(state: GameState) -> None:
    horde, active = _next_side(state)
    turn = state.turn
    turn.number += 1
    turn.horde, turn.active, turn.phase, turn.step = horde, active, "untap", None
    turn.draw_instead_of_attack = False
    if not horde:
        turn.players_turns += 1
    state.movement_rolls.clear()
    state.movement.clear()
    acting = state.acting
    for token, piece in list(state.pieces.items()):  # untap step: their permanents untap, sickness ends
        if piece.controller in acting and (piece.tapped or piece.summoning_sick):
            state.pieces[token] = replace(piece, tapped=False, summoning_sick=False)
    if state.planar:
        state.planar.rolls_this_turn = 0
        if active:
            state.planar.controller = active[0]  # PC: the active player controls the face-up plane


def _enter_phase(state: GameState, phase: str) -> None:
    state.turn.phase, state.turn.step = phase, (MOVEMENT_STEPS[0] if phase == "movement" else None)
    if phase == "upkeep":
        # MT 2.02.c: a chosen bonus lasts until the next upkeep of the player who chooses it.
        acting = state.acting
        for token in [t for t in state.bonus_choices if bonus_chooser(state, state.pieces[t]) in acting]:
            del state.bonus_choices[token]
    horde = state.horde
    if phase == "combat" and state.turn.horde and horde and horde.attacks_replaced:
        horde.attacks_replaced -= 1  # HO 201.3a: this attack phase is a draw phase
        state.turn.draw_instead_of_attack = True


def end_turn(state: GameState, d6: int | None, *, end_step: bool = True) -> None:
    """The turn ends (after its end step, unless an effect ends it at once) and the next begins."""
    turn = state.turn
    if end_step and turn.horde and state.horde and state.horde.difficulty == "infernal":
        # HO 404.3: at each of its end steps the Horde rolls a D6; on a 6 it takes an extra turn.
        require(d6 is not None, "game.error.horde_d6", "HO 404.3")
        state.rolls.append(Roll("D6", (d6,), "horde", "HO 404.3"))
        if d6 == 6:
            turn.extra_turns.insert(0, "horde")
    count_event_turn(state)
    _begin_turn(state)


@handles("next_phase")
def _next_phase(state: GameState, d: ActionData) -> None:
    """Advance the turn machine: pregame → turn 1; phases in order; movement steps (MT 3.01)."""
    turn = state.turn
    d6 = d.optional_integer("d6", minimum=1, maximum=6)
    if turn.phase == PREGAME:
        unplaced = [state.player(p).name for p in unplaced_pawns(state)]
        require(state.rules_edition < 3 or not unplaced, "game.error.pawns_unplaced", "MT 2.04.a", names=unplaced)
        _begin_turn(state)
        if state.events:  # MT 7.03: the starting player reveals the first event
            reveal_event(state.events, state.starting_player)
        if state.planar:  # PC: after mulligans the starting player turns their top plane face up
            planeswalk_to_top(state, state.starting_player)
        return
    if turn.phase == "movement" and MOVEMENT_STEPS.index(turn.step) < len(MOVEMENT_STEPS) - 1:
        turn.step = MOVEMENT_STEPS[MOVEMENT_STEPS.index(turn.step) + 1]  # unused movement of the step is lost
        return
    if turn.phase == "end":
        end_turn(state, d6)
        return
    _enter_phase(state, PHASES[PHASES.index(turn.phase) + 1])


@handles("end_turn")
def _end_turn_now(state: GameState, d: ActionData) -> None:
    """Skip the rest of the turn (the table says it is over)."""
    require(state.turn.phase != PREGAME, "game.error.not_begun")
    end_turn(state, d.optional_integer("d6", minimum=1, maximum=6))


@handles("mulligan")
def _mulligan(state: GameState, d: ActionData) -> None:
    player = find_player(state, d.integer("player"))
    require(state.turn.phase == PREGAME and not player.kept, "game.error.mulligan_timing")
    require(hand_size(state, player.id) > 0, "game.error.no_cards_left", name=player.name)
    player.mulligans += 1


@handles("keep_hand")
def _keep(state: GameState, d: ActionData) -> None:
    player = find_player(state, d.integer("player"))
    require(state.turn.phase == PREGAME, "game.error.keep_timing")
    player.kept = True


def hand_size(state: GameState, player_id: int) -> int:
    """Cards in the next hand after the player's mulligans so far.

    BR: 7 cards, one fewer per mulligan. PC (multiplayer) and HO 103.4: the first mulligan is free
    (7 again), then one fewer each time. "Multiplayer" = three or more players, or the Horde.
    """
    mulligans = state.player(player_id).mulligans
    free = 1 if (len(state.players) > 2 or state.format in ("horde", "two_headed_giant")) and mulligans else 0
    return max(0, 7 - mulligans + free)


def draws_this_turn(state: GameState) -> int:
    """Cards the active player draws in the draw step.

    BR: one per turn. Two players: the starting player skips the first draw (base game).
    PC multiplayer text: "le joueur qui commence ... ne passe pas sa première pioche" — in a game of
    three or more players the starting player does NOT skip it.
    """
    if state.turn.horde:
        return 0  # HO 201.2: the Horde reveals instead of drawing
    first_turn = state.turn.number == 1
    return 0 if first_turn and len(state.players) == 2 and state.format == "free_for_all" else 1


def turn_message(state: GameState) -> Message:
    """A new turn in the history: its number and who plays it (the Horde, HO 104)."""
    turn = state.turn
    if turn.horde:
        return said("turn_horde", number=turn.number)
    return said("turn", number=turn.number, who=" & ".join(state.player(p).name for p in turn.active))


@words("next_phase", "end_turn")
def _phase_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    if after.turn.number != before.turn.number:
        return turn_message(after)
    if after.turn.step:
        return said("phase_step", phase_key=f"game.phase.{after.turn.phase}", step_key=f"game.step.{after.turn.step}")
    return said("phase", phase_key=f"game.phase.{after.turn.phase}")


@words("mulligan")
def _mulligan_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("mulligan", player=player_name(after, data.get("player")), cards=hand_size(after, data["player"]))


@words("keep_hand")
def _kept_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("keep_hand", player=player_name(after, data.get("player")))
