"""Movement spent per turn, the three movement steps, and moves a card allows (MT 3.01, 3.03, 3.04, 3.08.b, 3.09)."""
import pytest

from boards import Board
from companion.game import Dice, Entry, Game, GameError, GameSetup, PlayerSetup
from companion.rules import HouseRules, Piece, overlay
from game_dice import ScriptedDice

# 20×12, all white but a red column 0 and a green column 19; start squares at A6 and T7.
ROWS = [" ".join(["R"] + ["W"] * 18 + ["G"]) for _ in range(12)]
ROWS[5] = " ".join(["R@"] + ["W"] * 18 + ["G"])
ROWS[6] = " ".join(["R"] + ["W"] * 18 + ["G@"])
BOARD = Board.from_rows(ROWS, name="Lanes")


def new_game(*rolls, house=HouseRules()) -> Game:
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1, house_rules=house)
    return Game.new(setup, dice=Dice(ScriptedDice(rolls)))


def to_step(game: Game, step: str) -> None:
    while (game.state.turn.phase, game.state.turn.step) != ("movement", step):
        game.next_phase()


ANGEL = Piece(1, 3, name="Serra Angel", mana_value=5, power=4, toughness=4, colours={"W"}, keywords={"flying"},
              at=(7, 6))
BEAR = Piece(1, 4, name="Grizzly Bears", mana_value=2, power=2, toughness=2, colours={"G"}, at=(10, 3))


def test_moves_of_one_piece_add_up_and_stop_at_the_roll_MT_3_04_a():
    """MT 3.04.a: the roll is the most a piece moves this turn. Serra Angel rolled 2: H7 → H6 spends 1, H6 → H5
    spends the last; then even one more square is refused, and the moves shown shrink to its own square."""
    game = new_game(2)
    game.add_piece(ANGEL)
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement(ANGEL.token)
    assert (game.movement_allowance(ANGEL.token), game.movement_left(ANGEL.token)) == (2, 2)
    game.move_piece(ANGEL.token, (7, 5))
    assert game.movement_left(ANGEL.token) == 1
    game.move_piece(ANGEL.token, (7, 4))
    assert game.movement_left(ANGEL.token) == 0 and game.movement_allowance(ANGEL.token) == 2
    with pytest.raises(GameError, match=r"Serra Angel \(#3\): 1 squares, 0 left: too far \(MT 3.04.a\)") as refused:
        game.move_piece(ANGEL.token, (7, 3))
    assert refused.value.key == "game.error.move_refused" and refused.value.fields["reason_key"] == "game.move.too_far"
    assert refused.value.text("fr") == "Serra Angel (#3) : 1 cases, il en reste 0 : trop loin (MT 3.04.a)"
    assert game.state.pieces[ANGEL.token].at == (7, 4)
    piece = game.state.pieces[ANGEL.token]
    shown = overlay(game.state.board, piece, game.state.pieces.values(), left=game.movement_left(ANGEL.token),
                    start=game.movement_start(ANGEL.token), house=game.state.house)
    assert shown.moves == {(7, 4)}


def test_a_bear_rolling_two_dice_cannot_walk_them_three_times_MT_3_04_a_and_3_04_d():
    """MT 3.04.d: a 2/2 rolls two dice, 2 + 1 = 3; it moves 3 in one or several moves, never 3 + 3 + 3."""
    game = new_game(2, 1)
    game.add_piece(BEAR)
    game.next_phase()
    to_step(game, "creatures")
    assert game.roll_movement(BEAR.token).results == (2, 1)
    game.move_piece(BEAR.token, (13, 3))
    assert game.movement_left(BEAR.token) == 0
    with pytest.raises(GameError, match="MT 3.04.a"):
        game.move_piece(BEAR.token, (16, 3))
    game.undo()
    game.move_piece(BEAR.token, (11, 3))
    game.move_piece(BEAR.token, (11, 5))
    assert game.movement_left(BEAR.token) == 0 and game.state.movement[BEAR.token].start == (10, 3)


def test_copies_share_one_roll_but_each_walks_its_own_squares_MT_3_03():
    """MT 3.03: copies of one object move the same number of squares: one roll, and each copy may use all of it."""
    game = new_game(3)
    spirits = [Piece(1, n, name="Spirit", power=1, toughness=1, at=(5, n), object_key="spirit") for n in (2, 3)]
    for spirit in spirits:
        game.add_piece(spirit)
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement((1, 2))
    game.move_piece((1, 2), (8, 2))  # 3 squares: 3 + 1 (3.04.d) = 4 allowed, 1 left
    assert (game.movement_left((1, 2)), game.movement_left((1, 3))) == (1, 4)
    game.move_piece((1, 3), (9, 3))
    assert game.movement_left((1, 3)) == 0


def test_unused_movement_is_lost_at_the_end_of_its_step_and_of_the_turn_MT_3_04_c():
    """MT 3.04.c and 3.01.c: what a creature did not use is lost when the creatures' step ends; a new turn rolls again."""
    game = new_game(6)
    game.add_piece(ANGEL)
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement(ANGEL.token)
    game.move_piece(ANGEL.token, (7, 4))
    assert game.movement_left(ANGEL.token) == 4
    game.next_phase()  # main phase 1
    assert game.movement_left(ANGEL.token) == 0
    with pytest.raises(GameError, match="MT 3.01.a"):
        game.move_piece(ANGEL.token, (7, 3))
    game.end_turn(), game.end_turn()
    assert game.movement_roll(ANGEL.token) is None and game.movement_left(ANGEL.token) is None
    assert game.state.movement == {}


def test_each_kind_moves_in_its_own_step_MT_3_01_c():
    """MT 3.01.c: players' pawns in the first step, planeswalkers in the second, creatures in the third; a piece
    moved in another step is refused with the rule, and once its step is over it no longer rolls."""
    game = new_game(4, 4, 4)
    jace = Piece(1, 5, kind="planeswalker", name="Jace", mana_value=3, at=(3, 3))
    game.add_piece(ANGEL), game.add_piece(jace)
    game.next_phase()
    to_step(game, "players")
    pawn = game.state.pawn(1)
    assert pawn.at == (0, 5)  # MT 2.04.a: on its start square
    for token in (pawn.token, jace.token, ANGEL.token):
        game.roll_movement(token)  # rolling early is fine
    with pytest.raises(GameError, match=r"Serra Angel \(#3\) moves in the creatures step, not in the players step"
                                        r" \(MT 3.01.c\)") as wrong:
        game.move_piece(ANGEL.token, (7, 5))
    assert "à l'étape des créatures, pas à celle des joueurs" in wrong.value.text("fr")
    game.move_piece(pawn.token, (2, 5))
    game.next_phase()  # planeswalkers
    assert game.movement_left(pawn.token) == 0  # lost with its step
    with pytest.raises(GameError, match="MT 3.01.c"):
        game.move_piece(pawn.token, (3, 5))
    game.move_piece(jace.token, (3, 1))
    game.next_phase()  # creatures
    with pytest.raises(GameError, match="the planeswalkers step is over"):
        game.roll_movement(jace.token)
    game.move_piece(ANGEL.token, (7, 3))


def test_move_refusal_says_beforehand_what_move_piece_refuses_and_records_nothing_MT_3_01_c_and_3_04_a():
    """`Game.move_refusal` is `move_piece`'s answer without the move: the wrong step (MT 3.01.c), too far
    (MT 3.04.a), or None for a move it then records; asking changes neither the state nor the history."""
    game = new_game(4, 4)
    game.add_piece(ANGEL)
    game.next_phase()
    to_step(game, "players")
    game.roll_movement(ANGEL.token)
    before = (game.state, len(game.actions))
    wrong_step = game.move_refusal(ANGEL.token, (7, 5))
    assert wrong_step is not None and "MT 3.01.c" in wrong_step.text("en")
    assert (game.state, len(game.actions)) == before
    to_step(game, "creatures")
    assert game.move_refusal(ANGEL.token, (7, 0)).key == "game.error.move_refused"   # 6 squares, roll 4
    with pytest.raises(GameError) as refused:
        game.move_piece(ANGEL.token, (7, 0))
    assert refused.value.text("en") == game.move_refusal(ANGEL.token, (7, 0)).text("en")
    assert game.move_refusal(ANGEL.token, (7, 3)) is None
    game.move_piece(ANGEL.token, (7, 3))
    assert game.state.pieces[ANGEL.token].at == (7, 3)


def test_only_the_controller_moves_in_their_own_movement_phase_MT_3_01_b():
    """MT 3.01.b: during a player's movement phase they move only what they control and their own pawn."""
    game = new_game(5)
    ogre = Piece(2, 2, name="Ogre", power=3, toughness=3, keywords={"haste"}, at=(12, 8))
    game.add_piece(ogre)
    game.next_phase()
    to_step(game, "creatures")
    with pytest.raises(GameError, match="MT 3.01.b"):
        game.move_piece(ogre.token, (12, 9))
    game.update_piece(ogre.token, controller=1)  # Anna steals the Ogre: now she moves it (haste: sick or not)
    game.roll_movement(ogre.token)
    game.move_piece(ogre.token, (12, 10))
    assert game.state.pieces[ogre.token].controller == 1 and game.state.pieces[ogre.token].owner == 2


def test_a_move_a_card_allows_is_recorded_and_spends_what_was_left_MT_3_04_a():
    """A move beyond what is left is refused with the rule, unless the table says a card allows it: then it is
    recorded as such, and the piece has nothing left this turn."""
    game = new_game(2)
    game.add_piece(ANGEL)
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement(ANGEL.token)
    assert not game.judge_move(ANGEL.token, (7, 0)).legal
    game.move_piece(ANGEL.token, (7, 0), by_card=True)
    assert game.state.pieces[ANGEL.token].at == (7, 0) and game.movement_left(ANGEL.token) == 0
    assert game.history("en")[-1].endswith("Serra Angel (#3) moved H7 → H1 (a card allows it)")
    assert game.history("fr")[-1].endswith("Serra Angel (#3) va de H7 à H1 (une carte le permet)")


def test_landwalk_doubles_from_where_the_movement_began_MT_6_09():
    """MT 6.09 (start-square reading): forestwalk on a green square doubles the roll; leaving the green square in
    a first move keeps the doubled allowance for the rest of the movement."""
    game = new_game(3)
    walker = Piece(1, 6, name="Elf", power=3, toughness=3, colours={"G"}, keywords={"forestwalk"}, at=(19, 2))
    game.add_piece(walker)
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement(walker.token)
    assert game.movement_left(walker.token) == 6
    game.move_piece(walker.token, (17, 2))  # onto white
    assert (game.movement_allowance(walker.token), game.movement_left(walker.token)) == (6, 4)


def test_red_square_haste_lets_a_sick_creature_walk_on_after_leaving_it_MT_2_02_b_04():
    """A summoning-sick red creature on a red square has haste and moves (MT 3.02, 2.02.b.04); its second
    move, from a white square, is still part of the movement that began on red."""
    game = new_game(4)
    goblin = Piece(1, 7, name="Goblin", power=3, toughness=3, colours={"R"}, at=(0, 2))
    game.add_piece(goblin)
    game.next_phase()
    game.update_piece(goblin.token, summoning_sick=True)
    to_step(game, "creatures")
    game.roll_movement(goblin.token)
    game.move_piece(goblin.token, (1, 2))
    game.move_piece(goblin.token, (3, 2))
    assert game.movement_left(goblin.token) == 1


def test_a_sick_red_creature_does_not_move_when_the_table_says_so_MT_3_02():
    """House rule haste_moves_when_sick=False: the engine refuses to roll it, and the camera's verdict agrees."""
    game = new_game(4, house=HouseRules(haste_moves_when_sick=False))
    goblin = Piece(1, 7, name="Goblin", power=3, toughness=3, colours={"R"}, at=(0, 2))
    game.add_piece(goblin)
    game.next_phase()
    game.update_piece(goblin.token, summoning_sick=True)
    to_step(game, "creatures")
    with pytest.raises(GameError, match=r"Goblin \(#7\): summoning sick, it does not move \(MT 3.02\)"):
        game.roll_movement(goblin.token)
    assert game.judge_move(goblin.token, (1, 2)).key == "game.move.sick"


def test_defender_and_planeswalker_move_to_a_target_square_MT_3_08_b_and_3_09():
    """MT 3.08.b: a defender's {T}: move to a square of its zone (it taps). MT 3.09: a planeswalker's loyalty
    ability does the same, costing planeswalker_move_loyalty (here −1, a house rule): with 0 loyalty it cannot."""
    game = new_game(house=HouseRules(planeswalker_move_loyalty=-1))
    wall = Piece(1, 8, name="Wall of Stone", mana_value=3, power=0, toughness=8, keywords={"defender"}, at=(9, 9))
    jace = Piece(1, 9, kind="planeswalker", name="Jace", mana_value=3, loyalty=1, at=(4, 9))
    game.add_piece(wall), game.add_piece(jace)
    game.next_phase()
    with pytest.raises(GameError, match="MT 3.08.b"):
        game.move_to_target(wall.token, (14, 9))  # 5 squares: outside its MV 3 zone
    game.move_to_target(wall.token, (9, 6))
    assert game.state.pieces[wall.token].at == (9, 6) and game.state.pieces[wall.token].tapped
    game.move_to_target(jace.token, (4, 7))
    assert game.state.pieces[jace.token].loyalty == 0
    with pytest.raises(GameError, match=r"Jace \(#9\) has 0 loyalty and the move costs -1 \(MT 3.09\)"):
        game.move_to_target(jace.token, (4, 8))
    assert "va sur la case ciblée E8" in game.history("fr")[-1]


def test_camera_and_engine_give_the_same_verdict_for_every_square():
    """The verdict `Game.judge_move` gives (what the camera shows) is exactly what `move_piece` does."""
    game = new_game(3)
    game.add_piece(BEAR), game.add_piece(Piece(1, 5, name="Ox", power=3, toughness=3, at=(11, 3)))
    game.next_phase()
    to_step(game, "creatures")
    game.roll_movement(BEAR.token)
    for to in BOARD.positions():
        verdict = game.judge_move(BEAR.token, to)
        try:
            game.move_piece(BEAR.token, to)
        except GameError as refused:
            assert not verdict.legal and refused.fields["reason_key"] == verdict.key
        else:
            assert verdict.legal
            if to != BEAR.at:
                game.undo()


def test_a_creature_entering_or_changing_controller_is_summoning_sick_until_its_controllers_next_turn_MT_3_02():
    """MT 3.02 ("une créature ... avec le mal d'invocation ne se déplace pas") with CR 302.6: a creature that enters
    the battlefield — cast, made by an effect, coming back — or changes controller is sick until its controller's
    next turn begins; haste lets it move all the same (MT 2.02.b.04). A permanent its controller already had is
    not: one that becomes a creature (MT 5.02.a), one that phases in (6.02), a piece set up before turn 1. The
    table can still untick it by hand (a card says so)."""
    game = new_game(3, 3)
    ogre = Piece(2, 2, name="Ogre", power=3, toughness=3, at=(12, 8))
    wall = Piece(1, 5, name="Wall", power=0, toughness=4, at=(5, 5))
    golem = Piece(1, 6, name="Golem", mana_value=1, power=3, toughness=3)
    game.add_piece(ogre), game.add_piece(wall), game.add_piece(golem)  # the Golem: an artifact, off the grid
    assert not game.state.pieces[ogre.token].summoning_sick  # set up before the game
    game.next_phase(), game.next_phase()  # Anna's upkeep
    spirit = Piece(1, 2, name="Spirit", power=1, toughness=1, at=(1, 5))
    game.add_piece(spirit, entry=Entry("effect", source_mana_value=2))
    hasty = Piece(1, 3, name="Goblin", power=1, toughness=1, keywords={"haste"}, at=(2, 5))
    game.add_piece(hasty)
    game.update_piece(ogre.token, controller=1)  # Anna steals the Ogre
    game.place_piece(golem.token, (0, 4), entry=Entry("becomes"))  # it becomes a creature (MT 5.02.a)
    game.move_piece(wall.token, None)  # phases out …
    game.place_piece(wall.token, (0, 6), entry=Entry("phases_in"))  # … and in (MT 6.02)
    pieces = game.state.pieces
    assert [pieces[t].summoning_sick for t in (spirit.token, hasty.token, ogre.token, golem.token, wall.token)] == [
        True, True, True, False, False]
    to_step(game, "creatures")
    for sick in (spirit, ogre):
        with pytest.raises(GameError, match="summoning sick, it does not move .MT 3.02."):
            game.roll_movement(sick.token)
    game.roll_movement(hasty.token)
    game.move_piece(hasty.token, (2, 6))  # haste: sick, and moving
    game.end_turn()
    assert game.state.pieces[ogre.token].summoning_sick  # Bruno's turn: not yet Anna's next one
    game.end_turn()
    assert not any(game.state.pieces[t].summoning_sick for t in (spirit.token, hasty.token, ogre.token))
    game.add_piece(Piece(1, 7, name="Bear", power=2, toughness=2, at=(1, 6)))
    game.update_piece((1, 7), summoning_sick=False)  # the table unticks it (a card says it may move)
    assert not game.state.pieces[(1, 7)].summoning_sick


def test_a_creature_cast_while_a_movement_step_is_under_way_is_said_MT_3_01_d():
    """MT 3.01.d: spells are cast « qu'entre les étapes » of the movement phase. Before the step's first
    move the table is still between steps: nothing to say. Once a piece of the step has moved, a creature
    cast is still recorded (the table may have its reasons) but the game says it, with the rule."""
    game = new_game(2)
    game.add_piece(ANGEL)
    game.next_phase()
    to_step(game, "creatures")
    game.add_piece(Piece(1, 5, name="Elite Vanguard", mana_value=1, power=2, toughness=1, colours={"W"}, at=(1, 4)))
    assert game.warnings() == []
    game.roll_movement(ANGEL.token)
    game.move_piece(ANGEL.token, (7, 5))
    game.add_piece(Piece(1, 6, name="Savannah Lions", mana_value=1, power=2, toughness=1, colours={"W"}, at=(1, 3)))
    [warning] = game.warnings()
    assert (warning.key, warning.rule) == ("game.warning.cast_mid_step", "MT 3.01.d")
    assert warning.text("en") == ("Savannah Lions (#6) was cast during the creatures step: spells and abilities are "
                                  "played between the steps of the movement phase (MT 3.01.d)")
    assert game.state.pieces[(1, 6)].at == (1, 3)  # applied all the same
    assert game.history("fr")[-1].endswith("les sorts et capacités se jouent entre les étapes de la phase de "
                                           "déplacement (MT 3.01.d)")
    game.add_piece(Piece(1, 7, name="Soldier", power=1, toughness=1, at=(1, 2)), entry=Entry("effect", source=(1, 6)))
    assert game.warnings() == []  # put onto the battlefield by an effect: no spell was cast
    game.next_phase()
    assert game.warnings() == []
