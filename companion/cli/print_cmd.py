"""`tactical print board FILE` and `tactical print tokens`: PDFs at exact scale (MT 1.02.b, 1.03.b).

Ordinary bad input (missing or invalid board file, impossible options, an output
path that cannot be written) prints one line saying what is wrong and exits 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from boards.pdf import PAPER_SIZES_MM
from companion.cli.output import say


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    board = what.add_parser("board", help="a board file (or bundled board name) tiled over pages, 2 cm squares")
    board.add_argument("file", metavar="FILE", help="board YAML file, or the name of a bundled board")
    board.add_argument("--dpi", type=int, default=200, help="image resolution (the printed size stays exact)")
    tokens = what.add_parser("tokens", help="token sheets: every number twice (MT 1.03.b)")
    tokens.add_argument("--players", type=int, required=True, help="number of players, 1..5")
    tokens.add_argument("--count", type=int, required=True, help="numbers per player")
    tokens.add_argument("--packed", action="store_true",
                        help="players share pages (each starts on a new row) instead of one sheet each")
    for sub, default in ((board, "board.pdf"), (tokens, "tokens.pdf")):
        sub.add_argument("--out", type=Path, default=Path(default), help=f"output PDF (default {default})")
        sub.add_argument("--paper", choices=sorted(PAPER_SIZES_MM), default="a4", type=str.lower)


def _board_path(name: str) -> Path:
    """A file path, or the bundled board of that name when no such file exists."""
    from boards import library_boards

    path = Path(name)
    if not path.exists():
        return library_boards().get(path.stem if path.suffix == ".yaml" else name, path)
    return path


def run(args: argparse.Namespace) -> int:
    from boards import BoardFileError, load_board
    from boards.printing import PrintError, board_pdf, tokens_pdf

    try:
        if args.what == "board":
            board = load_board(_board_path(args.file))
            document = board_pdf(board, paper=args.paper, dpi=args.dpi)
            summary = f"{board.name} ({board.width}×{board.height})"
        else:
            document = tokens_pdf(args.players, args.count, paper=args.paper, packed=args.packed)
            summary = f"tokens for {args.players} player(s), numbers 1–{args.count}, each twice"
        document.save(args.out)
    except (BoardFileError, PrintError) as exc:
        say(f"tactical print: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        say(f"tactical print: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    say(f"{args.out}: {summary}, {len(document.pages)} page(s) {args.paper.upper()} — print at 100 % "
         "(actual size) and check the 10 cm bar")
    return 0
