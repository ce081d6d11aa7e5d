"""Setting a game up and ending it: pawns on the starts, warnings, starting life and player, entries onto the
grid, eliminations and the winner (MT 2.01, 2.04.a, 2.05, 4.09.c, 4.10, 5.02.a, 5.02.h, 7.02.c, BR)."""
import pytest

from boards import Board, library_boards, load_board
from companion.game import (Dice, Entry, EventCard, Game, GameError, GameSetup, PlayerSetup, SaveError,
                            board_warnings, seat_starts)
from companion.rules import Piece

NAMES = ["Anna", "Bruno", "Chloé", "David"]


def board(name: str) -> Board:
    return load_board(library_boards()[name])


def players(count: int, **kw) -> list[PlayerSetup]:
    return [PlayerSetup(n, i + 1, **kw) for i, n in enumerate(NAMES[:count])]


def test_pawns_stand_on_start_squares_facing_each_other_MT_2_04_a():
    """MT 2.04.a: every player starts on a start square; two players of the 4-player board take opposite
    corners, four players go round the board in seat order."""
    quatuor = board("quatuor-40x25")
    duel = Game.new(GameSetup(players(2), quatuor, starting_player=1), dice=Dice.seeded(1))
    first, second = duel.state.pawn(1), duel.state.pawn(2)
    assert (first.kind, first.number, first.name, first.owner, first.controller) == ("player", 1, "Anna", 1, 1)
    assert {first.at, second.at} == {(3, 2), (36, 22)}  # diagonally opposite corners
    four = Game.new(GameSetup(players(4), quatuor, starting_player=1), dice=Dice.seeded(1))
    seats = [four.state.pawn(p).at for p in (1, 2, 3, 4)]
    assert seats == [(3, 2), (36, 2), (36, 22), (3, 22)]  # clockwise round the board, in turn order
    assert set(seats) == set(quatuor.starts) and four.setup_warnings() == []
    assert duel.history("en")[0][6:].startswith("New game: Anna, Bruno; Anna starts; Anna's pawn on D3")


def test_fewer_start_squares_than_players_is_a_warning_and_the_table_places_the_pawn_MT_2_04_a():
    """A board with 2 start squares for 3 players is accepted: the game says so, and the third pawn is placed
    by hand before the first turn (anywhere free once no start square is left)."""
    duel = board("duel-20x12")
    game = Game.new(GameSetup(players(3), duel, starting_player=1), dice=Dice.seeded(2))
    (warning,) = game.setup_warnings()
    assert (warning.key, warning.rule, warning.fields["names"]) == ("game.warning.few_starts", "MT 2.04.a", ["Chloé"])
    assert warning.text("fr") == ("Le plateau a 2 case(s) de départ pour 3 joueurs : placez à la main le pion de "
                                  "Chloé (MT 2.04.a)")
    assert game.state.pawn(3).at is None
    with pytest.raises(GameError, match="obstacle"):
        game.place_pawn(3, next(q for q in duel.positions() if not duel.walkable(q)))
    game.place_pawn(3, (10, 0))
    assert game.state.pawn(3).at == (10, 0)
    with pytest.raises(GameError, match="is not a start square"):  # a pawn with a start square keeps to starts
        game.place_pawn(1, (10, 1))
    game.next_phase()
    with pytest.raises(GameError, match="before the first turn"):
        game.place_pawn(3, (12, 0))


def test_turn_1_waits_until_every_pawn_stands_on_the_grid_MT_2_04_a_and_4_09_a():
    """MT 2.04.a: every player begins on the board; MT 4.09.a: a spell's zone is "centrée sur le joueur lançant ce
    sort" — with no pawn there is nothing to centre on. So turn 1 does not begin while a pawn is off the grid,
    a pawn off the grid can always be placed, and nothing enters around a pawn that is not there."""
    duel = board("duel-20x12")
    game = Game.new(GameSetup(players(3), duel, starting_player=3), dice=Dice.seeded(2))
    assert game.unplaced_pawns == [3] and game.pawn_squares(3) == frozenset(
        q for q in duel.positions() if duel.walkable(q) and q not in duel.starts)  # no start square left
    with pytest.raises(GameError, match=r"place the pawn of Chloé on the grid first.*\(MT 2.04.a\)"):
        game.next_phase()
    assert game.state.turn.phase == "pregame"
    game.place_pawn(3, (10, 0))
    game.next_phase()
    assert game.state.turn.number == 1 and game.unplaced_pawns == []
    assert game.pawn_squares(3) == frozenset()  # on the grid: it walks, it is not placed
    game.set_positions({(3, 1): None})  # the camera lost it, or it was knocked off the board
    while game.state.turn.phase != "main1":
        game.next_phase()
    bear = Piece(3, 2, name="Grizzly Bears", mana_value=2, power=2, toughness=2)
    assert game.entry_squares(bear).squares == frozenset()  # not the whole grid
    with pytest.raises(GameError, match="its zone is centred on Chloé's pawn, which is off the grid"):
        game.add_piece(bear.moved((10, 2)))
    assert (10, 1) in game.pawn_squares(3)
    game.place_pawn(3, (10, 1))  # put back where it stands
    game.add_piece(bear.moved((10, 2)))
    assert game.state.pieces[bear.token].at == (10, 2)


def test_a_board_smaller_than_20_by_12_is_accepted_with_a_warning_MT_2_01():
    small = Board.from_rows(["W@ W W W W W W W W W", "W W W W W W W W W W@"])
    game = Game.new(GameSetup(players(2), small, starting_player=1), dice=Dice.seeded(1))
    (warning,) = game.setup_warnings()
    assert warning.rule == "MT 2.01" and "10×2" in warning.text("en") and "20×12" in warning.text("fr")
    assert board_warnings(board("duel-20x12"), ["Anna", "Bruno"]) == []
    assert seat_starts(small, 2) == [(0, 0), (9, 1)]


def test_starting_life_is_the_tables_choice_and_the_first_player_is_drawn_or_chosen_BR():
    """BR sets 20 life; a table may play 30, 40 or any number. The starting player is drawn at random and
    the history says so, or chosen."""
    duel = board("duel-20x12")
    forty = Game.new(GameSetup(players(2), duel, starting_life=40), dice=Dice.seeded(5))
    assert [p.life for p in forty.state.players] == [40, 40]
    assert forty.state.starting_player_drawn and "(drawn at random)" in forty.history("en")[0]
    assert "(tiré au sort)" in forty.history("fr")[0]
    drawn = {Game.new(GameSetup(players(4), duel), dice=Dice.seeded(seed)).state.starting_player
             for seed in range(12)}
    assert drawn == {1, 2, 3, 4}
    chosen = Game.new(GameSetup(players(2), duel, starting_player=2, starting_life=7), dice=Dice.seeded(5))
    assert not chosen.state.starting_player_drawn and chosen.history("en")[0].endswith(
        "Bruno starts; Anna's pawn on R6; Bruno's pawn on C7")
    with pytest.raises(GameError, match="starting_life"):
        Game.new(GameSetup(players(2), duel, starting_life=0), dice=Dice.seeded(5))


def test_event_copies_are_checked_when_the_game_starts_and_when_it_is_loaded_MT_7_02_c(tmp_path):
    """MT 7.02.c: 25 copies of one mythic never start a game (the list file is not the only way in), and a save
    whose deck breaks the limit does not load as if it were fine."""
    duel = board("duel-20x12")
    with pytest.raises(GameError, match=r"25 copies of the event 'Jugement Dernier', but a mythic event .* at most 1"):
        Game.new(GameSetup(players(2), duel, events=[EventCard("Jugement Dernier", "mythic")] * 25))
    fine = [EventCard(f"E{i}", "mythic") for i in range(25)]
    game = Game.new(GameSetup(players(2), duel, events=fine, starting_player=1), dice=Dice.seeded(1))
    document = game.to_dict()
    document["actions"][0]["data"]["events"][1]["name"] = "E0"
    with pytest.raises(SaveError, match="2 copies of the event 'E0'.*MT 7.02.c"):
        Game.from_dict(document)
    document["actions"][0]["data"]["events"][1] = {"name": "E1", "rarity": "legendary"}
    with pytest.raises(SaveError, match=r"events\[2\].rarity' must be one of mythic, uncommon, common"):
        Game.from_dict(document)


# -- entering the grid -------------------------------------------------------------------------------

def entry_game() -> Game:
    """Anna's pawn on C7 and Bruno's on S6 (duel board), in Anna's first main phase."""
    game = Game.new(GameSetup(players(2), board("duel-20x12"), starting_player=1), dice=Dice.seeded(3))
    game.next_phase()
    while game.state.turn.phase != "main1":
        game.next_phase()
    return game


def test_a_creature_spell_enters_in_its_zone_around_its_caster_MT_4_09_c():
    """MT 4.09.a/c: a creature cast enters on a free square within 3 × MV of its caster's pawn; elsewhere is
    refused (unless a card allows it), and the entry is in the history."""
    game = entry_game()
    anna = game.state.pawn(1).at
    bear = Piece(1, 2, name="Grizzly Bears", mana_value=2, power=2, toughness=2)
    squares = game.entry_squares(bear).squares
    assert squares and all(abs(x - anna[0]) + abs(y - anna[1]) <= 6 for x, y in squares)
    far = (19, 0)
    assert far not in squares
    with pytest.raises(GameError, match=r"Grizzly Bears \(#2\) cannot enter on T1: in the spell's zone, MT 4.09.c"):
        game.add_piece(bear.moved(far))
    game.add_piece(bear.moved(far), by_card=True)
    elves = Piece(1, 3, name="Elves", mana_value=1)
    near = min(game.entry_squares(elves).squares)
    game.add_piece(elves.moved(near))
    assert game.history("fr")[-1].endswith(f"Anna : Elves (#3) arrive en {'ABCDEFGHIJKLMNOPQRST'[near[0]]}"
                                           f"{near[1] + 1} (dans la zone du sort, MT 4.09.c)")


def test_a_token_from_an_off_grid_source_enters_around_its_controller_MT_4_10_a():
    """MT 4.10.a: "centrée sur le joueur si la source n'est pas représentée sur la grille": an enchantment of MV 2
    making a token puts it within 2 squares of its controller (not anywhere on the grid)."""
    game = entry_game()
    anna = game.state.pawn(1).at
    token = Piece(1, 4, name="Soldier", power=1, toughness=1)
    squares = game.entry_squares(token, Entry("effect", source_mana_value=2)).squares
    assert squares and all(1 <= abs(x - anna[0]) + abs(y - anna[1]) <= 2 for x, y in squares)
    spell = game.entry_squares(token, Entry("effect", source_mana_value=2, source_spell=True)).squares
    assert squares < spell  # a spell as source: its spell zone, 3 × MV (MT 4.09.a)
    game.add_piece(token.moved(min(squares)), entry=Entry("effect", source_mana_value=2))


def test_a_token_making_spell_puts_its_token_in_its_spell_zone_not_the_whole_grid_a_reading_of_MT_4_07_and_4_10_a():
    """MT 4.07 gives a spell that does not target the whole grid as its zone; MT 4.10.a says an effect puts a
    creature "sur n'importe quelle case présente dans la zone d'action de la source". Reading: 4.10.a is the rule
    for where the creature goes, so a non-targeting token-making spell puts its token in its spell zone (3 × MV
    around its caster, 4.09.a), not anywhere; 4.07 says where such a spell may be cast from and what it affects."""
    game = entry_game()
    anna = game.state.pawn(1).at
    token = Piece(1, 4, name="Soldier", power=1, toughness=1)
    spell = game.entry_squares(token, Entry("effect", source_mana_value=1, source_spell=True)).squares
    assert spell and all(abs(x - anna[0]) + abs(y - anna[1]) <= 3 for x, y in spell)
    far = (19, 11)
    with pytest.raises(GameError, match="MT 4.10.a"):
        game.add_piece(token.moved(far), entry=Entry("effect", source_mana_value=1, source_spell=True))


def test_an_effect_puts_a_token_in_its_sources_zone_centred_on_the_sources_controller_a_reading_of_MT_4_10_a():
    """MT 4.10.a: "la zone d'action de la source … centrée sur le joueur si la source n'est pas représentée sur la
    grille". Reading: the zone is the source's, so "le joueur" is the source's controller — when Anna's spell has
    Bruno create a token, it enters around Anna (whose effect it is), not around Bruno; an effect of Bruno's own
    puts it around Bruno."""
    game = entry_game()
    anna, bruno = game.state.pawn(1).at, game.state.pawn(2).at
    token = Piece(2, 4, name="Goat", power=0, toughness=1)
    anna_s = game.entry_squares(token, Entry("effect", source_mana_value=2, source_controller=1)).squares
    assert anna_s and all(1 <= abs(x - anna[0]) + abs(y - anna[1]) <= 2 for x, y in anna_s)
    bruno_s = game.entry_squares(token, Entry("effect", source_mana_value=2)).squares
    assert bruno_s and all(1 <= abs(x - bruno[0]) + abs(y - bruno[1]) <= 2 for x, y in bruno_s)
    game.add_piece(token.moved(min(anna_s)), entry=Entry("effect", source_mana_value=2, source_controller=1))
    source = Piece(1, 5, kind="planeswalker", name="Chandra", mana_value=0)
    game.add_piece(source)  # a source in play but off the grid: its controller's pawn is the centre
    near_anna = game.entry_squares(Piece(2, 6), Entry("effect", source=source.token)).squares
    assert near_anna and all(1 <= abs(x - anna[0]) + abs(y - anna[1]) <= 1 for x, y in near_anna)


def test_a_token_leaving_the_battlefield_frees_its_number_and_a_creature_off_the_grid_keeps_its_MT_5_02_d_to_g():
    """MT 5.02.d, f: a permanent on the grid that dies, or stops being a creature, has its token removed "et pourra
    être réutilisé": the number enters again for another permanent. 5.02.g: exiled, its token leaves the grid (the
    twin on the card is the players'). A creature off the grid (phased out, MT 6.02) keeps its number."""
    game = entry_game()
    ogre = Piece(1, 5, name="Ogre", mana_value=3, power=3, toughness=3, at=(4, 6))
    game.add_piece(ogre, by_card=True)
    with pytest.raises(GameError, match="token 1-5 is already in play"):
        game.add_piece(Piece(1, 5, name="Elves"))
    game.remove_piece(ogre.token)  # it dies (5.02.f), is exiled (5.02.g) or becomes an enchantment (5.02.d)
    assert ogre.token not in game.state.pieces and "Ogre (#5) left the battlefield" in game.history("en")[-1]
    game.add_piece(Piece(1, 5, name="Elves"))  # the number is used again
    game.move_piece((1, 5), None)
    assert game.state.pieces[(1, 5)].at is None
    with pytest.raises(GameError, match="already in play"):
        game.add_piece(Piece(1, 5, name="Wolf"))
    with pytest.raises(GameError, match="MT 2.05"):
        game.remove_piece((1, 1))  # a pawn stays until its player leaves


def test_a_dies_trigger_makes_its_token_in_the_zone_the_permanent_had_before_its_death_MT_4_11_b():
    """MT 4.11.b: "les capacités déclenchées lors de la mort d'un permanent se résolvent … dans la zone d'action du
    permanent avant sa mort": the game keeps the dead token as it last stood, so its zone can still be asked, until
    its number is used again (MT 5.02.f)."""
    game = entry_game()
    dier = Piece(1, 5, name="Doomed Traveler", mana_value=2, power=1, toughness=1, at=(10, 6))
    game.add_piece(dier, by_card=True)
    game.remove_piece(dier.token)  # it dies
    assert game.state.last_known[dier.token].at == (10, 6)
    spirit = Piece(1, 6, name="Spirit", power=1, toughness=1)
    squares = game.entry_squares(spirit, Entry("effect", source=dier.token)).squares
    assert squares == {(x, y) for x in range(20) for y in range(12) if 1 <= abs(x - 10) + abs(y - 6) <= 2}
    game.add_piece(spirit.moved((10, 8)), entry=Entry("effect", source=dier.token))
    with pytest.raises(GameError, match="MT 4.10.a"):
        game.add_piece(Piece(1, 7).moved((10, 9)), entry=Entry("effect", source=dier.token))
    game.add_piece(Piece(1, 5, name="Elves", mana_value=1).moved(min(game.entry_squares(Piece(1, 5, mana_value=1))
                                                                     .squares)))
    assert dier.token not in game.state.last_known  # the number is used again: the dead one is forgotten


def test_a_token_from_a_source_on_the_grid_enters_in_the_sources_zone_and_a_full_zone_goes_nearest_MT_4_10():
    game = entry_game()
    source = Piece(1, 5, name="Captain", mana_value=0, at=(10, 10))
    game.add_piece(source, by_card=True)
    token = Piece(1, 6, name="Soldier")
    entry = Entry("effect", source=source.token)
    assert game.entry_squares(token, entry).squares == {(9, 10), (11, 10), (10, 9), (10, 11)}
    for number, at in enumerate([(9, 10), (11, 10), (10, 9), (10, 11)], start=7):
        game.add_piece(Piece(1, number, at=at), by_card=True)
    full = game.entry_squares(token, entry)
    assert full.zone_full and all(abs(x - 10) + abs(y - 10) == 2 for x, y in full.squares)  # MT 4.10.b


def test_coming_back_and_becoming_a_creature_enter_around_the_controller_MT_5_02_a_and_5_02_h():
    game = entry_game()
    anna = game.state.pawn(1).at
    jace = Piece(1, 7, kind="planeswalker", name="Jace", mana_value=3)
    game.add_piece(jace)  # off the grid (exiled, MT 5.02.g)
    squares = game.entry_squares(jace, Entry("returns")).squares
    assert squares and all(abs(x - anna[0]) + abs(y - anna[1]) <= 3 for x, y in squares)
    far = (anna[0] - 4, anna[1])
    with pytest.raises(GameError, match="MT 5.02.h"):
        game.place_piece(jace.token, far)
    game.place_piece(jace.token, min(squares))
    animated = Piece(1, 8, name="Mishra's Factory", mana_value=0)
    game.add_piece(animated)
    assert game.entry_squares(animated, Entry("becomes")).squares <= {
        (anna[0] + dx, anna[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}  # MT 4.03.c: radius 1


# -- eliminations and the winner ----------------------------------------------------------------------

def test_eliminations_are_proposed_and_confirmed_by_the_table_BR():
    """Life ≤ 0, 10 poison, 21 combat damage from one commander → proposed with the reason; the table confirms
    (the player leaves) or keeps them in (a card says so), and is asked again when their totals change; the
    winner is named when one player is left."""
    game = Game.new(GameSetup(players(3), board("trio-31x18"), starting_player=1), dice=Dice.seeded(1))
    game.next_phase()
    game.change_life(2, -23)
    (proposal,) = game.eliminations()
    assert proposal.player == 2 and proposal.reasons[0].text("fr") == "Bruno est à -3 PV (BR)"
    assert "Bruno is at -3 life: they leave the game, unless a card says otherwise" in game.history("en")[-1]
    game.keep_in_game(2)  # Platinum Angel
    assert game.eliminations() == []
    game.change_life(2, -1)
    assert [e.player for e in game.eliminations()] == [2]
    game.player_leaves(2)
    game.change_poison(3, 10)
    assert game.eliminations()[0].reasons[0].key == "game.elimination.poison"
    game.player_leaves(3)
    assert game.state.winner == [1] and game.history("fr")[-1].endswith("Anna gagne la partie")


def test_commander_damage_counts_each_commander_and_each_partner_apart():
    """21 combat damage from one commander (Comprehensive Rules 903.10a); two partners are two commanders."""
    game = Game.new(GameSetup(players(2), board("duel-20x12"), starting_player=1, starting_life=40),
                    dice=Dice.seeded(1))
    game.commander_damage(1, 2, 12, partner="Tymna")
    game.commander_damage(1, 2, 12, partner="Thrasios")
    assert game.eliminations() == [] and game.state.player(1).commander_damage == {"2:Tymna": 12, "2:Thrasios": 12}
    assert game.losing_players() == []  # 24 in all, but from two commanders
    with pytest.raises(GameError, match="Anna has not lost"):
        game.keep_in_game(1)
    game.commander_damage(1, 2, 9, partner="Tymna")
    assert game.losing_players() == [1]
    (proposal,) = game.eliminations()
    assert proposal.reasons[0].text("en") == "Anna took 21 combat damage from Tymna (CR 903.10a)"


def test_a_player_leaving_takes_what_they_own_and_gives_back_what_they_controlled_PC():
    """PC "Quitter la partie": their permanents leave; the effects that gave them control of others' end, so
    each goes back to the player it entered the battlefield under — and one that entered under the leaver's
    own control is exiled ("s'ils sont arrivés sur le champ de bataille sous le contrôle du joueur qui est
    parti, ils sont exilés")."""
    trio = board("trio-31x18")
    game = Game.new(GameSetup(players(3), trio, starting_player=1), dice=Dice.seeded(1))
    free = [q for q in trio.positions() if trio.walkable(q) and not trio.square(*q).start]
    game.add_piece(Piece(2, 2, name="Ogre", at=free[0]))
    game.add_piece(Piece(3, 2, name="Elf", at=free[1]))
    game.update_piece((3, 2), controller=2)  # Bruno steals Chloé's Elf
    game.add_piece(Piece(3, 3, name="Zombie", at=free[2], controller=2))  # Bruno reanimates Chloé's Zombie
    game.add_piece(Piece(1, 2, name="Wolf", at=free[3], controller=3))  # Chloé reanimates Anna's Wolf …
    game.update_piece((1, 2), controller=2)  # … and Bruno steals it from her
    game.player_leaves(2)
    pieces = game.state.pieces
    assert (2, 2) not in pieces and game.state.pawn(2) is None
    assert pieces[(3, 2)].controller == 3 and (3, 3) not in pieces and pieces[(1, 2)].controller == 3


def test_a_save_started_before_pawns_and_checked_moves_replays_as_it_was_played():
    """A journal whose 'start' has no `rules` edition (made before this engine) loads: no pawns were placed then,
    and its moves and entries were not checked, so they replay as recorded; new games are edition 4."""
    game = Game.new(GameSetup(players(2), board("duel-20x12"), starting_player=1), dice=Dice.seeded(1))
    document = game.to_dict()
    assert document["actions"][0]["data"]["rules"] == 4
    start = document["actions"][0]
    del start["data"]["rules"], start["data"]["starting_player_drawn"]
    old_moves = [{"kind": "add_piece", "data": {"piece": {"player": 1, "number": 1, "kind": "player", "at": [0, 0]}},
                  "time": ""},
                 {"kind": "add_piece", "data": {"piece": {"player": 2, "number": 1, "name": "Ogre", "at": [5, 5]}},
                  "time": ""},
                 {"kind": "move_piece", "data": {"token": [2, 1], "at": [19, 11], "source": "camera"}, "time": ""}]
    old = Game.from_dict({**document, "actions": [start, *old_moves], "cursor": 4})
    assert old.state.rules_edition == 1 and old.state.pieces[(2, 1)].at == (19, 11)
    assert old.state.pawn(2) is None and old.state.pawn(1).at == (0, 0)
