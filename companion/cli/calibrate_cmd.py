"""`tactical calibrate --camera SOURCE [--board FILE] [--out DIR]`.

Finds the board in the first usable frames, learns the colour profile under the
current light and saves the calibration (homography + profile). For a board
without a file it also writes a new board file and lists the squares a person
must confirm (MT 2.02.e).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.cli.output import say
from companion.cli.scan_cmd import grid_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--camera", required=True, metavar="SOURCE",
                        help="camera index (0), stream URL, video file, image file or folder of images")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--board", type=Path, help="the board file of the board in view")
    which.add_argument("--grid", type=grid_argument, help="grid size WxH of a board without file")
    parser.add_argument("--out", type=Path, help="calibration directory (default: the user data directory)")
    parser.add_argument("--frames", type=int, default=30, help="frames tried before giving up (default 30)")


def run(args: argparse.Namespace) -> int:
    from boards import BoardFileError, Board, Square, load_board, save_board, square_label
    from calibration.colour import Calibration, default_calibration_dir
    from calibration.sources import SourceError, open_source
    from vision import scan

    out = args.out or default_calibration_dir()
    try:
        board = load_board(args.board) if args.board else None
        source = open_source(args.camera)
    except (SourceError, BoardFileError, OSError) as exc:
        say(f"tactical calibrate: {exc}", file=sys.stderr)
        return 2
    result, last_error = None, "no frame from the source"
    try:
        for _ in range(max(1, args.frames)):
            try:
                frame = source.read()
            except SourceError as exc:
                last_error = str(exc)
                break
            if frame is None:
                continue
            result = scan(frame, board=board, grid=args.grid)
            if result.found:
                break
            last_error = result.error
    finally:
        source.close()
    if result is None or not result.found:
        say(f"tactical calibrate: {source.name}: {last_error}", file=sys.stderr)
        return 1
    calibration = Calibration.from_scan(result, source.name)
    try:
        path = calibration.save(out)
    except OSError as exc:
        say(f"tactical calibrate: cannot write the calibration in {out}: {exc}", file=sys.stderr)
        return 2
    say(f"board {result.width}×{result.height} found ({result.method}); calibration saved to {path}")
    if calibration.lens is not None:
        say(f"the camera's lens, saved with it: k1 {calibration.lens.k1:+.3f}, k2 {calibration.lens.k2:+.3f}")
    if result.tokens_too_small:
        from companion.camera import too_small_advice

        say(too_small_advice(result.tokens_too_small, "en"))
    doubtful = [square_label((s.x, s.y)) for s in result.squares if s.uncertain or s.covered]
    if board is not None:
        if result.mismatches:
            say("squares that differ from the board file: " + ", ".join(m["square"] for m in result.mismatches))
        return 0
    rows = [[Square(frozenset(s.colours), obstacle=s.obstacle or not s.colours, start=s.start and bool(s.colours)
                    and not s.obstacle, temple=s.temple and bool(s.colours) and not s.obstacle)
             for s in result.squares[y * result.width:(y + 1) * result.width]] for y in range(result.height)]
    new_board = Board(tuple(tuple(r) for r in rows), name="Plateau scanné",
                      description=f"read by tactical calibrate from {source.name}; check the squares listed")
    board_path = Path(out) / "scanned-board.yaml"
    save_board(new_board, board_path)
    say(f"new board file written to {board_path}")
    say(f"squares to confirm (MT 2.02.e): {', '.join(doubtful) or 'none'}")
    return 0
