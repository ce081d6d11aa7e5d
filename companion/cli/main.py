"""`tactical` — entry point. Each subcommand lives in its own module exposing
`add_arguments(parser)` and `run(args) -> int`, imported only when used so that
`tactical board show` never pays for Kivy or OpenCV."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

SUBCOMMANDS = {
    "app": ("companion.cli.app_cmd", "start the companion app (--demo: bundled demo, no camera)"),
    "board": ("companion.cli.board_cmd", "create, show and check board files"),
    "print": ("companion.cli.print_cmd", "print boards and token sheets to PDF at exact scale"),
    "scan": ("companion.cli.scan_cmd", "read a board (and tokens) from a photo"),
    "calibrate": ("companion.cli.calibrate_cmd", "calibrate a camera against a board"),
    "watch": ("companion.cli.watch_cmd", "follow tokens live from a camera or video"),
    "cards": ("companion.cli.cards_cmd", "offline card data: import, update, search"),
    "bench": ("companion.cli.bench_cmd", "benchmarks: rules, vision, app"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tactical", description="Magic Tactical table companion")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if only == name:
            module = importlib.import_module(module_name)
            module.add_arguments(sp)
            sp.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    # numpy's OpenBLAS spreads its matrix products over every core and its threads busy-wait between
    # them: our products are small, so on 2 cores a 1080p scan took as long (wall 60-111 ms against
    # 55-65 ms) for twice the CPU (119-222 ms against 72-83 ms), taken from the app's UI thread; and a
    # bench's one core means one core. Must be set before numpy is first imported.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser(command if command in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return args._run(args) or 0
    except BrokenPipeError:  # `tactical board show … | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
