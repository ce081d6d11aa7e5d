"""The counters tables keep beside life and poison (#27): energy, experience and rad (CR 122.1), the monarch
(CR 724), the initiative (CR 725) and day/night (CR 726) — each an action, saved, undoable and in the history;
quick taps on a counter join like life's; an older save replays as it did and exports without them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_game_counter_taps import TapClock, new_game, taps

from companion.game import Game, GameError, load_game

OLD_SAVES = json.loads((Path(__file__).parent / "fixtures" / "saves" / "edition-3-games.json")
                       .read_text(encoding="utf-8"))


def test_energy_experience_and_rad_counters_change_per_player_and_are_in_the_history_CR_122_1():
    game = new_game(TapClock())
    game.change_counter(1, "energy", 3)
    game.change_counter(2, "experience", 1)
    game.change_counter(1, "rad", 2)
    game.change_counter(1, "energy", -1)
    anna, bruno = game.state.player(1), game.state.player(2)
    assert (anna.energy, anna.experience, anna.rad) == (2, 0, 2)
    assert (bruno.energy, bruno.experience, bruno.rad) == (0, 1, 0)
    assert game.history("en")[-4:][0].endswith("Anna: +3 energy (3)")
    assert game.history("fr")[-3].endswith("Bruno : +1 expérience (1)")
    assert game.history("en")[-1].endswith("Anna: -1 energy (2)")


def test_a_counter_never_goes_below_zero_and_an_unknown_counter_is_refused():
    game = new_game(TapClock())
    game.change_counter(1, "rad", 1)
    with pytest.raises(GameError) as refused:
        game.change_counter(1, "rad", -2)
    assert refused.value.key == "game.error.counter_below_zero"
    assert "Anna" in refused.value.text("en") and "rad" in refused.value.text("en")
    with pytest.raises(GameError):
        game.change_counter(1, "mana", 1)
    assert game.state.player(1).rad == 1


def test_quick_taps_on_a_counter_are_one_change_one_history_line_and_one_undo():
    clock = TapClock()
    game = new_game(clock)
    lines, actions = len(game.history()), len(game.actions)
    taps(clock, lambda: game.change_counter(2, "energy", 1, join=True), 5)
    assert game.state.player(2).energy == 5
    assert len(game.actions) == actions + 1 and len(game.history()) == lines + 1
    assert game.history("en")[-1].endswith("Bruno: +5 energy (5)")
    game.undo()
    assert game.state.player(2).energy == 0
    game.redo()
    assert game.state.player(2).energy == 5


def test_there_is_one_monarch_at_a_time_among_the_players_still_in_CR_724_2():
    game = new_game(TapClock())
    assert game.state.monarch is None
    game.give_monarch(1)
    game.give_monarch(2)
    assert game.state.monarch == 2
    assert game.history("en")[-1].endswith("Bruno becomes the monarch")
    assert game.history("fr")[-1].endswith("Bruno devient le monarque")
    with pytest.raises(GameError) as refused:
        game.give_monarch(2)
    assert refused.value.key == "game.error.already_monarch"
    game.player_leaves(3, "conceded")
    with pytest.raises(GameError) as refused:
        game.give_monarch(3)
    assert refused.value.key == "game.error.player_left"
    game.undo()
    game.undo()
    assert game.state.monarch == 1


def test_the_initiative_has_one_holder_apart_from_the_monarch_CR_725_2():
    game = new_game(TapClock())
    game.give_monarch(1)
    game.give_initiative(3)
    game.give_initiative(2)
    assert (game.state.monarch, game.state.initiative) == (1, 2)
    assert game.history("en")[-1].endswith("Bruno takes the initiative")
    assert game.history("fr")[-1].endswith("Bruno prend l'initiative")


def test_a_monarch_who_leaves_passes_it_to_the_active_player_CR_724_4():
    game = new_game(TapClock())
    game.next_phase()        # turn 1: Anna's
    game.give_monarch(2)
    game.give_initiative(2)
    game.player_leaves(2)
    assert (game.state.monarch, game.state.initiative) == (1, 1)


def test_a_monarch_who_leaves_on_their_own_turn_passes_it_to_the_next_player_CR_724_4():
    game = new_game(TapClock())
    game.next_phase()        # turn 1: Anna's
    game.give_monarch(1)
    game.player_leaves(1, "conceded")
    assert game.state.monarch == 2


def test_day_and_night_are_unset_until_a_card_says_then_change_and_undo_CR_726():
    game = new_game(TapClock())
    assert game.state.day_night is None
    game.set_day_night("day")
    game.set_day_night("night")
    assert game.state.day_night == "night"
    assert game.history("en")[-1].endswith("It becomes night")
    assert game.history("fr")[-2].endswith("Il fait jour")
    with pytest.raises(GameError) as refused:
        game.set_day_night("night")
    assert refused.value.key == "game.error.already_night"
    with pytest.raises(GameError):
        game.set_day_night("dusk")
    game.undo()
    assert game.state.day_night == "day"
    game.undo()
    assert game.state.day_night is None


def test_counters_designations_and_day_night_are_saved_and_load_back(tmp_path):
    clock = TapClock()
    game = new_game(clock, save_dir=tmp_path)
    taps(clock, lambda: game.change_counter(3, "experience", 1, join=True), 3)
    game.give_monarch(3)
    game.give_initiative(1)
    game.set_day_night("day")
    loaded = load_game(game.store.path)
    assert loaded.state == game.state
    assert loaded.state.player(3).experience == 3
    assert (loaded.state.monarch, loaded.state.initiative, loaded.state.day_night) == (3, 1, "day")
    assert loaded.history("en") == game.history("en")
    exported = game.to_dict()["state"]
    assert (exported["monarch"], exported["initiative"], exported["day_night"]) == (3, 1, "day")
    assert exported["players"][2]["experience"] == 3 and "energy" not in exported["players"][2]


@pytest.mark.parametrize("saved", OLD_SAVES, ids=[g["name"] for g in OLD_SAVES])
def test_an_older_save_replays_unchanged_and_then_takes_the_new_counters(saved):
    game = Game.from_dict(saved["document"])
    state = game.to_dict()["state"]
    assert not {"monarch", "initiative", "day_night"} & set(state)
    assert all(not {"energy", "experience", "rad"} & set(player) for player in state["players"])
    assert game.history("en") == saved["history_en"]
    while game.state.over:   # a finished game takes no action: back to before its end
        game.undo()
    player = game.state.alive[0].id
    game.change_counter(player, "energy", 2)
    game.give_monarch(player)
    assert game.state.player(player).energy == 2 and game.state.monarch == player
