"""The demo game: a bundled board, two players with the event deck and Planechase, a few pieces
each, the first player in the movement phase.

Two players because the prebuilt event deck (26 cards, MT 9.03) is only large
enough for two (MT 7.02.a: +4 cards per extra player).

A newcomer sees every screen working without a camera or a printed board; the
camera screen photographs this game with the synthetic photographer.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boards import Board, library_boards, load_board
from companion.game import Dice, Game, GameSetup, PlayerSetup, prebuilt_event_deck, seat_starts
from companion.rules import Piece, distance

DEMO_PLAYERS = (("Anna", 1), ("Bruno", 2))
DEMO_SEED = 11  # seeds the demo's set-up: deck order and the first roll (see start_demo)
# Real planes (Planechase, 2009), so the table screen reads like a real game.
DEMO_PLANAR_DECKS = (("Naya", "Sokenzan", "Raven's Run", "The Great Forest", "Turri Island"),
                     ("Agyrem", "Tazeem", "Goldmeadow", "Velis Vel", "The Dark Barony"))


@dataclass(frozen=True)
class DemoCard:
    name: str
    kind: str
    mana_value: int
    power: int | None
    toughness: int | None
    colours: str
    keywords: tuple[str, ...] = ()


# Real Magic cards, so the panels read like a real game.
DEMO_ARMIES: tuple[tuple[DemoCard, ...], ...] = (
    (DemoCard("Serra Angel", "creature", 5, 4, 4, "W", ("flying", "vigilance")),
     DemoCard("Savannah Lions", "creature", 1, 2, 1, "W"),
     DemoCard("Llanowar Elves", "creature", 1, 1, 1, "G"),
     DemoCard("Grizzly Bears", "creature", 2, 2, 2, "G")),
    (DemoCard("Shivan Dragon", "creature", 6, 5, 5, "R", ("flying",)),
     DemoCard("Hill Giant", "creature", 4, 3, 3, "R"),
     DemoCard("Jace Beleren", "planeswalker", 3, None, None, "U"),
     DemoCard("Wall of Stone", "creature", 3, 0, 8, "R", ("defender",))),
)


DEMO_BOARD = "duel-20x12"  # the bundled two-player board (MT 1.02.a: 20×12 for two)


def demo_board() -> Board:
    """The bundled duel board (loading only that file keeps the launch fast); else the first bundled one."""
    boards = library_boards()
    if not boards:
        raise FileNotFoundError("no bundled board in boards/library: the demo needs one")
    return load_board(boards.get(DEMO_BOARD) or next(iter(boards.values())))


def demo_pieces(board: Board) -> list[Piece]:
    """Each player's pawn on a start square and their army on the nearest free walkable squares."""
    starts = [at for at in seat_starts(board, len(DEMO_PLAYERS)) if at is not None] or \
        [(board.width // 2, board.height // 2)]  # where the game puts the pawns
    taken: set[tuple[int, int]] = set()
    pieces: list[Piece] = []
    for (name, colour), start, army in zip(DEMO_PLAYERS, starts, DEMO_ARMIES):
        pieces.append(Piece(colour, 1, kind="player", name=name, at=start))
        taken.add(start)
        free = sorted((p for p in board.positions() if board.walkable(p) and p not in taken),
                      key=lambda p: (distance(start, p), p))
        for number, (card, at) in enumerate(zip(army, free[1::2]), start=2):  # every other square: room to move
            pieces.append(Piece(colour, number, kind=card.kind, name=card.name, mana_value=card.mana_value,
                                power=card.power, toughness=card.toughness, colours=frozenset(card.colours),
                                keywords=frozenset(card.keywords), at=at))
            taken.add(at)
    return pieces


def start_demo(save_dir: Path) -> tuple[Game, tuple[int, int]]:
    """The demo game, saved in `save_dir`, in the first player's creature movement step with their
    flyer's dice rolled; returns the game and that flyer's token (shown selected: a newcomer sees
    overlays at once).

    It is set up with seeded dice (same deck order and same first roll every time, so a newcomer
    and the screenshots always see the flyer's moves), then plays with real dice."""
    board = demo_board()
    players = [PlayerSetup(name, colour, planar_deck=list(planes))
               for (name, colour), planes in zip(DEMO_PLAYERS, DEMO_PLANAR_DECKS)]
    setup = GameSetup(players=players, board=board, starting_player=DEMO_PLAYERS[0][1],
                      events=prebuilt_event_deck(), planechase=True)
    game = Game.new(setup, save_dir=save_dir, dice=Dice.seeded(DEMO_SEED))
    for piece in demo_pieces(board):
        if piece.kind != "player":  # the game put the pawns on their start squares
            game.add_piece(piece)
    while game.state.turn.phase != "movement" or game.state.turn.step != "creatures":
        game.next_phase()
    active = game.state.turn.active[0]
    focus = next(p.token for p in game.state.pieces_of(active) if p.kind == "creature" and "flying" in p.keywords)
    game.roll_movement(focus)
    game.dice = Dice.system()
    return game, focus
