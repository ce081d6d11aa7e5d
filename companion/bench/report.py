"""`tactical bench NAME --write docs/benchmarks.md`: the benchmarks write their own figures file.

Each benchmark's output goes to the terminal as always and, with `--write FILE`, into its own
section of FILE (a Markdown file), replacing that section only: the file then says, for each
benchmark, when it last ran, the command, the load at the start and how long it took, next to what
the benchmark printed (its machine line, medians and the baselines of the same run). Benchmarks run
at different times keep their own dates, so the file always says which figures came from which run.
"""
from __future__ import annotations

import contextlib
import datetime
import io
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

HEADER = """# Benchmarks

Every figure here was written by the benchmark that measured it (`tactical bench NAME --write
docs/benchmarks.md`, or `tactical bench all --write docs/benchmarks.md` for all of them): one
section per benchmark, each with the date of its run, the command, the machine's load when it
started and how long it took, then what the benchmark printed — the machine, medians of several
runs, and the baseline measured in the same run. Running one benchmark again replaces its section
only, so each section's command and date say which run its figures came from; a quick or partial
run (`--quick`, `vision --guarded`) measures fewer photos or frames than the full benchmark. Figures
of earlier full runs: `docs/benchmark-history.md`. The goals and what the figures mean:
`docs/vision.md`, `docs/grid-finding.md`, `docs/tokens.md`, `docs/app.md`, `docs/game.md`, `docs/cards.md`.
"""


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, terminal):
        self.terminal, self.kept = terminal, io.StringIO()

    def write(self, text: str) -> int:
        self.terminal.write(text)
        self.kept.write(text)
        return len(text)

    def flush(self) -> None:
        self.terminal.flush()


def take_write_option(options: list[str]) -> tuple[Path | None, list[str]]:
    """`--write FILE` (or `--write=FILE`) taken out of the options passed on to a benchmark."""
    rest, path = [], None
    items = iter(options)
    for option in items:
        if option == "--write":
            value = next(items, None)
            if value is None:
                raise SystemExit("tactical bench: --write needs a file name, e.g. --write docs/benchmarks.md")
            path = Path(value)
        elif option.startswith("--write="):
            path = Path(option.split("=", 1)[1])
        else:
            rest.append(option)
    return path, rest


def run_and_write(name: str, options: list[str], main: Callable[[list[str]], int | None], path: Path,
                  order: tuple[str, ...]) -> int:
    """Run one benchmark, its output on the terminal and into its section of `path` (sections in `order`)."""
    load = os.getloadavg()[0]
    started_at = datetime.datetime.now(datetime.UTC)
    started = time.perf_counter()
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        status = main(list(options)) or 0
    seconds = time.perf_counter() - started
    command = " ".join(["tactical bench", name, *options])
    lines = [f"## {name}", "",
             f"Run {started_at:%Y-%m-%d %H:%M} UTC: `{command}`; load average {load:.1f} at the start, "
             f"{seconds:.0f} s" + ("" if status == 0 else f"; exit status {status}") + ".", "",
             "```text", tee.kept.getvalue().rstrip("\n"), "```"]
    write_section(path, name, "\n".join(lines), order)
    return status


def write_section(path: Path, name: str, body: str, order: tuple[str, ...]) -> None:
    """Put `body` as benchmark `name`'s section of `path`, keeping the other sections; sections follow
    `order` (that of `tactical bench all`)."""
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    pattern = re.compile(r"<!-- bench:([\w-]+) -->\n.*?<!-- /bench:\1 -->\n", re.DOTALL)
    sections = {m.group(1): m.group(0) for m in pattern.finditer(text)}
    preamble = pattern.split(text, maxsplit=1)[0] if sections else text.rstrip("\n") + "\n\n"
    sections[name] = f"<!-- bench:{name} -->\n{body}\n<!-- /bench:{name} -->\n"
    names = [n for n in order if n in sections] + sorted(set(sections) - set(order))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(preamble + "\n".join(sections[n] for n in names), encoding="utf-8")
