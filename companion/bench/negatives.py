"""`tactical bench negatives`: boards found on real photos without any grid (issue 28; goal 0).

Every photo of the negative set (tests/fixtures/negatives, manifest.yaml: facades, brick, text
pages, shop signs, shelves, landscapes; `dev` is tuned on, `held_out` only ever measured, `blind` from
ten later sources measured once before any change and only measured since, `blind2` from eighteen more and
`blind3` from nineteen more, each measured once blind on 6 Dec 2026, `blind4` from ten more — tabletop scenes
that look like games, Catan, dice, mahjong, Monopoly — measured once blind on 7 Dec 2026, `blind5` from five more
— dark, night and noisy photos with real sensor noise — measured once blind on 7 Dec 2026; all only measured
since) is
scanned as the app would: with the size unknown, with each size an app may be told (9×9, 8×8,
10×7, 20×12), and with the bundled board file duel-20x12 (the app always passes its board). Any
scan that returns `found` is a board invented where there is none. Printed per split: scans,
boards found, photos that got a board from any scan, and the median time of each kind of scan.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import yaml

from boards import library_boards, load_board
from companion.bench.common import machine_summary, missing_photos_message, public_photo_folder

NEGATIVES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "negatives"
SPLITS = ("dev", "held_out", "blind", "blind2", "blind3", "blind4", "blind5")
SIZES = ((9, 9), (8, 8), (10, 7), (20, 12))
BOARD_FILE = "duel-20x12"


@dataclass(frozen=True)
class Negative:
    """One photo of the set: its split, file name (relative to the set's folder) and where it came from.
    Photos from Debian packages are committed beside the manifest; photos from other public
    repositories are not (this machine keeps them in `public_photo_folder("negatives")`)."""
    split: str
    file: str
    source_kind: str = "debian"

    @property
    def path(self) -> Path:
        folder = public_photo_folder("negatives") if self.source_kind == "github" else NEGATIVES
        return folder / self.file

    def image(self):
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"{self.path}: not a readable image (negative set, manifest.yaml)")
        return image


def negative_photos(split: str | None = None) -> list[Negative]:
    """The set's photos as the manifest lists them, optionally of one split only."""
    with open(NEGATIVES / "manifest.yaml", encoding="utf-8") as fh:
        manifest = yaml.safe_load(fh)
    photos = []
    for row, entry in enumerate(manifest["photos"], start=1):
        file = str(entry["file"])
        part = file.split("/", 1)[0]
        if part not in SPLITS:
            raise ValueError(f"{NEGATIVES / 'manifest.yaml'}: photo {row} ({file!r}): split must be one of {SPLITS}")
        if split is None or part == split:
            photos.append(Negative(part, file, str(entry["source"]["kind"])))
    return photos


def scan_kinds() -> list[tuple[str, dict]]:
    """(label, keyword arguments of `vision.scan`): the size unknown, each size, the board file."""
    board = load_board(library_boards()[BOARD_FILE])
    return [("size unknown", {}), *((f"{w}×{h} given", {"grid": (w, h)}) for w, h in SIZES),
            (f"board {BOARD_FILE}", {"board": board})]


def scan_all(photos: list[Negative], kinds: list[tuple[str, dict]]) -> list[dict]:
    """One row per (photo, kind of scan): found, the size found, the time (ms)."""
    from vision import scan

    rows = []
    for photo in photos:
        image = photo.image()
        for label, kwargs in kinds:
            started = time.perf_counter()
            result = scan(image, **kwargs)
            rows.append({"photo": photo, "kind": label, "found": bool(result.found),
                         "size": (result.width, result.height), "ms": (time.perf_counter() - started) * 1000,
                         "why": "" if result.found else getattr(result.error, "key", "")})
    return rows


def print_split(split: str, rows: list[dict], kinds: list[tuple[str, dict]], *, verbose: bool) -> None:
    photos = {r["photo"] for r in rows}
    found = [r for r in rows if r["found"]]
    print(f"\n{split}: {len(photos)} photos, {len(rows)} scans — boards found {len(found)} "
          f"(goal 0); photos with a board from any scan {len({r['photo'] for r in found})}")
    for label, _ in kinds:
        mine = [r for r in rows if r["kind"] == label]
        hits = sum(r["found"] for r in mine)
        print(f"  {label:22s} boards found {hits:4d} of {len(mine):4d}   median {statistics.median(r['ms'] for r in mine):7.1f} ms"
              f"   worst {max(r['ms'] for r in mine):7.1f} ms")
    failed = [r for r in rows if r["why"] == "finder_failed"]   # said "no board", but by an exception: a bug
    print(f"  finder errors {len(failed)} (goal 0)" + "".join(f"\n    error: {r['photo'].file}  {r['kind']}" for r in failed))
    if verbose:
        for r in found:
            print(f"    board: {r['photo'].file}  {r['kind']}  → {r['size'][0]}×{r['size'][1]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench negatives", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--limit", type=int, default=0, help="only the first N photos of each split (0: all)")
    parser.add_argument("--only", default="", help="only the photos whose file name contains this (e.g. urban100)")
    parser.add_argument("--list", action="store_true", help="print every board found (photo, scan, size)")
    args = parser.parse_args(argv)
    splits = SPLITS if args.split == "all" else (args.split,)   # only their photos are needed on this machine
    missing = missing_photos_message("tactical bench negatives",
                                     (p.path for split in splits for p in negative_photos(split)),
                                     NEGATIVES / "manifest.yaml")
    if missing:
        print(missing, file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    kinds = scan_kinds()
    print(f"negatives bench — {machine_summary()}, OpenCV {cv2.__version__}, one OpenCV thread; "
          f"load average at start {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    for split in splits:
        photos = [p for p in negative_photos(split) if args.only in p.file]
        photos = photos[:args.limit] if args.limit else photos
        rows = scan_all(photos, kinds)
        print_split(split, rows, kinds, verbose=args.list)
    print(f"\n(bench ran {time.perf_counter() - started:.0f} s; load average at the end {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
