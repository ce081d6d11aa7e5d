"""`tactical app`: start the companion app, or render one screen to a PNG and exit."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.app.screens import SCREENS  # a plain registry: importing it does not load kivy
from companion.cli import data_dir_problem
from companion.cli.output import say


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--demo", action="store_true",
                        help="a pre-filled game on a bundled board with a synthetic camera (no camera, no print)")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="render a screen to this PNG and exit (offscreen is fine)")
    parser.add_argument("--screen", choices=tuple(SCREENS), help="screen to open first (default: board)")
    parser.add_argument("--lang", choices=("fr", "en"), help="UI language (default: the system's, French if French)")
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help="where the game autosaves and the card database is (default: the app's user data "
                             "directory; with --demo: the games go to a fresh temporary directory, the cards stay)")


def run(args: argparse.Namespace) -> int:
    problem = data_dir_problem(args.data_dir)
    if problem:
        say(f"error: {problem}", file=sys.stderr)
        return 2
    if args.screenshot and args.screenshot.suffix.lower() != ".png":
        say(f"error: --screenshot {args.screenshot}: the file name must end in .png")
        return 2
    from companion.app import run_app  # imports kivy only now: `tactical board` never pays for it

    return run_app(demo=args.demo, screenshot=args.screenshot, screen=args.screen, lang=args.lang,
                   data_dir=args.data_dir)
