"""`tactical bench rules|game|vision|tokens|app|camera|cards|inputs|negatives|grids-public|memory|sudoku|all`:
run the benchmark modules, imported only when asked.

Each benchmark is `companion.bench.<name>:main(argv) -> int`; a part of the project that
is not installed or not written yet prints "not available" instead of failing the others.
`--write FILE` (among the options) also writes each benchmark's output into its section of FILE
(`companion.bench.report`), e.g. `tactical bench all --write docs/benchmarks.md`.
"""
from __future__ import annotations

import argparse
import importlib

from companion.cli.output import say

BENCHES = ("rules", "game", "vision", "tokens", "app", "camera", "cards", "inputs", "negatives", "grids-public",
           "memory", "sudoku")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("which", choices=(*BENCHES, "all"), help="which benchmark to run")
    parser.add_argument("extra", nargs=argparse.REMAINDER, metavar="OPTIONS",
                        help="options passed on to the benchmark, e.g. --repeat 15; --write FILE also writes "
                             "the figures into FILE (docs/benchmarks.md)")


def _load(name: str):
    """The benchmark's main function, or None when its module (or a dependency) is missing
    (`grids-public` lives in `companion.bench.grids_public`)."""
    module_name = f"companion.bench.{name.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name.startswith(exc.name) or exc.name.startswith(module_name)):
            return None
        raise
    return getattr(module, "main", None)


def run(args: argparse.Namespace) -> int:
    names = BENCHES if args.which == "all" else (args.which,)
    write_to, options = _write_option(list(args.extra))
    status = 0
    for name in names:
        main = _load(name)
        if main is None:
            say(f"bench {name}: not available (companion.bench.{name} is not installed)")
            continue
        if write_to is None:
            status = max(status, main(list(options)) or 0)
        else:
            from companion.bench.report import run_and_write

            status = max(status, run_and_write(name, options, main, write_to, BENCHES))
    return status


def _write_option(options: list[str]):
    """(FILE of `--write FILE` or None, the other options), taken apart only when `--write` is there."""
    if not any(o == "--write" or o.startswith("--write=") for o in options):
        return None, options
    from companion.bench.report import take_write_option

    return take_write_option(options)
