"""Planechase (PC): planar decks, the face-up plane, the planar die and players leaving."""
import random

import pytest

from boards import Board
from companion.game import PLANAR_FACES, Dice, Game, GameError, GameSetup, PlayerSetup, SaveError
from companion.rules import Piece, overlay

from game_dice import with_corner_starts

BOARD = Board.from_rows(with_corner_starts([" ".join(["R"] * 20)] * 12), name="Test")
PLANESWALK, CHAOS, BLANK = (PLANAR_FACES.index(f) for f in ("planeswalk", "chaos", "blank"))


class ScriptedRng(random.Random):
    """Dice faces in the order given; shuffles keep the order, so decks stay as written."""

    def __init__(self, faces=()):
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, n):
        return self.faces.pop(0) if self.faces else 0

    def shuffle(self, items):
        pass


def new_game(faces=(), players=3) -> Game:
    people = [PlayerSetup(name, i + 1, planar_deck=[f"{name[0]}{k}" for k in range(1, 4)])
              for i, name in enumerate(["Anna", "Bruno", "Chloé", "David"][:players])]
    game = Game.new(GameSetup(people, BOARD, planechase=True, starting_player=1), dice=Dice(ScriptedRng(faces)))
    game.next_phase()
    return game


def to_main(game: Game) -> None:
    while game.state.turn.phase != "main1":
        game.next_phase()


def next_turn_main(game: Game) -> None:
    game.end_turn()
    to_main(game)


def test_starting_player_turns_the_first_plane_face_up_after_mulligans_PC():
    """PC: once hands are kept, the starting player turns their top plane face up — its "when you planeswalk"
    abilities do not trigger (« la partie n'a pas encore commencé »); the active player controls it."""
    people = [PlayerSetup("Anna", 1, planar_deck=["A1", "A2"]), PlayerSetup("Bruno", 2, planar_deck=["B1"])]
    game = Game.new(GameSetup(people, BOARD, planechase=True, starting_player=2), dice=Dice(ScriptedRng()))
    assert game.state.planar.face_up is None
    game.mulligan(1)
    game.next_phase()
    planar = game.state.planar
    assert (planar.face_up, planar.owner, planar.controller) == ("B1", 2, 2)
    assert planar.pending == []  # « quand vous vous transplanez » does not trigger: the game had not begun
    game.end_turn()
    assert game.state.planar.controller == 1  # control follows the active player


def test_planar_die_cost_rises_each_roll_and_does_not_reset_after_planeswalking_PC():
    """PC: first roll of the turn free, then 1, 2 ...; planeswalking does not reset it; a new turn does."""
    game = new_game([BLANK, PLANESWALK, BLANK])
    to_main(game)
    costs = []
    for _ in range(3):
        costs.append(game.planar_die_cost)
        game.roll_planar_die()
        if game.state.planar.pending:
            game.resolve_planar_trigger()
    assert costs == [0, 1, 2] and game.planar_die_cost == 3
    assert [r.cost for r in game.state.rolls] == [0, 1, 2]
    next_turn_main(game)
    assert game.planar_die_cost == 0


def test_a_roll_that_does_not_pay_the_rising_cost_is_refused_even_in_a_save_PC():
    """PC: "pour lancer le dé, vous devez payer une quantité de mana égale au nombre de fois que vous avez déjà lancé
    le dé ce tour-ci": a journal entry whose roll says another cost is refused, so a damaged save cannot load it."""
    game = new_game([BLANK, BLANK])
    to_main(game)
    game.roll_planar_die(), game.roll_planar_die()
    document = game.to_dict()
    rolls = [a for a in document["actions"] if a["kind"] == "roll_planar"]
    assert [a["data"]["cost"] for a in rolls] == [0, 1]
    rolls[1]["data"]["cost"] = 0  # the second roll claimed free
    with pytest.raises(SaveError, match=r"this roll costs 1 mana \(PC\)"):
        Game.from_dict(document)


def test_the_planar_die_waits_for_a_planar_ability_to_resolve_PC():
    """PC: the die is rolled "à tout moment où vous pourriez lancer un rituel" — a sorcery needs an empty stack, so
    while the chaos or planeswalk ability of the last roll waits to resolve, the die is not rolled again."""
    game = new_game([CHAOS, BLANK, BLANK])  # the refused roll takes a face too
    to_main(game)
    assert game.roll_planar_die() == "chaos"
    with pytest.raises(GameError, match="1 planar ability.* still waiting to resolve .PC."):
        game.roll_planar_die()
    assert len(game.state.rolls) == 1 and game.planar_die_cost == 1
    game.resolve_planar_trigger()
    assert game.roll_planar_die() == "blank" and game.state.rolls[-1].cost == 1


def test_only_the_active_player_rolls_when_a_sorcery_could_be_cast_PC():
    game = new_game()
    with pytest.raises(GameError, match="sorcery"):
        game.roll_planar_die(1)  # untap step
    to_main(game)
    with pytest.raises(GameError, match="only the player whose turn it is rolls the planar die"):
        game.roll_planar_die(2)


def test_one_roll_triggers_one_outcome_PC():
    """PC: blank → nothing; chaos → one chaos trigger; planeswalk → one planeswalk trigger."""
    game = new_game([BLANK, CHAOS, PLANESWALK])
    to_main(game)
    assert [game.roll_planar_die() for _ in range(2)] == ["blank", "chaos"]
    assert [t.kind for t in game.state.planar.pending] == ["chaos"]
    game.resolve_planar_trigger()
    assert game.state.planar.face_up == "A1"  # chaos does not change the plane
    assert game.roll_planar_die() == "planeswalk"
    assert [t.kind for t in game.state.planar.pending] == ["planeswalk"]


def test_planeswalk_puts_the_plane_under_its_owners_deck_roller_reveals_own_top_PC():
    """PC: the face-up plane goes to the bottom of its OWNER's deck; the roller turns THEIR OWN top plane up."""
    game = new_game([PLANESWALK])
    next_turn_main(game)  # Bruno's turn, Anna's plane A1 still face up
    assert (game.state.planar.face_up, game.state.planar.owner, game.state.planar.controller) == ("A1", 1, 2)
    game.roll_planar_die()
    game.resolve_planar_trigger()
    planar = game.state.planar
    assert (planar.face_up, planar.owner) == ("B1", 2)
    assert planar.decks[1] == ["A2", "A3", "A1"] and planar.decks[2] == ["B2", "B3"]
    assert "plane face up: B1" in game.history("en")[-1]


def test_controller_leaving_passes_control_to_next_player_in_turn_order_PC():
    """PC: if the plane's controller leaves, the next player in turn order controls it until another
    player's turn begins; the turn of the player who left goes on."""
    game = new_game()
    next_turn_main(game)  # Bruno controls Anna's plane
    game.player_leaves(2)
    planar = game.state.planar
    assert (planar.face_up, planar.owner, planar.controller) == ("A1", 1, 3)
    assert game.state.turn.active == [2]  # Bruno's turn continues to its end
    game.end_turn()
    assert game.state.turn.active == [3] and game.state.planar.controller == 3


def test_owner_leaving_removes_the_plane_and_only_planeswalk_triggers_vanish_PC():
    """PC: if the face-up plane's owner leaves, it leaves the game, its controller turns the top of their own
    deck face up, and pending planeswalk triggers cease to exist; chaos triggers stay."""
    for face, stays in ((CHAOS, ["chaos"]), (PLANESWALK, [])):
        game = new_game([face])
        next_turn_main(game)  # Bruno active; Anna owns the face-up plane
        game.roll_planar_die()
        game.player_leaves(1)
        planar = game.state.planar
        assert (planar.face_up, planar.owner, planar.controller) == ("B1", 2, 2)
        assert [t.kind for t in planar.pending] == stays
        assert 1 not in planar.decks


def test_triggers_controlled_by_a_player_who_leaves_cease_to_exist_PC():
    """PC ("Quitter la partie"): abilities the leaving player controlled stop existing."""
    game = new_game([CHAOS])
    next_turn_main(game)
    game.roll_planar_die()
    game.player_leaves(2)
    assert game.state.planar.pending == []


def test_planechase_needs_a_planar_deck_for_everyone_PC():
    people = [PlayerSetup("Anna", 1, planar_deck=["A1"]), PlayerSetup("Bruno", 2)]
    with pytest.raises(GameError, match="Bruno needs a planar deck"):
        Game.new(GameSetup(people, BOARD, planechase=True), dice=Dice.seeded(1))


def test_a_players_creatures_block_only_the_creatures_attacking_that_player_PC():
    """PC, multiplayer: "Les créatures d'un joueur peuvent uniquement bloquer les créatures qui l'attaquent."
    Before the attack is declared every opponent in reach could block; once Anna attacks Bruno, only Bruno's."""
    game = new_game()
    ogre = Piece(1, 2, name="Ogre", power=3, toughness=3, at=(5, 5))
    bruno = Piece(2, 2, name="Wall", mana_value=3, power=0, toughness=4, at=(6, 5))
    chloe = Piece(3, 2, name="Bear", mana_value=3, power=2, toughness=2, at=(5, 6))
    for piece in (ogre, bruno, chloe):
        game.add_piece(piece, by_card=True)
    assert {p.token for p in game.blockers(ogre.token)} == {bruno.token, chloe.token}
    assert [p.token for p in game.blockers(ogre.token, attacked=2)] == [bruno.token]
    assert [p.token for p in game.blockers(ogre.token, attacked=3)] == [chloe.token]


def test_a_creature_may_attack_any_opponent_and_an_attack_may_split_between_several_PC():
    """PC: « Vous pouvez attaquer n'importe quel autre joueur avec vos créatures, même s'il n'est pas assis à côté de
    vous. Vous pouvez même attaquer plus d'un adversaire à la fois ! » — on the grid, a creature may attack any
    opponent it stands next to (MT 5.03.a): it is offered the squares by every opposing pawn; two attackers may
    attack two players, each blocked only by the player it attacks."""
    game = new_game()
    bruno, chloe = game.state.pawn(2).at, game.state.pawn(3).at
    def next_to(at):
        return at[0], at[1] + 1 if at[1] == 0 else at[1] - 1

    ogre = Piece(1, 2, name="Ogre", power=3, toughness=3, keywords={"haste"}, at=next_to(bruno))  # cast this turn
    orc = Piece(1, 3, name="Orc", power=2, toughness=2, at=next_to(chloe))
    wall = Piece(2, 2, name="Wall", mana_value=2, at=(ogre.at[0] - 1, ogre.at[1]))
    bear = Piece(3, 2, name="Bear", mana_value=2, at=(orc.at[0] - 1, orc.at[1]))
    for piece in (ogre, orc, wall, bear):
        game.add_piece(piece, by_card=True)
    state = game.state
    near = overlay(state.board, state.pieces[ogre.token], state.pieces.values(), sides=state.sides).attack_squares
    assert ogre.at in near and any(max(abs(x - chloe[0]), abs(y - chloe[1])) == 1 for x, y in near)
    assert [p.token for p in game.blockers(ogre.token, attacked=2)] == [wall.token]
    assert [p.token for p in game.blockers(orc.token, attacked=3)] == [bear.token]


def test_a_teammate_is_not_an_opponent_in_two_headed_giant():
    """Two-Headed Giant (MT 8.01): teammates never block each other, and the attacked team blocks together."""
    people = [PlayerSetup(n, i + 1, team=1 + i // 2) for i, n in enumerate(["Anna", "Bruno", "Chloé", "David"])]
    game = Game.new(GameSetup(people, BOARD, format="two_headed_giant", starting_player=1), dice=Dice.seeded(1))
    ogre = Piece(1, 2, name="Ogre", power=3, toughness=3, at=(5, 5))
    mate = Piece(2, 2, name="Mate", mana_value=3, at=(6, 5))
    foes = [Piece(3, 2, name="Foe", mana_value=3, at=(4, 5)), Piece(4, 2, name="Foe 2", mana_value=3, at=(5, 4))]
    for piece in (ogre, mate, *foes):
        game.add_piece(piece)
    assert {p.token for p in game.blockers(ogre.token)} == {(3, 2), (4, 2)}
    assert {p.token for p in game.blockers(ogre.token, attacked=3)} == {(3, 2), (4, 2)}  # the team blocks together
    assert game.blockers(mate.token, attacked=1) == ()
