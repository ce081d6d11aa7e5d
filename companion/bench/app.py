"""`tactical bench app`: launch time to the first screen, and redrawing every overlay of a 40×25 board.

Goals (issue 7): first screen ≤ 3 s; all overlays redrawn ≤ 16 ms (one frame at 60 Hz).
The redraw is measured twice: the instructions alone (what the app does per tap) and
a full frame through the GPU driver (here Mesa llvmpipe: software, a pessimistic bound).
Each redraw switches between the two pieces with the largest overlays, so every layer really
changes (the view keeps a layer's Mesh when its squares did not change). Baselines measured in
the same run: the naive way (one Kivy widget per square) and the floor, a frame of the board
and tokens with nothing to change (what the window itself costs on this machine).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from companion.bench.common import machine_summary, median_ms, print_table

LAUNCH_RUNS = 3
BOARD = (40, 25)


def _launch_seconds() -> float:
    """Seconds from spawning `python` to the demo's first frame on screen (offscreen window), one run."""
    code = "from companion.app.offscreen import print_demo_first_frame; print_demo_first_frame()"
    spawned = time.time()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})
    first = next((float(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("FIRST_FRAME")), None)
    if first is None:
        raise RuntimeError(f"the app did not start:\n{done.stderr[-2000:]}")
    return first - spawned


def main(argv: list[str] | None = None) -> int:
    print(f"machine: {machine_summary()}")
    launches = sorted(_launch_seconds() for _ in range(LAUNCH_RUNS))
    launch_ms = launches[len(launches) // 2] * 1000

    from boards.generator import generate_board
    from companion.app.widgets.board_image import board_picture
    from companion.app.widgets.board_view import BoardView
    from companion.app.widgets.token_art import screen_token
    from companion.app import offscreen
    from companion.rules import Piece, overlays

    window = offscreen.open_window()
    board = generate_board(*BOARD, 4, seed=1)
    walkable = [p for p in board.positions() if board.walkable(p)]
    pieces = [Piece(1 + i % 4, 1 + i // 4, mana_value=3 + i % 5, power=2, toughness=2, at=at)
              for i, at in enumerate(walkable[::len(walkable) // 120][:120])]
    rolls = {p.roll_key: (6, 5) for p in pieces}
    all_overlays = overlays(board, pieces, dice=rolls)
    biggest = sorted(all_overlays.values(), key=lambda o: len(o.zone) + len(o.moves))[-2:]
    selections = [({"zone": o.zone, "moves": o.moves, "attack": o.attack_squares},
                   {"blockers": {b.at for b in o.blockers}, "selected": {o.piece.at}}) for o in biggest]
    layers = selections[-1][0]
    squares_drawn = sum(len(v) for v in layers.values())

    view = BoardView(size=window.size)
    offscreen.show(view)
    view.set_picture(board_picture(board), (board.width, board.height))
    view.surface.draw_tokens([((p.player, p.number, p.kind), p.at) for p in pieces],
                             lambda key, diameter: screen_token(*key[:2], diameter, key[2]))

    turn = [0]

    def redraw():
        """Select the other of the two pieces: every layer and ring is rebuilt."""
        turn[0] ^= 1
        view.surface.draw_overlays(*selections[turn[0]])

    def redraw_frame():
        redraw()
        offscreen.next_frame()

    def naive_widgets():
        """Baseline: one widget with its own canvas per highlighted square."""
        offscreen.widget_per_square([at for layer in layers.values() for at in layer])

    rows = [
        ("launch to first screen (median of 3 runs)", launch_ms, "goal ≤ 3000 ms"),
        (f"redraw overlays, {squares_drawn} squares (instructions)", median_ms(redraw, repeat=15), "goal ≤ 16 ms"),
        ("redraw overlays + one full frame (software GL)", median_ms(redraw_frame, repeat=15), "goal ≤ 16 ms"),
        ("floor: one frame, nothing changed (software GL)", median_ms(offscreen.unchanged_frame, repeat=15), "window cost"),
        ("baseline: one widget per highlighted square", median_ms(naive_widgets, repeat=5), "naive"),
        ("rules: overlays of all 120 pieces (companion.rules)",
         median_ms(lambda: overlays(board, pieces, dice=rolls), repeat=5), "per state change"),
    ]
    print_table(f"App, {BOARD[0]}×{BOARD[1]} board, 120 tokens", rows)
    offscreen.close_window()
    return 0


if __name__ == "__main__":
    sys.exit(main())
