"""`tactical bench memory`: peak memory of a scan of the largest photos the reader accepts.

A photo may have up to `calibration.imagefile.MAX_IMAGE_PIXELS` (120 Mpx), and such a file can be
small: a PNG of one drawing compresses to a few hundred KB, a WebP of it to a few KB. Decoded in
full and scanned, they took 1.1–1.2 GB; the reader decodes them reduced (calibration.imagefile),
goal: peak ≤ 400 MB. This bench writes three such photos of a grid drawn on paper (a PNG, a
progressive JPEG, a WebP, each about 110 Mpx) in a temporary folder and measures, for each, the
peak resident memory (`ru_maxrss`) of a fresh Python process that reads it as `tactical scan`
does (`calibration.sources.read_image`) and scans it (`vision.scan`, the size given) — next to the
same process that only imports them, the floor every scan pays.
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
figures = {}
if len(sys.argv) > 1:
    started = time.perf_counter()
    image = read_image(sys.argv[1])
    figures["decoded"] = list(image.shape[1::-1])
    result = scan(image, grid=(int(sys.argv[2]), int(sys.argv[3])))
    figures["found"] = bool(result.found)
    figures["seconds"] = time.perf_counter() - started
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
    """(label, file) of the three photos, written into `folder`."""
    width, height = SIZE
    png = folder / "drawing.png"
    write_png(png, width, height, GRID)
    rows, kind = drawing_rows(width, height, GRID)
    image = rows[kind]
    jpeg, webp = folder / "drawing-progressive.jpg", folder / "drawing.webp"
    cv2.imwrite(str(jpeg), image, [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    cv2.imwrite(str(webp), image, [cv2.IMWRITE_WEBP_QUALITY, 101])   # above 100: lossless
    del image
    return [("PNG", png), ("progressive JPEG", jpeg), ("WebP (lossless)", webp)]


def measure(*args: str) -> dict:
    """The child's figures, run in a fresh interpreter (its own peak, nothing inherited)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", OPENCV_LOG_LEVEL="SILENT")
    done = subprocess.run([sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, check=False)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]}
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
        print(f"  ({SIZE[0]} × {SIZE[1]} px = {SIZE[0] * SIZE[1] / 1e6:.1f} Mpx each, a {GRID[0]}×{GRID[1]} grid "
              f"drawn on paper; written in {time.perf_counter() - started:.0f} s)")
        for label, path in images:
            figures = measure(str(path), str(GRID[0]), str(GRID[1]))
            if "error" in figures:
                print(f"  {label:18s} {path.stat().st_size / 1024:9.0f} KB   failed: {figures['error']}")
                worst = float("inf")
                continue
            peak = figures["peak_kb"] / 1024
            worst = max(worst, peak)
            w, h = figures["decoded"]
            print(f"  {label:18s} {path.stat().st_size / 1024:9.0f} KB   decoded {w:5d} × {h:5d}   "
                  f"scan {'found' if figures['found'] else 'not found'} {figures['seconds']:5.1f} s   "
                  f"peak {peak:7.0f} MB")
    print(f"\n  worst peak {worst:.0f} MB (goal ≤ {GOAL_MB} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
