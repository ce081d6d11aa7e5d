"""Horde (HO): the City, difficulties, turn order, waves, bosses and the Horde's random choices."""
import pytest

from boards import Board
from companion.game import Dice, Game, GameError, GameSetup, HordeCard, HordeWave, PlayerSetup, bosses_out
from companion.rules import Piece
from game_dice import ScriptedDice, with_corner_starts

BOARD = Board.from_rows(with_corner_starts([" ".join(["B"] * 20)] * 12), name="Test")


def named_wave(level: str, layout: str, boss: str) -> HordeWave:
    """'ttsts' → token, token, spell, token, spell (top first)."""
    return HordeWave(level, [HordeCard(f"{kind}{i}", token=kind == "t") for i, kind in enumerate(layout)], boss)


def new_game(players=2, difficulty="beginner", waves=None, rolls=()) -> Game:
    people = [PlayerSetup(n, i + 1) for i, n in enumerate(["Anna", "Bruno", "Chloé", "David"][:players])]
    setup = GameSetup(people, BOARD, format="horde", horde_difficulty=difficulty, horde_waves=waves,
                      starting_player=1)
    game = Game.new(setup, dice=Dice(ScriptedDice(rolls)))
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
    assert len(horde.library) == 99 and sum(c.token for c in horde.library) == 66
    assert horde.boss_in_library and horde.boss


def test_each_wave_is_shuffled_at_setup_with_its_boss_kept_under_it_HO_103_3b_to_103_3d():
    """HO 103.3b–d: the Horde's decks lie in order of rising difficulty, each one shuffled, its boss put under it
    (never shuffled in, HO 200.2a); the shuffle is recorded, so the save replays the same deck."""
    waves = [named_wave("low", "t" * 10 + "s" * 5, "Boss 1"), named_wave("medium", "t" * 10 + "s" * 5, "Boss 2")]
    game = Game.new(GameSetup([PlayerSetup("Anna", 1)], BOARD, format="horde", horde_difficulty="intermediate",
                              horde_waves=waves, starting_player=1), dice=Dice.seeded(5))
    horde = game.state.horde
    written = [c.name for c in waves[0].cards]
    shuffled = [c.name for c in horde.library]
    assert shuffled != written and sorted(shuffled) == sorted(written)
    assert (horde.level, horde.boss, horde.boss_in_library) == ("low", "Boss 1", True)
    assert "Boss 1" not in shuffled and [w.level for w in horde.waves] == ["medium"]
    assert Game.from_dict(game.to_dict()).state.horde.library == horde.library


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
    assert [c.name for c in game.horde_draw()] == ["t0", "t1", "s2"]
    assert [c.name for c in game.state.horde.library] == ["t3", "t4", "s5"]
    game.next_phase()
    with pytest.raises(GameError, match="HO 201.2"):
        game.horde_draw()  # only in the Horde's draw step


def test_damage_to_the_horde_mills_that_many_cards_HO_301_3():
    game = new_game(waves=[named_wave("low", "ttstts", "Boss")])
    assert [c.name for c in game.damage_horde(4)] == ["t0", "t1", "s2", "t3"]
    assert len(game.state.horde.graveyard) == 4 and len(game.state.horde.library) == 2


def test_revealing_the_boss_on_the_players_turn_HO_202_1():
    """HO 202.1: the boss is exiled instead, the turn ends, the graveyard is shuffled into the deck, the boss
    is cast for free; no extra turn when it is not the Horde's turn."""
    game = new_game(waves=[named_wave("low", "ttst", "Boss")])
    game.next_phase()
    revealed = game.damage_horde(10)
    horde = game.state.horde
    assert [c.name for c in revealed] == ["t0", "t1", "s2", "t3", "Boss"]
    assert horde.boss_on_battlefield and not horde.boss_in_library
    assert sorted(c.name for c in horde.library) == ["s2", "t0", "t1", "t3"] and horde.graveyard == []
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
    """HO 105.6: "si La Horde devait être défaite alors que la Cité a un total de points de vie à zéro ou moins,
    seule La Cité est défaite". The City falls as its life reaches 0 (HO 105.3), which ends the game at once: the
    last boss leaving afterwards cannot defeat the Horde too."""
    game = new_game(1, "beginner", waves=[named_wave("low", "t", "Boss")])
    game.damage_horde(2)  # the last wave's boss comes out
    game.set_life(1, 0)
    with pytest.raises(GameError, match="the game is over"):
        game.horde_boss_leaves()
    assert game.state.horde.result == "city_defeated"
    assert not any("the Horde is defeated" in line for line in game.history("en"))


def test_every_player_conceding_ends_a_horde_game_with_the_city_defeated_HO_105_1():
    """HO 105.1: "la partie se termine par une défaite de la cité ou une défaite de La Horde": when every player has
    left (conceded), nobody defends the City: it is defeated and the game is over."""
    game = new_game(2)
    game.player_leaves(1, "conceded")
    assert not game.state.over  # Bruno still defends the City
    game.player_leaves(2, "conceded")
    assert game.state.over and game.state.horde.result == "city_defeated"
    assert "the City has fallen" in game.history("en")[-1]
    with pytest.raises(GameError, match="the game is over"):
        game.end_turn()


def test_each_player_takes_a_free_first_mulligan_HO_103_4():
    """HO 103.4: "chaque joueur procède au début de jeu classique du commander (incluant un mulligan gratuit)": even
    two players against the Horde draw 7 again on their first mulligan, then one fewer (two players at free-for-all
    draw 6)."""
    horde = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, format="horde",
                               starting_player=1), dice=Dice.seeded(1))
    assert [horde.mulligan(1), horde.mulligan(1), horde.mulligan(2)] == [7, 6, 7]
    duel = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1),
                    dice=Dice.seeded(1))
    assert duel.mulligan(1) == 6


class ReversingDice(ScriptedDice):
    """Shuffles reverse the cards: a shuffle that is not the identity, so where each card goes can be told."""

    def shuffle(self, items):
        items.reverse()


def test_secret_boss_replaces_a_win_or_loss_HO_203():
    """HO 203.1–203.3: "La Horde mélange son cimetière dans son Deck et joue son Boss Secret. Terminez le tour. Si
    c'était le tour de La Horde, La Horde joue un tour supplémentaire": the graveyard is shuffled INTO the deck (not
    put on top of it), the secret boss comes out, the turn ends; an extra turn only on the Horde's turn."""
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, format="horde", starting_player=1,
                      horde_waves=[named_wave("low", "ttstts", "Boss")])
    game = Game.new(setup, dice=Dice(ReversingDice()))
    game.next_phase()
    game.damage_horde(2)
    horde = game.state.horde
    graveyard, library = [c.name for c in horde.graveyard], [c.name for c in horde.library]
    game.horde_secret_boss("infinite loop")
    horde = game.state.horde
    assert [c.name for c in horde.library] == list(reversed(graveyard + library))  # one deck, shuffled
    assert horde.secret_boss_on_battlefield and horde.graveyard == [] and horde.boss_in_library
    turn = game.state.turn
    assert (turn.number, turn.phase, turn.horde) == (2, "untap", False)  # the players' turn ended: theirs again
    assert "secret boss" in game.history("en")[-1].lower()
    with pytest.raises(GameError, match="HO 203"):
        game.horde_secret_boss("a second loop")

    on_its_turn = new_game(waves=[named_wave("low", "ttst", "Boss")])
    to_horde_turn(on_its_turn, "main1")
    number = on_its_turn.state.turn.number
    on_its_turn.horde_secret_boss("alternate win")
    turn = on_its_turn.state.turn
    assert (turn.number, turn.phase, turn.horde) == (number + 1, "untap", True)  # an extra turn for the Horde
    on_its_turn.end_turn()
    assert not on_its_turn.state.turn.horde


def test_infernal_horde_rolls_a_d6_at_each_end_step_and_takes_another_turn_on_6_HO_404_3():
    game = new_game(2, "infernal", rolls=[6, 5])
    to_horde_turn(game, "end")
    number = game.state.turn.number
    game.next_phase()  # end step → D6 = 6
    assert game.state.turn.horde and game.state.turn.number == number + 1
    assert game.state.rolls[-1].results == (6,)
    game.end_turn()  # D6 = 5: only a 6 gives another turn
    assert not game.state.turn.horde and game.state.rolls[-1].results == (5,)


def test_horde_makes_its_choices_at_random_and_logs_them_HO_201_5():
    game = new_game()
    options = ["Anna", "Bruno"]
    picks = {Game.new(GameSetup([PlayerSetup("A", 1)], BOARD, format="horde"), dice=Dice.seeded(s))
             .horde_choice(options, "target") for s in range(20)}
    assert picks == set(options)
    chosen = game.horde_choice(options, "target")
    assert chosen in options and game.state.rolls[-1].results == (chosen,)
    assert f"The Horde chose at random: {chosen}" in game.history("en")[-1]


def wave_of(level: str, cards: str, boss: str) -> HordeWave:
    """'tPs' → token, permanent spell, non-permanent spell (top first)."""
    kinds = {"t": (True, None), "P": (False, True), "s": (False, False)}
    return HordeWave(level, [HordeCard(f"{c}{i}", token=kinds[c][0], permanent=kinds[c][1])
                             for i, c in enumerate(cards)], boss)


def test_cast_permanents_and_entered_tokens_stay_on_the_battlefield_and_are_never_reshuffled_HO_201_2_and_202_1():
    """HO 201.2: tokens enter the battlefield and the cast card resolves: a permanent stays on the battlefield,
    an instant or sorcery goes to the graveyard. So the boss's reshuffle (HO 202.1) puts back only the
    graveyard, never a permanent in play."""
    game = new_game(waves=[wave_of("low", "tPtsts", "Boss")])
    to_horde_turn(game)
    game.horde_draw()  # t0 enters, P1 is cast: an enchantment that stays
    horde = game.state.horde
    assert [c.name for c in horde.battlefield] == ["t0", "P1"] and horde.graveyard == []
    game.end_turn(), game.end_turn()
    to_horde_turn(game)
    game.horde_draw()  # t2 enters, s3 is cast and goes to the graveyard
    assert [c.name for c in game.state.horde.graveyard] == ["s3"]
    game.damage_horde(5)  # t4, s5 milled, then the boss: the graveyard is shuffled in
    horde = game.state.horde
    assert horde.boss_on_battlefield and sorted(c.name for c in horde.library) == ["s3", "s5", "t4"]
    assert [c.name for c in horde.battlefield] == ["t0", "P1", "t2"]


def test_a_cast_card_the_wave_does_not_describe_waits_for_the_table_HO_201_2():
    game = new_game(waves=[named_wave("low", "ts", "Boss")])  # cards known by name only
    to_horde_turn(game)
    game.horde_draw()
    assert [c.name for c in game.state.horde.casting] == ["s1"]
    game.horde_cast_resolves(0, permanent=True)
    assert [c.name for c in game.state.horde.battlefield] == ["t0", "s1"] and game.state.horde.casting == []
    assert "s1 went to the battlefield" in game.history("en")[-1]
    assert "s1 va au champ de bataille" in game.history("fr")[-1]


def test_the_horde_draws_outside_its_draw_step_by_exiling_its_top_card_HO_201_7():
    """HO 201.7: an effect makes the Horde draw: each card is exiled from the top instead: a token enters the
    battlefield, any other card is cast — one card per draw, not "until a non-token"."""
    game = new_game(waves=[wave_of("low", "ttsP", "Boss")])
    assert [c.name for c in game.horde_draws(1)] == ["t0"]
    assert [c.name for c in game.horde_draws(2)] == ["t1", "s2"]
    horde = game.state.horde
    assert [c.name for c in horde.battlefield] == ["t0", "t1"] and [c.name for c in horde.graveyard] == ["s2"]


def test_a_prevented_attack_turns_the_hordes_next_attack_phase_into_a_draw_HO_201_3a():
    """HO 201.3a: an effect keeps a Horde creature from attacking: the Horde's next attack phase is a draw phase
    (in which it reveals until a non-token, as in its draw step); the one after is an attack again. HO 201.3b:
    tapping a Horde creature does not count as keeping it from attacking."""
    game = new_game(waves=[wave_of("low", "tstsPs", "Boss")])
    zombie = Piece(game.state.horde.colour, 2, name="Zombie", power=2, toughness=2)
    game.enter_horde_piece(zombie)
    game.update_piece(zombie.token, tapped=True)  # HO 201.3b: tapping it is not keeping it from attacking
    assert game.state.horde.attacks_replaced == 0
    game.horde_attack_prevented("Propaganda")
    to_horde_turn(game, "combat")
    assert game.state.turn.draw_instead_of_attack
    assert [c.name for c in game.horde_draw()] == ["t0", "s1"]
    assert any("prochaine phase d'attaque sera une pioche" in line for line in game.history("fr"))
    game.end_turn(), game.end_turn()
    to_horde_turn(game, "combat")
    assert not game.state.turn.draw_instead_of_attack
    with pytest.raises(GameError, match="HO 201.2"):
        game.horde_draw()


def test_with_both_bosses_out_the_wave_changes_only_when_neither_is_left_HO_202_2():
    """HO 202.2: "aucun Boss n'est sur le champ de bataille", the wave's boss and the secret boss alike; the
    API says which one left."""
    game = new_game(2, "intermediate", waves=[wave_of("low", "ts", "Boss 1"), wave_of("medium", "ts", "Boss 2")])
    game.damage_horde(3)  # the wave's boss comes out
    game.horde_secret_boss("alternate win")
    with pytest.raises(GameError, match="say which one left"):
        game.horde_boss_leaves()
    game.horde_boss_leaves("wave")
    assert game.state.horde.wave == 1 and game.state.horde.secret_boss_on_battlefield
    with pytest.raises(GameError, match="HO 202.2"):
        game.horde_boss_leaves("wave")
    game.horde_boss_leaves("secret")
    assert game.state.horde.wave == 2
    assert "Le boss secret de la Horde quitte le champ de bataille" in game.history("fr")[-1]


def test_a_creature_of_an_old_wave_leaving_is_exiled_HO_202_5b():
    game = new_game(2, "intermediate", waves=[wave_of("low", "tts", "Boss 1"), wave_of("medium", "ts", "Boss 2")])
    game.horde_draws(1)
    game.damage_horde(3)
    game.horde_boss_leaves()  # wave 2; t0 from wave 1 is still on the battlefield (HO 202.5a)
    assert game.state.horde.wave == 2 and [c.name for c in game.state.horde.battlefield] == ["t0"]
    game.horde_leaves_battlefield(0)
    assert game.state.horde.battlefield == [] and game.state.horde.graveyard == []  # exiled face down


def test_the_hordes_creatures_stand_on_the_grid_in_their_own_colour_MT_5_01_a_and_HO_201_3():
    """MT 5.01.a: creatures are on the grid, the Horde's too: they enter on a square the Horde picks at random
    (HO 201.5), have haste (201.3), move on the Horde's turn and are the players' opponents (HO 102.1: the
    players are one team)."""
    board = Board.from_rows([" ".join(["W@"] + ["W"] * 18 + ["W@"])] + [" ".join(["W"] * 20)] * 11)
    game = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], board, format="horde",
                              horde_waves=[wave_of("low", "tts", "Boss")], starting_player=1), dice=Dice.seeded(8))
    colour = game.state.horde.colour
    assert colour == 5 and game.state.sides == {1: 0, 2: 0, 5: 5}
    zombie = Piece(colour, 1, name="Zombie", power=2, toughness=2)
    game.enter_horde_piece(zombie)
    placed = game.state.pieces[zombie.token]
    assert placed.at is not None and "haste" in placed.keywords and placed.controller == colour
    with pytest.raises(GameError, match="no player with colour 4"):
        game.add_piece(Piece(4, 2, name="Nobody"))
    game.next_phase()
    to_horde_turn(game, "movement")
    while game.state.turn.step != "creatures":
        game.next_phase()
    game.roll_movement(zombie.token)
    target = next(q for q in sorted(board.positions()) if game.judge_move(zombie.token, q).legal and q != placed.at)
    game.move_piece(zombie.token, target)
    bear = Piece(1, 2, name="Bear", power=2, toughness=2, mana_value=40, at=(10, 6))
    game.add_piece(bear, by_card=True)
    friend = Piece(2, 2, name="Ally", power=2, toughness=2, mana_value=40, at=(11, 6))
    game.add_piece(friend, by_card=True)
    assert {p.token for p in game.blockers(zombie.token)} == {bear.token, friend.token}
    ghoul = Piece(colour, 2, name="Ghoul", power=2, toughness=2, mana_value=40, at=(12, 6))
    game.add_piece(ghoul, by_card=True)
    assert game.blockers(bear.token) == ()  # HO 301.2: the Horde never blocks; HO 102.1: nor does a teammate


def test_a_boss_still_in_play_when_its_deck_runs_out_keeps_the_next_wave_going_HO_202_2_and_202_5a():
    """HO 202.3: the deck ran out, the next wave starts; 202.5a: "changer de Vague ne modifie pas l'état du champ de
    bataille": the first wave's boss is still in play, and HO 202.2 counts it ("aucun Boss n'est sur le champ de
    bataille"): the next wave waits until it has left too."""
    game = new_game(2, "intermediate", waves=[wave_of("low", "ts", "Boss 1"), wave_of("medium", "ts", "Boss 2")])
    game.damage_horde(3)  # t0, s1, then Boss 1 is revealed and cast; the graveyard is shuffled back in
    game.damage_horde(2)  # the deck runs out: wave 2
    horde = game.state.horde
    assert (horde.wave, horde.earlier_bosses, horde.boss_on_battlefield) == (2, ["Boss 1"], False)
    game.damage_horde(3)  # Boss 2 comes out too
    assert bosses_out(game.state.horde) == ["wave", "earlier"]
    with pytest.raises(GameError, match="say which one left"):
        game.horde_boss_leaves()
    game.horde_boss_leaves("wave")
    assert game.state.horde.result is None and game.state.horde.earlier_bosses == ["Boss 1"]
    game.horde_boss_leaves()  # the only boss left: Boss 1 goes, and with it the last wave
    assert game.state.horde.result == "horde_defeated"
    assert "The Horde's boss of an earlier wave left the battlefield" in game.history("en")[-1]
