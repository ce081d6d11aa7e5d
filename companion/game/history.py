"""The readable history: one line per action, worded in French or English by `companion.i18n`.

"14:02 Anna a lancé D12 : 7 pour Serra Angel (#3)" / "14:02 Anna rolled D12: 7 for Serra Angel (#3)".
Each entry keeps what the action said and changed as `Message`s (i18n keys of `game.yaml` and
plain fields: names, squares, the event or plane revealed, the City's life …), built when the
action was applied, so wording it in another language never needs to replay the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from boards.model import square_label
from companion.game import reducer
from companion.game.reducer import Action, bosses_out, eliminations, hand_size, losing_players, piece_label
from companion.game.state import GameState, HordeCard, Roll
from companion.i18n import translate
from companion.rules import Piece
from companion.rules.wording import Message

LANGS = ("en", "fr")
# the actions after which a player may newly be proposed for elimination (their totals changed)
TOTALS_CHANGE = frozenset({"change_life", "set_life", "change_poison", "commander_damage", "mana_burn"})
CHANGE_ORDER = ("name", "kind", "mana_value", "power", "toughness", "colours", "keywords", "tapped",
                "summoning_sick", "controller", "loyalty", "object_key")


@dataclass(frozen=True)
class HistoryEntry:
    """An action as it appears in the history: the action and what it said (`messages`, the first
    is the action itself, the others its consequences: an event revealed, a new turn, a winner …)."""

    action: Action
    messages: tuple[Message, ...]

    def text(self, lang: str = "en") -> str:
        return describe(self, lang)


def _m(key: str, **fields) -> Message:
    return Message(f"game.history.{key}", fields)


def _word(key: str, **fields) -> dict:
    """A nested message for a `*_words` field (worded and joined by commas)."""
    return {"key": key, "fields": fields}


def _dice(roll: Roll) -> list[dict]:
    results, die = roll.results, roll.die
    if len(results) == 1:
        return [_word("game.dice.one", die=die, result=results[0])]
    return [_word("game.dice.many", count=len(results), die=die, results=" + ".join(map(str, results)),
                  total=roll.total)]


def _cards(cards: list[HordeCard]) -> list[dict]:
    if not cards:
        return [_word("game.card.none")]
    return [_word("game.card.named", name=c.name) if c.name
            else _word("game.card.token" if c.token else "game.card.spell") for c in cards]


def _piece_name(before: GameState, after: GameState, token) -> str:
    token = tuple(token)
    piece = after.pieces.get(token) or before.pieces.get(token)
    return piece_label(piece) if piece else f"#{token[1]}"


def _changes(old: Piece, new: Piece, names: dict) -> list[dict]:
    """The changes of a piece, each worded: "tapped", "4/4", "MV 5", "flying, reach" …"""
    words = []
    for name in CHANGE_ORDER:
        after = getattr(new, name)
        if getattr(old, name) == after or name in ("power", "toughness"):
            continue
        if name in ("tapped", "summoning_sick"):
            words.append(_word(f"game.change.{name}_{'on' if after else 'off'}"))
        elif name == "colours":
            keys = [f"game.colour.{c}" for c in "WUBRG" if c in after]
            words.append(_word("game.change.colours" if keys else "game.change.no_colours", colours_keys=keys))
        elif name == "keywords":
            keys = [f"game.keyword.{k}" for k in sorted(after)]
            words.append(_word("game.change.keywords" if keys else "game.change.no_keywords", keywords_keys=keys))
        elif name == "kind":
            words.append(_word("game.change.kind", kind_key=f"game.kind.{after}"))
        elif name == "controller":
            words.append(_word("game.change.controller", player=names.get(after, after)))
        else:
            words.append(_word(f"game.change.{name}", value=after))
    if (old.power, old.toughness) != (new.power, new.toughness):
        words.append(_word("game.change.power", power="–" if new.power is None else new.power,
                           toughness="–" if new.toughness is None else new.toughness))
    return words


def _square(at) -> str:
    return square_label(tuple(at)) if at is not None else ""


def _main(before: GameState, after: GameState, action: Action) -> Message:
    """The action itself, in words."""
    kind, data = action.kind, action.data
    names = after.names  # players are never removed from the state (those who left keep their seat)
    player = names.get(data.get("player"), str(data.get("player", "")))
    token = data.get("token") or (data.get("piece") and [data["piece"].get("player"), data["piece"].get("number")])
    piece = _piece_name(before, after, token) if token else ""
    if kind == "start":
        return _m("start", players=[p.name for p in after.players])
    if kind in ("next_phase", "end_turn"):
        if after.turn.number != before.turn.number:
            return _turn(after)
        if after.turn.step:
            return _m("phase_step", phase_key=f"game.phase.{after.turn.phase}", step_key=f"game.step.{after.turn.step}")
        return _m("phase", phase_key=f"game.phase.{after.turn.phase}")
    if kind == "mulligan":
        return _m("mulligan", player=player, cards=hand_size(after, data["player"]))
    if kind == "keep_hand":
        return _m("keep_hand", player=player)
    if kind == "place_pawn":
        return _m("place_pawn", player=player, square=_square(data["at"]))
    if kind in ("add_piece", "place_piece"):
        new = after.pieces[tuple(token)]
        owner = names.get(new.player, str(new.player))
        if new.at is None:
            return _m("add_piece_off", player=owner, piece=piece)
        how = (data.get("entry") or {}).get("kind") or ("setup" if before.turn.phase == "pregame" else "cast")
        return _m("enters", player=owner, piece=piece, square=_square(new.at), how_key=f"game.entry.{how}",
                  card_key="game.history.by_card" if data.get("by_card") else "game.history.nothing")
    if kind == "update_piece":
        old, new = before.pieces[tuple(token)], after.pieces[tuple(token)]
        return _m("update_piece", piece=piece, changes_words=_changes(old, new, names) or [_word("game.change.none")])
    if kind == "move_piece":
        old, new = before.pieces[tuple(token)], after.pieces[tuple(token)]
        if new.at is None:
            return _m("leaves_grid", piece=piece)
        if data.get("by_card"):
            return _m("move_by_card", piece=piece, frm=_square(old.at) or "–", to=_square(new.at))
        moved, was = after.movement.get(tuple(token)), before.movement.get(tuple(token))
        if moved is not None:  # a walk of the movement phase (MT 3.04): its steps were spent
            return _m("move", piece=piece, frm=_square(old.at), to=_square(new.at),
                      steps=moved.spent - (was.spent if was else 0))
        return _m("placed", piece=piece, to=_square(new.at))
    if kind == "set_positions":
        return _m("set_positions", count=len(data["positions"]), source_key=f"game.source.{data.get('source', 'camera')}")
    if kind == "remove_piece":
        return _m("remove_piece", piece=piece)
    if kind == "move_to_target":
        new = after.pieces[tuple(token)]
        return _m("move_to_target", piece=piece, to=_square(new.at))
    if kind == "choose_bonus":
        return _m("choose_bonus", player=names.get(after.pieces[tuple(token)].controller, player), piece=piece,
                  colour_key=f"game.colour.{data['colour']}")
    if kind == "roll_movement":
        roll = after.rolls[-1]
        return _m("roll_movement", player=names.get(roll.by, str(roll.by)), piece=piece, dice_words=_dice(roll))
    if kind == "roll_die":
        roll = after.rolls[-1]
        reason = data.get("reason") or ""
        return _m("roll_die_for" if reason else "roll_die", player=player if data.get("player") is not None else "—",
                  dice_words=_dice(roll), reason=reason)
    if kind in ("change_life", "set_life", "commander_damage", "mana_burn"):
        amount = data.get("amount", data.get("mana", data.get("value")))
        fields = {"player": player, "amount": f"{amount:+d}" if kind == "change_life" else amount}
        if after.horde:
            fields["life_words"] = [_word("game.history.city_life", life=after.horde.city_life)]
        else:
            fields["life_words"] = [_word("game.history.life", life=after.player(data["player"]).life)]
        if kind == "commander_damage":
            fields["source"] = names.get(data.get("source"), "?") + (f" ({data['partner']})" if data.get("partner") else "")
        return _m(kind, **fields)
    if kind == "change_poison":
        return _m("change_poison", player=player, amount=f"{data['amount']:+d}", poison=after.player(data["player"]).poison)
    if kind == "keep_in_game":
        return _m("keep_in_game", player=player)
    if kind == "player_leaves":
        return _m("player_leaves", player=player, reason_key=f"game.reason.{data.get('reason', 'lost')}")
    if kind == "set_event_counter":
        return _m("set_event_counter", turns=data["turns"])
    if kind == "roll_planar":
        return _m("roll_planar", player=player, cost=data["cost"], face_key=f"game.face.{data['face']}")
    if kind == "resolve_planar":
        trigger = before.planar.pending[data.get("index", 0)].kind
        return _m("resolve_planar", trigger_key=f"game.trigger.{trigger}")
    if kind in ("horde_draw", "horde_draws"):
        return _m("horde_draw", cards_words=_cards(after.horde.last_revealed))
    if kind == "damage_horde":
        return _m("damage_horde", amount=data["amount"], cards_words=_cards(after.horde.last_revealed))
    if kind == "horde_cast_resolves":
        card = before.horde.casting[data.get("index", 0)]
        return _m("horde_cast_resolves", cards_words=_cards([card]),
                  zone_key="game.zone.battlefield" if data.get("permanent") else "game.zone.graveyard")
    if kind == "horde_leaves_battlefield":
        card = before.horde.battlefield[data["index"]]
        return _m("horde_leaves_battlefield", cards_words=_cards([card]))
    if kind == "horde_boss_leaves":
        which = data.get("which") or bosses_out(before.horde)[0]
        return _m("horde_boss_leaves", which_key=f"game.boss.{which}")
    if kind == "horde_secret_boss":
        return _m("horde_secret_boss", boss=after.horde.secret_boss)
    if kind == "horde_attack_prevented":
        return _m("horde_attack_prevented", source=data.get("source") or "—")
    if kind == "city_defeated":
        return _m("city_defeated")
    if kind == "horde_choice":
        return _m("horde_choice", chosen=str(data.get("chosen")))
    if kind == "set_square":
        return _m("set_square", square=_square(data["at"]), code=data["code"])
    if kind == "note":
        return _m("note", text=data["text"])
    return _m("unknown", kind=kind)


def _warnings(before: GameState, after: GameState, action: Action) -> list[Message]:
    """What the table should hear about an action that still applies: a creature cast while a movement
    step is under way (MT 3.01.d: spells are cast between the steps; the table may have its reasons, a
    flash creature played too early, a correction entered late)."""
    if action.kind not in ("add_piece", "place_piece") or not reducer.step_under_way(before):
        return []
    entry = action.data.get("entry") or {}
    if entry.get("kind", "cast") != "cast":
        return []
    token = action.data.get("token") or [action.data["piece"].get("player"), action.data["piece"].get("number")]
    return [Message("game.warning.cast_mid_step", {"name": _piece_name(before, after, token),
                                                   "step_key": f"game.step.{before.turn.step}"}, "MT 3.01.d")]


def _turn(state: GameState) -> Message:
    turn = state.turn
    if turn.horde:
        return _m("turn_horde", number=turn.number)
    return _m("turn", number=turn.number, who=" & ".join(state.player(p).name for p in turn.active))


def summarise(before: GameState, after: GameState, action: Action) -> tuple[Message, ...]:
    """What a person reads of `action` later: the action, then what it made happen."""
    messages = [_main(before, after, action), *_warnings(before, after, action)]
    names = after.names  # players are never removed from the state (those who left keep their seat)
    if action.kind == "start":
        who = after.player(after.starting_player).name
        messages.append(_m("starts_drawn" if after.starting_player_drawn else "starts_chosen", player=who))
        messages += [_m("pawn_on", player=p.name, square=_square(after.pawn(p.id).at))
                     for p in after.players if after.pawn(p.id) is not None and after.pawn(p.id).at is not None]
    events, old_events = after.events, before.events
    if events and events.revealed and (not old_events or old_events.revealed != events.revealed
                                       or (events.counted == 0 and old_events.counted)):
        messages.append(_m("event", who=names.get(events.revealed_by, "?"), event=events.revealed.name))
    if after.planar and after.planar.face_up and after.planar.face_up != (before.planar.face_up if before.planar else None):
        messages.append(_m("plane", plane=after.planar.face_up))
    horde, old = after.horde, before.horde
    if horde:
        if horde.boss_on_battlefield and not (old and old.boss_on_battlefield):
            messages.append(_m("boss", boss=horde.boss))
        if old and horde.wave != old.wave:
            messages.append(_m("wave", wave=horde.wave))
        if horde.result == "horde_defeated" and not (old and old.result):
            messages.append(_m("horde_won"))
        elif horde.result == "city_defeated" and not (old and old.result) and action.kind != "city_defeated":
            messages.append(_m("city_lost"))
    if after.turn.number != before.turn.number and action.kind not in ("next_phase", "end_turn"):
        messages.append(_turn(after))  # e.g. a revealed boss ends the turn
    losing = losing_players(after) if action.kind in TOTALS_CHANGE else ()
    was_losing = set(losing_players(before)) if losing else set()
    if set(losing) - was_losing:
        for elimination in eliminations(after):
            if elimination.player not in was_losing:
                messages += [Message("game.history.proposed", {"reason_words": [_word(r.key, **r.fields)]})
                             for r in elimination.reasons]
    if after.winner and not before.winner:
        messages.append(_m("winner", who=" & ".join(names.get(p, str(p)) for p in after.winner)))
    return tuple(messages)


def describe(entry: HistoryEntry, lang: str = "en") -> str:
    """One history line: the action's local time (HH:MM) and what happened, in "en" or "fr"."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, got {lang!r}")
    time = datetime.fromisoformat(entry.action.time).strftime("%H:%M") if entry.action.time else "--:--"
    return f"{time} " + translate(lang, "game.history.separator").join(m.text(lang) for m in entry.messages)
