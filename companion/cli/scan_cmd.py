"""`tactical scan IMAGE [--board FILE | --grid WxH] [--json] [--debug-image OUT.png]`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from boards import GridSize, parse_grid_size
from companion.cli.output import say


def grid_argument(text: str) -> GridSize:
    """'20x12' -> (20, 12) for argparse, refused when no board of that size can be read."""
    from vision.scanner import grid_size_problem

    try:
        width, height = parse_grid_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    too_large = grid_size_problem(width, height)
    if too_large is not None:
        raise argparse.ArgumentTypeError(f"'{text}': {too_large}")
    return width, height


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, help="photo of the board (PNG, JPEG, ...)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--board", type=Path, help="board file: fixes the size and reports mismatches")
    which.add_argument("--grid", type=grid_argument, help="grid size WxH for a board without a file (e.g. 8x8)")
    parser.add_argument("--json", action="store_true", help="print the scan JSON (architecture.md)")
    parser.add_argument("--debug-image", type=Path, metavar="OUT.png", help="write the photo with the scan drawn")
    parser.add_argument("--calibration", type=Path, metavar="DIR", help="use the colour profile saved there")
    parser.add_argument("--config", type=Path, metavar="FILE.yaml", help="vision thresholds (VisionConfig YAML)")


def summary(result) -> str:
    """A human-readable account of a scan."""
    from boards.model import square_label

    if not result.found:
        return f"no board found: {result.error}"
    doubtful = [square_label((s.x, s.y)) for s in result.squares if s.uncertain and not s.covered and s.visible]
    covered = [square_label((s.x, s.y)) for s in result.squares if s.covered]
    unseen = [square_label((s.x, s.y)) for s in result.squares if not s.visible]
    lines = [f"board {result.width}×{result.height} found ({result.method}), {len(result.squares)} squares read "
             f"in {result.timing_ms['total']:.0f} ms"]
    if result.mapping is not None and result.mapping.lens is not None:
        lens = result.mapping.lens
        lines.append(f"read through the lens the photo shows: k1 {lens.k1:+.3f}, k2 {lens.k2:+.3f} "
                     f"(OpenCV's radial model, focal {lens.focal:.0f} px)")
    rows = []
    for y in range(result.height):
        row = []
        for x in range(result.width):
            s = result.square(x, y)
            code = "?" if s.covered else "-" if not s.visible else (s.colours or ".") + \
                ("#" if s.obstacle and s.colours else "") + ("@" if s.start else "") + ("*" if s.temple else "")
            row.append(code + ("?" if s.uncertain and not s.covered and s.visible else ""))
        rows.append(row)
    width = max(len(c) for r in rows for c in r) + 1
    lines += ["  " + "".join(c.ljust(width) for c in r).rstrip() for r in rows]
    lines.append(f"to confirm (uncertain, MT 2.02.e): {_by_reason(result, doubtful) or 'none'}")
    lines.append(f"hidden (token or hand): {', '.join(covered) or 'none'}")
    if unseen:
        lines.append(f"outside the photo, not read (-): {', '.join(unseen)}")
    if result.partial:
        lines.append(f"the grid may go on past the photo's {' and '.join(result.partial)} edge: "
                     f"{result.width}×{result.height} squares seen — give the size (--grid) to say more")
    if result.tokens:
        lines.append("tokens: " + ", ".join(f"player {t.player} #{t.number} on {square_label((t.x, t.y))}"
                                            for t in result.tokens))
    if result.tokens_too_small:
        from companion.camera import too_small_advice

        lines.append(too_small_advice(result.tokens_too_small, "en"))
    if result.mismatches:
        lines.append("differs from the board file: " + ", ".join(
            f"{m['square']} ({'/'.join(m['fields'])})" for m in result.mismatches))
    elif result.mismatches is not None:
        lines.append("agrees with the board file")
    return "\n".join(lines)


def _by_reason(result, labels: list[str]) -> str:
    """'A1, C4 (white and grey both); B2 (its mark is unclear)': the squares grouped by their first reason."""
    from boards.model import square_label

    groups: dict[str, list[str]] = {}
    for s in result.squares:
        label = square_label((s.x, s.y))
        if label in labels:
            groups.setdefault(s.why[0] if s.why else "", []).append(label)
    return "; ".join(", ".join(squares) + (f" ({why})" if why else "") for why, squares in groups.items())


def run(args: argparse.Namespace) -> int:
    import cv2

    from boards import BoardFileError, load_board
    from calibration.colour import Calibration
    from calibration.config import ConfigError, DEFAULT_CONFIG, VisionConfig
    from calibration.sources import SourceError, read_image
    from vision import scan
    from vision.debug import draw_scan

    if args.debug_image and not cv2.haveImageWriter(str(args.debug_image)):
        say(f"tactical scan: --debug-image {args.debug_image}: not an image file name (use .png or .jpg)",
             file=sys.stderr)
        return 2
    try:
        image = read_image(args.image)
        board = load_board(args.board) if args.board else None
        config = VisionConfig.load(args.config) if args.config else DEFAULT_CONFIG
        profile = Calibration.load(args.calibration).profile if args.calibration else None
    except (SourceError, BoardFileError, ConfigError, ValueError, OSError) as exc:
        say(f"tactical scan: {exc}", file=sys.stderr)
        return 2
    result = scan(image, board=board, grid=args.grid, config=config, profile=profile)
    if args.debug_image:
        try:
            written = cv2.imwrite(str(args.debug_image), draw_scan(image, result))
        except cv2.error:
            written = False
        if not written:
            say(f"tactical scan: cannot write {args.debug_image}", file=sys.stderr)
            return 2
    say(json.dumps(result.to_dict(), indent=1) if args.json else summary(result))
    return 0 if result.found else 1
