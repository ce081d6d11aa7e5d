"""The Horde (HO): its waves and decks, its draws and casts, damage that mills it, its bosses, its random
choices."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from boards.tokens import PLAYER_COUNT
from companion.game.actions.common import handles, nested, permutation, require, said, words
from companion.game.actions.turns import end_turn
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import HORDE_DIFFICULTIES, GameState, HordeCard, HordeState, HordeWave, Roll
from companion.rules.wording import Message


def _horde_wave(d: ActionData) -> HordeWave:
    """One wave of the `start` action, every card checked (HO 200.1–200.2)."""
    cards = []
    for index, raw in enumerate(d.sequence("cards"), start=1):
        c = d.sub(raw, f"cards[{index}]")
        permanent = None if c.data.get("permanent") is None else c.flag("permanent")
        cards.append(HordeCard(c.text("name", default="", limit=200), c.flag("token"), permanent))
    return HordeWave(d.text("level", limit=40), tuple(cards), d.text("boss", default="Boss", limit=200))


def start_horde(state: GameState, d: ActionData, ids: list[int]) -> None:
    """The Horde's part of the `start` action: difficulty, waves, the City's life, its token colour (HO 103,
    300.2, 401–404), then its first wave."""
    difficulty = d.choice("horde_difficulty", HORDE_DIFFICULTIES, default="beginner")
    base, levels = HORDE_DIFFICULTIES[difficulty]
    waves = [_horde_wave(d.sub(raw, f"horde_waves[{i}]")) for i, raw in enumerate(d.sequence("horde_waves", default=[]),
                                                                                   start=1)]
    require(len(waves) == len(levels), "game.error.horde_waves", "HO 103.3a", difficulty_key=f"game.difficulty.{difficulty}",
            needed=len(levels), got=len(waves))
    start = base if difficulty == "infernal" else base - 10 * len(ids)  # HO 300.2, 404.1a
    require(start > 0, "game.error.city_life", "HO 300.2", players=len(ids), life=start)
    free_colours = [c for c in range(PLAYER_COUNT, 0, -1) if c not in ids]
    colour = d.integer("horde_colour", minimum=1, maximum=PLAYER_COUNT, default=free_colours[0])
    require(colour not in ids, "game.error.same_colour", "MT 1.03.a", colour=colour)
    state.horde = HordeState(difficulty, start, start, waves=waves, secret_boss=d.text("secret_boss", default="Boss secret",
                                                                                        limit=200), colour=colour)
    next_wave(state)


def next_wave(state: GameState) -> None:
    """HO 202.2–202.5: exile the current deck face down and start the next; none left → Horde defeated.
    The battlefield stays as it is (202.5a): a boss still in play stays a boss. HO 105.6 (only the City
    is defeated when both would be) holds by construction: the City falls as its life reaches 0, which
    ends the game before anything else can happen."""
    horde = horde_of(state)
    if not horde.waves:
        horde.result = "horde_defeated"  # HO 202.4, 105.2
        return
    wave = horde.waves.pop(0)
    if horde.boss_on_battlefield and state.rules_edition >= 3:  # HO 202.5a: still on the battlefield
        horde.earlier_bosses.append(horde.boss)
    horde.wave += 1
    horde.wave_total = max(horde.wave_total, horde.wave + len(horde.waves))
    horde.level, horde.library, horde.boss = wave.level, list(wave.cards), wave.boss
    horde.boss_in_library, horde.boss_on_battlefield, horde.graveyard = True, False, []


def horde_of(state: GameState) -> HordeState:
    """The game's Horde, or the refusal of an action that needs one."""
    if state.horde is None:
        raise GameError("game.error.not_horde")
    return state.horde


def _shuffle_graveyard_in(state: GameState, d: ActionData) -> None:
    """HO 202.1, 203: « La Horde mélange son cimetière dans son Deck »: the graveyard and the deck are
    shuffled together (the boss stays apart under the deck, HO 200.2a). Saves of edition 2 put the
    shuffled graveyard on top, as they were played."""
    horde = horde_of(state)
    if state.rules_edition < 3:
        order = permutation(d, "order", len(horde.graveyard))
        horde.library = [horde.graveyard[i] for i in order] + horde.library
    else:
        cards = horde.graveyard + horde.library
        horde.library = [cards[i] for i in permutation(d, "order", len(cards))]
    horde.graveyard = []


def _boss_revealed(state: GameState, d: ActionData) -> None:
    """HO 202.1: exile the boss instead, end the turn, shuffle the graveyard into the deck, cast the
    boss for free, and take an extra turn if it was the Horde's turn."""
    horde = horde_of(state)
    _shuffle_graveyard_in(state, d)
    horde.boss_in_library, horde.boss_on_battlefield = False, True
    horde.last_revealed.append(HordeCard(horde.boss, token=False, boss=True))
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    end_turn(state, None, end_step=False)


def _cast(horde: HordeState, card: HordeCard) -> None:
    """A card the Horde casts for free (HO 201.2, 201.7): a permanent stays on the battlefield, any
    other spell ends in the graveyard; a card the table has not described waits in `casting`."""
    if card.permanent is None:
        horde.casting.append(card)
    elif card.permanent:
        horde.battlefield.append(replace(card, wave=horde.wave))
    else:
        horde.graveyard.append(card)


def _reveal_horde_cards(state: GameState, d: ActionData, count: int | None, mill: bool = False) -> None:
    """Reveal from the top: for count None, until a non-token (the draw step, HO 201.2); else `count`
    cards, milled to the graveyard (HO 301.3, 301.4) or drawn one by one (HO 201.7: a token enters,
    another card is cast). Tokens that enter are on the battlefield. Reaching the boss triggers
    HO 202.1; an empty deck, the next wave (202.3)."""
    horde = horde_of(state)
    horde.last_revealed = []
    while count is None or len(horde.last_revealed) < count:
        if not horde.library:
            if horde.boss_in_library:
                _boss_revealed(state, d)
                return
            break
        card = horde.library.pop(0)
        horde.last_revealed.append(card)
        if mill:
            horde.graveyard.append(card)
        elif card.token:
            horde.battlefield.append(replace(card, wave=horde.wave))
        else:
            _cast(horde, card)
            if count is None:
                break
    if not horde.library and not horde.boss_in_library:
        next_wave(state)


@handles("horde_draw")
def _horde_draw(state: GameState, d: ActionData) -> None:
    """HO 201.2: in its draw step the Horde exiles from the top until a non-token; tokens enter the
    battlefield, the non-token is cast without paying its mana cost. Also in an attack phase that
    a prevented attack turned into a draw phase (HO 201.3a)."""
    horde_of(state)
    turn = state.turn
    require(turn.horde and (turn.phase == "draw" or (turn.phase == "combat" and turn.draw_instead_of_attack)),
            "game.error.horde_draw_timing", "HO 201.2")
    _reveal_horde_cards(state, d, None)


@handles("horde_draws")
def _horde_draws(state: GameState, d: ActionData) -> None:
    """HO 201.7: whenever the Horde should draw (an effect, outside its draw step), it exiles its top
    card instead: a token enters the battlefield, any other card is cast for free."""
    horde_of(state)
    _reveal_horde_cards(state, d, d.integer("count", minimum=1, maximum=1000, default=1))


@handles("damage_horde")
def _damage_horde(state: GameState, d: ActionData) -> None:
    """HO 301.3: damage or life loss to the Horde mills (revealed) that many cards; it gains no life (201.6)."""
    horde_of(state)
    _reveal_horde_cards(state, d, d.integer("amount", minimum=1, maximum=10**6), mill=True)


@handles("horde_cast_resolves")
def _horde_cast_resolves(state: GameState, d: ActionData) -> None:
    """The table says where a card the Horde cast went: a permanent stays on the battlefield, any
    other spell goes to the graveyard (HO 201.2, so a reshuffle never puts permanents back)."""
    horde = horde_of(state)
    index = d.integer("index", default=0)
    require(0 <= index < len(horde.casting), "game.error.no_horde_card", index=index)
    card = replace(horde.casting.pop(index), permanent=d.flag("permanent"))
    _cast(horde, card)


@handles("horde_leaves_battlefield")
def _horde_leaves_battlefield(state: GameState, d: ActionData) -> None:
    """One of the Horde's permanents (a token, a cast permanent) leaves the battlefield: to the
    graveyard, or exiled face down if its deck is not the current one (HO 202.5b)."""
    horde = horde_of(state)
    index = d.integer("index")
    require(0 <= index < len(horde.battlefield), "game.error.no_horde_card", index=index)
    card = horde.battlefield.pop(index)
    if card.wave == horde.wave:
        horde.graveyard.append(replace(card, wave=None))


BOSSES = ("wave", "secret", "earlier")


def bosses_out(horde: HordeState) -> list[str]:
    """Which bosses are on the battlefield: the wave's, the secret boss, bosses of earlier waves."""
    return [which for which, there in zip(BOSSES, (horde.boss_on_battlefield, horde.secret_boss_on_battlefield,
                                                   bool(horde.earlier_bosses))) if there]


@handles("horde_boss_leaves")
def _horde_boss_leaves(state: GameState, d: ActionData) -> None:
    """HO 202.2: the wave changes when no boss is on the battlefield — not the wave's boss, nor the
    secret boss, nor the boss of an earlier wave still there (HO 202.5a; leaving, it is exiled face down,
    202.5b). `which` says which one left ("wave", "secret", "earlier" with its `index` in
    `earlier_bosses`; any of them when only one is out). Reading: "no boss on the battlefield" counts
    once the wave's boss has come out."""
    horde = horde_of(state)
    out = bosses_out(horde)
    require(bool(out), "game.error.no_boss")
    alone = len(out) == 1 and (out != ["earlier"] or len(horde.earlier_bosses) == 1)
    which = d.choice("which", BOSSES, default=out[0]) if alone or "which" in d.data else None
    require(which is not None, "game.error.which_boss", "HO 202.2")
    require(which in out, "game.error.boss_not_out", "HO 202.2", which_key=f"game.boss.{which}")
    if which == "wave":
        horde.boss_on_battlefield = False
    elif which == "secret":
        horde.secret_boss_on_battlefield = False
    else:
        index = d.integer("index", default=0)
        require(0 <= index < len(horde.earlier_bosses), "game.error.no_horde_card", index=index)
        del horde.earlier_bosses[index]
    if not bosses_out(horde) and not horde.boss_in_library:
        next_wave(state)


@handles("horde_secret_boss")
def _horde_secret_boss(state: GameState, d: ActionData) -> None:
    """HO 203: a win/lose-the-game effect or a shown infinite loop brings out the secret boss instead:
    shuffle the graveyard into the deck, cast the secret boss, end the turn (extra turn if the Horde's)."""
    horde = horde_of(state)
    require(not horde.secret_boss_on_battlefield, "game.error.secret_boss_out", "HO 203")
    d.text("reason", default="", limit=500)
    _shuffle_graveyard_in(state, d)
    horde.secret_boss_on_battlefield = True
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    end_turn(state, None, end_step=False)


@handles("horde_attack_prevented")
def _horde_attack_prevented(state: GameState, d: ActionData) -> None:
    """HO 201.3a: an effect kept a Horde creature from attacking: its source is exiled (by the table)
    and the Horde's next attack phase is replaced by a draw phase."""
    horde_of(state).attacks_replaced += 1
    d.text("source", default="", limit=200)


@handles("city_defeated")
def _city_defeated(state: GameState, d: ActionData) -> None:
    """HO 105.4–105.5: an effect says a player loses, or that an opponent wins."""
    horde_of(state).result = "city_defeated"
    d.text("reason", default="", limit=500)


@handles("horde_choice")
def _horde_choice(state: GameState, d: ActionData) -> None:
    """HO 201.5: the Horde chooses at random; the choice is logged."""
    horde_of(state)
    options = d.sequence("options", limit=1000)
    chosen = d.data.get("chosen")
    require(bool(options) and chosen in options, "game.error.horde_choice")
    state.rolls.append(Roll("choice", (chosen,), "horde", d.text("question", default="", limit=200)))


def cards_words(cards: list[HordeCard]) -> list[dict[str, Any]]:
    """Horde cards, worded: their names, or "a token" / "a spell" for a deck known by its counts."""
    if not cards:
        return [nested("game.card.none")]
    return [nested("game.card.named", name=c.name) if c.name
            else nested("game.card.token" if c.token else "game.card.spell") for c in cards]


@words("horde_draw", "horde_draws")
def _horde_drew(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("horde_draw", cards_words=cards_words(horde_of(after).last_revealed))


@words("damage_horde")
def _horde_damaged(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("damage_horde", amount=data["amount"], cards_words=cards_words(horde_of(after).last_revealed))


@words("horde_cast_resolves")
def _horde_cast_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    card = horde_of(before).casting[data.get("index", 0)]
    return said("horde_cast_resolves", cards_words=cards_words([card]),
                zone_key="game.zone.battlefield" if data.get("permanent") else "game.zone.graveyard")


@words("horde_leaves_battlefield")
def _horde_left_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("horde_leaves_battlefield", cards_words=cards_words([horde_of(before).battlefield[data["index"]]]))


@words("horde_boss_leaves")
def _boss_left_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    which = data.get("which") or bosses_out(horde_of(before))[0]
    return said("horde_boss_leaves", which_key=f"game.boss.{which}")


@words("horde_secret_boss")
def _secret_boss_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("horde_secret_boss", boss=horde_of(after).secret_boss)


@words("horde_attack_prevented")
def _attack_prevented_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("horde_attack_prevented", source=data.get("source") or "—")


@words("city_defeated")
def _city_defeated_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("city_defeated")


@words("horde_choice")
def _horde_chose(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("horde_choice", chosen=str(data.get("chosen")))
