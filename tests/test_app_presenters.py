"""The screens' presenters, without a window: what each screen shows, from a game played through
`companion.game`. Expected values come from the game's state and the seeds' rules."""
from __future__ import annotations

import re

import pytest

from boards import Board, library_boards, load_board
from companion.app.screens.board import presenter as board
from companion.app.screens.dice import presenter as dice
from companion.app.screens.history import presenter as history
from companion.app.screens.newgame import presenter as newgame
from companion.app.screens.pieces import presenter as pieces
from companion.app.screens.table import presenter as table
from companion.app.words import MAX_PLAYERS, colour_name, printed, refusal
from companion.game import Dice, Game, GameError, GameSetup, HordeCard, HordeWave, PlayerSetup
from companion.i18n import translate
from companion.rules import Piece, word


def duel_board():
    return load_board(library_boards()["duel-20x12"])


def new_game(names=("Anna", "Bruno", "Cleo"), place_pawns=True, **setup) -> Game:
    planes = [f"Plane {n}" for n in range(1, 6)] if setup.get("planechase") else []
    players = [PlayerSetup(name, colour, planar_deck=planes) for colour, name in enumerate(names, start=1)]
    game = Game.new(GameSetup(players=players, board=duel_board(), starting_player=1, **setup), dice=Dice.seeded(3))
    for player in game.unplaced_pawns if place_pawns else ():  # two start squares for three: Cleo's is placed
        game.place_pawn(player, min(game.pawn_squares(player)))
    return game


def test_every_player_panel_shows_life_and_poison_and_the_active_player_is_the_default_source():
    """Commander damage (CR 903.10a): the source offered first is the active player's commander."""
    game = new_game()
    game.next_phase()  # turn 1: Anna
    views = {v.player: v for v in table.panels(game, "en")}
    assert [v.life for v in views.values()] == ["20", "20", "20"]
    assert views[2].default_source == 1 and views[3].default_source == 1
    assert views[1].default_source in (2, 3)  # nobody attacks the active player on their own turn
    assert [s.player for s in views[1].sources] == [2, 3]


def test_commander_damage_is_shown_per_source_and_minus_one_takes_back_a_mistake():
    """CR 903.10a: damage is counted per commander; −1 corrects a tap (and gives the life back)."""
    game = new_game()
    game.next_phase()
    game.commander_damage(2, 1, 1)
    game.commander_damage(2, 1, 1)
    game.commander_damage(2, 1, -1)
    view = next(v for v in table.panels(game, "en") if v.player == 2)
    assert [(s.player, s.damage) for s in view.sources] == [(1, 1), (3, 0)]
    assert view.life == "19"
    assert view.sources[0].label("fr") == translate("fr", "table.commander_source", name="Anna", damage=1)
    with pytest.raises(GameError):
        game.commander_damage(2, 3, -1)  # Cleo dealt none


def test_a_player_at_zero_life_is_proposed_out_and_the_last_one_standing_wins():
    """BR: a player at 0 life loses; the game proposes it (the table confirms), then names the winner."""
    game = new_game(names=("Anna", "Bruno"))
    game.next_phase()
    game.change_life(2, -20)
    view = next(v for v in table.panels(game, "fr") if v.player == 2)
    assert view.elimination == word("fr", "game.elimination.life", {"name": "Bruno", "life": 0}) + " (BR)"
    assert table.winner_text(game.state, "en") == ""
    game.player_leaves(2, "lost")
    assert table.winner_text(game.state, "en") == translate("en", "table.winner", names="Anna")


def test_ten_poison_and_21_commander_damage_are_proposed_too():
    """CR 704.5c: 10 poison counters; CR 903.10a: 21 combat damage from one commander."""
    game = new_game()
    game.next_phase()
    for _ in range(10):
        game.change_poison(2, 1)
    game.change_life(3, 5)
    game.commander_damage(3, 1, 21)
    views = {v.player: v for v in table.panels(game, "en")}
    assert views[2].elimination == word("en", "game.elimination.poison", {"name": "Bruno", "poison": 10}) + \
        " (CR 704.5c)"
    assert views[3].elimination == word("en", "game.elimination.commander",
                                        {"name": "Cleo", "commander": "Anna", "damage": 21}) + " (CR 903.10a)"
    game.keep_in_game(2)  # a card keeps Bruno in: not proposed again until his totals change
    assert next(v for v in table.panels(game, "en") if v.player == 2).elimination == ""


def test_partner_commanders_are_sources_of_their_own():
    """CR 702.124 / 903.10a: each partner's damage is counted apart."""
    game = new_game()
    game.next_phase()
    game.commander_damage(2, 1, 3, partner="Tymna")
    view = next(v for v in table.panels(game, "en", {1: {"Kraum"}}) if v.player == 2)
    assert [(s.player, s.partner, s.damage) for s in view.sources] == [(1, "", 0), (1, "Kraum", 0),
                                                                      (1, "Tymna", 3), (3, "", 0)]
    assert view.sources[2].label("fr") == translate("fr", "table.partner_source", name="Tymna", damage=3)


def test_horde_panels_show_no_life_of_their_own_and_the_city_is_the_big_number():
    """HO 300.3: the players share the City's life; their panels do not show a life that never moves."""
    players = [PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)]
    game = Game.new(GameSetup(players=players, board=duel_board(), format="horde", starting_player=1),
                    dice=Dice.seeded(5))
    views = table.panels(game, "en")
    assert [v.life for v in views] == ["", ""]
    assert all(v.sources == () for v in views)  # allies: no commander damage between them
    city = table.city(game.state, "en")
    assert city.life == game.state.horde.city_life == 80  # beginner 100 − 10 per player (HO 300.2)
    game.change_life(1, -5)
    assert table.city(game.state, "en").life == 75


def test_the_hordes_draw_is_prompted_on_its_turn_until_it_has_drawn():
    """HO 201.2: the Horde's turn prompts its draw step's reveal."""
    players = [PlayerSetup("Anna", 1)]
    game = Game.new(GameSetup(players=players, board=duel_board(), format="horde", starting_player=1),
                    dice=Dice.seeded(5))
    while not (game.state.turn.horde and game.state.turn.phase == "draw"):
        assert not table.horde_draw_due(game)
        game.next_phase()
    assert table.horde_draw_due(game)
    game.horde_draw()
    assert not table.horde_draw_due(game)


@pytest.mark.parametrize("count, rows", [(2, [2]), (3, [3]), (4, [2, 2]), (5, [3, 2]), (6, [3, 3])])
def test_seats_sit_in_rows_of_near_square_cells(count, rows):
    assert table.grid_shape(count) == rows


def test_the_hordes_city_has_a_row_of_its_own():
    """HO 300.3: the City's shared life is the big number."""
    assert table.grid_shape(3, city=True) == [1, 3]


def test_the_city_takes_the_height_upright_players_panels_do_not_need():
    """HO 300.3: the players show no life of their own, so their row is as tall as their panels' rows,
    never below its least share; a panel turned 90° (its name along the row's height) keeps the full share."""
    free = 1000
    city, players = table.horde_rows(free, [250, 290], turned=False)
    assert (city, players) == (free - 290, 290)
    assert table.horde_rows(free, [100], turned=False)[1] == free * table.HORDE_PLAYERS_MIN
    assert table.horde_rows(free, [150, 190], turned=True)[1] == pytest.approx(free * (1 - table.CITY_ROW))
    assert table.horde_rows(free, [900], turned=False)[1] == pytest.approx(free * (1 - table.CITY_ROW))  # capped


def test_quick_layouts_turn_the_far_row_and_the_table_ends():
    assert [table.default_rotation(s, 4, "upright") for s in range(4)] == [0, 0, 0, 0]
    assert [table.default_rotation(s, 4, "facing") for s in range(4)] == [180, 180, 0, 0]
    assert [table.default_rotation(s, 6, "ends") for s in range(6)] == [270, 180, 180, 0, 0, 90]
    assert [table.default_rotation(s, 2, "facing") for s in range(2)] == [180, 0]
    assert [table.next_rotation(r) for r in (0, 90, 180, 270)] == [90, 180, 270, 0]


def test_the_recent_change_adds_up_while_taps_come_and_clears_after_a_pause():
    recent = table.RecentChange(hold=8)
    assert recent.update(20, 0.0) == 0
    assert recent.update(19, 1.0) == -1
    assert recent.update(14, 2.0) == -6
    assert recent.update(15, 3.0) == -5
    assert recent.update(15, 12.0) == 0
    assert recent.update(12, 13.0) == -3
    assert table.RecentChange.text(-7) == "−7" and table.RecentChange.text(3) == "+3"


@pytest.mark.parametrize("typed, meant", [("12", ("set", 12)), ("−7", ("change", -7)), ("+3", ("change", 3)),
                                          ("", None), ("−", None), ("1x", None)])
def test_typed_life_sets_a_total_or_changes_it(typed, meant):
    assert table.typed_life(typed) == meant


@pytest.mark.parametrize("typed, taken, amount", [("+7", 3, 7), ("−2", 3, -2), ("21", 3, 18), ("0", 5, -5),
                                                   ("x", 3, None)])
def test_commander_damage_typed_is_a_change_or_the_new_total(typed, taken, amount):
    """#27: commander damage on the keypad, as life: "21" is the total dealt by that commander (CR 903.10a)."""
    assert table.typed_commander_damage(typed, taken) == amount


def test_keyword_buttons_are_sorted_as_the_shown_language_spells_them():
    """MT 6.xx keywords: 'équitation' sorts among the e's in French, 'flying' among the f's in English."""
    french = [label for _, label in pieces.keyword_order("fr")]
    english = [label for _, label in pieces.keyword_order("en")]
    assert french.index("équitation") < french.index("flétrissure") < french.index("vol")
    walks = [label for label in french if label.startswith("traversée")]
    assert walks == ["traversée des forêts", "traversée des îles", "traversée des marais", "traversée des montagnes",
                     "traversée des plaines"]
    assert english == sorted(english)
    assert french[0] != english[0]


def test_a_new_token_takes_the_smallest_free_number():
    """MT 5.02.d: a number left by a piece is free again (token 1 is the player's pawn, MT 2.05)."""
    game = new_game()
    for number in (2, 4):
        game.add_piece(Piece(2, number))
    assert pieces.next_number(game.state, 2) == 3
    assert pieces.next_number(game.state, 1) == 2


def test_undo_names_the_action_it_will_undo():
    game = new_game(names=("Anna", "Bruno"))
    assert history.undo_label(game, "en") == translate("en", "nav.undo")
    game.next_phase()
    game.change_life(2, -3)
    label = history.undo_label(game, "fr")
    assert label.startswith(translate("fr", "nav.undo")) and "Bruno" in label and "-3" in label
    assert history.last_action(game, "en") == game.history("en")[-1][6:]
    game.change_life(2, -17)  # Bruno at 0: the line goes on with the game's proposal that he is out
    assert translate("fr", "game.history.separator") in history.last_action(game, "fr")
    assert history.undo_label(game, "fr") == translate("fr", "nav.undo_what", what="Bruno : -17 PV (0)")
    short = history.undo_label(game, "fr", fits=lambda line: len(line) <= 9).split("\n")[1]
    assert short == "Bruno…"  # shortened at a word (no dangling colon), until it fits


def test_the_planar_die_waits_while_a_trigger_is_pending():
    """PC: the planar die is rolled when nothing waits to resolve; a pending trigger is named."""
    game = new_game(planechase=True, names=("Anna", "Bruno"))
    while game.state.turn.phase != "main1":  # rolled when a sorcery could be cast
        game.next_phase()
    die = dice.planar_die(game, "en")
    assert die.shown and die.may_roll and die.cost == 0
    while not game.state.planar.pending:
        game.roll_planar_die()
    waiting = dice.planar_die(game, "fr")
    assert not waiting.may_roll
    # #27: named as the French Planechase rules name the ability ("capacité de transplanement")
    ability = {"planeswalk": "transplanement", "chaos": "chaos"}[game.state.planar.pending[0].kind]
    assert waiting.waiting.startswith(f"Capacité de {ability} en attente")
    game.resolve_planar_trigger(0)
    assert dice.planar_die(game, "en").may_roll


def test_the_form_becomes_a_setup_with_the_starting_life_and_player_chosen():
    """Starting life is the table's choice; the starting player chosen, or drawn when None."""
    choices = newgame.NewGameChoices(players=[("Anna", 1), ("Bruno", 2), ("Cleo", 6)], board="duel-20x12",
                                     starting_life=30, starting_player=2)
    game = Game.new(newgame.game_setup(choices), dice=Dice.seeded(1))
    assert [p.life for p in game.state.players] == [30, 30, 30]
    assert game.state.starting_player == 2
    giant = newgame.NewGameChoices(players=[("A", 1), ("B", 2), ("C", 3), ("D", 4)], board="duel-20x12",
                                   variant="two_headed_giant", starting_life=40)
    assert newgame.game_setup(giant).team_life == 40


def test_a_scanned_boards_doubtful_squares_are_in_the_games_log():
    """MT 2.02.e: the squares to confirm are part of the game (its first action); confirming one clears it."""
    board_ = duel_board()
    choices = newgame.NewGameChoices(players=[("Anna", 1), ("Bruno", 2)], board="scanned", scanned_board=board_,
                                     doubtful_squares=((3, 4), (5, 6)))
    game = Game.new(newgame.game_setup(choices), dice=Dice.seeded(1))
    replayed = Game.replay([{"op": "do", "action": a.to_dict()} for a in game.actions])
    assert replayed.state.doubtful_squares == [(3, 4), (5, 6)]
    code = board.confirmed_code(board_, (3, 4), "WU", False)
    game.set_square((3, 4), code)
    assert game.state.doubtful_squares == [(5, 6)] and game.state.board.square(3, 4).code == code
    game.undo()
    assert game.state.doubtful_squares == [(3, 4), (5, 6)]


def test_the_prebuilt_event_deck_is_named_in_the_shown_language():
    from companion.game import prebuilt_event_deck

    deck = prebuilt_event_deck()
    assert newgame.deck_name(deck, "en") == translate("en", "newgame.prebuilt_deck")
    assert newgame.deck_name(deck, "fr") == translate("fr", "newgame.prebuilt_deck")


def test_placing_a_new_creature_shows_its_legal_entry_squares():
    """MT 4.09.c: a creature spell enters in the spell zone around its caster's pawn (the engine's squares)."""
    game = new_game(names=("Anna", "Bruno"))
    game.next_phase()
    game.add_piece(Piece(1, 2, mana_value=2, power=2, toughness=2))
    entry = board.entry_overlay(game, (1, 2)).layers["entry"]
    assert entry == game.entry_squares(game.state.pieces[(1, 2)]).squares and entry
    assert board.entry_overlay(game, (1, 1)) == board.NO_OVERLAY  # the pawn stands on its start square


def test_a_pawn_without_a_start_square_is_offered_the_free_squares():
    """MT 2.04.a: three players on the duel board's two start squares: the table places the third pawn,
    anywhere free once no start square is left."""
    game = new_game(place_pawns=False)
    state = game.state
    assert len(state.board.starts) == 2 and state.pawn(3).at is None
    squares = board.entry_overlay(game, (3, 1)).layers["entry"]
    occupied = {p.at for p in state.pieces.values() if p.at is not None}
    assert squares == {at for at in state.board.positions() if state.board.walkable(at) and at not in occupied}


def test_the_movement_left_is_said_for_the_selected_piece():
    """MT 3.04.a: what is left of the roll after the moves of the turn."""
    game = new_game(names=("Anna", "Bruno"))
    game.add_piece(Piece(1, 2, mana_value=2, power=3, toughness=3, at=(5, 5)))
    while game.state.turn.phase != "movement" or game.state.turn.step != "creatures":
        game.next_phase()
    assert board.movement_line(game, (1, 2), "en") == translate("en", "board.not_rolled")
    roll = game.roll_movement((1, 2))
    total, dice = roll.total, " + ".join(str(r) for r in roll.results)
    assert board.movement_line(game, (1, 2), "fr") == f"Reste {total} cases sur {total} (jet {dice})"
    game.move_piece((1, 2), (5, 4) if game.judge_move((1, 2), (5, 4)).legal else (6, 5))  # one square
    left = game.movement_left((1, 2))
    assert left == total - 1
    assert board.movement_line(game, (1, 2), "en") == (
        f"{left} square{'' if left == 1 else 's'} left of {total} (roll {dice})")


def test_a_token_off_the_grid_is_placed_where_tapped_and_one_on_it_only_on_its_moves():
    """MT 3.04.b: a token on the grid goes only to a square of its drawn moves."""
    game = new_game(names=("Anna", "Bruno"))
    game.add_piece(Piece(1, 2, mana_value=2, power=2, toughness=2, at=(5, 5)))
    game.add_piece(Piece(1, 3))
    state = game.state
    assert (5, 5) != state.pawn(1).at
    assert board.may_move_to(state, (1, 3), (8, 8))
    assert not board.may_move_to(state, (1, 2), (8, 8))  # no roll yet: no moves
    assert not board.may_move_to(state, (1, 3), (5, 5))  # taken


def test_six_seats_have_six_colour_names_and_the_sixth_is_screen_only():
    """MT 9.02.a: five token colours are printed; a sixth seat plays with one shown on screen only."""
    assert MAX_PLAYERS == 6
    assert len({colour_name(n, "fr") for n in range(1, 7)}) == 6
    assert [printed(n) for n in range(1, 7)] == [True] * 5 + [False]


def test_refusals_carrying_an_i18n_key_are_worded_in_the_ui_language():
    error = GameError("nothing to undo")
    error.key, error.fields, error.rule = "errors.no_game", {}, "MT 3.04.a"
    assert refusal(error, "fr") == translate("fr", "errors.no_game") + " (MT 3.04.a)"
    assert refusal(ValueError("plain"), "fr") == "plain"


def test_a_doubtful_square_shows_no_colour_bonus_until_confirmed_MT_2_02_e():
    """MT 2.02.e: the board's side panel and overlays judge as the engine does: a doubtful blue square gives its
    blue creature no bonus (and so no "unblockable") until the table confirms it."""
    rows = [" ".join(["W@"] + ["W"] * 18 + ["W@"])] + [" ".join(["W"] * 5 + ["U"] + ["W"] * 14)] + \
        [" ".join(["W"] * 20)] * 10
    players = [PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)]
    game = Game.new(GameSetup(players=players, board=Board.from_rows(rows), starting_player=1,
                              doubtful_squares=((5, 1),)), dice=Dice.seeded(3))
    game.add_piece(Piece(1, 2, name="Merfolk", mana_value=2, colours={"U"}, at=(5, 1)))
    assert board.piece_overlay(game.state, (1, 2)).rules.bonus.active == frozenset()
    game.set_square((5, 1), "U")
    assert board.piece_overlay(game.state, (1, 2)).rules.bonus.active == {"unblockable"}


def test_each_boss_on_the_battlefield_has_its_leaving_button():
    """HO 202.1: milled down to the boss, it is cast; HO 202.2: the table says when it leaves."""
    players = [PlayerSetup("Anna", 1)]
    game = Game.new(GameSetup(players=players, board=duel_board(), format="horde", starting_player=1),
                    dice=Dice.seeded(5))
    assert table.city(game.state, "en").bosses == ()
    while not game.state.horde.boss_on_battlefield:
        game.damage_horde(10)
    assert game.state.horde.boss == "Boss"   # waves known by counts: the boss has no name of its own
    # #27: it read "The boss Boss leaves"
    assert table.city(game.state, "en").bosses == (("wave", "The wave's boss leaves"),)
    assert table.city(game.state, "fr").bosses == (("wave", "Le boss de la vague part"),)
    game.horde_boss_leaves("wave")
    assert table.city(game.state, "en").bosses == ()


def test_a_named_boss_is_named_on_its_leaving_button():
    """HO 202.2, with decks the table listed: the boss has its card's name."""
    wave = HordeWave("low", [HordeCard("Zombie", token=True)], "Grimgrin")
    game = Game.new(GameSetup(players=[PlayerSetup("Anna", 1)], board=duel_board(), format="horde",
                              starting_player=1, horde_waves=[wave]), dice=Dice.seeded(5))
    while not game.state.horde.boss_on_battlefield:
        game.damage_horde(1)
    assert table.city(game.state, "en").bosses == (("wave", "The wave's boss, Grimgrin, leaves"),)


def test_the_hordes_reveal_is_on_the_table_not_only_in_the_history():
    """HO 201.2: the Horde reveals tokens until a non-token, which it casts: the City says which (#27)."""
    cards = [HordeCard("Zombie", token=True), HordeCard("", token=True), HordeCard("Raise the Dead", token=False),
             HordeCard("Ghoul", token=True)]
    game = Game.new(GameSetup(players=[PlayerSetup("Anna", 1)], board=duel_board(), format="horde",
                              starting_player=1, horde_waves=[HordeWave("low", cards, "Grimgrin")]), dice=Dice.seeded(5))
    assert table.city(game.state, "en").revealed == ""
    while not (game.state.turn.horde and game.state.turn.phase == "draw"):
        game.next_phase()
    revealed = [card.name or "a token" for card in game.horde_draw()]
    assert revealed[-1] == "Raise the Dead" and "Raise the Dead" not in revealed[:-1]   # tokens, then the spell
    assert table.city(game.state, "en").revealed == "Revealed: " + ", ".join(revealed)
    assert table.city(game.state, "fr").revealed.startswith("Révélé : ")


def test_the_table_side_column_tracks_the_turn_phases_in_order_MT_3_01():
    """The phases of the turn one a line, the movement steps under the movement phase (MT 3.01.c): the
    current one marked, those done greyed; nothing before the first turn."""
    game = new_game(names=("Anna", "Bruno"))
    assert table.phase_track(game.state, "fr") == ""  # pregame: mulligans first
    while game.state.turn.phase != "movement" or game.state.turn.step != "planeswalkers":
        game.next_phase()
    lines = table.phase_track(game.state, "en").split("\n")
    names = [re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", line).strip(" »") for line in lines]
    assert names == ["untap", "upkeep", "draw", "movement", "players", "planeswalkers", "creatures",
                     "first main phase", "combat", "second main phase", "end step"]
    current = [n for n, line in zip(names, lines) if "ffd919" in line]
    done = [n for n, line in zip(names, lines) if "80858f" in line]
    assert current == ["movement", "planeswalkers"] and done == ["untap", "upkeep", "draw", "players"]
    assert not table.side_wide(game.state)  # no event, no plane, no winner: the seats get the room
    assert table.side_wide(new_game(names=("Anna", "Bruno"), planechase=True).state)


def test_the_dice_screen_says_the_roll_and_how_far_it_moves_MT_3_04_a():
    """The big number is the roll; under it the dice and the most the token moves this turn, in words."""
    game = new_game(names=("Anna", "Bruno"))
    game.add_piece(Piece(1, 2, mana_value=2, power=3, toughness=3, at=(5, 5)))
    while game.state.turn.phase != "movement" or game.state.turn.step != "creatures":
        game.next_phase()
    roll = game.roll_movement((1, 2))
    big, line = dice.last_roll_text(game, "fr")
    assert big == str(roll.total)
    assert line == (f"jaune 2 : jet {roll.die} {' + '.join(map(str, roll.results))}, "
                    f"se déplace de {game.movement_allowance((1, 2))} au plus ce tour")


def test_play_does_the_action_it_is_given_and_says_a_refusal_or_a_bug_by_the_actions_name(caplog):
    """`app.play(action, …)` takes the action as a function its screen's presenter holds (issue #30, not
    a method name in a string) and keeps what `play` does: a done action returns its result and bumps
    `revision` (the screens redraw); a refusal is said in the UI language and changes nothing; a bug is
    logged and said under the action's name, and the game goes on."""
    from types import SimpleNamespace

    from companion.app.main import TacticalApp  # imports kivy: here, not for the window-less tests above

    game = new_game()
    said = []
    app = SimpleNamespace(game=game, lang="en", revision=0, say=said.append, place_next_pawn=lambda why: False,
                          t=lambda key, **fields: translate("en", key, **fields))

    def play(action, *args, **kwargs):
        return TacticalApp.play(app, action, *args, **kwargs)

    assert play(table.change_life, 2, -3) is game.state and game.state.player(2).life == 17
    assert app.revision == 1 and said[-1] == ""

    with pytest.raises(GameError) as nothing_to_redo:
        game.redo()
    assert play(history.redo) is None and said[-1] == refusal(nothing_to_redo.value, "en")
    assert app.revision == 1 and game.state.player(2).life == 17

    def broken_action(game):
        raise RuntimeError("a bug")
    assert play(broken_action) is None
    assert said[-1] == translate("en", "errors.internal", action="broken_action")
    assert any("broken_action" in record.getMessage() and record.levelname == "ERROR" for record in caplog.records)
    assert play(table.change_life, 2, 1) is game.state and game.state.player(2).life == 18 and app.revision == 2
