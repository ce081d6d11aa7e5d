"""Moves the camera sees, judged against the game (companion.camera): the same verdict as the
engine's, with the house rules and the colour bonus chosen at upkeep (issue 17: the old camera
check disagreed with the engine on both cases below), worded in French and English."""
from __future__ import annotations

import pytest

from boards import Board
from dataclasses import replace

from companion.camera import record_seen, seen_moves
from companion.game import Dice, Game, GameError, GameSetup, PlayerSetup
from companion.rules import HouseRules, Piece
from game_dice import ScriptedDice

# 20×12: a red column A, an RG column B, white elsewhere, a green column T; starts at A6 and T7.
ROWS = [" ".join(["R", "RG"] + ["W"] * 17 + ["G"]) for _ in range(12)]
ROWS[5] = " ".join(["R@", "RG"] + ["W"] * 17 + ["G"])
ROWS[6] = " ".join(["R", "RG"] + ["W"] * 17 + ["G@"])
BOARD = Board.from_rows(ROWS, name="Lanes")
GOBLIN = Piece(1, 7, name="Goblin", power=3, toughness=3, colours={"R"}, at=(0, 2))
DRUID = Piece(1, 8, name="Ember Druid", power=3, toughness=3, colours={"R", "G"}, at=(1, 2))


def game_in_movement(house=HouseRules(), *pieces: Piece, bonus: dict | None = None) -> Game:
    """A two-player game with `pieces` in the creatures' movement step, dice rolling 4; `bonus`:
    colours chosen at upkeep (MT 2.02.c). The pieces came into play this turn (summoning sick:
    set after the untap step, which would lift it)."""
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1, house_rules=house)
    game = Game.new(setup, dice=Dice(ScriptedDice([4] * 10)))
    for piece in pieces:
        game.add_piece(piece)
    while game.state.turn.phase != "upkeep":
        game.next_phase()
    for piece in pieces:
        game.update_piece(piece.token, summoning_sick=True)
    for token, colour in (bonus or {}).items():
        game.choose_bonus(token, colour)
    while (game.state.turn.phase, game.state.turn.step) != ("movement", "creatures"):
        game.next_phase()
    return game


def engine_allows(game: Game, token, to) -> bool:
    try:
        game.move_piece(token, to)
    except GameError:
        return False
    game.undo()
    return True


def test_a_sick_red_creature_on_red_seen_moving_is_refused_when_the_house_says_so_MT_3_02():
    """haste_moves_when_sick=False: the red square's haste does not lift summoning sickness."""
    game = game_in_movement(HouseRules(haste_moves_when_sick=False), GOBLIN)
    (move,) = seen_moves(game, {GOBLIN.token: (0, 4)}).moves
    assert not move.legal and move.verdict.key == "game.move.sick" and not engine_allows(game, GOBLIN.token, (0, 4))
    assert move.text("fr").startswith("jaune 7 : A3 → A5, pas encore de jet : mal d'invocation")
    assert move.text("en").endswith("(MT 3.02)")


def test_a_sick_creature_on_rg_with_red_chosen_has_haste_and_may_move_MT_2_02_c():
    """MT 2.02.c and 2.02.b.04: red chosen at upkeep on an RG square gives haste: the engine lets it
    roll and move, and the camera agrees."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    (move,) = seen_moves(game, {DRUID.token: (1, 4)}).moves
    assert move.legal and engine_allows(game, DRUID.token, (1, 4))
    assert move.text("fr") == "jaune 8 : B3 → B5, jet 4 : 2 cases, il en reste 4 : permis"
    assert move.text("en") == "yellow 8: B3 → B5, rolled 4: 2 squares, 4 left: allowed"


def test_what_the_piece_already_moved_this_turn_counts_MT_3_04_a():
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    game.move_piece(DRUID.token, (1, 5))            # 3 of its 4 squares
    (move,) = seen_moves(game, {DRUID.token: (1, 7)}).moves
    assert not move.legal and move.verdict.key == "game.move.too_far"
    assert move.text("fr") == "jaune 8 : B6 → B8, jet 4 : 2 cases, il en reste 1 : trop loin (MT 3.04.a)"


@pytest.mark.parametrize("to", [(0, 2), (1, 2), (5, 5), (19, 11)])
def test_every_verdict_is_the_engines(to):
    game = game_in_movement(HouseRules(), DRUID, GOBLIN, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    view = seen_moves(game, {DRUID.token: to, (5, 40): (3, 3)})
    assert view.unknown == (((5, 40), (3, 3)),), "a token the game does not know is listed apart"
    moves = {m.token: m for m in view.moves}
    if to == DRUID.at:
        assert moves == {}, "a token seen where the game has it is no move"
    else:
        assert moves[DRUID.token].legal == engine_allows(game, DRUID.token, to)
        assert view.positions == {DRUID.token: to}


def test_a_move_seen_outside_the_movement_phase_says_so_MT_3_01_a():
    """The verdict is what `move_piece` will say: a move seen in the combat phase is no move of the
    rules (MT 3.01.a), whatever the squares."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    while game.state.turn.phase == "movement":
        game.next_phase()
    (move,) = seen_moves(game, {DRUID.token: (1, 4)}).moves
    assert not move.legal and not engine_allows(game, DRUID.token, (1, 4))
    assert move.reason.rule == "MT 3.01.a" and move.text("en").endswith("(MT 3.01.a)")


def test_a_creature_seen_moving_in_the_players_step_is_refused_though_its_roll_allows_it_MT_3_01_c():
    """Rolled early (allowed), the creature may not walk before the creatures' step: the squares
    say "allowed", the game says MT 3.01.c, and so does the camera."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    while (game.state.turn.phase, game.state.turn.step) != ("movement", "players"):
        game.undo()
    game.roll_movement(DRUID.token)
    (move,) = seen_moves(game, {DRUID.token: (1, 4)}).moves
    assert move.verdict.legal and not move.legal and not engine_allows(game, DRUID.token, (1, 4))
    assert move.reason.rule == "MT 3.01.c"


def record_with(game):
    """`record_seen`'s `play`: the app's, which says a refusal and returns None."""
    calls = []

    def play(action, *args, **kwargs):
        calls.append((action.__name__, args, kwargs))
        try:
            return action(game, *args, **kwargs)
        except GameError:
            return None
    return play, calls


def test_recording_what_the_camera_saw_is_the_games_judged_move_and_spends_it_MT_3_04_a():
    """One Record: a legal move is recorded as a move (its steps spent, not a correction); one
    beyond the roll is recorded only as allowed by a card, and uses what was left."""
    goblin = Piece(1, 9, name="Raging Goblin", power=1, toughness=1, colours={"R"}, keywords={"haste"}, at=(5, 2))
    game = game_in_movement(HouseRules(), DRUID, goblin, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    game.roll_movement(goblin.token)                  # 4 and 4, two dice each (power, toughness < 3 for the goblin)
    far = (5, 2 + game.movement_left(goblin.token) + 1)
    play, calls = record_with(game)
    assert record_seen(game, {DRUID.token: (1, 4), goblin.token: far}, play) == 2
    assert [(action, kwargs["by_card"]) for action, _, kwargs in calls] == [("move_piece", False), ("move_piece", True)]
    assert game.state.pieces[DRUID.token].at == (1, 4) and game.state.pieces[goblin.token].at == far
    assert game.movement_left(DRUID.token) == 2, "the legal move spent its 2 squares"
    assert game.movement_left(goblin.token) == 0, "the one a card allowed used all that was left"
    game.undo()
    assert game.state.pieces[goblin.token].at == (5, 2), "one undo step per move"


def test_a_token_seen_on_the_square_another_seen_token_left_is_recorded_after_it_MT_3_06_a():
    """Two tokens never share a square (MT 3.06.a): the one that moved away is recorded first, and
    the other then follows with a legal move."""
    game = game_in_movement(HouseRules(), DRUID, replace(DRUID, number=9, name="Other Druid", at=(1, 4)),
                            bonus={DRUID.token: "R", (1, 9): "R"})
    game.roll_movement(DRUID.token)
    game.roll_movement((1, 9))
    play, calls = record_with(game)
    assert record_seen(game, {DRUID.token: (1, 4), (1, 9): (1, 6)}, play) == 2
    assert [args[0] for _, args, _ in calls] == [(1, 9), DRUID.token]
    assert [kwargs["by_card"] for _, _, kwargs in calls] == [False, False]
    assert game.state.pieces[DRUID.token].at == (1, 4) and game.state.pieces[(1, 9)].at == (1, 6)


def test_a_token_moved_by_hand_still_seen_on_its_old_square_is_catching_up_not_a_move_back():
    """#27: the Elves moved Q5 → D6 on the Board were offered as "D6 → Q5 … trop loin", with Record
    active, while the real token was still on Q5: recording it would have moved it back."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    game.move_piece(DRUID.token, (1, 4))                 # by hand, on the Board screen
    view = seen_moves(game, {DRUID.token: (1, 2)})       # the camera still sees it where it was
    assert view.moves == () and view.positions == {}
    assert [(c.token, c.seen, c.to) for c in view.catching_up] == [(DRUID.token, (1, 2), (1, 4))]
    assert view.catching_up[0].text("en") == "yellow 8: waiting for the token to reach B5 (still seen on B3)"
    assert view.catching_up[0].text("fr") == "jaune 8 : en attente du jeton en B5 (encore vu en B3)"
    play, calls = record_with(game)
    assert record_seen(game, {DRUID.token: (1, 2)}, play) == 0 and calls == []
    assert game.state.pieces[DRUID.token].at == (1, 4)
    assert seen_moves(game, {DRUID.token: (1, 4)}) == seen_moves(game, {})   # the hand carried it: all agree


def test_a_token_seen_elsewhere_than_both_its_squares_is_still_a_move_to_confirm():
    """Only the square the table's hand move left is "catching up": anywhere else is a move (MT 3.04)."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    game.move_piece(DRUID.token, (1, 4))
    view = seen_moves(game, {DRUID.token: (1, 5)})
    assert [(m.token, m.frm, m.to) for m in view.moves] == [(DRUID.token, (1, 4), (1, 5))] and view.catching_up == ()


def test_a_move_the_camera_recorded_then_seen_back_is_a_move_again():
    """What the camera itself recorded is where the camera saw the token: seen back on the old square,
    the token did move back, and the table is asked."""
    game = game_in_movement(HouseRules(), DRUID, bonus={DRUID.token: "R"})
    game.roll_movement(DRUID.token)
    game.move_piece(DRUID.token, (1, 4), source="camera")
    view = seen_moves(game, {DRUID.token: (1, 2)})
    assert [(m.frm, m.to) for m in view.moves] == [((1, 4), (1, 2))] and view.catching_up == ()
