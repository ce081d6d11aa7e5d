"""Shared helpers for benchmarks: the machine, medians of repeated runs, tables."""
from __future__ import annotations

import os
import platform
import statistics
import time
from pathlib import Path
from typing import Callable, Iterable

PUBLIC_PHOTOS_ENV = "TACTICAL_PUBLIC_PHOTOS"
_REPOSITORY = Path(__file__).resolve().parents[2]


def public_photo_folder(set_name: str) -> Path:
    """Where this machine keeps the photos of a public set (`grids-public`, `negatives`).

    Photos taken from other public repositories are not committed here: this repository holds their
    labels and their sources (repository, path, commit, licence), and the photos themselves sit beside
    the checkout, in `../public-photos/<set>/`, or under `$TACTICAL_PUBLIC_PHOTOS/<set>/`."""
    root = os.environ.get(PUBLIC_PHOTOS_ENV)
    return (Path(root) if root else _REPOSITORY.parent / "public-photos") / set_name


def missing_photos_message(bench: str, paths: Iterable[Path], sources: Path) -> str | None:
    """None when every photo is on this machine; else what is missing, where it was looked for and
    where the photos' sources are listed, so the bench never prints figures over part of its set."""
    missing = [path for path in paths if not path.is_file()]
    if not missing:
        return None
    folders = sorted({str(path.parent) for path in missing})
    return (f"{bench}: {len(missing)} photo(s) are not on this machine (looked in {', '.join(folders)}; "
            f"e.g. {missing[0].name}). They come from public repositories and are not committed: fetch them "
            f"as {sources} lists (repository, path, commit) into that folder, or set {PUBLIC_PHOTOS_ENV}.")


def machine_summary() -> str:
    """One line naming the machine, so figures are never quoted without it."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next((l.split(":", 1)[1].strip() for l in fh if l.startswith("model name")), cpu)
    except OSError:
        pass
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "all cores")
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}, "
            f"numpy BLAS threads: {blas}")


def median_ms(fn: Callable[[], object], *, repeat: int = 7, number: int = 1, warmup: int = 1) -> float:
    """Median over `repeat` runs of the time of `number` calls, in milliseconds per call."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) * 1000 / number)
    return statistics.median(samples)


def wall_and_cpu_ms(fn: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and this process's CPU times (ms) of `repeat` calls, after one warm-up call:
    other jobs on a shared machine inflate the first, not the second."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return wall, cpu


PLAYERS, NUMBERS = 5, 20   # the token colours and numbers the benches draw from


def tokens_on_walkable(board, rng, count: int) -> list[tuple[int, int, int, int]]:
    """`count` random tokens (player, number, x, y) on distinct walkable squares of `board`, each token
    once: a token stands for one permanent (MT 2.05) and the reader keeps one square per token, so a
    table with two copies of a token is no table (a photo drew token 2-9 twice, and the bench counted
    the copy the reader rightly did not report as missed). A repeated draw is drawn again: photos
    without one keep their random stream. At most as many as there are tokens (players × numbers)."""
    def draw() -> tuple[int, int]:
        return int(rng.integers(1, PLAYERS + 1)), int(rng.integers(1, NUMBERS + 1))

    spots = [p for p in board.positions() if board.walkable(p)]
    picks = rng.choice(len(spots), size=min(count, len(spots), PLAYERS * NUMBERS), replace=False)
    tokens: list[tuple[int, int, int, int]] = []
    taken: set[tuple[int, int]] = set()
    for i in picks:
        token = draw()
        while token in taken:
            token = draw()
        taken.add(token)
        tokens.append((*token, *spots[i]))
    return tokens


def print_table(title: str, rows: list[tuple[str, float, str]]) -> None:
    """rows: (what, median ms, goal text)."""
    print(f"\n{title}")
    width = max(len(r[0]) for r in rows)
    for what, ms, goal in rows:
        print(f"  {what.ljust(width)}  {ms:9.3f} ms   {goal}")
