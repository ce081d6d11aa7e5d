"""Taps in quick succession on a counter (life, poison, commander damage) are one change (#27): 21 taps
for 21 commander damage were 21 history lines and 21 undo steps. Joined, they are one action ("−7"),
one history line, one undo step, saved in one write (an undo and the joined action) that loads back."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from game_dice import with_corner_starts

from boards import Board
from companion.game import Dice, Game, GameError, GameSetup, PlayerSetup, load_game
from companion.game.game import JOIN_SECONDS

BOARD = Board.from_rows(with_corner_starts([" ".join(["U"] * 20)] * 12), name="Test")


class TapClock:
    """The table's clock, moved by the test between taps."""

    def __init__(self):
        self.now = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def new_game(clock: TapClock, save_dir=None) -> Game:
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2), PlayerSetup("Chloé", 3)], BOARD,
                      starting_player=1)
    return Game.new(setup, dice=Dice.seeded(1), clock=clock, save_dir=save_dir)


def taps(clock: TapClock, tap, count: int, gap: float = 1) -> None:
    for _ in range(count):
        tap()
        clock.wait(gap)


def test_quick_life_taps_are_one_change_one_history_line_and_one_undo():
    clock = TapClock()
    game = new_game(clock)
    lines, actions = len(game.history()), len(game.actions)
    taps(clock, lambda: game.change_life(1, -1, join=True), 7)
    assert game.state.player(1).life == 13
    assert len(game.actions) == actions + 1 and len(game.history()) == lines + 1
    assert game.actions[-1].data["amount"] == -7
    assert game.history("en")[-1].endswith("Anna: -7 life (13)")
    game.undo()
    assert game.state.player(1).life == 20 and len(game.actions) == actions


def test_21_commander_damage_in_quick_taps_is_one_line_and_proposes_the_player_out_CR_903_10a():
    clock = TapClock()
    game = new_game(clock)
    lines = len(game.history())
    taps(clock, lambda: game.commander_damage(1, 2, 1, join=True), 21)
    assert game.state.player(1).commander_damage == {"2": 21} and game.state.player(1).life == -1
    assert len(game.history()) == lines + 1
    assert [e.player for e in game.eliminations()] == [1]
    game.undo()
    assert game.state.player(1).commander_damage.get("2", 0) == 0 and game.state.player(1).life == 20


def test_a_pause_another_counter_another_player_or_another_commander_starts_a_new_change():
    clock = TapClock()
    game = new_game(clock)
    actions = len(game.actions)
    game.change_life(1, -1, join=True)
    clock.wait(JOIN_SECONDS + 1)
    game.change_life(1, -1, join=True)                       # after a pause
    game.change_life(2, -1, join=True)                       # another player
    game.change_poison(2, 1, join=True)                      # another counter
    game.commander_damage(2, 1, 1, join=True)
    game.commander_damage(2, 3, 1, join=True)                # another commander
    game.commander_damage(2, 3, 1, partner="Tymna", join=True)   # a partner, counted apart (CR 702.124)
    game.change_life(1, -4)                                  # typed on the keypad: never joined to a tap before
    assert [a.data.get("amount") for a in game.actions[actions:]] == [-1, -1, -1, 1, 1, 1, 1, -4]


def test_a_tap_after_an_undo_is_a_new_change_and_the_redo_is_dropped():
    clock = TapClock()
    game = new_game(clock)
    game.change_life(1, -1, join=True)
    game.change_life(1, -1, join=True)
    game.undo()
    assert game.can_redo
    game.change_life(1, -3, join=True)
    assert game.actions[-1].data["amount"] == -3 and not game.can_redo and game.state.player(1).life == 17


def test_taps_that_take_each_other_back_leave_no_change():
    clock = TapClock()
    game = new_game(clock)
    actions = len(game.actions)
    game.change_life(1, -1, join=True)
    game.change_life(1, 1, join=True)
    assert len(game.actions) == actions and game.state.player(1).life == 20


def test_a_counter_that_stops_at_zero_is_not_joined_into_another_total():
    """Poison never goes below 0: −1 at 0 then +1 is 1 poison, as the taps one by one say (not 0)."""
    clock = TapClock()
    game = new_game(clock)
    game.change_poison(1, -1, join=True)
    game.change_poison(1, 1, join=True)
    assert game.state.player(1).poison == 1


def test_a_refused_tap_changes_nothing_and_saves_nothing(tmp_path):
    """Commander damage taken back beyond what was dealt is refused: the joined change stays as it was."""
    clock = TapClock()
    game = new_game(clock, save_dir=tmp_path)
    game.commander_damage(1, 2, 1, join=True)
    with pytest.raises(GameError):
        game.commander_damage(1, 2, -2, join=True)
    assert game.state.player(1).commander_damage == {"2": 1}
    game.store.close()
    again = load_game(game.store.path, dice=Dice.seeded(1))
    assert again.state.player(1).commander_damage == {"2": 1}
    again.store.close()


def test_joined_taps_are_saved_and_load_back_as_one_change(tmp_path):
    clock = TapClock()
    game = new_game(clock, save_dir=tmp_path)
    taps(clock, lambda: game.change_life(2, -1, join=True), 5)
    shown = (game.state, game.history("fr"), len(game.actions), game.can_undo, game.can_redo)
    game.store.close()
    again = load_game(game.store.path, dice=Dice.seeded(1), clock=clock)
    assert (again.state, again.history("fr"), len(again.actions), again.can_undo, again.can_redo) == shown
    assert again.state.player(2).life == 15
    again.undo()
    assert again.state.player(2).life == 20
    again.store.close()
