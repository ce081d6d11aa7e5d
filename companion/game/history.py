"""The readable history: one line per action, in English or French.

"14:02 Anna rolled D12: 7 for Serra Angel" / "14:02 Anna a lancé D12 : 7 pour Serra Angel".
Each entry keeps a small summary of what the action changed (names, the event or plane
revealed, the City's life ...), taken when the action was applied, so describing it
never needs to replay the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from boards.model import square_label
from companion.game.reducer import Action, hand_size
from companion.game.state import GameState

LANGS = ("en", "fr")
PHASE_NAMES = {
    "en": {"untap": "untap", "upkeep": "upkeep", "draw": "draw", "movement": "movement", "main1": "main phase 1",
           "combat": "combat", "main2": "main phase 2", "end": "end step", "players": "players",
           "planeswalkers": "planeswalkers", "creatures": "creatures"},
    "fr": {"untap": "dégagement", "upkeep": "entretien", "draw": "pioche", "movement": "déplacement",
           "main1": "première phase principale", "combat": "combat", "main2": "seconde phase principale",
           "end": "fin de tour", "players": "joueurs", "planeswalkers": "planeswalkers", "creatures": "créatures"},
}
COLOUR_NAMES = {"en": {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"},
                "fr": {"W": "blanc", "U": "bleu", "B": "noir", "R": "rouge", "G": "vert"}}
REASONS = {"en": {"lost": "lost", "conceded": "conceded"}, "fr": {"lost": "perdu", "conceded": "abandon"}}
FACES = {"en": {"planeswalk": "planeswalk", "chaos": "chaos", "blank": "blank"},
         "fr": {"planeswalk": "planeswalk", "chaos": "chaos", "blank": "face vierge"}}
TEMPLATES = {
    "start": {"en": "New game: {players}", "fr": "Nouvelle partie : {players}"},
    "turn": {"en": "Turn {number}: {who}", "fr": "Tour {number} : {who}"},
    "phase": {"en": "{phase}", "fr": "{phase}"},
    "event": {"en": "{who} revealed the event {event}", "fr": "{who} révèle l'évènement {event}"},
    "plane": {"en": "plane face up: {plane}", "fr": "plan face visible : {plane}"},
    "end_turn": {"en": "{who} ended the turn", "fr": "{who} termine le tour"},
    "mulligan": {"en": "{player} took a mulligan ({cards} cards)", "fr": "{player} fait une misère ({cards} cartes)"},
    "keep_hand": {"en": "{player} kept their hand", "fr": "{player} garde sa main"},
    "add_piece": {"en": "{player} put {piece} on {square}", "fr": "{player} place {piece} en {square}"},
    "update_piece": {"en": "{piece} changed: {changes}", "fr": "{piece} modifié : {changes}"},
    "move_piece": {"en": "{piece} moved to {square}", "fr": "{piece} va en {square}"},
    "set_positions": {"en": "{count} token(s) placed ({source})", "fr": "{count} jeton(s) placé(s) ({source})"},
    "remove_piece": {"en": "{piece} left the grid", "fr": "{piece} quitte la grille"},
    "choose_bonus": {"en": "{player} chose the {colour} bonus for {piece}",
                     "fr": "{player} choisit le bonus {colour} pour {piece}"},
    "roll_movement": {"en": "{player} rolled {dice} for {piece}", "fr": "{player} a lancé {dice} pour {piece}"},
    "roll_die": {"en": "{player} rolled {dice}{reason}", "fr": "{player} a lancé {dice}{reason}"},
    "change_life": {"en": "{player}: {amount} life ({life})", "fr": "{player} : {amount} PV ({life})"},
    "set_life": {"en": "{player}: life set to {life}", "fr": "{player} : PV fixés à {life}"},
    "change_poison": {"en": "{player}: {amount} poison ({poison})", "fr": "{player} : {amount} poison ({poison})"},
    "commander_damage": {"en": "{player} took {amount} commander damage from {source} ({life})",
                         "fr": "{player} subit {amount} blessures de commandant de {source} ({life})"},
    "player_leaves": {"en": "{player} left the game ({reason})", "fr": "{player} quitte la partie ({reason})"},
    "set_event_counter": {"en": "event counter set to {turns} turns", "fr": "compte-tours fixé à {turns} tours"},
    "roll_planar": {"en": "{player} rolled the planar die ({cost} mana): {face}",
                    "fr": "{player} a lancé le dé planaire ({cost} mana) : {face}"},
    "resolve_planar": {"en": "{kind} resolved", "fr": "{kind} résolu"},
    "horde_draw": {"en": "The Horde revealed {cards}", "fr": "La Horde révèle {cards}"},
    "damage_horde": {"en": "{amount} damage to the Horde: milled {cards}",
                     "fr": "{amount} blessures à la Horde : meule {cards}"},
    "horde_boss_leaves": {"en": "The Horde's boss left the battlefield", "fr": "Le boss de la Horde quitte le champ de bataille"},
    "horde_secret_boss": {"en": "The secret boss {boss} arrives", "fr": "Le boss secret {boss} arrive"},
    "city_defeated": {"en": "The City is defeated", "fr": "La Cité est défaite"},
    "horde_choice": {"en": "The Horde chose at random: {chosen}", "fr": "La Horde choisit au hasard : {chosen}"},
    "note": {"en": "{text}", "fr": "{text}"},
    "set_square": {"en": "square {square} confirmed: {code}", "fr": "case {square} confirmée : {code}"},
    "wave": {"en": "wave {wave} begins", "fr": "la vague {wave} commence"},
    "boss": {"en": "the boss {boss} is revealed and cast", "fr": "le boss {boss} est révélé et lancé"},
    "horde_won": {"en": "the Horde is defeated!", "fr": "la Horde est vaincue !"},
    "city_lost": {"en": "the City has fallen", "fr": "la Cité est tombée"},
    "winner": {"en": "{who} won", "fr": "{who} gagne"},
    "horde": {"en": "the Horde", "fr": "la Horde"},
    "players": {"en": "the players", "fr": "les joueurs"},
    "token": {"en": "a token", "fr": "un jeton"},
    "spell": {"en": "a spell", "fr": "un sort"},
    "nothing": {"en": "nothing", "fr": "rien"},
    "off_grid": {"en": "off the grid", "fr": "hors de la grille"},
    "city": {"en": "City", "fr": "Cité"},
}


@dataclass(frozen=True)
class HistoryEntry:
    """An action as it appears in the history, with what it changed (`summary`)."""

    action: Action
    summary: dict


def _t(key: str, lang: str, **fields) -> str:
    return TEMPLATES[key][lang].format(**fields)


def _piece_name(state: GameState, token) -> str:
    piece = state.pieces.get(tuple(token)) if token else None
    label = f"#{token[1]}" if token else "?"
    return f"{piece.name} ({label})" if piece and piece.name else label


def summarise(before: GameState, after: GameState, action) -> dict:
    """What a person needs to read `action` later: names and the visible consequences."""
    data = action.data
    names = {**before.names, **after.names}
    summary: dict = {"names": {str(k): v for k, v in names.items()}}
    token = data.get("token") or (data.get("piece") and [data["piece"]["player"], data["piece"]["number"]])
    if token:
        summary["piece"] = _piece_name(after, token) if tuple(token) in after.pieces else _piece_name(before, token)
        summary["owner"] = token[0]
    if after.turn.number != before.turn.number:
        summary["turn"] = {"number": after.turn.number, "active": after.turn.active, "horde": after.turn.horde}
    summary["phase"] = [after.turn.phase, after.turn.step]
    if after.events and after.events.revealed and (
            not before.events or before.events.revealed != after.events.revealed or after.events.counted == 0
            and before.events.counted):
        summary["event"] = {"name": after.events.revealed.name, "by": after.events.revealed_by}
    if after.planar and after.planar.face_up != (before.planar.face_up if before.planar else None):
        summary["plane"] = after.planar.face_up
    if after.horde:
        summary["city_life"] = after.horde.city_life
        summary["revealed"] = after.horde.last_revealed
        if before.horde and after.horde.wave != before.horde.wave:
            summary["wave"] = after.horde.wave
        if after.horde.boss_on_battlefield and not (before.horde and before.horde.boss_on_battlefield):
            summary["boss"] = after.horde.boss
        summary["result"] = after.horde.result
    if "player" in data and isinstance(data["player"], int) and data["player"] in names:
        p = after.player(data["player"])
        summary["life"], summary["poison"] = p.life, p.poison
    if action.kind == "roll_movement":
        summary["roll"] = {"die": after.rolls[-1]["die"], "results": after.rolls[-1]["results"]}
    elif action.kind == "mulligan":
        summary["hand_size"] = hand_size(after, data["player"])
    elif action.kind == "resolve_planar":
        summary["trigger"] = before.planar.pending[data.get("index", 0)]["kind"]
    elif action.kind == "horde_secret_boss":
        summary["secret_boss"] = after.horde.secret_boss
    if after.winner and not before.winner:
        summary["winner"] = after.winner
    return summary


def _name(summary: dict, player) -> str:
    return summary["names"].get(str(player), str(player)) if player is not None else "?"


def _turn_text(summary: dict, lang: str) -> str:
    turn = summary["turn"]
    who = _t("horde", lang) if turn["horde"] else " & ".join(_name(summary, p) for p in turn["active"])
    return _t("turn", lang, number=turn["number"], who=who)


def _dice(roll_data: dict, lang: str) -> str:
    """'D12: 7' / 'D12 : 7' (French typography), '2×D10: 3 + 4 = 7' for several dice."""
    results, die = roll_data["results"], roll_data.get("die", "")
    colon = " : " if lang == "fr" else ": "
    if len(results) == 1:
        return f"{die}{colon}{results[0]}"
    return f"{len(results)}×{die}{colon}{' + '.join(map(str, results))} = {sum(results)}"


def _cards(cards: list[dict], lang: str) -> str:
    if not cards:
        return _t("nothing", lang)
    return ", ".join(c["name"] or _t("token" if c["token"] else "spell", lang) for c in cards)


def _main_text(entry: HistoryEntry, lang: str) -> str:
    action, s = entry.action, entry.summary
    kind, data = action.kind, action.data
    fields = {k: v for k, v in data.items() if isinstance(v, (str, int))}
    fields.update(player=_name(s, data.get("player", s.get("owner"))), piece=s.get("piece", ""))
    if kind == "start":
        return _t("start", lang, players=", ".join(s["names"].values()))
    if kind in ("next_phase", "end_turn"):
        if "turn" in s:
            return _turn_text(s, lang)
        phase, step = s["phase"]
        text = PHASE_NAMES[lang].get(phase, phase)
        return text + (f" ({PHASE_NAMES[lang][step]})" if step else "")
    if kind in ("roll_movement", "roll_die"):
        dice = _dice(data if kind == "roll_die" else s["roll"], lang)
        reason = f" ({data['reason']})" if data.get("reason") else ""
        if data.get("player") is None and kind == "roll_die":
            fields["player"] = "—"
        return _t(kind, lang, **{**fields, "dice": dice, "reason": reason})
    if kind == "choose_bonus":
        return _t(kind, lang, **{**fields, "colour": COLOUR_NAMES[lang].get(data.get("colour"), "?")})
    if kind in ("add_piece", "move_piece"):
        at = data.get("at") if kind == "move_piece" else data["piece"].get("at")
        square = square_label(tuple(at)) if at is not None else _t("off_grid", lang)
        return _t(kind, lang, **{**fields, "square": square})
    if kind == "set_square":
        return _t(kind, lang, square=square_label(tuple(data["at"])), code=data["code"])
    if kind == "set_positions":
        return _t(kind, lang, count=len(data["positions"]), source=data.get("source", ""))
    if kind == "update_piece":
        changes = ", ".join(f"{k}={v}" for k, v in (data.get("changes") or {}).items())
        return _t(kind, lang, **{**fields, "changes": changes})
    if kind in ("change_life", "set_life", "commander_damage"):
        life = f"{_t('city', lang)} {s['city_life']}" if "city_life" in s else s.get("life")
        amount = f"{data['amount']:+d}" if kind == "change_life" else data.get("amount")
        return _t(kind, lang, **{**fields, "amount": amount, "life": life, "source": _name(s, data.get("source"))})
    if kind == "change_poison":
        return _t(kind, lang, **{**fields, "amount": f"{data['amount']:+d}", "poison": s.get("poison")})
    if kind == "mulligan":
        return _t(kind, lang, **{**fields, "cards": s.get("hand_size", "?")})
    if kind == "player_leaves":
        reason = data.get("reason", "lost")
        return _t(kind, lang, **{**fields, "reason": REASONS[lang].get(reason, reason)})
    if kind == "roll_planar":
        return _t(kind, lang, **{**fields, "face": FACES[lang][data["face"]]})
    if kind == "resolve_planar":
        return _t(kind, lang, kind=s.get("trigger", "planar"))
    if kind in ("horde_draw", "damage_horde"):
        return _t(kind, lang, **{**fields, "cards": _cards(s.get("revealed", []), lang)})
    if kind == "horde_secret_boss":
        return _t(kind, lang, boss=s.get("secret_boss", ""))
    if kind == "horde_choice":
        return _t(kind, lang, chosen=data.get("chosen"))
    return _t(kind, lang, **fields)


def describe(entry: HistoryEntry, lang: str = "en") -> str:
    """One history line: the action's local time (HH:MM) and what happened, in "en" or "fr"."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, got {lang!r}")
    s = entry.summary
    parts = [_main_text(entry, lang)]
    if "event" in s:
        parts.append(_t("event", lang, who=_name(s, s["event"]["by"]), event=s["event"]["name"]))
    if "plane" in s and s["plane"]:
        parts.append(_t("plane", lang, plane=s["plane"]))
    if "boss" in s:
        parts.append(_t("boss", lang, boss=s["boss"]))
    if "wave" in s:
        parts.append(_t("wave", lang, wave=s["wave"]))
    if s.get("result") == "horde_defeated":
        parts.append(_t("horde_won", lang))
    elif s.get("result") == "city_defeated" and entry.action.kind != "city_defeated":
        parts.append(_t("city_lost", lang))
    if "turn" in s and entry.action.kind not in ("next_phase", "end_turn"):  # e.g. a revealed boss ends the turn
        parts.append(_turn_text(s, lang))
    if "winner" in s:
        parts.append(_t("winner", lang, who=" & ".join(_name(s, p) for p in s["winner"])))
    time = datetime.fromisoformat(entry.action.time).strftime("%H:%M") if entry.action.time else "--:--"
    return f"{time} " + "; ".join(parts)
