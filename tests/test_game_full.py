"""Whole games through the public API only: 4 players with Planechase and events; a 2-player Horde."""
from datetime import datetime, timedelta, timezone

from boards import Board
from companion.game import (Dice, Game, GameSetup, PlayerSetup, latest_game, load_game, load_event_deck,
                            minimum_deck_size)
from companion.rules import Piece

BOARD = Board.from_rows([" ".join(["WU", "B", "RG", "G@"] * 10)] * 25, name="Quatre")


class Clock:
    def __init__(self):
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)

    def __call__(self):
        self.now += timedelta(seconds=20)
        return self.now


def event_deck_file(tmp_path):
    """33 events for four players (MT 7.02.a): eight commons ×4 and one mythic, counters 1–3."""
    lines = ["name: Soirée", "cards:"]
    lines += [f"  - {{name: Commun {i}, count: 4, rarity: common, supertype: natural, turns: {1 + i % 3}}}"
              for i in range(8)]
    lines.append("  - {name: Mythique, rarity: mythic, supertype: magical}")  # no counter: the table enters one
    path = tmp_path / "soiree.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def play_turn(game: Game, turn_index: int) -> None:
    """One turn as a table plays it: phases in order, bonuses, movement dice and moves, planar die, combat."""
    state = game.state
    active = state.turn.active[0]
    while game.state.turn.phase != "end":
        phase, step = game.state.turn.phase, game.state.turn.step
        if phase == "upkeep":
            for token in [t for t in game.state.pieces if t[0] == active and game.bonus_options(t)]:
                game.choose_bonus(token, game.bonus_options(token)[0])
        if (phase, step) == ("movement", "creatures"):
            for token, piece in list(game.state.pieces.items()):
                if piece.player == active and piece.kind == "creature" and game.movement_roll(token) is None:
                    game.roll_movement(token)
                    x, y = piece.at
                    target = (x, (y + 1) % BOARD.height)
                    if game.judge_move(token, target).legal:
                        game.move_piece(token, target, source="camera")
        if phase == "main1" and game.state.planar:
            face = game.roll_planar_die()
            if face != "blank":
                game.resolve_planar_trigger()
        if phase == "combat":
            victims = [p.id for p in game.state.alive if p.id != active]
            game.change_life(victims[turn_index % len(victims)], -4)
        game.next_phase()
    if game.event_needs_counter:
        game.set_event_counter(2)
    game.next_phase()


def test_four_player_planechase_game_with_events_runs_to_the_end(tmp_path):
    """MT 3.01, MT 7.03–7.07, PC: a full 4-player game, autosaved, with undo, events and planes, until one
    player is left; the save reloads to the same state and the history reads in both languages."""
    deck = load_event_deck(event_deck_file(tmp_path))
    assert len(deck.cards) == minimum_deck_size(4)
    names = ["Anna", "Bruno", "Chloé", "David"]
    players = [PlayerSetup(n, i + 1, planar_deck=[f"{n} plan {k}" for k in range(5)]) for i, n in enumerate(names)]
    setup = GameSetup(players, BOARD, planechase=True, events=deck)
    game = Game.new(setup, dice=Dice.seeded(11), clock=Clock(), save_dir=tmp_path / "saves")
    for i, player in enumerate(players):
        game.add_piece(Piece(player.colour, 2, name="Ours", power=2, toughness=2, colours={"G"}, at=(i * 10, 5)))
        game.add_piece(Piece(player.colour, 3, name="Griffon", power=2, toughness=2, colours={"W", "U"},
                             at=(i * 10 + 0, 9)))
    game.mulligan(2)
    for player in players:
        game.keep_hand(player.colour)
    game.next_phase()
    assert game.state.events.revealed_by == game.state.starting_player
    assert game.state.planar.face_up is not None

    reveals = 0
    turn_index = 0
    while not game.state.over:
        revealed = game.state.events.revealed
        play_turn(game, turn_index)
        reveals += game.state.events.revealed != revealed
        if turn_index == 3:  # a mistake at the table: undone and redone
            game.undo(), game.redo()
        for loser in game.losing_players():
            game.player_leaves(loser)
        turn_index += 1
        assert turn_index < 200, "the game should end"

    assert len(game.state.winner) == 1 and len(game.state.alive) == 1
    assert reveals >= 2  # counters of 1–3 turns over a game of many turns
    assert len(game.state.events.deck) + 1 == minimum_deck_size(4)  # MT 7.07.a: exactly one revealed
    again = load_game(latest_game(tmp_path / "saves"))
    assert again.state == game.state
    assert Game.from_dict(game.to_dict()).state == game.state
    english, french = game.history("en"), game.history("fr")
    assert len(english) == len(french) == len(game.actions)
    assert any("rolled the planar die" in line for line in english)
    assert any("révèle l'évènement" in line for line in french)
    assert english[-1].endswith(f"{game.state.player(game.state.winner[0]).name} won")


def test_two_player_horde_on_intermediate_runs_to_the_end():
    """HO 104, 201.2, 202, 301.3, 300.2: two players against a two-wave Horde (Intermediate: City 60)
    until the Horde or the City falls."""
    players = [PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)]
    game = Game.new(GameSetup(players, BOARD, format="horde", horde_difficulty="intermediate"),
                    dice=Dice.seeded(4), clock=Clock())
    assert game.state.horde.city_life == 60
    game.mulligan(1), game.keep_hand(1), game.keep_hand(2)
    game.next_phase()
    while not game.state.over:
        number = game.state.turn.number
        if game.state.turn.horde:
            while game.state.turn.phase != "draw":
                game.next_phase()
            revealed = game.horde_draw()
            tokens = sum(card["token"] for card in revealed)
            if game.state.turn.number == number and tokens:  # HO 202.1: a revealed boss ends the turn
                target = game.horde_choice([1, 2], "attack")  # HO 201.5
                game.change_life(target, -tokens)  # HO 300.4: the City loses it
        elif game.state.horde.boss_on_battlefield:
            game.horde_boss_leaves()  # the players kill the boss: next wave (HO 202.2)
        else:
            game.damage_horde(12)  # HO 301.3
        if not game.state.over and game.state.turn.number == number:
            game.end_turn()
        assert game.state.turn.number < 300, "the game should end"
    assert game.state.horde.result == "horde_defeated"
    assert game.state.horde.wave == 2 and 0 < game.state.horde.city_life < 60
    lines = game.history("fr")
    assert any("La Horde révèle" in line for line in lines) and "la Horde est vaincue" in lines[-1]
