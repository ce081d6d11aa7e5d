"""`tactical board new|show|check|list`: create, look at and check board files.

Ordinary bad input (a wrong board file, a bad --size) prints one line saying
what is wrong and where, and exits with code 2; `check` exits 1 when the board
cannot be played. Whatever comes from a file is printed through `say` (`printable`: a board
name with an escape sequence is shown, not obeyed by the terminal).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from boards import Board, BoardFileError, library_boards, load_board, save_board
from boards.fairness import fairness_report, play_problems
from boards.generator import BoardGenerationError, generate_board
from boards.terminal import ColourMode, detect_colour_mode, render_board
from companion.cli.output import say

EXIT_PROBLEMS, EXIT_BAD_INPUT = 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    new = actions.add_parser("new", help="generate a fair random board file")
    new.add_argument("--size", default="20x12", help="WIDTHxHEIGHT in squares (default 20x12, MT 1.02.a)")
    new.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    new.add_argument("--seed", default="0", help="same seed, same board (default 0)")
    new.add_argument("--out", required=True, type=Path, help="board file to write (.yaml)")
    new.add_argument("--name", help="board name (default: Duel/Trio/Quatuor and the size)")
    new.add_argument("--force", action="store_true", help="overwrite --out if it exists")

    show = actions.add_parser("show", help="draw a board in the terminal")
    show.add_argument("board", help="board file, or the name of a bundled board (see `tactical board list`)")
    colours = show.add_mutually_exclusive_group()
    colours.add_argument("--plain", action="store_true", help="square codes without colour")
    colours.add_argument("--colours", choices=["truecolor", "256"],
                         help="force a colour mode (default: from COLORTERM; NO_COLOR gives --plain)")

    check = actions.add_parser("check", help="print play problems and the fairness report")
    check.add_argument("board", help="board file, or the name of a bundled board")

    actions.add_parser("list", help="list the bundled boards")


def run(args: argparse.Namespace) -> int:
    try:
        return {"new": _new, "show": _show, "check": _check, "list": _list}[args.action](args)
    except (BoardFileError, BoardGenerationError) as exc:
        say(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _resolve(board_arg: str) -> Board:
    """A path, or the stem of a bundled board when no such file exists."""
    path = Path(board_arg)
    bundled = library_boards()
    if not path.exists() and board_arg in bundled:
        path = bundled[board_arg]
    return load_board(path)


def _parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{1,9})\s*[x×X]\s*(\d{1,9})\s*", text)
    if not match:
        raise BoardGenerationError(f"--size '{text[:40]}': expected WIDTHxHEIGHT, e.g. 20x12")
    return int(match[1]), int(match[2])


def _new(args: argparse.Namespace) -> int:
    width, height = _parse_size(args.size)
    if args.out.is_dir():
        raise BoardGenerationError(f"--out {args.out} is a folder: give the board file's name, e.g. {args.out}/my.yaml")
    if args.out.exists() and not args.force:
        raise BoardGenerationError(f"{args.out} already exists; add --force to overwrite it")
    if not args.out.parent.is_dir():
        raise BoardGenerationError(f"--out {args.out}: folder {args.out.parent} does not exist")
    board = generate_board(width, height, args.players, args.seed, name=args.name)
    try:
        save_board(board, args.out)
    except OSError as exc:
        raise BoardGenerationError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    say(f"wrote {args.out}: {board.name}, {board.width}×{board.height}, {board.players} players")
    return 0


def _show(args: argparse.Namespace) -> int:
    board = _resolve(args.board)
    if args.plain:
        mode = ColourMode.PLAIN
    elif args.colours:
        mode = ColourMode(args.colours)
    else:
        mode = detect_colour_mode()
    sys.stdout.write(render_board(board, mode))
    return 0


def _check(args: argparse.Namespace) -> int:
    board = _resolve(args.board)
    problems = play_problems(board)
    say(f"{board.name}: {board.width}×{board.height}, {board.players} players")
    say("playable: yes" if not problems else "playable: no")
    for problem in problems:
        say(f"  problem: {problem}")
    say("\n".join(fairness_report(board).lines()))
    return EXIT_PROBLEMS if problems else 0


def _list(args: argparse.Namespace) -> int:
    for stem, path in library_boards().items():
        try:
            board = load_board(path)
            say(f"{stem:<18} {board.width}×{board.height}  {board.players} players  "
                 f"{board.name}")
        except BoardFileError as exc:
            say(f"{stem:<18} unreadable: {exc}")
    return 0
