"""`tactical bench grids-public`: real photos of grids from public repositories, found and placed (issue 28).

The positive set of issue 28 (tests/fixtures/grids-public: calibration chessboards, newspaper sudoku
photos and chess sets' boards with a game's pieces, `labels.json`, sources and licences in its README;
`dev` is tuned on, `held_out` comes from other cameras and is only ever measured). Every photo is scanned as the app would
(`vision.scan`), with the labelled size given and with the size unknown, and scored by the rules of
the labelled sets (`vision.labelled.score_scan`):
- with the size given: **placed right** = the right size and each outer corner within half a square
  of the label (up to the grid's symmetries), goal ≥ 97 %; **misplaced** = a board returned that is
  not placed right, goal 0; **phantom** = a confident square where the label has none, goal 0;
- with the size unknown: **wrong** = a board returned that is not placed right or has a phantom
  square, goal 0 (no board at all is allowed).
Then the speed goal: scan ÷ `findChessboardCornersSB` on every real chessboard photo (the shared
labelled sets' and this set's), CPU medians of interleaved runs in one process, median ≤ 1×,
worst ≤ 1.2×; each photo over 1.2× is then split into the scan's stages (`stage_ms`), to show where its time goes.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.bench.common import machine_summary, missing_photos_message, public_photo_folder
from companion.bench.vision import interleaved_cpu_ms

GRIDS_PUBLIC = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "grids-public"
SPLITS = ("dev", "held_out")
PLACED_GOAL = 0.97
SPEED_MEDIAN_GOAL, SPEED_WORST_GOAL = 1.0, 1.2


def public_labels(folder: Path = GRIDS_PUBLIC) -> list[dict]:
    """The entries of the set's labels.json, as written (README.md says what each field means)."""
    return json.loads((folder / "labels.json").read_text(encoding="utf-8"))


def public_photos(split: str | None = None, folder: Path = GRIDS_PUBLIC) -> list:
    """The set's photos as `vision.labelled.LabelledPhoto`s (scored like the other labelled sets),
    each with its split, optionally of one split only. The labels are in `folder`; the photos on this
    machine's `public_photo_folder("grids-public")` (they are not committed)."""
    photo_folder = public_photo_folder("grids-public")
    from vision.labelled import LabelledPhoto

    photos = []
    for entry in public_labels(folder):
        if entry["split"] not in SPLITS:
            raise ValueError(f"{folder / 'labels.json'}: {entry['file']}: split must be one of {SPLITS}")
        if split is not None and entry["split"] != split:
            continue
        w, h = entry["grid"]
        photos.append(LabelledPhoto(entry["file"], photo_folder / entry["file"], f"grids-public/{entry['split']}", (w, h),
                                    [np.asarray(c, float) for c in entry["outer_corners_px"]],
                                    np.asarray(entry["square_centres_px"], float),
                                    np.asarray(entry["square_size_px"], float), np.array(entry["colours"]),
                                    np.asarray(entry["square_visible"], bool)))
    return photos


def is_chessboard(photo) -> bool:
    """A chequered board whose every square is labelled and clear: one `findChessboardCornersSB` can be run on.
    A chess set's squares are labelled `M` (not scored: a game's pieces stand on about half of them), so it is
    not one: SB finds no pattern under the pieces, and a ratio to its time to fail would measure nothing."""
    colours = set(np.asarray(photo.colours).ravel())
    return "B" in colours and "M" not in colours


def scan_photo(photo) -> dict:
    """One photo scanned with the size given and without, each scored against its label."""
    from vision import scan
    from vision.labelled import score_scan

    image = photo.image()
    given, free = scan(image, grid=photo.grid), scan(image)
    return {"photo": photo, "given": score_scan(given, photo, image.shape),
            "free": score_scan(free, photo, image.shape), "free_size": (free.width, free.height)}


def wrong_board(score) -> bool:
    """A board returned that is not the labelled one placed right, or that shows a square that does not exist."""
    return score.found and (not (score.right_size and score.placed) or score.phantom > 0)


def print_split(split: str, rows: list[dict], *, verbose: bool) -> None:
    n = len(rows)
    placed = sum(r["given"].placed for r in rows)
    found = sum(r["given"].found for r in rows)
    misplaced = sum(r["given"].found and not r["given"].placed for r in rows)
    phantom_given = sum(r["given"].phantom for r in rows)
    free_found = sum(r["free"].found for r in rows)
    free_wrong = sum(wrong_board(r["free"]) for r in rows)
    phantom_free = sum(r["free"].phantom for r in rows)
    print(f"\n{split}: {n} photos ({', '.join(f'{k} {v}' for k, v in _kinds(rows).items())})")
    print(f"  size given:   found {found}, placed right {placed}/{n} ({100 * placed / max(n, 1):.1f} %, goal ≥ "
          f"{100 * PLACED_GOAL:.0f} %), misplaced {misplaced} (goal 0), phantom squares {phantom_given} (goal 0)")
    print(f"  size unknown: boards returned {free_found}, right {free_found - free_wrong}, wrong {free_wrong} (goal 0), "
          f"phantom squares {phantom_free}")
    for r in rows:
        g, f = r["given"], r["free"]
        if verbose or not g.placed or g.phantom or wrong_board(f):
            given = (f"placed ({g.corner_error:.2f} sq)" if g.placed else
                     "not found" if not g.found else f"MISPLACED ({g.corner_error:.2f} sq)")
            free = "none" if not f.found else f"{r['free_size'][0]}x{r['free_size'][1]}" + (
                " WRONG" if wrong_board(f) else " right")
            print(f"    {r['photo'].name:44s} given: {given:24s} phantom {g.phantom:3d}   unknown: {free}")


KIND_NAMES = {"chessboard": "calibration chessboard", "sudoku": "sudoku", "chess-set": "chess set's board"}


def _kinds(rows: list[dict]) -> dict[str, int]:
    """How many photos of each kind the rows hold, by their labels' `kind`."""
    kind_of = {entry["file"]: entry["kind"] for entry in public_labels()}
    kinds: dict[str, int] = {}
    for r in rows:
        kind = KIND_NAMES[kind_of[r["photo"].name]]
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def chessboard_cases(split: str | None) -> list:
    """Every real chessboard photo: the shared labelled sets' (tests/fixtures/real_photos*) and this set's."""
    from vision.labelled import labelled_photos

    shared = [p for p in labelled_photos() if is_chessboard(p)]
    return shared + [p for p in public_photos(split) if is_chessboard(p)]


def speed_rows(photos: list, repeat: int) -> list[tuple[str, str, tuple[int, int], float, float]]:
    """(photo, its set, its pixel size, findChessboardCornersSB CPU ms, scan CPU ms): medians of `repeat`
    interleaved runs (`companion.bench.vision.interleaved_cpu_ms`: the two under the same load)."""
    from vision import scan

    rows = []
    for photo in photos:
        image = photo.image()
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        w, h = photo.grid
        sb, ours = interleaved_cpu_ms([lambda: cv2.findChessboardCornersSB(gray, (w - 1, h - 1)),
                                        lambda: scan(image, grid=(w, h))], repeat)
        rows.append((photo.name, photo.set, (image.shape[1], image.shape[0]), sb, ours))
    return rows


def stage_ms(photo, repeat: int) -> tuple[float, float, float, float]:
    """Where a photo's scan time goes: CPU medians of SB, the finding (the finder's search, stages 1–4 and 6),
    the finding and its verification (stage 5), and the whole scan, interleaved as the ratio is. What the scan
    adds to the third is our markers looked for first and the squares and tokens read: a floor a scan pays
    however fast its finding is, which decides the ratio on the smallest photos, where SB takes ~10 ms."""
    from calibration.config import DEFAULT_CONFIG
    from calibration.grid_finder import find_verified_grid
    from calibration.grid_finder.find import unverified_grid
    from vision import scan

    image = photo.image()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    (w, h), cfg = photo.grid, DEFAULT_CONFIG.grid_finder()
    sb, finding, verified, ours = interleaved_cpu_ms([
        lambda: cv2.findChessboardCornersSB(gray, (w - 1, h - 1)), lambda: unverified_grid(image, (w, h), cfg),
        lambda: find_verified_grid(image, (w, h), config=cfg), lambda: scan(image, grid=(w, h))], repeat)
    return sb, finding, verified, ours


def print_speed(rows: list, repeat: int, *, verbose: bool, photos: list | None = None) -> None:
    ratios = [ours / sb for *_, sb, ours in rows]
    sizes = sorted({size for _, _, size, _, _ in rows}, key=lambda s: s[0] * s[1])
    print(f"\nspeed: scan ÷ findChessboardCornersSB on {len(rows)} real chessboard photos "
          f"({sizes[0][0]}×{sizes[0][1]} to {sizes[-1][0]}×{sizes[-1][1]}), CPU medians of {repeat} interleaved runs, "
          f"one OpenCV thread")
    worst = max(range(len(rows)), key=lambda k: ratios[k])
    print(f"  all: median {statistics.median(ratios):.2f}× (goal ≤ {SPEED_MEDIAN_GOAL:g}×), worst {ratios[worst]:.2f}× "
          f"on {rows[worst][0]} (goal ≤ {SPEED_WORST_GOAL:g}×); SB median {statistics.median(r[3] for r in rows):.1f} ms, "
          f"scan median {statistics.median(r[4] for r in rows):.1f} ms")
    for group in dict.fromkeys(r[1] for r in rows):
        mine = [ratio for r, ratio in zip(rows, ratios) if r[1] == group]
        print(f"  {group}: {len(mine)} photos, median {statistics.median(mine):.2f}×, worst {max(mine):.2f}×")
    for (name, _, (w, h), sb, ours), ratio in sorted(zip(rows, ratios), key=lambda t: -t[1]):
        if verbose or ratio > SPEED_WORST_GOAL:
            print(f"    {name:44s} {w}×{h}  SB {sb:7.1f} ms  scan {ours:7.1f} ms  {ratio:5.2f}×")
    over_goal = {row[0] for row, ratio in zip(rows, ratios) if ratio > SPEED_WORST_GOAL}
    slow = [photo for photo in photos or () if photo.name in over_goal]
    if slow:
        print("  where the time of those over the goal goes (CPU medians, interleaved again): the finding, "
              "+ its verification, + our markers and the reading")
        for photo in slow:
            sb, finding, verified, ours = stage_ms(photo, repeat)
            print(f"    {photo.name:44s} SB {sb:6.1f} ms  finding {finding:6.1f} ms ({finding / sb:4.2f}×)  "
                  f"+ verification {verified - finding:5.1f}  + markers, reading {ours - verified:5.1f}  = {ours:6.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench grids-public", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs per photo for the speed ratio")
    parser.add_argument("--no-speed", action="store_true", help="accuracy only")
    parser.add_argument("--list", action="store_true", help="print every photo, not only the misses")
    args = parser.parse_args(argv)
    missing = missing_photos_message("tactical bench grids-public", (p.path for p in public_photos()),
                                     GRIDS_PUBLIC / "labels.json")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    print(f"grids-public bench — {machine_summary()}, OpenCV {cv2.__version__}, one OpenCV thread; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    splits = SPLITS if args.split == "all" else (args.split,)
    for split in splits:
        print_split(split, [scan_photo(p) for p in public_photos(split)], verbose=args.list)
    if not args.no_speed:
        photos = chessboard_cases(None if args.split == "all" else args.split)
        print_speed(speed_rows(photos, args.repeat), args.repeat, verbose=args.list, photos=photos)
    print(f"\n(bench ran {time.perf_counter() - started:.0f} s; load average at the end {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
