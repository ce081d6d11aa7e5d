"""`tactical bench memory`: peak memory of a scan of the largest photos the reader accepts.

A photo may have up to `calibration.imagefile.MAX_IMAGE_PIXELS` (120 Mpx), and such a file can be
small: a PNG of one drawing compresses to a few hundred KB, a WebP of it to a few KB. Decoded in
full and scanned, they took 0.7 to 1.1 GB; the reader decodes them reduced (calibration.imagefile),
goal: peak ≤ 400 MB for any photo it accepts. This bench writes photos of a grid drawn on paper in
a temporary folder — a PNG, a baseline and a progressive JPEG and a WebP of 110 Mpx (the formats
decoded whole are refused at that size), and the last two at the largest size accepted for them —
and measures, for each, the peak resident memory of a fresh Python process that reads it as
`tactical scan` does (`calibration.sources.read_image`) and scans it twice (`vision.scan`, the size
unknown, then given), next to the same process that only imports them (the floor of every scan).
The peak is the process's VmHWM (`ru_maxrss` where there is no /proc: on Linux it also counts the
peak of the parent that started the process).
"""
from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import cv2
import numpy as np

from calibration.imagefile import WHOLE_DECODE_PIXELS, image_size
from companion.bench.common import machine_summary

ROOT = Path(__file__).resolve().parents[2]
SIZE = (12_096, 9_072)   # 109.7 Mpx: a 108 MP phone photo's 4:3
GRID = (8, 8)            # the board drawn on it
GOAL_MB = 400

# The child process: import what a scan imports, optionally read and scan a photo, print the figures.
_CHILD = """
import json, resource, sys, time
import cv2
cv2.setNumThreads(1)
from calibration.sources import read_image
from vision import scan
from calibration.sources import SourceError
figures, image = {}, None
if len(sys.argv) > 1:
    started = time.perf_counter()
    try:
        image = read_image(sys.argv[1])
    except SourceError as exc:
        figures["refused"] = str(exc)
if image is not None:
    figures["decoded"] = list(image.shape[1::-1])
    # as `tactical scan` does without the size, then as the app does with its board's size
    found = [scan(image).found, scan(image, grid=(int(sys.argv[2]), int(sys.argv[3]))).found]
    figures["found"] = found
    figures["seconds"] = time.perf_counter() - started
try:   # this process's own peak (ru_maxrss also counts the peak of the parent that started it by vfork)
    with open("/proc/self/status") as status:
        figures["peak_kb"] = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
except (OSError, StopIteration):
    figures["peak_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(figures))
"""


def drawing_rows(width: int, height: int, grid: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo as three kinds of rows (BGR): paper, a row crossing the grid's vertical lines, a
    row along one of its horizontal lines; and, per row, which kind it is. The grid (black lines on
    light paper) fills 80 % of the short side, in the middle."""
    side = int(0.8 * min(width, height)) // max(grid) * max(grid)
    square, line = side // max(grid), max(4, side // 400)
    x0, y0 = (width - square * grid[0]) // 2, (height - square * grid[1]) // 2
    paper = np.full((width, 3), (214, 226, 232), np.uint8)
    crossing = paper.copy()
    for i in range(grid[0] + 1):
        crossing[x0 + i * square - line // 2:x0 + i * square + line - line // 2] = 20
    along = paper.copy()
    along[x0 - line // 2:x0 + grid[0] * square + line - line // 2] = 20
    kind = np.zeros(height, np.uint8)
    kind[y0:y0 + grid[1] * square] = 1
    for j in range(grid[1] + 1):
        kind[y0 + j * square - line // 2:y0 + j * square + line - line // 2] = 2
    return np.stack([paper, crossing, along]), kind


def write_png(path: Path, width: int, height: int, grid: tuple[int, int]) -> None:
    """The drawing as an 8-bit RGB PNG, written row by row (never whole in memory)."""
    rows, kind = drawing_rows(width, height, grid)
    raw = [b"\x00" + np.ascontiguousarray(r[:, ::-1]).tobytes() for r in rows]   # filter 0, RGB

    def chunk(name: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + name + body + struct.pack(">I", zlib.crc32(name + body))

    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(raw[k]) for k in kind) + packer.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def write_images(folder: Path) -> list[tuple[str, Path]]:
    """(label, file) of the photos, written into `folder`: each kind at SIZE, and the kinds decoded
    whole also at the largest size the reader accepts for them."""
    width, height = SIZE
    png = folder / "drawing.png"
    write_png(png, width, height, GRID)
    photos = [("PNG", png)]
    scale = (WHOLE_DECODE_PIXELS / (width * height)) ** 0.5
    for size in (SIZE, (int(width * scale), int(height * scale))):
        rows, kind = drawing_rows(*size, GRID)
        image = rows[kind]
        tag = f"{size[0] * size[1] / 1e6:.0f}mpx"
        if size == SIZE:
            jpeg = folder / f"drawing-{tag}.jpg"
            cv2.imwrite(str(jpeg), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            photos.append(("baseline JPEG", jpeg))
        progressive, webp = folder / f"drawing-progressive-{tag}.jpg", folder / f"drawing-{tag}.webp"
        cv2.imwrite(str(progressive), image, [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
        cv2.imwrite(str(webp), image, [cv2.IMWRITE_WEBP_QUALITY, 101])   # above 100: lossless
        photos += [("progressive JPEG", progressive), ("WebP (lossless)", webp)]
        del image
    return photos


def _found(found: list[bool]) -> str:
    return ", ".join(f"{kind} {'found' if hit else 'not found'}" for kind, hit in zip(("size unknown", "given"), found))


def measure(*args: str) -> dict:
    """The child's figures, run in a fresh interpreter (its own peak, nothing inherited)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", OPENCV_LOG_LEVEL="SILENT")
    done = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, check=False)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench memory", description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    print(f"memory bench — {machine_summary()}, OpenCV {cv2.__version__}, one OpenCV thread; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    floor = measure()
    print(f"\n  imports only (the floor of every scan)             peak {floor['peak_kb'] / 1024:7.0f} MB")
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="tactical-memory-") as folder:
        started = time.perf_counter()
        images = write_images(Path(folder))
        print(f"  (a {GRID[0]}×{GRID[1]} grid drawn on paper; written in {time.perf_counter() - started:.0f} s)")
        for label, path in images:
            width, height = image_size(path.read_bytes())
            what = (f"{label:17s} {width:5d} × {height:5d} ({width * height / 1e6:5.1f} Mpx) "
                    f"{path.stat().st_size / 1024:6.0f} KB")
            figures = measure(str(path), str(GRID[0]), str(GRID[1]))
            if "error" in figures:
                print(f"  {what}   failed: {figures['error']}")
                worst = float("inf")
                continue
            peak = figures["peak_kb"] / 1024
            worst = max(worst, peak)
            if "refused" in figures:
                print(f"  {what}   refused by the reader (decoded whole){' ' * 33}peak {peak:5.0f} MB")
                continue
            w, h = figures["decoded"]
            print(f"  {what}   read {w:5d} × {h:5d}, scans {_found(figures['found'])} "
                  f"{figures['seconds']:5.1f} s   peak {peak:5.0f} MB")
    print(f"\n  worst peak {worst:.0f} MB (goal ≤ {GOAL_MB} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
