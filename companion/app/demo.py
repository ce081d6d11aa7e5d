"""The demo game: a bundled board, two players with the event deck and Planechase, a few pieces
each, the first player in the movement phase.

Two players because the prebuilt event deck (26 cards, MT 9.03) is only large
enough for two (MT 7.02.a: +4 cards per extra player).

A newcomer sees every screen working without a camera or a printed board; the
camera screen films this game with `DemoCamera`, a synthetic video in which hands move the
tokens the table moves.
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


def start_demo(save_dir: Path | None) -> tuple[Game, tuple[int, int]]:
    """The demo game, saved in `save_dir` (None: not saved), in the first player's creature movement step with their
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


# -- the demo's camera ---------------------------------------------------------------------------
DEMO_FRAME = (1920, 1080)   # the synthetic camera's frame: a phone's 1080p stream
DEMO_FPS = 15.0             # frames per second of the demo's video
DEMO_FILL = 0.9             # share of the frame the sheet (grid and printed margin) fills
DEMO_MAX_TILT_DEG = 20.0    # a tablet on a stand beside the board
DEMO_STILLS = 2             # renders of a still scene (sensor noise) cycled between hands
CARRY_FRAMES = 12           # frames a hand takes to carry a token the table moved
PASS_FRAMES = 10            # frames of a hand passing over the board without moving anything
PASS_EVERY = 150            # a hand passes every this many frames (10 s) when nothing else happens
# The demo's printed sheet differs from its board file at one plain white square, printed red:
# the camera shows what a misprint (or the wrong board file) looks like — a square to confirm.
DEMO_MISPRINT = "R"


def misprinted(board: Board) -> Board:
    """The sheet on the demo table: the board with its plain white square nearest the centre printed
    red (MT 2.02.e: the table confirms it on the Camera screen)."""
    from boards.model import Square

    plain_white = [p for p, square in zip(board.positions(), board)
                   if square.colours == frozenset("W") and not (square.obstacle or square.start or square.temple)]
    centre = ((board.width - 1) / 2, (board.height - 1) / 2)
    at = min(plain_white, default=None, key=lambda p: (abs(p[0] - centre[0]) + abs(p[1] - centre[1]), p))
    return board if at is None else board.replace_square(at, Square(frozenset(DEMO_MISPRINT)))


def _scene(placed: dict) -> tuple:
    """The tokens on the table, in a fixed order (the key of a rendered still scene)."""
    return tuple(sorted(placed.values(), key=lambda t: (t.player, t.number)))


DEMO_SOURCE = "demo camera"     # the demo camera's source name (the status line says it in the shown language)


class DemoCamera:
    """The demo's camera, a `calibration.sources` frame source: a synthetic video of the demo table
    seen by a tablet on a stand. When the table moves a token (on the Board screen), a hand comes,
    carries it to its new square and leaves; now and then a hand passes over the board without
    moving anything. The camera watcher follows it all like a real camera's frames, so a newcomer
    sees tracking work with no camera and no printed board.

    `show(tokens)` (UI thread) gives the game's positions; `read()` (camera worker) paces itself at
    `fps` and draws the next frame. Tests and the bench script more: `pass_by()`, `nudge()` (the
    sheet slides on the table), and read `hands` (the last frame's) and `camera` (its truth).
    """

    live = True
    fps = None              # paces itself
    finished = False
    name = DEMO_SOURCE

    def __init__(self, board: Board, tokens, *, seed: int = 7, fps: float | None = DEMO_FPS,
                 size: tuple[int, int] = DEMO_FRAME, pass_every: int | None = PASS_EVERY, clock=None, sleep=None):
        import time

        import numpy as np

        from vision.video import Look, random_camera

        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.sheet = misprinted(board)
        self.camera = random_camera(self.sheet, size, self.rng, max_tilt_deg=DEMO_MAX_TILT_DEG, fill=DEMO_FILL)
        self.look = Look(gains=(0.97, 1.0, 1.03), light_low=0.85, light_angle=float(self.rng.uniform(0, 6.28)),
                         blur_sigma=0.6, noise_sigma=2.0)
        self._photographers: dict[int, object] = {}
        self._period = 1.0 / fps if fps else 0.0
        self._pass_every = pass_every
        self._clock, self._sleep = clock or time.monotonic, sleep or time.sleep
        self._next_at = None
        self._wanted = tuple(tokens)
        self._table = {(p, n): self._placed(p, n, x, y) for p, n, x, y in tokens}
        self._script: list[tuple[tuple, list, object]] = []   # frames to come: (tokens, hands, camera)
        self._stills: dict[tuple, list] = {}
        self.frame_index = -1
        self.hands: list = []           # the hands over the last frame read

    def _placed(self, player: int, number: int, x: int, y: int):
        from vision.video import PlacedToken

        dx, dy = self.rng.uniform(-0.06, 0.06, 2)
        return PlacedToken(player, number, x + 0.5 + dx, y + 0.5 + dy, float(self.rng.uniform(0, 360)))

    def _photographer(self, camera):
        """The photographer of the sheet seen through `camera` (one per pose of the sheet)."""
        from vision.video import Photographer

        key = id(camera)
        if key not in self._photographers:
            if len(self._photographers) > 4:
                self._photographers.clear()
                self._stills.clear()
            self._photographers[key] = (camera, Photographer(self.sheet, camera, self.look, seed=self.seed,
                                                             printed=True))
        return self._photographers[key][1]

    def show(self, tokens) -> None:
        """Where the game has the tokens now: (player, number, x, y) each."""
        self._wanted = tuple(tokens)

    @property
    def busy(self) -> bool:
        """A hand is at work (frames of an episode are still to come)."""
        return bool(self._script)

    # -- episodes -------------------------------------------------------------------------------
    def _plan(self) -> None:
        """The next episode: a hand carrying the first token the table moved, else now and then a
        hand passing by."""
        wanted = {(p, n): (x, y) for p, n, x, y in self._wanted}
        on_table = {token: placed.square for token, placed in self._table.items()}
        changed = sorted(t for t in set(wanted) | set(on_table) if wanted.get(t) != on_table.get(t))
        if changed:
            self._carry(changed[0], wanted.get(changed[0]))
        elif self._pass_every and self.frame_index % self._pass_every == self._pass_every - 1:
            self.pass_by()

    def _hand(self, at):
        from vision.video import hand_over

        return [hand_over(self.camera, at, self.rng)]

    def _carry(self, token, to) -> None:
        """A hand comes over the token, lifts it, sets it down on `to` (None: takes it away) and leaves."""
        before = self._table.get(token)
        after = self._placed(*token, *to) if to is not None else None
        start = (before.x, before.y) if before else (after.x, -1.5)
        end = (after.x, after.y) if after else (before.x, -1.5)
        lifted = {t: p for t, p in self._table.items() if t != token}
        for k in range(CARRY_FRAMES):
            share = k / (CARRY_FRAMES - 1)
            at = (start[0] + (end[0] - start[0]) * share, start[1] + (end[1] - start[1]) * share)
            placed = self._table if k < 2 else (lifted if k < CARRY_FRAMES - 2 or after is None
                                                 else {**lifted, token: after})
            self._script.append((_scene(placed), self._hand(at), self.camera))
        self._table = {**lifted, token: after} if after is not None else lifted

    def pass_by(self) -> None:
        """A hand passes over the board (reaching for a card, pointing) and moves nothing."""
        board = self.sheet
        y = float(self.rng.uniform(1, board.height - 1))
        for k in range(PASS_FRAMES):
            at = (board.width * (0.15 + 0.7 * k / (PASS_FRAMES - 1)), y)
            self._script.append((_scene(self._table), self._hand(at), self.camera))

    def nudge(self, dx: float, dy: float, degrees: float = 0.0, frames: int = 5) -> None:
        """A hand pushes the sheet from its left edge: it slides (dx, dy) squares and turns
        `degrees` on the table over `frames` frames, tokens and all."""
        from vision.video import nudged

        start = self.camera
        for k in range(1, frames + 1):
            share = k / frames
            self.camera = nudged(start, self.sheet, dx * share, dy * share, degrees * share)
            self._script.append((_scene(self._table), self._hand((-0.6, self.sheet.height / 2)), self.camera))

    # -- the source -----------------------------------------------------------------------------
    def read(self):
        if self._period:
            now = self._clock()
            if self._next_at is not None and now < self._next_at:
                self._sleep(self._next_at - now)
            self._next_at = max(now, self._next_at or now) + self._period
        self.frame_index += 1
        if not self._script:
            self._plan()
        tokens, hands, camera = self._script.pop(0) if self._script else (_scene(self._table), [], self.camera)
        photographer = self._photographer(camera)
        key = (id(camera), tokens)
        if key not in self._stills:
            if len(self._stills) > 8:
                self._stills.clear()
            self._stills[key] = photographer.stills(list(tokens), DEMO_STILLS)
        self.hands = hands
        still = self._stills[key][self.frame_index % DEMO_STILLS]
        return photographer.add_hands(still, hands) if hands else still

    def close(self) -> None:
        """Nothing to release: the photographer holds no device."""
