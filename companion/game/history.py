"""The readable history: one line per action, worded in French or English by `companion.i18n`.

"14:02 Anna a lancé D12 : 7 pour Serra Angel (#3)" / "14:02 Anna rolled D12: 7 for Serra Angel (#3)".
Each entry keeps what the action said and changed as `Message`s (i18n keys of `game.yaml` and
plain fields: names, squares, the event or plane revealed, the City's life …), built when the
action was applied, so wording it in another language never needs to replay the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from companion.game.actions import WARNINGS, WORDINGS
from companion.game.actions.common import nested, said, square_text
from companion.game.actions.life import eliminations, losing_players
from companion.game.actions.turns import turn_message
from companion.game.reducer import Action
from companion.game.state import GameState
from companion.i18n import translate
from companion.rules.wording import Message

LANGS = ("en", "fr")
# the actions after which a player may newly be proposed for elimination (their totals changed)
TOTALS_CHANGE = frozenset({"change_life", "set_life", "change_poison", "commander_damage", "mana_burn"})


@dataclass(frozen=True)
class HistoryEntry:
    """An action as it appears in the history: the action and what it said (`messages`, the first
    is the action itself, the others its consequences: an event revealed, a new turn, a winner …)."""

    action: Action
    messages: tuple[Message, ...]

    def text(self, lang: str = "en") -> str:
        return describe(self, lang)


def _main(before: GameState, after: GameState, action: Action) -> Message:
    """The action itself, in words (each family of actions words its own, `companion.game.actions`)."""
    wording = WORDINGS.get(action.kind)
    return wording(before, after, action.data) if wording else said("unknown", kind=action.kind)


def _warnings(before: GameState, after: GameState, action: Action) -> list[Message]:
    """What the table should hear about an action that applied all the same (`Game.warnings`)."""
    warning = WARNINGS.get(action.kind)
    return warning(before, after, action.data) if warning else []


def summarise(before: GameState, after: GameState, action: Action) -> tuple[Message, ...]:
    """What a person reads of `action` later: the action, then what it made happen."""
    messages = [_main(before, after, action), *_warnings(before, after, action)]
    names = after.names  # players are never removed from the state (those who left keep their seat)
    if action.kind == "start":
        who = after.player(after.starting_player).name
        messages.append(said("starts_drawn" if after.starting_player_drawn else "starts_chosen", player=who))
        pawns = [(p.name, after.pawn(p.id)) for p in after.players]
        messages += [said("pawn_on", player=name, square=square_text(pawn.at))
                     for name, pawn in pawns if pawn is not None and pawn.at is not None]
    events, old_events = after.events, before.events
    if events and events.revealed and (not old_events or old_events.revealed != events.revealed
                                       or (events.counted == 0 and old_events.counted)):
        who = names.get(events.revealed_by, "?") if events.revealed_by is not None else "?"
        messages.append(said("event", who=who, event=events.revealed.name))
    if after.planar and after.planar.face_up and after.planar.face_up != (before.planar.face_up if before.planar else None):
        messages.append(said("plane", plane=after.planar.face_up))
    horde, old = after.horde, before.horde
    if horde:
        if horde.boss_on_battlefield and not (old and old.boss_on_battlefield):
            messages.append(said("boss", boss=horde.boss))
        if old and horde.wave != old.wave:
            messages.append(said("wave", wave=horde.wave))
        if horde.result == "horde_defeated" and not (old and old.result):
            messages.append(said("horde_won"))
        elif horde.result == "city_defeated" and not (old and old.result) and action.kind != "city_defeated":
            messages.append(said("city_lost"))
    if after.turn.number != before.turn.number and action.kind not in ("next_phase", "end_turn"):
        messages.append(turn_message(after))  # e.g. a revealed boss ends the turn
    losing = losing_players(after) if action.kind in TOTALS_CHANGE else ()
    was_losing = set(losing_players(before)) if losing else set()
    if set(losing) - was_losing:
        for elimination in eliminations(after):
            if elimination.player not in was_losing:
                messages += [Message("game.history.proposed", {"reason_words": [nested(r.key, **r.fields)]})
                             for r in elimination.reasons]
    if after.winner and not before.winner:
        messages.append(said("winner", who=" & ".join(names.get(p, str(p)) for p in after.winner)))
    return tuple(messages)


def describe(entry: HistoryEntry, lang: str = "en") -> str:
    """One history line: the action's local time (HH:MM) and what happened, in "en" or "fr"."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, got {lang!r}")
    time = datetime.fromisoformat(entry.action.time).strftime("%H:%M") if entry.action.time else "--:--"
    return f"{time} " + translate(lang, "game.history.separator").join(m.text(lang) for m in entry.messages)
