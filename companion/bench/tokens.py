"""Token benchmark: reading rates on seeded synthetic photos, stream recovery after hands, speed.

Goals (issue 6): single photos (our tokens on our boards, tilt ≤ 45°, 20×12 at 1080p and 40×25 at
4K) precision and recall ≥ 99.5 % (right player, number and square); streams: ≥ 99.9 % of frames
report the true positions from the 5th frame after a hand leaves; per-frame update of a calibrated
still camera (registration check + token reading) ≤ 33 ms median at 1080p on one core.

Run: `tactical bench vision` (via companion.bench.vision) or `python -m companion.bench.tokens
[--quick]`. Figures are medians of several runs, printed with the machine; the baseline (reading
every frame from scratch) is measured in the same run.
"""
from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from companion.bench.common import machine_summary


def _photo_rates(width: int, height: int, size: tuple[int, int], photos: int, tokens: int
                 ) -> tuple[int, int, int, list[float]]:
    from vision.tokens import detect_tokens
    from vision.video import make_photo, random_board, random_tokens

    tp = fp = fn = 0
    times = []
    for seed in range(photos):
        rng = np.random.default_rng(5000 + seed)
        board = random_board(width, height, rng)
        placed = random_tokens(board, tokens, rng)
        camera, frame = make_photo(board, placed, size=size, seed=seed, max_tilt_deg=45.0)
        t0 = time.perf_counter()
        got = {(o.player, o.number, o.x, o.y) for o in detect_tokens(frame.image, camera.homography, width, height)}
        times.append((time.perf_counter() - t0) * 1000)
        truth = {(t.player, t.number, *t.square) for t in placed}
        tp, fp, fn = tp + len(got & truth), fp + len(got - truth), fn + len(truth - got)
    return tp, fp, fn, times


def _streams(videos: int, frames: int, size: tuple[int, int]) -> dict:
    from calibration.registration import RegistrationTracker, register_board
    from vision.tokens import detect_tokens
    from vision.tracking import StillCameraReader, TokenTracker
    from vision.video import make_video, random_board

    checked = right = 0
    update_ms, baseline_ms, check_ms = [], [], []
    for v in range(videos):
        rng = np.random.default_rng(7000 + v)
        board = random_board(20, 12, rng)
        camera, shots = make_video(board, size=size, frames=frames, tokens=10, moves=max(1, frames // 30),
                                   seed=7000 + v, max_tilt_deg=45.0)
        registration = register_board(shots[0].image, board.width, board.height)
        homography = registration.homography if registration else camera.homography
        check = RegistrationTracker(registration) if registration else None
        reader = StillCameraReader(homography, board.width, board.height)
        tracker = TokenTracker()
        last_hand = -100
        for i, shot in enumerate(shots):
            t0 = time.perf_counter()
            if check is not None:
                check.still_valid(shot.image)
            t1 = time.perf_counter()
            reading = reader.read(shot.image)
            tracker.update(reading.observations, reading.covered)
            t2 = time.perf_counter()
            if i > 0:   # the first frame is the full read that starts the stream
                update_ms.append((t2 - t0) * 1000)
                check_ms.append((t1 - t0) * 1000)
            if i % 5 == 0:
                t3 = time.perf_counter()
                detect_tokens(shot.image, homography, board.width, board.height)
                baseline_ms.append((time.perf_counter() - t3) * 1000)
            if shot.hands:
                last_hand = i
            if i >= tracker.confirm_frames and i - last_hand >= 5:
                checked += 1
                right += tracker.positions == {(t.player, t.number): t.square for t in shot.tokens}
    return {"checked": checked, "right": right, "update": update_ms, "check": check_ms, "baseline": baseline_ms}


def _fmt(values: list[float]) -> str:
    return f"median {statistics.median(values):7.1f} ms  (p90 {np.percentile(values, 90):7.1f}, n={len(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench tokens", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer photos and frames (a smoke run)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    hd_photos, k4_photos, videos, frames = (3, 1, 1, 30) if args.quick else (16, 4, 5, 90)
    print("Token bench (vision.tokens / vision.tracking) — one OpenCV thread")
    print(f"machine: {machine_summary()}; OpenCV {cv2.__version__}")

    print("\nSingle photos, tilt ≤ 45°, light, colour cast, blur, noise; 25 tokens each (goal ≥ 99.5 %)")
    for label, (w, h, size, n) in {"20×12 at 1080p": (20, 12, (1920, 1080), hd_photos),
                                   "40×25 at 4K": (40, 25, (3840, 2160), k4_photos)}.items():
        tp, fp, fn, times = _photo_rates(w, h, size, n, 25)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        print(f"  {label}: {n} photos, {tp + fn} tokens: precision {precision:.2%}, recall {recall:.2%};"
              f" full read {_fmt(times)}")

    print(f"\nStreams: {videos} videos × {frames} frames at 1080p, hands moving tokens (goal ≥ 99.9 %)")
    stream = _streams(videos, frames, (1920, 1080))
    share = stream["right"] / stream["checked"] if stream["checked"] else 0.0
    print(f"  frames ≥ 5 after a hand left with all true positions: {stream['right']}/{stream['checked']}"
          f" = {share:.2%}")
    print("\nPer-frame update of a calibrated still camera at 1080p (goal ≤ 33 ms median)")
    print(f"  registration check + token reading: {_fmt(stream['update'])}")
    print(f"    of which registration check:    {_fmt(stream['check'])}")
    print(f"  baseline, reading every frame:      {_fmt(stream['baseline'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
