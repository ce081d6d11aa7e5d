"""Life, poison and commander damage (BR, CR 704.5c, 704.6b, 810, 903.10a; the City's life, HO 300), the
counters tables keep beside them (energy, experience, rad: CR 122.1), the eliminations the game proposes and players leaving (PC « Quitter la partie », HO 105)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.game.actions.common import (find_player, handles, life_holder, nested, player_name, require, said,
                                           seat_after, words)
from companion.game.actions.horde import horde_of
from companion.game.actions.planechase import planeswalk_to_top
from companion.game.actions.table import hand_on_designations
from companion.game.actions.turns import side_key
from companion.game.data import ActionData
from companion.game.state import PLAYER_COUNTERS, GameState, Player
from companion.rules.wording import Message


def _city_change(state: GameState, delta: int) -> None:
    """HO 300.3–300.5: players' life gain, loss and payment go to the City; it never exceeds its start."""
    horde = horde_of(state)
    horde.city_life = min(horde.city_start, horde.city_life + delta)
    if horde.city_life <= 0:
        horde.result = "city_defeated"  # HO 105.3


def _lose_life(state: GameState, player: Player, delta: int) -> None:
    if state.horde:
        _city_change(state, delta)
        return
    for holder in life_holder(state, player):  # Two-Headed Giant: one team total
        holder.life += delta


@handles("change_life")
def _change_life(state: GameState, d: ActionData) -> None:
    player = find_player(state, d.integer("player"))
    _lose_life(state, player, d.integer("amount", minimum=-10**6, maximum=10**6))


@handles("set_life")
def _set_life(state: GameState, d: ActionData) -> None:
    player = find_player(state, d.integer("player"))
    value = d.integer("value", minimum=-10**6, maximum=10**6)
    if state.horde:
        _city_change(state, value - state.horde.city_life)
        return
    for holder in life_holder(state, player):
        holder.life = value


def shares_poison(state: GameState) -> bool:
    """Two-Headed Giant teams share their poison counters as they share their life (CR 810.10, 704.6b: 15
    for the team); saves started before rules edition 4 counted them per player, and replay so."""
    return state.format == "two_headed_giant" and state.rules_edition >= 4


def poison_limit(state: GameState) -> tuple[int, str]:
    """(counters that make a player lose, the rule): 10 (CR 704.5c), a Two-Headed Giant team 15 (CR 704.6b)."""
    return (15, "CR 704.6b") if shares_poison(state) else (10, "CR 704.5c")


@handles("change_poison")
def _change_poison(state: GameState, d: ActionData) -> None:
    player = find_player(state, d.integer("player"))
    poison = max(0, player.poison + d.integer("amount", minimum=-1000, maximum=1000))
    for holder in life_holder(state, player) if shares_poison(state) else [player]:
        holder.poison = poison


@handles("change_counter")
def _change_counter(state: GameState, d: ActionData) -> None:
    """A player's energy, experience or rad counters (CR 122.1): a player never has fewer than none."""
    player = find_player(state, d.integer("player"))
    counter = d.choice("counter", PLAYER_COUNTERS)
    value = getattr(player, counter) + d.integer("amount", minimum=-1000, maximum=1000)
    require(value >= 0, "game.error.counter_below_zero", name=player.name, counter_key=f"game.counter.{counter}",
            have=getattr(player, counter))
    setattr(player, counter, value)


def commander_key(source: int, partner: str = "") -> str:
    """Which commander dealt damage: "2" (player 2's commander), "2:Tymna" (one of their partners,
    counted apart, Comprehensive Rules 702.124)."""
    return f"{source}:{partner}" if partner else str(source)


@handles("commander_damage")
def _commander_damage(state: GameState, d: ActionData) -> None:
    """Combat damage from a commander is tracked per commander (partners apart) and lost as life; a
    negative amount takes back damage entered by mistake (never below what was taken)."""
    player = find_player(state, d.integer("player"))
    source = find_player(state, d.integer("source"), alive=False)
    amount = d.integer("amount", minimum=-10**6, maximum=10**6)  # negative: damage entered by mistake taken back
    key = commander_key(source.id, d.text("partner", default="", limit=100))
    taken = player.commander_damage.get(key, 0)
    require(taken + amount >= 0, "game.error.commander_taken_back", name=player.name, taken=taken,
            source=source.name)
    player.commander_damage[key] = taken + amount
    _lose_life(state, player, -amount)


@handles("mana_burn")
def _mana_burn(state: GameState, d: ActionData) -> None:
    """BR mana burn, when the table plays it (house rule mana_burn): as a phase ends, a player loses
    1 life per unspent mana left in their pool (the app does not see the pool: the table says)."""
    require(state.house.mana_burn, "game.error.mana_burn_off", "BR")
    player = find_player(state, d.integer("player"))
    _lose_life(state, player, -d.integer("mana", minimum=1, maximum=10**6))


@dataclass(frozen=True)
class Elimination:
    """A player the game says has lost (`reasons`, each a Message with its rule); the table confirms
    with `player_leaves`, or keeps them in when a card says otherwise (`keep_in_game`)."""

    player: int
    reasons: tuple[Message, ...]


def _totals(player: Player) -> list[Any]:
    return [player.life, player.poison, sorted(player.commander_damage.items())]


def _has_lost(state: GameState, player: Player) -> bool:
    return ((player.life <= 0 and not state.horde) or player.poison >= poison_limit(state)[0]
            or any(damage >= 21 for damage in player.commander_damage.values()))


def eliminations(state: GameState) -> list[Elimination]:
    """Players a state-based check says have lost: life ≤ 0 (BR), 10 poison (Comprehensive Rules
    704.5c; a Two-Headed Giant team, 15 shared, 704.6b), 21 combat damage from one commander, partners
    counted apart (903.10a). In a Horde game life is the City's, which falls by itself (HO 105.3). A
    player the table kept in is proposed again once their totals change."""
    found = []
    poison, poison_rule = poison_limit(state)
    for player in state.alive:
        if not _has_lost(state, player):
            continue
        reasons = []
        if player.life <= 0 and not state.horde:
            reasons.append(Message("game.elimination.life", {"name": player.name, "life": player.life}, "BR"))
        if player.poison >= poison:
            reasons.append(Message("game.elimination.poison", {"name": player.name, "poison": player.poison},
                                   poison_rule))
        for key, damage in sorted(player.commander_damage.items()):
            if damage >= 21:
                source, _, partner = key.partition(":")
                commander = partner or state.names.get(int(source), source)
                reasons.append(Message("game.elimination.commander", {"name": player.name, "commander": commander,
                                                                       "damage": damage}, "CR 903.10a"))
        if reasons and state.kept_in.get(player.id) != _totals(player):
            found.append(Elimination(player.id, tuple(reasons)))
    return found


def losing_players(state: GameState) -> list[int]:
    """The players `eliminations` proposes, without wording the reasons (cheap: asked after every action)."""
    kept = state.kept_in
    return [p.id for p in state.alive if _has_lost(state, p) and (p.id not in kept or kept[p.id] != _totals(p))]


@handles("keep_in_game")
def _keep_in_game(state: GameState, d: ActionData) -> None:
    """The table keeps a player the game proposed to eliminate (a card says they do not lose)."""
    player = find_player(state, d.integer("player"))
    require(player.id in losing_players(state), "game.error.not_losing", name=player.name)
    state.kept_in[player.id] = _totals(player)


@handles("player_leaves")
def _player_leaves(state: GameState, d: ActionData) -> None:
    """A player loses or concedes (PC "Quitter la partie"; HO 105.4); in Two-Headed Giant the whole
    team leaves. The current turn goes on even if it was theirs; the last side in wins."""
    player = find_player(state, d.integer("player"))
    reason = d.choice("reason", ("lost", "conceded"), default="lost")
    for leaver in life_holder(state, player):
        _leave(state, leaver, reason)
    for leaver in life_holder(state, player):
        hand_on_designations(state, leaver)
    if state.horde:
        if reason == "lost" or (not state.alive and state.rules_edition >= 3):
            state.horde.result = "city_defeated"  # HO 105.4; HO 105.1: every player gave up, the City falls
    elif len({side_key(state, p) for p in state.alive}) <= 1:
        state.winner = [p.id for p in state.alive]


def _leave(state: GameState, player: Player, reason: str) -> None:
    """PC "Quitter la partie": what they own leaves the game. The effects that gave them control of
    others' permanents end: each goes back to the player it entered the battlefield under, and one
    that entered under the leaver's own control goes to no one: it is exiled ("s'ils sont arrivés
    sur le champ de bataille sous le contrôle du joueur qui est parti, ils sont exilés").
    Planechase: if they control the face-up plane, the next player in turn order takes control
    first; triggers they control cease to exist; if they own the face-up plane it leaves, pending
    planeswalk triggers vanish (chaos ones stay), and its controller turns the top of their own
    planar deck face up."""
    planar = state.planar
    if planar and planar.controller == player.id:
        successor = seat_after(state, player.id)
        planar.controller = successor.id if successor else None
    player.left, player.left_reason = True, reason
    for token, piece in list(state.pieces.items()):
        back = state.entered_under.get(token, piece.player)
        if piece.player == player.id or (piece.controller == player.id and back == player.id):
            del state.pieces[token]
            state.bonus_choices.pop(token, None)
            state.movement.pop(token, None)
            state.entered_under.pop(token, None)
        elif piece.controller == player.id:
            back = back if back in {p.id for p in state.alive} else piece.player
            state.pieces[token] = replace(piece, controller=back)
    if planar:
        planar.pending = [t for t in planar.pending if t.controller != player.id]
        planar.decks.pop(player.id, None)
        if planar.owner == player.id:
            planar.face_up = planar.owner = None
            planar.pending = [t for t in planar.pending if t.kind != "planeswalk"]
            if planar.controller is not None and planar.decks.get(planar.controller):
                planeswalk_to_top(state, planar.controller)


def _life_said(kind: str, after: GameState, data: dict[str, Any], amount: Any) -> Message:
    life = (nested("game.history.city_life", life=after.horde.city_life) if after.horde
            else nested("game.history.life", life=after.player(data["player"]).life))
    return said(kind, player=player_name(after, data.get("player")), amount=amount, life_words=[life])


@words("change_life")
def _life_changed(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return _life_said("change_life", after, data, f"{data['amount']:+d}")


@words("set_life")
def _life_set(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return _life_said("set_life", after, data, data["value"])


@words("mana_burn")
def _mana_burnt(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return _life_said("mana_burn", after, data, data["mana"])


@words("commander_damage")
def _commander_damage_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    message = _life_said("commander_damage", after, data, data["amount"])
    source = after.names.get(data["source"], "?") + (f" ({data['partner']})" if data.get("partner") else "")
    return Message(message.key, {**message.fields, "source": source})


@words("change_poison")
def _poison_changed(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("change_poison", player=player_name(after, data.get("player")), amount=f"{data['amount']:+d}",
                poison=after.player(data["player"]).poison)


@words("change_counter")
def _counter_changed(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("change_counter", player=player_name(after, data.get("player")), amount=f"{data['amount']:+d}",
                counter_key=f"game.counter.{data['counter']}", value=getattr(after.player(data["player"]),
                                                                              data["counter"]))


@words("keep_in_game")
def _kept_in_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("keep_in_game", player=player_name(after, data.get("player")))


@words("player_leaves")
def _left_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("player_leaves", player=player_name(after, data.get("player")),
                reason_key=f"game.reason.{data.get('reason', 'lost')}")
