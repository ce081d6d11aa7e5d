"""`tactical watch SOURCE --board FILE`: follow the tokens and print what happens, live.

SOURCE is a camera number (0, 1 ...), a video file, a folder of images (read in name order) or a
single image. The board is registered on the first frames with the printed markers, re-checked
every frame (a bumped camera is registered again), and token events are printed as they happen:
"[frame 12] rouge 7 : C3 → F3".
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
REGISTER_TRIES = 30   # frames tried before giving up on finding the board


class SourceError(Exception):
    """A SOURCE that cannot be opened or read, with what was tried."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="camera number, video file, folder of images or one image")
    parser.add_argument("--board", required=True, help="board file (YAML) of the board being watched")
    parser.add_argument("--max-frames", type=int, default=None, metavar="N", help="stop after N frames")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of the events")


def frames_from(source: str) -> Iterator:
    """BGR frames from a camera number, a video file, an image folder or one image."""
    import cv2

    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceError(f"{source}: folder holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        return _read_images(files)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        if not path.is_file():
            raise SourceError(f"{source}: no such image file")
        return _read_images([path])
    if source.isdigit():
        capture = cv2.VideoCapture(int(source))
        what = f"camera {source}"
    else:
        if not path.is_file():
            raise SourceError(f"{source}: no such file, folder or camera number")
        capture = cv2.VideoCapture(str(path))
        what = f"video {source}"
    if not capture.isOpened():
        raise SourceError(f"{what}: cannot be opened (not a video OpenCV can read, or camera busy)")
    return _read_capture(capture, what)


def _read_images(files: list[Path]) -> Iterator:
    import cv2

    for file in files:
        image = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{file}: not an image OpenCV can read")
        yield image


def _read_capture(capture, what: str) -> Iterator:
    try:
        ok, frame = capture.read()
        if not ok:
            raise SourceError(f"{what}: opened but gives no frames")
        while ok:
            yield frame
            ok, frame = capture.read()
    finally:
        capture.release()


def run(args: argparse.Namespace) -> int:
    from boards import load_board
    from boards.io import BoardFileError

    try:
        board = load_board(args.board)
    except BoardFileError as exc:
        print(f"tactical watch: {exc}", file=sys.stderr)
        return 2
    if args.max_frames is not None and args.max_frames < 1:
        print("tactical watch: --max-frames must be at least 1", file=sys.stderr)
        return 2
    try:
        return _watch(frames_from(args.source), board, args.max_frames, args.lang)
    except SourceError as exc:
        print(f"tactical watch: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def _watch(frames: Iterator, board, max_frames: int | None, lang: str) -> int:
    from calibration.registration import RegistrationTracker, register_board
    from vision.tokens import squares_too_small
    from vision.tracking import StillCameraReader, TokenTracker, too_small_advice

    say = {"fr": ("plateau trouvé (image {i}, {n} repères)", "la caméra a bougé : recalage (image {i})",
                  "plateau introuvable dans les {n} premières images : les repères imprimés sont-ils visibles ?"),
           "en": ("board found (frame {i}, {n} markers)", "camera moved: registering again (frame {i})",
                  "board not found in the first {n} frames: are the printed markers in view?")}[lang]
    tracker = TokenTracker()
    reader = check = None
    unregistered = 0
    for index, frame in enumerate(frames):
        if max_frames is not None and index >= max_frames:
            break
        if check is not None and not check.still_valid(frame):
            print(say[1].format(i=index), flush=True)
            reader = check = None
        if reader is None:
            registration = register_board(frame, board.width, board.height)
            if registration is None:
                unregistered += 1
                if unregistered == REGISTER_TRIES:
                    print(say[2].format(n=REGISTER_TRIES), file=sys.stderr)
                    return 1
                continue
            unregistered = 0
            print(say[0].format(i=index, n=registration.markers_used), flush=True)
            advice = too_small_advice(squares_too_small(registration.homography, board.width, board.height), lang)
            if advice:
                print(advice, flush=True)
            check = RegistrationTracker(registration)
            reader = StillCameraReader(registration.homography, board.width, board.height)
        reading = reader.read(frame)
        for event in tracker.update(reading.observations, reading.covered):
            print(f"[{'image' if lang == 'fr' else 'frame'} {index}] {event.text(lang)}", flush=True)
    if reader is None:
        print(say[2].format(n=min(REGISTER_TRIES, unregistered)), file=sys.stderr)
        return 1
    return 0
