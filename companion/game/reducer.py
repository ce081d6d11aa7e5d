"""state = fold(apply, actions): `apply` is the one entry point of every change of the state.

An action is a plain record (`Action`: kind, data, time). `apply` checks it against the
state and returns a NEW state (the old one is never touched), or raises GameError saying
which rule forbids it (an i18n key, its fields and the rule). The rules live with each family
of actions, in `companion.game.actions` (one module per family). Every handler reads its data
through `ActionData`, which checks each field's type, so a damaged journal row is a clear
error naming the action and the field. Random results (dice, shuffles, the Horde's random
squares) are inside the action's data, so a replay is deterministic. Where a shuffle's size is
only known while applying (the Horde reshuffling its graveyard, HO 202.1/203), `apply` raises
NeedsShuffle and the caller retries with a permutation of that size recorded in the action.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.actions import HANDLERS, NeedsShuffle
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import GameState

__all__ = ["Action", "NeedsShuffle", "apply"]


@dataclass(frozen=True)
class Action:
    """One thing that happened at the table; `time` is an ISO timestamp with its offset."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    time: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "time": self.time}

    @classmethod
    def from_dict(cls, raw: object) -> "Action":
        if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str) or not isinstance(raw.get("data", {}), dict):
            raise ValueError("an action must be a mapping with 'kind' (text), 'data' (mapping) and 'time'")
        return cls(raw["kind"], raw.get("data", {}), str(raw.get("time", "")))


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action`; raise GameError (state untouched) when the rules forbid it."""
    handler = HANDLERS.get(action.kind)
    if handler is None:
        raise GameError("game.error.unknown_action", action=str(action.kind)[:40])
    if action.kind != "start" and not state.players:
        raise GameError("game.error.not_set_up")
    if state.over and action.kind != "note":
        raise GameError("game.error.game_over")
    new = state.clone()
    handler(new, ActionData(action.kind, action.data))
    return new
