"""One module per family of game actions, each holding its handlers (how an action changes the state, its
data checked field by field) and its history wording; `companion.game.reducer.apply` is the one entry point.

Importing this package registers every kind (`HANDLERS`, `WORDINGS`, and `WARNINGS` for the few that have one).
"""
from companion.game.actions import dice, events, horde, life, movement, pieces, planechase, setup, table, turns
from companion.game.actions.common import HANDLERS, WARNINGS, WORDINGS, NeedsShuffle

__all__ = ["HANDLERS", "WARNINGS", "WORDINGS", "NeedsShuffle", "dice", "events", "horde", "life", "movement", "pieces",
           "planechase", "setup", "table", "turns"]
