"""`tactical bench vision`: board finding and square reading on synthetic and real photos, and speed.

Goals (issue 5): our printed boards, tilt ≤ 45°: found ≥ 99.5 %, squares wrong AND
not flagged ≤ 0.05 %, flagged uncertain ≤ 1 %; foreign-style boards and real
photos with the grid size given: wrong and not flagged ≤ 0.25 %; no board:
found false ≥ 99 %. Speed at 1080p on one core: full scan ≤ 150 ms median,
re-checking a still camera's registration ≤ 10 ms. Figures are medians of
several runs, printed with the machine and a baseline measured in the same run.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from boards import library_boards, load_board
from companion.bench.common import machine_summary, median_ms, print_table, tokens_on_walkable, wall_and_cpu_ms

REAL_PHOTOS = Path("/work/shared/real-photos")
REAL_LABELS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "real_photos.yaml"


def _rate(part: int, whole: int) -> str:
    return f"{100 * part / whole:.3f} %" if whole else "n/a"


# totals key -> ScanScore attribute
SCORE_FIELDS = {"found": "found", "squares": "squares", "wrong_unflagged": "wrong_unflagged",
                "flagged": "flagged", "needless": "flagged_needlessly", "hidden_covered": "hidden_covered"}


def _add_score(totals: dict, score) -> None:
    """Add one photo's score to the totals (only the keys this set counts)."""
    totals["photos"] += 1
    for key, attribute in SCORE_FIELDS.items():
        if key in totals:
            totals[key] += getattr(score, attribute)


def accuracy_ours(count: int, seed: int, *, with_file: bool) -> dict:
    """Our printed library boards, random poses, light, hands and a few tokens; scanned
    with the board file (disagreements are then flagged, MT 2.02.e) or with the size only."""
    from vision import scan
    from vision.printed import render_printed
    from vision.synth import compare, photograph

    boards = [load_board(p) for name, p in library_boards().items() if "40x25" not in name]
    printed = {b.name: render_printed(b, 48) for b in boards}
    from vision.scanner import square_sides_px

    rng = np.random.default_rng(seed)
    fields = ("photos", "found", "squares", "wrong_unflagged", "flagged", "needless", "hidden_covered")
    totals = dict.fromkeys(fields, 0)
    by_size = {band: dict.fromkeys(fields, 0) for band in SIZE_BANDS}
    for i in range(count):
        board = boards[i % len(boards)]
        photo = photograph(printed[board.name], board=board, rng=rng, tokens=tokens_on_walkable(board, rng, 3))
        given = {"board": board} if with_file else {"grid": (board.width, board.height)}
        score = compare(scan(photo.image, **given), photo)
        _add_score(totals, score)
        side = float(np.median(square_sides_px(photo.homography, board.width, board.height)))
        _add_score(by_size[next(band for band in SIZE_BANDS if band[0] <= side < band[1])], score)
    totals["by_size"] = by_size
    return totals


# the photo's median square side (px): reading needs about 30 px (README's camera advice)
SIZE_BANDS = ((0.0, 20.0), (20.0, 30.0), (30.0, float("inf")))


def _by_size_line(by_size: dict) -> str:
    """Wrong-and-not-flagged / flagged per band of square size in the photo."""
    parts = []
    for (low, high), part in by_size.items():
        if not part["photos"]:
            continue
        name = f"< {high:.0f} px" if low == 0 else (f"≥ {low:.0f} px" if high == float("inf") else
                                                    f"{low:.0f}–{high:.0f} px")
        doubted = part["flagged"] - part["hidden_covered"]
        parts.append(f"{name}: {_rate(part['wrong_unflagged'], part['squares'])} / {_rate(doubted, part['squares'])} "
                     f"({part['photos']} photos)")
    return "  by median square side, wrong / flagged: " + "; ".join(parts)


def accuracy_foreign(count: int, seed: int) -> dict:
    """Other makers' boards (no markers), the grid size given."""
    from vision import scan
    from vision.synth import compare, photograph_foreign

    boards = [load_board(p) for name, p in library_boards().items() if "40x25" not in name]
    rng = np.random.default_rng(seed)
    totals = {"photos": 0, "found": 0, "squares": 0, "wrong_unflagged": 0, "flagged": 0}
    for i in range(count):
        board = boards[i % len(boards)]
        photo = photograph_foreign(board, rng=rng)
        score = compare(scan(photo.image, grid=(board.width, board.height)), photo, any_side=True)
        _add_score(totals, score)
    return totals


def no_board(count: int, seed: int) -> dict:
    from vision import scan
    from vision.synth import photograph_no_board

    rng = np.random.default_rng(seed)
    found = sum(scan(photograph_no_board(rng=rng).image).found for _ in range(count))
    return {"photos": count, "found_false": count - found}


def real_photos() -> list[tuple[str, int, int, int]]:
    """(file, squares read, wrong and not flagged, flagged) on the labelled real photos, size given."""
    import yaml

    from vision import scan

    if not REAL_LABELS.exists() or not REAL_PHOTOS.exists():
        return []
    rows = []
    for entry in yaml.safe_load(REAL_LABELS.read_text(encoding="utf-8"))["photos"]:
        image = cv2.imread(str(REAL_PHOTOS / entry["file"]))
        result = scan(image, grid=tuple(entry["grid"]))
        if not result.found:
            rows.append((entry["file"], 0, 0, 0))
            continue
        truth = entry["colours"]
        wrong = flagged = 0
        for s in result.squares:
            f = s.uncertain or s.covered
            flagged += f
            wrong += (not f) and s.colours != truth[s.y][s.x]
        rows.append((entry["file"], len(result.squares), wrong, flagged))
    return rows


def speed(repeat: int) -> list[tuple[str, float, str]]:
    """Median timings on one core: baseline, full scans at 1080p and 4K, the fast path."""
    from calibration.registration import RegistrationTracker, register_board
    from vision import scan
    from vision.printed import render_printed
    from vision.synth import photograph

    cv2.setNumThreads(1)
    rows = []
    cases = [("duel-20x12", (1920, 1080), "20×12 at 1080p", "goal ≤ 150 ms"),
             ("quatuor-40x25", (3840, 2160), "40×25 at 4K", "report")]
    for name, frame, label, scan_goal in cases:
        path = library_boards().get(name)
        if path is None:
            continue
        board = load_board(path)
        pose = dict(board=board, seed=7, frame=frame, hand=0.0, max_tilt_deg=20, fill=(0.8, 0.8))
        sheet = render_printed(board, 64)
        photo = photograph(sheet, **pose)
        gray_ms = median_ms(lambda: cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY), repeat=repeat)
        rows.append((f"baseline: BGR->gray, {label}", gray_ms, "(machine speed reference)"))
        stages = []
        rows.append((f"full scan, empty board, {label}", median_ms(lambda: stages.append(scan(photo.image, board=board)),
                                                                   repeat=repeat), scan_goal))
        register = statistics.median(r.stage_ms["register"] for r in stages)
        rows.append((f"  of which registration (markers)", register, ""))
        rows.append((f"  of which reading + tokens", statistics.median(r.stage_ms["read"] for r in stages), ""))
        # A board in play: a token or so per column, each read by the token reader.
        in_play = photograph(sheet, **pose, tokens=tokens_on_walkable(board, np.random.default_rng(7), board.width // 2 + 2))
        rows.append((f"full scan, {len(in_play.tokens)} tokens on the board, {label}",
                     median_ms(lambda: scan(in_play.image, board=board), repeat=repeat), scan_goal))
        registration = register_board(photo.image, board.width, board.height)
        if registration is not None:
            tracker = RegistrationTracker(registration)
            rows.append((f"still-camera re-check, {label}", median_ms(lambda: tracker.still_valid(photo.image),
                                                                     repeat=repeat), "goal ≤ 10 ms at 1080p"))
        calibrated = median_ms(lambda: scan(photo.image, board=board, homography=registration.homography),
                               repeat=repeat) if registration is not None else float("nan")
        rows.append((f"scan with calibrated homography, {label}", calibrated, ""))
    from vision.synth import photograph as shoot  # the photographer's own speed, for benchmark planning
    board = load_board(library_boards()["duel-20x12"])
    printed = render_printed(board, 48)
    rng = np.random.default_rng(1)
    rows.append(("synthetic photo, 1080p", median_ms(lambda: shoot(printed, board=board, rng=rng), repeat=repeat),
                 "≈ 100 ms wanted"))
    return rows


def grid_finder_speed(repeat: int) -> list[tuple[str, float, str]]:
    """CPU medians of the markerless finder (`find_grid`) on synthetic 1080p grids, one core,
    with a BGR→gray baseline of the same run: CPU time, because its figures were compared
    across runs on a shared machine."""
    from calibration.grid_finder import find_grid
    from calibration.grid_synth import synthetic_grid_photo

    size = (1920, 1080)
    chequer = synthetic_grid_photo(np.random.default_rng(1), (8, 8), size=size, style="chequer").image
    coloured = synthetic_grid_photo(np.random.default_rng(2), (20, 12), size=size, style="coloured").image
    table = synthetic_grid_photo(np.random.default_rng(3), None, size=size).image
    cases = [("baseline: BGR->gray, 1080p", lambda: cv2.cvtColor(chequer, cv2.COLOR_BGR2GRAY), ""),
             ("markerless: 8×8 chequer, size given", lambda: find_grid(chequer, (8, 8)), "≈ 100 ms wanted"),
             ("markerless: 20×12 coloured, size unknown", lambda: find_grid(coloured), "≈ 100 ms wanted"),
             ("markerless: no grid (grained table)", lambda: find_grid(table), "")]
    return [(what, statistics.median(wall_and_cpu_ms(fn, repeat)[1]), goal) for what, fn, goal in cases]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench vision", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a fast run: 20 photos per set, 3 timing runs")
    parser.add_argument("--photos", type=int, default=200, help="synthetic photos of our boards (default 200)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--held-out-seed", type=int, default=77,
                        help="a second set of our boards, read with the grid size only: photos the rules were not "
                             "designed on (default 77)")
    parser.add_argument("--held-out-photos", type=int, default=600,
                        help="photos in the held-out set (default 600; errors come in bursts, a few photos each, "
                             "so a rate under 0.05 %% needs many photos to be told apart from one above it)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    count = 20 if args.quick else args.photos
    repeat = 3 if args.quick else 7
    print(f"vision bench — {machine_summary()}, OpenCV {cv2.__version__}, one OpenCV thread")
    started = time.perf_counter()

    held_out = 20 if args.quick else args.held_out_photos
    for with_file, seed, photos in ((True, args.seed, count), (False, args.seed, count),
                                    (False, args.held_out_seed, held_out)):
        ours = accuracy_ours(photos, seed, with_file=with_file)
        how = "with the board file" if with_file else "grid size only, no board file"
        how += "" if seed == args.seed else f", held-out set (seed {seed})"
        print(f"\nour printed boards, {how} ({ours['photos']} photos, tilt ≤ 45°, hands, tokens, casts):")
        print(f"  board found           {_rate(ours['found'], ours['photos'])}   goal ≥ 99.5 %")
        print(f"  wrong and not flagged {_rate(ours['wrong_unflagged'], ours['squares'])}   goal ≤ 0.05 %")
        doubted = ours["flagged"] - ours["hidden_covered"]
        print(f"  flagged uncertain     {_rate(doubted, ours['squares'])}   goal ≤ 1 %   (uncertain, or covered "
              f"although not hidden; of which visible and read right {_rate(ours['needless'], ours['squares'])})")
        hidden = _rate(ours["hidden_covered"], ours["squares"])
        print(f"  covered and truly hidden (token or hand: not a doubt) {hidden}")
        print(_by_size_line(ours["by_size"]))
    foreign = accuracy_foreign(max(5, count // 4), args.seed + 1)
    print(f"\nforeign-style boards, grid size given ({foreign['photos']} photos):")
    print(f"  board found           {_rate(foreign['found'], foreign['photos'])}")
    print(f"  wrong and not flagged {_rate(foreign['wrong_unflagged'], foreign['squares'])}   goal ≤ 0.25 %")
    print(f"  flagged               {_rate(foreign['flagged'], foreign['squares'])}")
    empty = no_board(max(5, count // 4), args.seed + 2)
    print(f"\nno board ({empty['photos']} photos): found false {_rate(empty['found_false'], empty['photos'])}"
          "   goal ≥ 99 %")
    real = real_photos()
    if real:
        print("\nreal photos, grid size given (W/B squares):")
        for name, squares, wrong, flagged in real:
            print(f"  {name:28s} {squares:3d} squares read, {wrong} wrong and not flagged, {flagged} flagged")
    print_table("speed (median ms, one core)", speed(repeat))
    print_table("markerless grid finding (median CPU ms, one core)", grid_finder_speed(repeat))
    print("\ntokens: see `tactical bench tokens` (token reading, streams, per-frame update)")
    print(f"\n(bench ran {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
