"""Every action handler type-checks its data (issue 19): a journal row edited by hand or damaged on disk is a
GameError naming the action and the field, never an AttributeError, TypeError, KeyError or RecursionError."""
import copy
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards import library_boards, load_board
from companion.game import (Dice, Entry, Game, GameError, GameSetup, GameState, HordeCard, HordeWave, PlayerSetup, SaveError,
                            prebuilt_event_deck)
from companion.game.actions import HANDLERS, WARNINGS, WORDINGS
from companion.game.reducer import Action, NeedsShuffle, apply
from companion.rules import Piece

DUEL = load_board(library_boards()["duel-20x12"])


def planechase_game() -> Game:
    people = [PlayerSetup("Anna", 1, planar_deck=["Naya", "Tazeem"]), PlayerSetup("Bruno", 2, planar_deck=["Agyrem"])]
    game = Game.new(GameSetup(people, DUEL, planechase=True, events=prebuilt_event_deck(), starting_player=1),
                    dice=Dice.seeded(7))
    game.add_piece(Piece(1, 2, name="Bear", mana_value=2, power=2, toughness=2, colours={"G", "W"}, at=(16, 5)))
    game.mulligan(1), game.keep_hand(1)
    game.next_phase()
    game.next_phase(), game.next_phase()
    game.choose_bonus((1, 2), "G") if game.bonus_options((1, 2)) else game.note("no choice")
    while game.state.turn.step != "creatures":
        game.next_phase()
    game.roll_movement((1, 2))
    game.move_piece((1, 2), (16, 4))
    game.next_phase()
    game.roll_planar_die()
    game.set_event_counter(3)
    game.update_piece((1, 2), tapped=True)
    game.set_positions({(1, 2): (16, 3)})
    game.add_piece(Piece(1, 3, name="Elf", mana_value=1), entry=None)
    game.place_piece((1, 3), (17, 6), entry=Entry("returns"), by_card=True)
    game.change_life(2, -3), game.set_life(2, 15), game.change_poison(2, 1), game.commander_damage(2, 1, 2)
    game.roll_die("D6", player=1, reason="coin")
    game.set_square((0, 0), "WU")
    game.remove_piece((1, 3))
    game.end_turn()
    game.player_leaves(2, "conceded")
    return game


def horde_game() -> Game:
    waves = [HordeWave("low", [HordeCard("Zombie", token=True), HordeCard("Raise", token=False)], "Boss"),
             HordeWave("medium", [HordeCard("Ghoul", token=True, permanent=None)], "Boss 2")]
    game = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], DUEL, format="horde",
                              horde_difficulty="intermediate", horde_waves=waves, starting_player=1),
                    dice=Dice.seeded(3))
    game.next_phase()
    game.end_turn(), game.end_turn()
    while game.state.turn.phase != "draw":
        game.next_phase()
    game.horde_draw()
    game.horde_choice(["Anna", "Bruno"], "target")
    game.horde_attack_prevented("Propaganda")
    game.damage_horde(1)
    return game


def recorded_actions() -> list[tuple[Action, object]]:
    """Every action of two games with the state it was applied to."""
    pairs = []
    for game in (planechase_game(), horde_game()):
        state = Game.from_dict({**game.to_dict(), "cursor": 1}).state
        for action in game.actions[1:]:
            pairs.append((action, state))
            state = apply(state, action)
    return pairs


ACTIONS = recorded_actions()


def test_the_games_cover_most_action_kinds():
    assert len({a.kind for a, _ in ACTIONS} | {"start"}) >= 25 and len(HANDLERS) >= 30


def test_issue_19_rows_are_clear_errors():
    """The rows of the audit: players [1, 2], board_rows 5, a piece that is not a mapping, a deep nesting."""
    game = planechase_game()
    start = game.to_dict()["actions"][0]
    for field, value, where in [("players", [1, 2], "players[1]"), ("board_rows", 5, "board_rows"),
                                ("house_rules", [[[[]]]], "house_rules"), ("events", {"a": 1}, "events")]:
        bad = copy.deepcopy(start)
        bad["data"][field] = value
        with pytest.raises(GameError, match="start: field '" + re.escape(where) + "' must be") as error:
            apply(GameState(), Action.from_dict(bad))
        assert error.value.key == "game.error.bad_field" and error.value.fields["action"] == "start"
        assert "le champ" in error.value.text("fr")
    document = game.to_dict()
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    document["actions"][3]["data"]["player"] = deep
    with pytest.raises(SaveError, match=r"entry 4 cannot be replayed: keep_hand: field 'player' must be a whole number"):
        Game.from_dict(document)


WRONG = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                  st.text(max_size=5), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                                            st.integers(), max_size=2),
                  st.just([[[[[[]]]]]]), st.just({"piece": None}), st.just([1, 2]), st.just([-1, 99]))


def _paths(value, prefix=()):
    """Every place in an action's data where a value can be replaced."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield prefix + (key,)
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:4]):
            yield prefix + (index,)
            yield from _paths(item, prefix + (index,))


def _replaced(data, path, value):
    data = copy.deepcopy(data)
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(ACTIONS) - 1), choice=st.integers(0, 10**6), value=WRONG, drop=st.booleans())
def test_any_field_of_any_action_replaced_by_a_wrong_value_is_a_game_error(index, choice, value, drop):
    """Each field of each recorded action, replaced by a value of a wrong type (or removed): the action is
    applied or refused with a GameError — never another exception."""
    action, state = ACTIONS[index]
    paths = list(_paths(action.data))
    if not paths:
        data = {"extra": value}
    else:
        path = paths[choice % len(paths)]
        data = copy.deepcopy(action.data)
        if drop:
            target = data
            for step in path[:-1]:
                target = target[step]
            del target[path[-1]]
        else:
            data = _replaced(data, path, value)
    try:
        apply(state, Action(action.kind, data, action.time))
    except (GameError, NeedsShuffle):
        pass


def test_unknown_action_and_data_that_is_not_a_mapping():
    state = ACTIONS[0][1]
    with pytest.raises(GameError, match="unknown action 'teleport'"):
        apply(state, Action("teleport", {}))
    with pytest.raises(GameError, match="note: field 'data' must be a mapping of fields"):
        apply(state, Action("note", ["text"]))


def test_every_action_kind_has_its_rules_and_its_words_in_one_family_module():
    """Issue 30: one home per family of actions — a kind's handler, its history wording and its warning (if any)
    live in the same module of companion.game.actions, so adding an action touches that module only."""
    # 38 kinds, and since #27 change_counter, give_designation and set_day_night
    assert set(HANDLERS) == set(WORDINGS) and len(HANDLERS) == 41
    assert set(WARNINGS) <= set(HANDLERS)
    for kind, handler in HANDLERS.items():
        assert handler.__module__ == WORDINGS[kind].__module__, kind
        assert handler.__module__.startswith("companion.game.actions."), kind
        if kind in WARNINGS:
            assert WARNINGS[kind].__module__ == handler.__module__, kind
