"""Turns, phases, movement dice, players and life, undo/redo and the history (MT 2.02.c, MT 3, BR)."""
import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from boards import Board
from companion.game import (MOVEMENT_STEPS, PHASES, Dice, Game, GameError, GameSetup, PlayerSetup, SaveError,
                            describe)
from companion.rules import HouseRules, Piece
from game_dice import ScriptedDice, with_corner_starts

# Column 0..9 white-blue, the rest green; row 11 is an obstacle line at the far right.
BOARD = Board.from_rows(with_corner_starts([" ".join(["WU"] * 10 + ["G"] * 10)] * 12), name="Test")
NAMES = ["Anna", "Bruno", "Chloé", "David"]


class Clock:
    """A wall clock that advances one minute per reading, from 14:02 (UTC+1)."""

    def __init__(self):
        self.now = datetime(2026, 3, 1, 14, 1, tzinfo=timezone(timedelta(hours=1)))

    def __call__(self):
        self.now += timedelta(minutes=1)
        return self.now


def new_game(players: int = 2, fmt: str = "free_for_all", seed: int = 3, **setup) -> Game:
    teams = [1, 1, 2, 2] if fmt == "two_headed_giant" else [None] * 4
    people = [PlayerSetup(n, i + 1, team=teams[i]) for i, n in enumerate(NAMES[:players])]
    return Game.new(GameSetup(people, BOARD, format=fmt, starting_player=1, **setup),
                    dice=Dice.seeded(seed), clock=Clock())


def go_to(game: Game, phase: str, step: str | None = None) -> None:
    while (game.state.turn.phase, game.state.turn.step) != (phase, step):
        game.next_phase()


ANGEL = Piece(1, 3, name="Serra Angel", power=4, toughness=4, colours={"W"}, at=(2, 2))
SPIRIT_A = Piece(1, 4, name="Spirit", power=1, toughness=1, at=(3, 2), object_key="spirit-token")
SPIRIT_B = Piece(1, 5, name="Spirit", power=1, toughness=1, at=(4, 2), object_key="spirit-token")


def test_turn_runs_untap_upkeep_draw_movement_steps_main_combat_main_end_MT_3_01():
    """MT 3.01.a/c: upkeep, movement (players, planeswalkers, creatures), main 1, combat, main 2, end;
    untap and draw where the base game has them; then the next player's turn."""
    game = new_game()
    game.next_phase()
    seen = [(game.state.turn.phase, game.state.turn.step)]
    while game.state.turn.number == 1:
        game.next_phase()
        seen.append((game.state.turn.phase, game.state.turn.step))
    expected = ([("untap", None), ("upkeep", None), ("draw", None)] + [("movement", s) for s in MOVEMENT_STEPS]
                + [("main1", None), ("combat", None), ("main2", None), ("end", None), ("untap", None)])
    assert seen == expected and PHASES.index("movement") == PHASES.index("upkeep") + 2
    assert game.state.turn.active == [2]


def test_free_for_all_turn_order_follows_the_seats_and_skips_players_who_left():
    game = new_game(3)
    game.next_phase()
    order = []
    for _ in range(4):
        order.append(game.state.turn.active[0])
        game.end_turn()
    assert order == [1, 2, 3, 1]
    game.player_leaves(2)
    game.end_turn()
    assert game.state.turn.active == [3]


def test_one_roll_per_distinct_object_copies_share_it_MT_3_03():
    """MT 3.03, 3.04.a: one roll per distinct object; both Spirit tokens use the same roll."""
    game = new_game()
    for piece in (ANGEL, SPIRIT_A, SPIRIT_B):
        game.add_piece(piece)
    game.next_phase()
    go_to(game, "movement", "creatures")
    roll = game.roll_movement(SPIRIT_A.token)
    assert game.movement_roll(SPIRIT_B.token) == roll
    with pytest.raises(GameError, match="already rolled.*MT 3.03"):
        game.roll_movement(SPIRIT_B.token)
    with pytest.raises(GameError, match="MT 3.03"):
        game.roll_movement(SPIRIT_A.token)


def test_small_creatures_roll_an_extra_die_and_dice_are_summed_MT_3_04_d():
    """MT 3.04.d: power and toughness both below 3 → two dice; the allowance is their total."""
    game = new_game(house_rules=HouseRules(die_sides=12))
    game.add_piece(ANGEL), game.add_piece(SPIRIT_A)
    game.next_phase()
    go_to(game, "movement", "creatures")
    angel, spirit = game.roll_movement(ANGEL.token), game.roll_movement(SPIRIT_A.token)
    assert (len(angel.results), len(spirit.results)) == (1, 2)
    assert angel.die == spirit.die == "D12"
    assert all(1 <= r <= 12 for r in angel.results + spirit.results)
    assert game.movement_allowance(SPIRIT_A.token) == sum(spirit.results)


def test_tapped_or_summoning_sick_creatures_do_not_roll_MT_3_02():
    """MT 3.02: a tapped or summoning-sick creature does not move; its controller's next untap fixes both."""
    game = new_game()
    game.add_piece(ANGEL)
    game.next_phase()
    go_to(game, "movement", "creatures")
    game.update_piece(ANGEL.token, tapped=True)
    with pytest.raises(GameError, match="tapped"):
        game.roll_movement(ANGEL.token)
    game.update_piece(ANGEL.token, tapped=False, summoning_sick=True)
    with pytest.raises(GameError, match="summoning sick"):
        game.roll_movement(ANGEL.token)
    game.update_piece(ANGEL.token, tapped=True)
    game.end_turn(), game.end_turn()
    assert not game.state.pieces[ANGEL.token].tapped and not game.state.pieces[ANGEL.token].summoning_sick


def test_only_the_active_player_rolls_in_the_movement_phase_MT_3_01():
    """MT 3.01.a–b: movement dice are rolled in the movement phase, for the active player's pieces."""
    game = new_game()
    game.add_piece(ANGEL), game.add_piece(Piece(2, 2, name="Ogre", power=3, toughness=3, at=(9, 9)))
    game.next_phase()
    with pytest.raises(GameError, match="MT 3.01.a"):
        game.roll_movement(ANGEL.token)
    go_to(game, "movement", "creatures")
    with pytest.raises(GameError, match="MT 3.01.b"):
        game.roll_movement((2, 2))


def test_new_turn_forgets_the_previous_rolls_MT_3_04_c():
    """MT 3.04.c: unused movement is lost; each turn starts without rolls."""
    game = new_game()
    game.add_piece(ANGEL)
    game.next_phase()
    go_to(game, "movement", "creatures")
    game.roll_movement(ANGEL.token)
    game.end_turn(), game.end_turn()
    assert game.movement_roll(ANGEL.token) is None


def test_multicoloured_bonus_chosen_in_upkeep_lasts_until_next_upkeep_MT_2_02_c():
    """MT 2.02.c: in its controller's upkeep a multicoloured creature on a multicoloured square picks one
    shared colour; the choice ends at that player's next upkeep."""
    game = new_game()
    game.add_piece(Piece(1, 7, name="Azorius", power=2, toughness=3, colours={"W", "U", "B"}, at=(1, 1)))
    game.add_piece(Piece(1, 8, name="Simic", power=2, toughness=3, colours={"G", "U"}, at=(15, 1)))
    game.next_phase()
    assert game.bonus_options((1, 7)) == ["W", "U"]
    assert game.bonus_options((1, 8)) == []  # single-coloured square: its bonus simply applies
    with pytest.raises(GameError, match="MT 2.02.c"):
        game.choose_bonus((1, 7), "U")  # untap step, not upkeep
    game.next_phase()
    with pytest.raises(GameError, match="B is not a colour Azorius .#7. shares with its square"):
        game.choose_bonus((1, 7), "B")
    game.choose_bonus((1, 7), "U")
    game.end_turn()
    assert game.state.bonus_choices == {(1, 7): "U"}
    game.end_turn(), game.next_phase()
    assert game.state.bonus_choices == {}


def test_two_headed_giant_teams_share_life_and_turns():
    """Two-Headed Giant (MT 8.01): a team plays its turn together and shares one life total (30)."""
    game = new_game(4, "two_headed_giant")
    game.next_phase()
    assert game.state.turn.active == [1, 2]
    game.change_life(2, -5)
    assert [p.life for p in game.state.players] == [25, 25, 30, 30]
    game.end_turn()
    assert game.state.turn.active == [3, 4]
    game.add_piece(Piece(4, 2, name="Ogre", at=(9, 9)), by_card=True)
    game.player_leaves(3)
    assert game.state.player(4).left and (4, 2) not in game.state.pieces  # the team leaves together
    assert game.state.winner == [1, 2]


def test_a_two_headed_giant_team_shares_its_poison_and_loses_at_15_CR_704_6b():
    """The team life of 30 comes from the Comprehensive Rules' Two-Headed Giant; so do its poison counters: one
    shared total (CR 810.10), the team loses at 15 (CR 704.6b), not a player at 10."""
    game = new_game(4, "two_headed_giant")
    game.next_phase()
    game.change_poison(1, 10)
    assert [p.poison for p in game.state.players] == [10, 10, 0, 0] and game.losing_players() == []
    game.change_poison(2, 5)
    assert [p.poison for p in game.state.players] == [15, 15, 0, 0] and game.losing_players() == [1, 2]
    reasons = [reason for elimination in game.eliminations() for reason in elimination.reasons]
    assert [(r.key, r.fields["poison"], r.rule) for r in reasons] == [("game.elimination.poison", 15, "CR 704.6b")] * 2
    game.player_leaves(1)
    assert game.state.winner == [3, 4]


def test_players_start_at_20_life_and_lose_at_0_BR():
    """BR: life 20; a player at 0 life (or 10 poison) is reported as losing; leaving ends the game."""
    game = new_game(3)
    assert [p.life for p in game.state.players] == [20, 20, 20]
    game.change_life(2, -20)
    game.change_poison(3, 10)
    assert game.losing_players() == [2, 3]
    game.player_leaves(2), game.player_leaves(3)
    assert game.state.winner == [1] and game.state.over
    with pytest.raises(GameError, match="over"):
        game.next_phase()


def test_commander_damage_is_tracked_per_commander_and_lost_as_life():
    game = new_game(2)
    game.commander_damage(2, source=1, amount=7)
    player = game.state.player(2)
    assert (player.commander_damage, player.life) == ({"1": 7}, 13)


def test_mulligans_two_players_one_fewer_each_time_BR():
    """BR: each mulligan draws one card fewer (7 → 6 → 5) in a two-player game."""
    game = new_game(2)
    assert [game.mulligan(1) for _ in range(3)] == [6, 5, 4]


def test_multiplayer_first_mulligan_is_free_PC():
    """PC (multiplayer): the first mulligan draws seven again, then one fewer each time."""
    game = new_game(3)
    assert [game.mulligan(2) for _ in range(3)] == [7, 6, 5]
    game.keep_hand(2)
    with pytest.raises(GameError, match="before keeping"):
        game.mulligan(2)
    game.next_phase()
    with pytest.raises(GameError):
        game.mulligan(1)


def test_first_draw_two_players_skip_multiplayer_draw_BR_PC():
    """Two players: the starting player skips the first draw (base game). PC multiplayer text:
    "ne passe pas sa première pioche" — with three or more players the starting player draws."""
    duel, multi = new_game(2), new_game(3)
    duel.next_phase(), multi.next_phase()
    assert (duel.draws_this_turn(), multi.draws_this_turn()) == (0, 1)
    duel.end_turn()
    assert duel.draws_this_turn() == 1


def test_positions_come_from_camera_or_hand_and_stay_on_the_board_MT_3_06_a():
    """MT 3.06.a: two pieces cannot stand on one square; squares must be on the board. Outside the movement
    phase a move is refused (MT 3.01.a) unless a card allows it; a correction of where a token stands is
    `set_positions`."""
    game = new_game()
    game.add_piece(ANGEL), game.add_piece(SPIRIT_A)
    with pytest.raises(GameError, match="MT 3.01.a"):
        game.move_piece(ANGEL.token, (5, 5), source="camera")
    game.move_piece(ANGEL.token, (5, 5), source="camera", by_card=True)
    assert game.state.pieces[ANGEL.token].at == (5, 5)
    with pytest.raises(GameError, match="MT 3.06.a"):
        game.move_piece(SPIRIT_A.token, (5, 5), by_card=True)
    with pytest.raises(GameError, match="outside the 20×12 board"):
        game.move_piece(SPIRIT_A.token, (20, 0), by_card=True)
    game.move_piece(SPIRIT_A.token, None)
    game.remove_piece(ANGEL.token)
    assert [t for t, p in game.state.pieces.items() if p.kind != "player"] == [SPIRIT_A.token]


def test_one_camera_reading_places_many_tokens_in_one_undo_step_MT_3_06_a():
    game = new_game()
    game.add_piece(ANGEL), game.add_piece(SPIRIT_A)
    game.set_positions({ANGEL.token: (7, 1), SPIRIT_A.token: (8, 1)})
    assert [game.state.pieces[t].at for t in (ANGEL.token, SPIRIT_A.token)] == [(7, 1), (8, 1)]
    assert game.history("en")[-1].endswith("2 token(s) placed (camera)")
    with pytest.raises(GameError, match=r"two tokens on I2 \(MT 3.06.a\)"):
        game.set_positions({ANGEL.token: (8, 1)})
    with pytest.raises(GameError, match="no token 3-2 in play"):
        game.set_positions({(3, 2): (0, 0)})
    game.undo()
    assert game.state.pieces[ANGEL.token].at == ANGEL.at


def test_undo_and_redo_every_action_with_the_same_dice():
    game = new_game()
    game.add_piece(ANGEL)
    game.next_phase()
    go_to(game, "movement", "creatures")
    roll = game.roll_movement(ANGEL.token)
    after = game.state
    game.undo()
    assert game.movement_roll(ANGEL.token) is None and game.can_redo
    game.redo()
    assert game.state == after and game.movement_roll(ANGEL.token) == roll
    while game.can_undo:
        game.undo()
    assert all(p.kind == "player" for p in game.state.pieces.values()) and game.state.turn.number == 0
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()


def test_a_new_action_after_undo_drops_the_redo_branch():
    game = new_game()
    game.change_life(1, -3)
    game.undo()
    game.change_life(1, -1)
    assert not game.can_redo and game.state.player(1).life == 19
    assert len(game.actions) == 2


def test_state_is_the_fold_of_the_actions_even_past_snapshots():
    """Event sourcing: replaying the log gives the same state, also far from any snapshot."""
    game = new_game()
    for i in range(40):
        game.change_life(1 + i % 2, -1)
    for _ in range(7):
        game.undo()
    replayed = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    # 33 changes in effect, alternating: 17 for Anna, 16 for Bruno
    assert replayed.state == game.state and [p.life for p in replayed.state.players] == [20 - 17, 20 - 16]


def test_history_in_english_and_french():
    """The log reads like the table talks: "14:02 Anna rolled D12: 7 for Serra Angel" and in French."""
    game = new_game(house_rules=HouseRules(die_sides=12))
    game.add_piece(ANGEL)
    game.next_phase()
    go_to(game, "movement", "creatures")
    roll = game.roll_movement(ANGEL.token).results[0]
    entry = game.history_entries()[-1]
    time = game.clock.now.strftime("%H:%M")
    assert describe(entry, "en") == f"{time} Anna rolled D12: {roll} for Serra Angel (#3)"
    assert describe(entry, "fr") == f"{time} Anna a lancé D12 : {roll} pour Serra Angel (#3)"
    assert game.history("en")[0].startswith("14:02 New game: Anna, Bruno")
    assert game.history("fr")[2].endswith("Tour 1 : Anna")
    with pytest.raises(ValueError, match="language"):
        describe(entry, "de")


def test_every_action_kind_can_be_described_in_both_languages():
    game = new_game(3)
    game.add_piece(ANGEL)
    game.update_piece(ANGEL.token, power=5)
    game.move_piece(ANGEL.token, (6, 6), by_card=True)
    game.mulligan(1), game.keep_hand(1)
    game.next_phase()
    game.roll_die("D6", player=2, reason="coin")
    game.set_life(1, 18), game.change_poison(1, 1), game.commander_damage(1, 2, 3)
    game.note("pause")
    game.remove_piece(ANGEL.token)
    game.end_turn()
    game.player_leaves(3, "conceded")
    for lang in ("en", "fr"):
        lines = game.history(lang)
        assert len(lines) == len(game.actions) and all(line[:5].count(":") == 1 for line in lines)
    assert game.history("fr")[-1].endswith("Chloé quitte la partie (abandon)")


def test_bad_documents_are_refused_with_a_clear_message():
    game = new_game()
    document = game.to_dict()
    with pytest.raises(SaveError, match="unsupported version 99"):
        Game.from_dict({**document, "version": 99})
    broken = json.loads(json.dumps(document))
    broken["actions"].append({"kind": "change_life", "data": {"player": 9, "amount": -1}, "time": ""})
    broken["cursor"] = len(broken["actions"])
    with pytest.raises(SaveError, match="entry 2 cannot be replayed: there is no player with colour 9"):
        Game.from_dict(broken)
    with pytest.raises(SaveError, match="not a Magic Tactical game"):
        Game.from_dict(["nope"])


def test_export_and_import_one_yaml_or_json_file(tmp_path):
    game = new_game(3)
    game.add_piece(ANGEL)
    game.next_phase()
    game.change_life(2, -4)
    game.undo()
    for name in ("game.yaml", "game.json"):
        back = Game.import_file(game.export(tmp_path / name))
        assert back.state == game.state and back.can_redo
        assert back.to_dict()["actions"] == game.to_dict()["actions"]
    (tmp_path / "bad.yaml").write_text("format: [oops", encoding="utf-8")
    with pytest.raises(SaveError, match="bad.yaml: cannot read"):
        Game.import_file(tmp_path / "bad.yaml")


def test_game_layer_imports_neither_kivy_nor_cv2():
    """Architecture: companion.game is plain Python, testable without a screen or a camera."""
    code = "import sys, companion.game; print(sorted({m.split('.')[0] for m in sys.modules} & {'kivy', 'cv2'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_confirming_a_doubtful_square_changes_the_board_and_undoes_MT_2_02_e():
    """MT 2.02.e: a doubtful square is settled by the table; the game's board follows, undo restores it."""
    game = new_game()
    before = game.state.board.square(0, 1)
    game.set_square((0, 1), "UG")
    assert game.state.board.square(0, 1).colours == frozenset("UG")
    assert "A2" in game.history("en")[-1] and "UG" in game.history("en")[-1]
    assert "confirmée" in game.history("fr")[-1]
    game.undo()
    assert game.state.board.square(0, 1) == before
    game.redo()
    game.set_square((0, 1), "W")
    game.undo()
    assert game.state.board.square(0, 1).colours == frozenset("UG")


def test_a_square_under_a_walking_token_cannot_become_an_obstacle_MT_2_03_b():
    """MT 2.03.b: nobody stands on an obstacle, so a square holding a walker cannot be confirmed as one."""
    game = new_game()
    game.add_piece(ANGEL)
    with pytest.raises(GameError, match="obstacle"):
        game.set_square(ANGEL.at, ".")
    game.set_square(ANGEL.at, "R")
    assert game.state.board.square(*ANGEL.at).colours == frozenset("R")


def test_a_square_under_a_flying_or_distortion_token_may_become_an_obstacle_MT_6_03_and_6_10():
    """MT 6.03 and 6.10: distortion and flying may stand on an obstacle, so their square may be confirmed as one."""
    game = new_game()
    game.add_piece(Piece(1, 6, name="Eldrazi", keywords={"distortion"}, at=(8, 8)))
    game.add_piece(Piece(1, 7, name="Bird", keywords={"flying"}, at=(9, 8)))
    game.set_square((8, 8), ".")
    game.set_square((9, 8), "G#")
    assert not game.state.board.walkable((8, 8)) and not game.state.board.walkable((9, 8))


def test_mana_burn_is_played_only_when_the_table_says_so_BR():
    """BR "brûlure de mana": 1 life per unspent mana as a phase ends — an old rule, the house rule mana_burn."""
    game = new_game()
    with pytest.raises(GameError, match="mana burn is not played at this table"):
        game.mana_burn(1, 2)
    burning = new_game(house_rules=HouseRules(mana_burn=True))
    burning.mana_burn(1, 2)
    assert burning.state.player(1).life == 18
    assert burning.history("fr")[-1].endswith("Anna : brûlure de mana, 2 PV perdus (18)")


def test_a_doubtful_square_gives_no_colour_bonus_in_the_game_until_it_is_confirmed_MT_2_02_e():
    """MT 2.02.e: "dans le cas où une case s'avère comporter une incertitude sur une ou plusieurs couleurs, ces cases
    ne sont pas comptabilisées": while the table has not confirmed a square the camera doubted, its colours give no
    bonus anywhere the game judges — not unblockable (blue), not haste (red), no landwalk doubling, no choice of
    bonus (2.02.c) — and once confirmed they do."""
    rows = [" ".join(["W"] * 20) for _ in range(12)]
    rows[5] = " ".join(["W@", "W", "W", "W", "W", "U", "R", "W", "WU", "W", "G"] + ["W"] * 8 + ["W@"])
    board = Board.from_rows(rows, name="Doubts")
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], board, starting_player=1,
                      doubtful_squares=((5, 5), (6, 5), (8, 5), (10, 5)))
    game = Game.new(setup, dice=Dice(ScriptedDice([4, 4, 4])))  # the refused roll takes a die too
    game.add_piece(Piece(1, 2, name="Merfolk", mana_value=2, power=3, toughness=3, colours={"U"}, at=(5, 5)))
    game.add_piece(Piece(1, 3, name="Goblin", mana_value=2, power=3, toughness=3, colours={"R"}, at=(6, 5)))
    game.add_piece(Piece(1, 4, name="Azorius", mana_value=2, power=3, toughness=3, colours={"W", "U"}, at=(8, 5)))
    game.add_piece(Piece(1, 5, name="Elf", mana_value=2, power=3, toughness=3, keywords={"forestwalk"}, at=(10, 5)))
    foe = Piece(2, 2, name="Guard", mana_value=3, power=3, toughness=3, at=(5, 6))
    game.add_piece(foe)
    game.next_phase(), game.next_phase()  # Anna's upkeep
    game.update_piece((1, 3), summoning_sick=True)  # the table says the Goblin came in this turn
    assert game.bonus_options((1, 4)) == []
    assert [p.token for p in game.blockers((1, 2))] == [foe.token]
    go_to(game, "movement", "creatures")
    game.roll_movement((1, 5))
    assert game.movement_allowance((1, 5)) == game.movement_left((1, 5)) == 4  # not doubled
    assert not game.judge_move((1, 5), (10, 0)).legal
    with pytest.raises(GameError, match=r"Goblin \(#3\): summoning sick, it does not move \(MT 3.02\)"):
        game.roll_movement((1, 3))
    for at, code in (((5, 5), "U"), ((6, 5), "R"), ((10, 5), "G")):
        game.set_square(at, code)  # the table confirms what the camera doubted
    assert game.state.doubtful_squares == [(8, 5)] and game.blockers((1, 2)) == ()
    assert game.movement_allowance((1, 5)) == 8 and game.judge_move((1, 5), (10, 0)).legal
    game.roll_movement((1, 3))  # haste from its red square now
    assert game.movement_left((1, 3)) == 4


def stolen_azorius(**setup) -> Game:
    """Anna's white-blue creature on a white-blue square, controlled by Bruno (a stolen creature)."""
    game = new_game(2, **setup)
    game.add_piece(Piece(1, 7, name="Azorius", power=2, toughness=3, colours={"W", "U"}, at=(1, 1), controller=2))
    return game


def test_the_owner_chooses_the_bonus_at_the_start_of_their_own_upkeep_MT_2_02_c():
    """MT 2.02.c: « au début de l'entretien de son propriétaire, ce joueur choisit un des bonus disponibles »:
    the OWNER chooses, in the owner's upkeep, even while another player controls the creature; the choice
    lasts until the owner's next upkeep."""
    game = stolen_azorius()
    game.next_phase(), game.next_phase()  # Anna's (the owner's) upkeep
    game.choose_bonus((1, 7), "W")
    assert game.state.bonus_choices == {(1, 7): "W"}
    game.end_turn(), game.next_phase()  # Bruno's (the controller's) upkeep: not his to choose, Anna's stays
    with pytest.raises(GameError, match="during its owner's upkeep .MT 2.02.c.") as refused:
        game.choose_bonus((1, 7), "U")
    assert refused.value.text("fr").startswith("le bonus se choisit pendant l'entretien de son propriétaire")
    assert game.state.bonus_choices == {(1, 7): "W"}
    game.end_turn(), game.next_phase()  # Anna's next upkeep: the choice ends
    assert game.state.bonus_choices == {}


def test_the_controller_chooses_the_bonus_under_the_house_rule_MT_2_02_c_and_8_04():
    """MT 8.04: a table may let the controller choose instead (`bonus_chooser: controller`), in the
    controller's upkeep: the bonus is what the creature fights with."""
    game = stolen_azorius(house_rules=HouseRules(bonus_chooser="controller"))
    game.next_phase(), game.next_phase()  # Anna's (the owner's) upkeep
    with pytest.raises(GameError, match="during its controller's upkeep .MT 2.02.c."):
        game.choose_bonus((1, 7), "W")
    game.end_turn(), game.next_phase()  # Bruno's (the controller's) upkeep
    game.choose_bonus((1, 7), "U")
    assert game.state.bonus_choices == {(1, 7): "U"}


def test_a_save_started_before_edition_4_replays_with_the_controller_choosing_MT_2_02_c():
    """A game saved when the engine let the controller choose (rules edition 3) replays as it was played."""
    game = stolen_azorius()
    document = game.to_dict()
    document["actions"][0]["data"]["rules"] = 3
    del document["actions"][0]["data"]["house_rules"]["bonus_chooser"]  # an option that did not exist then
    old = Game.from_dict(document)
    old.next_phase(), old.next_phase()  # Anna's upkeep: not hers in that edition
    with pytest.raises(GameError, match="MT 2.02.c"):
        old.choose_bonus((1, 7), "W")
    old.end_turn(), old.next_phase()
    old.choose_bonus((1, 7), "U")
    assert Game.from_dict(old.to_dict()).state.bonus_choices == {(1, 7): "U"}
