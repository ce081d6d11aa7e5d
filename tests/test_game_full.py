"""Whole games through the public API only, from setup to a winner, as a table plays them: a 4-player Planechase
game with events, and a 2-player Horde game on Intermediate. Pawns stand on the start squares, every piece's
movement is rolled, judged and spent, new creatures enter through the entry rules, eliminations are proposed and
confirmed, the save reloads to the same state and the history reads in French and English."""
from datetime import datetime, timezone
from functools import partial

from boards import library_boards, load_board
from companion.game import (Dice, Entry, Game, GameError, GameSetup, HordeCard, HordeWave, PlayerSetup, latest_game, load_game,
                            load_event_deck, minimum_deck_size)
from companion.rules import Piece, distance, overlay

from game_dice import SteadyClock

Clock = partial(SteadyClock, datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc), 20)
QUATUOR = load_board(library_boards()["quatuor-40x25"])
DUEL = load_board(library_boards()["duel-20x12"])


def event_deck_file(tmp_path):
    """33 events for four players (MT 7.02.a): eight commons ×4 and one mythic, counters 1–3."""
    lines = ["name: Soirée", "cards:"]
    lines += [f"  - {{name: Commun {i}, count: 4, rarity: common, supertype: natural, turns: {1 + i % 3}}}"
              for i in range(8)]
    lines.append("  - {name: Mythique, rarity: mythic, supertype: magical}")  # no counter: the table enters one
    path = tmp_path / "soiree.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def moves_of(game: Game, token) -> frozenset:
    """The green squares of the board view: what the piece may still reach this turn."""
    state = game.state
    piece = state.pieces[token]
    return overlay(state.board, piece, state.pieces.values(), left=game.movement_left(token) or 0,
                   start=game.movement_start(token), bonus_choice=state.bonus_choices.get(token),
                   sides=state.sides, house=state.house).moves


def walk_towards(game: Game, token, target) -> int:
    """Roll the piece's movement (once per object) and walk it, in up to two moves, towards `target`;
    returns the squares spent. Every move is one the board view shows and `judge_move` allows."""
    if game.movement_roll(token) is None:
        game.roll_movement(token)
    spent = 0
    for _ in range(2):
        left = game.movement_left(token)
        here = game.state.pieces[token].at
        options = [q for q in moves_of(game, token) if q != here]
        if not left or not options:
            break
        best = min(options, key=lambda q: (distance(q, target), q))
        if distance(best, target) >= distance(here, target):
            break
        verdict = game.judge_move(token, best)
        assert verdict.legal and 1 <= verdict.steps <= left
        game.move_piece(token, best)
        assert game.movement_left(token) == left - verdict.steps  # MT 3.04.a: the move is spent
        spent += verdict.steps
    return spent


def go_to(game: Game, phase: str, step: str | None = None) -> None:
    while (game.state.turn.phase, game.state.turn.step) != (phase, step):
        game.next_phase()


def opponents_pawns(game: Game, player: int) -> list:
    state = game.state
    return [state.pawn(p.id) for p in state.alive if p.id != player and state.pawn(p.id) is not None]


def creatures_of(game: Game, player: int) -> list:
    return [p for p in game.state.pieces.values() if p.controller == player and p.kind == "creature" and p.at]


def cast_creature(game: Game, player: int, number: int, name: str, **stats):
    """A creature spell enters on a legal square of its spell zone nearest the centre of the board (MT 4.09.c)."""
    piece = Piece(player, number, name=name, **stats)
    squares = game.entry_squares(piece, Entry("cast")).squares
    centre = (game.state.board.width // 2, game.state.board.height // 2)
    game.add_piece(piece.moved(min(squares, key=lambda q: (distance(q, centre), q))), entry=Entry("cast"))
    return piece.token


def test_four_player_planechase_game_with_events_runs_to_a_winner(tmp_path):
    """MT 2.04.a, 3.01, 3.04, 4.09.c, 5.03.a, 7.03–7.07, PC, BR: four players on the 40×25 board, autosaved, with
    undo, events and planes, until one player is left."""
    deck = load_event_deck(event_deck_file(tmp_path))
    assert len(deck.cards) == minimum_deck_size(4)
    names = ["Anna", "Bruno", "Chloé", "David"]
    players = [PlayerSetup(n, i + 1, planar_deck=[f"{n} plan {k}" for k in range(5)]) for i, n in enumerate(names)]
    game = Game.new(GameSetup(players, QUATUOR, planechase=True, events=deck, starting_life=20),
                    dice=Dice.seeded(11), clock=Clock(), save_dir=tmp_path / "saves")
    assert game.setup_warnings() == []
    assert {game.state.pawn(p.colour).at for p in players} == set(QUATUOR.starts)  # MT 2.04.a
    assert "(drawn at random)" in game.history("en")[0]
    game.mulligan(2)
    for player in players:
        game.keep_hand(player.colour)
    game.next_phase()
    assert game.state.events.revealed_by == game.state.starting_player  # MT 7.03
    assert game.state.planar.face_up is not None

    numbers = {p.colour: 2 for p in players}
    reveals = refused = kept = confirmed = 0
    turn_index = 0
    while not game.state.over:
        active = game.state.turn.active[0]
        revealed = game.state.events.revealed
        go_to(game, "upkeep")
        for token in [t for t, p in game.state.pieces.items() if p.controller == active and game.bonus_options(t)]:
            game.choose_bonus(token, game.bonus_options(token)[0])  # MT 2.02.c
        go_to(game, "movement", "players")
        pawn = game.state.pawn(active)
        centre = (QUATUOR.width // 2, QUATUOR.height // 2)
        walk_towards(game, pawn.token, centre)
        go_to(game, "movement", "creatures")
        for creature in creatures_of(game, active):
            target = min(opponents_pawns(game, active), key=lambda p: distance(p.at, creature.at)).at
            walk_towards(game, creature.token, target)
            left = game.movement_left(creature.token)
            far = next((q for q in QUATUOR.positions() if distance(q, creature.at) > left + 1
                        and QUATUOR.walkable(q) and all(p.at != q for p in game.state.pieces.values())), None)
            if far is not None and refused < 3:
                try:
                    game.move_piece(creature.token, far)
                except GameError as error:  # MT 3.04.a: beyond what is left this turn
                    assert error.rule in ("MT 3.04.a", "MT 3.07") and "trop loin" in error.text("fr")
                    refused += 1
        go_to(game, "main1")
        if numbers[active] < 6:
            cast_creature(game, active, numbers[active], "Ours", mana_value=2, power=3, toughness=3, colours={"G"})
            numbers[active] += 1
        face = game.roll_planar_die()
        if face != "blank":
            game.resolve_planar_trigger()
        go_to(game, "combat")
        for creature in creatures_of(game, active):
            touching = [p for p in opponents_pawns(game, active) if distance(p.at, creature.at, "chebyshev") == 1]
            if touching:  # MT 5.03.a: it attacks a player from a touching square
                game.change_life(touching[0].player, -creature.power)
        victims = [p.id for p in game.state.alive if p.id != active]
        game.change_life(victims[turn_index % len(victims)], -3)  # a burn spell
        for elimination in game.eliminations():
            assert elimination.reasons and elimination.reasons[0].key == "game.elimination.life"
            if not kept:
                game.keep_in_game(elimination.player)  # a card keeps them in, once
                kept += 1
            else:
                game.player_leaves(elimination.player)  # the table confirms
                confirmed += 1
        if game.state.over:
            break
        go_to(game, "end")
        if game.event_needs_counter:
            game.set_event_counter(2)  # MT 7.06.d: the table enters X
        game.next_phase()
        reveals += game.state.events.revealed != revealed
        if turn_index == 3:  # a mistake at the table: undone and redone
            game.undo(), game.redo()
        turn_index += 1
        assert turn_index < 200, "the game should end"

    assert len(game.state.winner) == 1 and len(game.state.alive) == 1 and confirmed == 3 and kept == 1
    assert reveals >= 2 and refused >= 1
    assert len(game.state.events.deck) + 1 == minimum_deck_size(4)  # MT 7.07.a: exactly one revealed
    again = load_game(latest_game(tmp_path / "saves"))
    assert again.state == game.state
    assert Game.from_dict(game.to_dict()).state == game.state
    english, french = game.history("en"), game.history("fr")
    assert len(english) == len(french) == len(game.actions)
    assert any("rolled the planar die" in line for line in english)
    assert any("révèle l'évènement" in line for line in french)
    assert any("arrive en" in line and "dans la zone du sort, MT 4.09.c" in line for line in french)
    assert any(" va de " in line and "cases)" in line for line in french)
    assert any("il quitte la partie, sauf si une carte dit le contraire" in line for line in french)
    winner = game.state.player(game.state.winner[0]).name
    assert english[-1].endswith(f"{winner} won") and french[-1].endswith(f"{winner} gagne la partie")
    assert not any(mark in line for line in french for mark in ("['", "{'", "=None"))


def horde_wave(level: str, prefix: str, boss: str) -> HordeWave:
    """A small wave the table wrote down: tokens, permanents (an enchantment) and sorceries, top first."""
    layout = "tttsttPttttstttt"
    cards = [HordeCard(f"{prefix} {'token' if c == 't' else 'spell'} {i}", token=c == "t",
                       permanent=None if c == "t" else c == "P") for i, c in enumerate(layout)]
    return HordeWave(level, cards, boss)


def test_two_player_horde_on_intermediate_runs_to_the_end():
    """HO 103.4, 104, 201.2, 201.3, 202, 300.2, 301.3, MT 5.01.a: two players against a two-wave Horde (Intermediate: City
    80 − 20 = 60) on the duel board, the Horde's creatures on the grid, until the Horde is defeated."""
    waves = [horde_wave("low", "Zombie", "Gisa"), horde_wave("medium", "Ghoul", "Geralf")]
    players = [PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)]
    game = Game.new(GameSetup(players, DUEL, format="horde", horde_difficulty="intermediate", horde_waves=waves,
                              starting_player=1), dice=Dice.seeded(4), clock=Clock())
    horde = game.state.horde
    assert (horde.city_life, horde.colour, game.state.sides) == (60, 5, {1: 0, 2: 0, 5: 5})
    assert {game.state.pawn(1).at, game.state.pawn(2).at} == set(DUEL.starts)  # MT 2.04.a
    assert game.mulligan(1) == 7  # HO 103.4: the Commander start, a free mulligan even for two
    game.keep_hand(1), game.keep_hand(2)
    game.next_phase()
    horde_number, numbers, entered = 1, {1: 2, 2: 2}, 0
    while not game.state.over:
        state = game.state
        if state.turn.horde:
            go_to(game, "draw")
            revealed = game.horde_draw()  # HO 201.2
            if game.state.turn.horde and game.state.turn.phase == "draw":  # no boss revealed: the turn goes on
                for card in revealed:
                    if card.token and horde_number <= 40:  # MT 5.01.a: the Horde's creatures on the grid
                        game.enter_horde_piece(Piece(5, horde_number, name=card.name, power=2, toughness=2))
                        horde_number += 1
                        entered += 1
                while game.state.horde.casting:
                    game.horde_cast_resolves(0, permanent=False)
                go_to(game, "movement", "creatures")
                for zombie in creatures_of(game, 5):
                    target = min((game.state.pawn(p) for p in (1, 2)), key=lambda p: distance(p.at, zombie.at))
                    walk_towards(game, zombie.token, target.at)
                go_to(game, "combat")
                attackers = [z for z in creatures_of(game, 5)  # HO 201.3: they attack the City if they can
                             if any(distance(game.state.pawn(p).at, z.at, "chebyshev") == 1 for p in (1, 2))]
                for zombie in attackers[:2]:  # the others are blocked
                    game.change_life(1, -zombie.power)  # HO 300.4: the City loses it
        else:
            go_to(game, "movement", "players")
            for player in (1, 2):
                walk_towards(game, game.state.pawn(player).token, (10, 6))
            go_to(game, "main1")
            for player in (1, 2):
                if numbers[player] < 5:
                    cast_creature(game, player, numbers[player], "Soldat", mana_value=1, power=2, toughness=2)
                    numbers[player] += 1
            go_to(game, "combat")
            if game.state.horde.boss_on_battlefield:
                game.horde_boss_leaves("wave")  # the players kill the boss: next wave (HO 202.2)
            else:
                game.damage_horde(2)  # HO 301.3
            for zombie in creatures_of(game, 5)[:2] if not game.state.over else []:
                game.remove_piece(zombie.token)  # the soldiers kill two zombies
        if not game.state.over and game.state.turn.phase != "untap":
            game.end_turn()
        assert game.state.turn.number < 300, "the game should end"
    horde = game.state.horde
    assert horde.result == "horde_defeated" and horde.wave == 2 and 0 < horde.city_life <= 60
    assert entered >= 3 and any(card.permanent for card in horde.battlefield)  # HO 201.2: it stayed
    lines = game.history("fr")
    assert any("La Horde révèle" in line for line in lines) and "la Horde est vaincue" in lines[-1]
    assert any("arrive en" in line for line in lines)
    assert Game.from_dict(game.to_dict()).state == game.state
