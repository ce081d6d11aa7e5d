"""Horde (HO): the City, difficulties, turn order, waves, bosses and the Horde's random choices."""
import random

import pytest

from boards import Board
from companion.game import Dice, Game, GameError, GameSetup, HordeWave, PlayerSetup

BOARD = Board.from_rows([" ".join(["B"] * 20)] * 12, name="Test")


class NoShuffleRng(random.Random):
    """Shuffles keep the order written in the test; dice rolls come from a list (then 1s)."""

    def __init__(self, rolls=()):
        super().__init__(0)
        self.rolls = list(rolls)

    def randrange(self, n):
        return self.rolls.pop(0) - 1 if self.rolls else 0

    def shuffle(self, items):
        pass


def named_wave(level: str, layout: str, boss: str) -> HordeWave:
    """'ttsts' → token, token, spell, token, spell (top first)."""
    return HordeWave(level, [{"name": f"{kind}{i}", "token": kind == "t"} for i, kind in enumerate(layout)], boss)


def new_game(players=2, difficulty="beginner", waves=None, rolls=()) -> Game:
    people = [PlayerSetup(n, i + 1) for i, n in enumerate(["Anna", "Bruno", "Chloé", "David"][:players])]
    setup = GameSetup(people, BOARD, format="horde", horde_difficulty=difficulty, horde_waves=waves,
                      starting_player=1)
    game = Game.new(setup, dice=Dice(NoShuffleRng(rolls)))
    game.next_phase()
    return game


def to_horde_turn(game: Game, phase: str = "draw") -> None:
    while not game.state.turn.horde:
        game.end_turn()
    while game.state.turn.phase != phase:
        game.next_phase()


@pytest.mark.parametrize("difficulty,players,life,decks", [
    ("beginner", 1, 90, 1), ("beginner", 4, 60, 1), ("intermediate", 2, 60, 2),
    ("confirmed", 3, 30, 3), ("infernal", 4, 1, 3),
])
def test_city_starting_life_and_decks_by_difficulty_HO_300_2_and_HO_4(difficulty, players, life, decks):
    """HO 401–404 base life 100/80/60/1 and 1/2/3/3 decks; HO 300.2 minus 10 per player; HO 404.1a Infernal
    is not reduced."""
    horde = new_game(players, difficulty).state.horde
    assert (horde.city_start, horde.city_life) == (life, life)
    assert horde.wave_total == decks and horde.wave == 1


def test_default_waves_are_66_tokens_33_spells_and_a_boss_HO_200_2():
    horde = new_game().state.horde
    assert len(horde.library) == 99 and sum(c["token"] for c in horde.library) == 66
    assert horde.boss_in_library and horde.boss


def test_horde_is_for_one_to_four_players_HO_100_2():
    five = [PlayerSetup(f"P{i}", i) for i in range(1, 6)]
    with pytest.raises(GameError, match="HO 100.2"):
        Game.new(GameSetup(five, BOARD, format="horde"), dice=Dice.seeded(1))


def test_city_life_is_capped_at_its_start_HO_300_3():
    game = new_game(2, "beginner")
    game.change_life(1, -15)
    game.change_life(2, +50)
    assert game.state.horde.city_life == 80


def test_players_life_changes_go_to_the_city_HO_300_3a_to_300_5():
    """HO 300.3a–300.5: a player's life gain, loss or payment changes the City's total, not the player's."""
    game = new_game(2, "intermediate")
    game.change_life(2, -7)
    assert game.state.horde.city_life == 53 and game.state.player(2).life == 20
    assert "City 53" in game.history("en")[-1] and "Cité 53" in game.history("fr")[-1]


def test_city_falls_at_zero_life_HO_105_3():
    game = new_game(2, "intermediate")
    game.change_life(1, -60)
    assert game.state.horde.result == "city_defeated" and game.state.over
    assert "the City has fallen" in game.history("en")[-1]


def test_a_player_losing_defeats_the_city_HO_105_4():
    game = new_game(2)
    game.player_leaves(2, "lost")
    assert game.state.horde.result == "city_defeated"


def test_horde_starts_after_the_players_second_turn_then_sides_alternate_HO_104():
    game = new_game()
    sides = []
    for _ in range(6):
        sides.append("horde" if game.state.turn.horde else game.state.turn.active)
        game.end_turn()
    # HO 102.1: the players play their turns together
    assert sides == [[1, 2], [1, 2], "horde", [1, 2], "horde", [1, 2]]


def test_draw_step_reveals_until_a_non_token_HO_201_2():
    game = new_game(waves=[named_wave("low", "ttstts", "Boss")])
    to_horde_turn(game)
    assert [c["name"] for c in game.horde_draw()] == ["t0", "t1", "s2"]
    assert [c["name"] for c in game.state.horde.library] == ["t3", "t4", "s5"]
    game.next_phase()
    with pytest.raises(GameError, match="HO 201.2"):
        game.horde_draw()  # only in the Horde's draw step


def test_damage_to_the_horde_mills_that_many_cards_HO_301_3():
    game = new_game(waves=[named_wave("low", "ttstts", "Boss")])
    assert [c["name"] for c in game.damage_horde(4)] == ["t0", "t1", "s2", "t3"]
    assert len(game.state.horde.graveyard) == 4 and len(game.state.horde.library) == 2


def test_revealing_the_boss_on_the_players_turn_HO_202_1():
    """HO 202.1: the boss is exiled instead, the turn ends, the graveyard is shuffled into the deck, the boss
    is cast for free; no extra turn when it is not the Horde's turn."""
    game = new_game(waves=[named_wave("low", "ttst", "Boss")])
    game.next_phase()
    revealed = game.damage_horde(10)
    horde = game.state.horde
    assert [c["name"] for c in revealed] == ["t0", "t1", "s2", "t3", "Boss"]
    assert horde.boss_on_battlefield and not horde.boss_in_library
    assert sorted(c["name"] for c in horde.library) == ["s2", "t0", "t1", "t3"] and horde.graveyard == []
    assert game.state.turn.number == 2 and not game.state.turn.horde  # the players' turn ended
    assert "the boss Boss is revealed" in game.history("en")[-1]
    assert game.history("en")[-1].endswith("Turn 2: Anna & Bruno")


def test_boss_revealed_on_the_hordes_turn_gives_it_an_extra_turn_HO_202_1():
    game = new_game(2, "intermediate", waves=[named_wave("low", "t", "Boss"), named_wave("medium", "ts", "Big")])
    to_horde_turn(game)
    number = game.state.turn.number
    game.horde_draw()
    assert game.state.turn.number == number + 1 and game.state.turn.horde


def test_boss_leaving_starts_the_next_wave_and_the_last_one_defeats_the_horde_HO_202_2_and_202_4():
    game = new_game(2, "intermediate", waves=[named_wave("low", "ts", "Boss 1"), named_wave("medium", "tts", "Boss 2")])
    game.damage_horde(3)
    game.horde_boss_leaves()
    horde = game.state.horde
    assert (horde.wave, horde.level, horde.boss, len(horde.library)) == (2, "medium", "Boss 2", 3)
    game.damage_horde(5)
    game.horde_boss_leaves()
    assert game.state.horde.result == "horde_defeated"
    assert "the Horde is defeated!" in game.history("en")[-1]


def test_empty_deck_starts_the_next_wave_HO_202_3():
    game = new_game(2, "intermediate", waves=[named_wave("low", "ts", "Boss 1"), named_wave("medium", "t", "B2")])
    game.damage_horde(3)  # boss revealed, graveyard shuffled back: 2 cards in the deck
    game.damage_horde(2)
    assert game.state.horde.wave == 2


def test_horde_not_defeated_while_the_city_is_at_zero_HO_105_6():
    game = new_game(1, "beginner", waves=[named_wave("low", "t", "Boss")])
    game.damage_horde(2)
    game.set_life(1, 0)
    assert game.state.horde.result == "city_defeated"


def test_secret_boss_replaces_a_win_or_loss_HO_203():
    game = new_game(waves=[named_wave("low", "ttst", "Boss")])
    game.damage_horde(2)
    game.horde_secret_boss("infinite loop")
    horde = game.state.horde
    assert horde.secret_boss_on_battlefield and horde.graveyard == [] and len(horde.library) == 4
    assert "secret boss" in game.history("en")[-1].lower()


def test_infernal_horde_rolls_a_d6_at_each_end_step_and_takes_another_turn_on_6_HO_404_3():
    game = new_game(2, "infernal", rolls=[6, 3])
    to_horde_turn(game, "end")
    number = game.state.turn.number
    game.next_phase()  # end step → D6 = 6
    assert game.state.turn.horde and game.state.turn.number == number + 1
    assert game.state.rolls[-1]["results"] == [6]
    game.end_turn()  # D6 = 3
    assert not game.state.turn.horde


def test_horde_makes_its_choices_at_random_and_logs_them_HO_201_5():
    game = new_game()
    options = ["Anna", "Bruno"]
    picks = {Game.new(GameSetup([PlayerSetup("A", 1)], BOARD, format="horde"), dice=Dice.seeded(s))
             .horde_choice(options, "target") for s in range(20)}
    assert picks == set(options)
    chosen = game.horde_choice(options, "target")
    assert chosen in options and game.state.rolls[-1]["results"] == [chosen]
    assert f"The Horde chose at random: {chosen}" in game.history("en")[-1]
