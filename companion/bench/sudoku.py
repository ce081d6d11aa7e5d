"""`tactical bench sudoku`: newspaper sudokus, the size 9×9 given and not (issue 28).

Grids with a thicker line every 3 squares, text columns beside them, and a sudoku filling a third of a
busy page with small solution grids below it (`vision.synth_sudoku`), and the labelled real sudoku
photos (`vision.labelled`). For each photo, `find_verified_grid` with the size and without: placed right
(the 9×9 board, every corner within half a square), misplaced (a board returned elsewhere, or another
size), not found; the squares a misplaced answer reports that do not exist (centre outside the true
grid); the time of each call (wall and this process's CPU, with a `cvtColor` baseline measured in the
same run, so figures from a loaded machine can be compared); and `vision.scan(grid=(9, 9))`'s time.
"""
from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from companion.bench.common import machine_summary

CORNERS = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def judge(fit, to_truth, size: tuple[int, int] = (9, 9)) -> tuple[str, int]:
    """("right" | "misplaced" | "none", squares that do not exist) of a GridFit against the truth:
    `to_truth` maps photo pixels to the true grid's units."""
    if fit is None:
        return "none", 0
    gx, gy = np.meshgrid(np.arange(fit.width) + 0.5, np.arange(fit.height) + 0.5)
    centres = to_truth(fit.mapping.to_image(np.stack([gx.ravel(), gy.ravel()], axis=1)))
    w, h = size
    phantom = int((~((centres[:, 0] > 0) & (centres[:, 0] < w) & (centres[:, 1] > 0) & (centres[:, 1] < h))).sum())
    if sorted((fit.width, fit.height)) != sorted(size):
        return "misplaced", phantom
    seen = to_truth(fit.mapping.to_image(CORNERS * (fit.width, fit.height)))
    ideal = CORNERS * size
    error = min(np.abs(seen[[(k + d * i) % 4 for i in range(4)]] - ideal).max() for k in range(4) for d in (1, -1))
    return ("right" if error < 0.5 else "misplaced"), phantom


def _homography_to_truth(homography: np.ndarray):
    inverse = np.linalg.inv(homography)
    return lambda pts: cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), inverse).reshape(-1, 2)


def _real_to_truth(photo):
    """Photo pixels → the labelled grid's units, through its square centres (one homography)."""
    h, w = photo.grid[1], photo.grid[0]
    gx, gy = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    grid_pts = np.stack([gx, gy], axis=-1).reshape(-1, 2)
    to_grid, _ = cv2.findHomography(photo.centres.reshape(-1, 2), grid_pts)
    return lambda pts: cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), to_grid).reshape(-1, 2)


def cases(count: int, seed: int) -> list[tuple[str, np.ndarray, object]]:
    """(name, photo, to_truth): `count` synthetic photos of each layout, then the real sudokus."""
    from vision.labelled import labelled_photos
    from vision.synth_sudoku import LAYOUTS, photograph_sudoku

    rows = []
    for layout in LAYOUTS:
        for k in range(count):
            photo = photograph_sudoku(np.random.default_rng([seed, LAYOUTS.index(layout), k]), layout)
            rows.append((f"{layout} #{k}", photo.image, _homography_to_truth(photo.homography)))  # type: ignore[arg-type]
    for real in labelled_photos():
        if "sudoku" in real.name:
            rows.append((real.name, real.image(), _real_to_truth(real)))
    return rows


def measure(count: int, seed: int, *, scan: bool):
    """One row per photo, as each is measured: the finder with the size and without (outcome, phantom
    squares, ms), and the scan's ms."""
    from calibration.grid_finder import find_verified_grid
    from vision import scan as vision_scan

    for name, image, to_truth in cases(count, seed):
        row: dict = {"photo": name}
        for label, grid in (("given", (9, 9)), ("free", None)):
            (fit, _), wall, cpu = _timed(lambda: find_verified_grid(image, grid))
            row[label] = (*judge(fit, to_truth), wall, cpu)
        if scan:
            result, wall, cpu = _timed(lambda: vision_scan(image, grid=(9, 9)))
            row["scan"] = (result.found, wall, cpu)
        yield row


def print_rows(measured) -> None:
    """Each row as it is measured, then the totals."""
    print(f"  {'photo':30s} {'size given':28s} {'size unknown':28s} scan 9x9")
    rows = []
    for row in measured:
        rows.append(row)
        cells = []
        for label in ("given", "free"):
            outcome, phantom, wall, cpu = row[label]
            cells.append(f"{outcome:9s} {phantom:3d} ph {wall:6.0f}/{cpu:5.0f} ms")
        scan = ""
        if "scan" in row:
            found, wall, cpu = row["scan"]
            scan = f"{'found' if found else 'none':5s} {wall:6.0f}/{cpu:5.0f} ms"
        print(f"  {row['photo']:30s} {cells[0]:28s} {cells[1]:28s} {scan}", flush=True)
    for label, title in (("given", "size 9x9 given"), ("free", "size unknown")):
        outcomes = [r[label][0] for r in rows]
        cpu = [r[label][3] for r in rows]
        third = [r[label][3] for r in rows if r["photo"].startswith("third")]
        print(f"  {title}: right {outcomes.count('right')}, misplaced {outcomes.count('misplaced')}, "
              f"none {outcomes.count('none')} of {len(rows)}; squares that do not exist "
              f"{sum(r[label][1] for r in rows)}; CPU median {statistics.median(cpu):.0f} ms, "
              f"max {max(cpu):.0f} ms" + (f" (busy page: max {max(third):.0f} ms)" if third else ""))
    if rows and "scan" in rows[0]:
        cpu = [r["scan"][2] for r in rows]
        print(f"  vision.scan(grid=(9, 9)): found {sum(r['scan'][0] for r in rows)} of {len(rows)}; CPU median "
              f"{statistics.median(cpu):.0f} ms, max {max(cpu):.0f} ms")


def _baseline_ms() -> float:
    """A `cvtColor` of a 1920×1080 photo, CPU ms (median of 20): the machine's speed in this run."""
    image = np.random.default_rng(0).integers(0, 256, (1080, 1920, 3), np.uint8)
    return statistics.median(_timed(lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))[2] for _ in range(20))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench sudoku", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6, help="synthetic photos of each layout")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--no-scan", action="store_true", help="skip vision.scan (the finder alone)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print(machine_summary())
    print(f"baseline: cvtColor 1080p {_baseline_ms():.2f} ms CPU")
    print(f"\nnewspaper sudokus (issue 28; {args.count} synthetic photos of each layout, seed {args.seed}, "
          f"and the real sudokus); outcome, squares that do not exist, wall/CPU ms:")
    print_rows(measure(args.count, args.seed, scan=not args.no_scan))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
