"""The event deck (MT 7): revealing, counting the turns, the counter the table enters."""
from __future__ import annotations

from typing import Any

from companion.game.actions.common import handles, said, words
from companion.game.errors import GameError
from companion.game.data import ActionData
from companion.game.state import EventState, GameState
from companion.rules.wording import Message


def count_event_turn(state: GameState) -> None:
    """MT 7.06.d.1–2, read as: every turn that ends after the event was revealed is counted (one per
    player's turn, per team turn in Two-Headed Giant, the Horde's turns too); as the X-th counted turn
    ends, its active player reveals the next event (the Horde's turn: the player who revealed the last
    one). Without a counter yet (the table is asked), turns are still counted and the first turn end
    with count ≥ X reveals."""
    events = state.events
    if not events or events.revealed is None:
        return
    events.counted += 1
    if events.counter is not None and events.counted >= events.counter:
        revealer = state.turn.active[0] if state.turn.active else events.revealed_by
        reveal_event(events, revealer)


def reveal_event(events: EventState, player_id: int | None) -> None:
    """MT 7.07: the revealed event goes to the bottom, the top card is revealed; one at a time."""
    if events.revealed is not None:
        events.deck.append(events.revealed)
    events.revealed = events.deck.pop(0) if events.deck else None
    events.revealed_by, events.counted = player_id, 0
    events.counter = events.revealed.turns if events.revealed else None


@handles("set_event_counter")
def _set_event_counter(state: GameState, d: ActionData) -> None:
    """MT 7.06.d: the table enters X for a revealed event whose card gives no counter."""
    events = state.events
    if events is None or events.revealed is None:
        raise GameError("game.error.no_event")
    events.counter = d.integer("turns", minimum=1, maximum=10_000)


@words("set_event_counter")
def _counter_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("set_event_counter", turns=data["turns"])
