"""`tactical bench rules|game|vision|tokens|app|camera|cards|inputs|negatives|all`: run the benchmark modules, imported only when asked.

Each benchmark is `companion.bench.<name>:main(argv) -> int`; a part of the project that
is not installed or not written yet prints "not available" instead of failing the others.
"""
from __future__ import annotations

import argparse
import importlib

BENCHES = ("rules", "game", "vision", "tokens", "app", "camera", "cards", "inputs", "negatives")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("which", choices=(*BENCHES, "all"), help="which benchmark to run")
    parser.add_argument("extra", nargs=argparse.REMAINDER, metavar="OPTIONS",
                        help="options passed on to the benchmark, e.g. --repeat 15")


def _load(name: str):
    """The benchmark's main function, or None when its module (or a dependency) is missing."""
    module_name = f"companion.bench.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name.startswith(exc.name) or exc.name.startswith(module_name)):
            return None
        raise
    return getattr(module, "main", None)


def run(args: argparse.Namespace) -> int:
    names = BENCHES if args.which == "all" else (args.which,)
    status = 0
    for name in names:
        main = _load(name)
        if main is None:
            print(f"bench {name}: not available (companion.bench.{name} is not installed)")
            continue
        status = max(status, main(list(args.extra)) or 0)
    return status
