"""The Table's presenter for the counters beside life and poison (#27): each panel's counters (the unused
ones hidden), the monarch's and the initiative's badges and who they may go to (CR 724, 725), day/night
(CR 726). Without a window: from games played through `companion.game`."""
from __future__ import annotations

from test_app_presenters import new_game

from companion.app.screens.table import presenter as table


def views(game, lang="en"):
    return {view.player: view for view in table.panels(game, lang)}


def test_each_panel_holds_poison_then_energy_experience_and_rad():
    game = new_game()
    game.change_poison(1, 2)
    game.change_counter(1, "energy", 3)
    anna = views(game)[1]
    assert anna.counters == (("poison", 2), ("energy", 3), ("experience", 0), ("rad", 0))
    assert anna.counter("energy") == 3
    assert list(table.counter_choices(anna, "fr")) == ["Poison 2", "Énergie 3", "Expérience 0", "Rad 0"]
    assert table.counter_choices(anna, "en")["Energy 3"] == "energy"


def test_the_counters_in_use_are_listed_and_the_unused_ones_stay_hidden():
    game = new_game()
    assert table.counters_in_use(views(game)[2], "poison", "en") == ""
    game.change_counter(2, "rad", 4)
    game.change_poison(2, 1)
    bruno = views(game)[2]
    assert table.counters_in_use(bruno, "poison", "en") == "Rad 4"          # the row shows poison
    assert table.counters_in_use(bruno, "rad", "fr") == "Poison 1"          # the row shows rad: poison stays in sight


def test_the_monarch_badge_is_on_its_holder_only_and_goes_to_the_players_still_in_CR_724_2():
    game = new_game()
    assert table.designation_text(game.state, "monarch", "en") == "Monarch: nobody"
    assert list(table.give_choices(game.state, "monarch", "en").values()) == [1, 2, 3]
    game.give_monarch(2)
    game.give_initiative(2)
    shown = views(game)
    assert shown[2].badges == ("monarch", "initiative") and shown[1].badges == shown[3].badges == ()
    assert table.designation_text(game.state, "initiative", "fr") == "Initiative : Bruno"
    game.player_leaves(3, "conceded")
    assert table.give_choices(game.state, "monarch", "fr") == {"Anna devient le monarque": 1}
    assert table.give_choices(game.state, "initiative", "en") == {"Anna takes the initiative": 1}


def test_day_night_is_not_yet_then_one_tap_makes_it_day_then_night_CR_726():
    game = new_game()
    assert table.day_night_text(game.state, "en") == "Day / night: not yet"
    assert table.next_day_night(game.state) == "day"
    game.set_day_night(table.next_day_night(game.state))
    assert table.day_night_text(game.state, "fr") == "Jour" and table.next_day_night(game.state) == "night"
    game.set_day_night(table.next_day_night(game.state))
    assert table.day_night_text(game.state, "en") == "Night" and table.next_day_night(game.state) == "day"
