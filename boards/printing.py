"""Printable PDFs at exact scale: boards tiled over pages (MT 1.02.b) and token sheets (MT 1.03.b).

Exactness does not depend on the resolution: the board is rendered at an integer
number of pixels per square and every page's piece of it is placed with a
physical size of (pixels / px_per_square) × 2 cm, so a square measures 2.00 cm
on paper printed at 100 % whatever the dpi.

Tiling: the board image (margins, markers and coordinates included) is cut into
page-sized pieces that repeat an overlap strip of OVERLAP_MM with their right
and bottom neighbours. A dashed line runs down the middle of every overlap on
both pages: cut the later page along it and lay it on the earlier one, dashed
line on dashed line. Every page says which squares it holds, and its footer
carries a 10 cm bar to check the print scale.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from boards.model import Board, column_label
from boards.palette import PAPER_BGR
from boards.pdf import PAPER_SIZES_MM, PdfDocument, PdfPage, mm
from boards.tokens import MAX_NUMBER, PLAYER_COUNT, TOKEN_DIAMETER_MM, player_name

SQUARE_MM = 20.0          # MT 1.02.b: a square is 2 cm × 2 cm
PAGE_MARGIN_MM = 10.0     # most printers cannot print closer to the edge
HEADER_MM = 12.0          # page label and assembly hint
FOOTER_MM = 11.0          # "print at 100 %" note and the 10 cm check bar
OVERLAP_MM = 10.0         # strip repeated on adjacent pages
TOKEN_CELL_MM = 20.0      # one token per 2 cm cell: the size of the square it sits in
PAIR_GAP_MM = 5.0
DEFAULT_DPI = 200
MAX_DPI = 300             # a 40×25 board at 300 dpi is already a 225 MB image in memory


class PrintError(ValueError):
    """Printing options that cannot work (one line for the command line to show)."""


def px_per_square_for(dpi: int) -> int:
    """Whole pixels per 2 cm square closest to `dpi` (the PDF scales them to exactly 2 cm)."""
    if not 50 <= dpi <= MAX_DPI:
        raise PrintError(f"--dpi must be between 50 and {MAX_DPI}, got {dpi}")
    return round(dpi * SQUARE_MM / 25.4)


def paper_size_mm(paper: str, landscape: bool = False) -> tuple[float, float]:
    try:
        width, height = PAPER_SIZES_MM[paper.lower()]
    except KeyError:
        raise PrintError(f"unknown paper '{paper}': choose one of {', '.join(PAPER_SIZES_MM)}") from None
    return (height, width) if landscape else (width, height)


# --- Board tiling ------------------------------------------------------------------------
@dataclass(frozen=True)
class Tile:
    """One page's piece of the board image, in image pixels [x0, x1) × [y0, y1)."""

    number: int            # 1-based page number
    sheet_column: int      # position in the assembled board, 1-based
    sheet_row: int
    x0: int
    y0: int
    x1: int
    y1: int
    columns: tuple[int, int] | None   # first and last grid columns shown (None: margin only)
    rows: tuple[int, int] | None


@dataclass(frozen=True)
class TilePlan:
    paper: str
    landscape: bool
    page_mm: tuple[float, float]
    tiles: tuple[Tile, ...]
    sheet_columns: int
    sheet_rows: int
    overlap_px: int

    @property
    def pages(self) -> int:
        return len(self.tiles)


def _cuts(total: int, tile: int, overlap: int) -> list[tuple[int, int]]:
    """[start, end) pixel ranges covering `total` with pieces of at most `tile` sharing `overlap`."""
    if total <= tile:
        return [(0, total)]
    step = tile - overlap
    count = 1 + math.ceil((total - tile) / step)
    return [(i * step, min(i * step + tile, total)) for i in range(count)]


def _covered(lo_px: int, hi_px: int, origin: int, p: int, squares: int) -> tuple[int, int] | None:
    first = max(0, (lo_px - origin) // p)
    last = min(squares - 1, -(-(hi_px - origin) // p) - 1)
    return (first, last) if first <= last else None


def plan_tiles(image_size: tuple[int, int], origin: tuple[int, int], px_per_square: int,
               grid: tuple[int, int], paper: str = "a4") -> TilePlan:
    """Cut a board image of (width, height) px over pages, in the orientation needing fewer pages."""
    mm_per_px = SQUARE_MM / px_per_square
    overlap = round(OVERLAP_MM / mm_per_px)
    plans = []
    for landscape in (False, True):
        page_w, page_h = paper_size_mm(paper, landscape)
        area_w = math.floor((page_w - 2 * PAGE_MARGIN_MM) / mm_per_px)
        area_h = math.floor((page_h - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM) / mm_per_px)
        xs = _cuts(image_size[0], area_w, overlap)
        ys = _cuts(image_size[1], area_h, overlap)
        tiles = tuple(
            Tile(number=j * len(xs) + i + 1, sheet_column=i + 1, sheet_row=j + 1, x0=x0, y0=y0, x1=x1, y1=y1,
                 columns=_covered(x0, x1, origin[0], px_per_square, grid[0]),
                 rows=_covered(y0, y1, origin[1], px_per_square, grid[1]))
            for j, (y0, y1) in enumerate(ys) for i, (x0, x1) in enumerate(xs))
        plans.append(TilePlan(paper.lower(), landscape, (page_w, page_h), tiles, len(xs), len(ys), overlap))
    return min(plans, key=lambda plan: plan.pages)  # portrait first: it wins ties


def page_label(tile: Tile, plan: TilePlan) -> str:
    """'page 2 of 6: columns K–T, rows 1–12' — the squares the page holds (MT 1.02.b assembly)."""
    def span(pair, name, fmt):
        return f"{name} {fmt(pair[0])}–{fmt(pair[1])}" if pair else f"no {name}"
    columns = span(tile.columns, "columns", column_label)
    rows = span(tile.rows, "rows", lambda r: str(r + 1))
    return f"page {tile.number} of {plan.pages}: {columns}, {rows}"


def _scale_note(page: PdfPage) -> None:
    """Footer: print-at-100 % note and a 10 cm bar with centimetre ticks (MT 1.02.b check)."""
    left, base = PAGE_MARGIN_MM, PAGE_MARGIN_MM
    page.rect(mm(left), mm(base), mm(100), mm(2.5), fill=0.0)
    for cm in range(0, 11):
        page.line(mm(left + 10 * cm), mm(base), mm(left + 10 * cm), mm(base + 4.5), width=0.6)
    for cm in range(1, 10, 2):
        page.rect(mm(left + 10 * cm), mm(base), mm(10), mm(2.5), fill=1.0)
    page.rect(mm(left), mm(base), mm(100), mm(2.5), stroke=0.0, line_width=0.6)
    x = left + 104
    page.text(mm(x), mm(base + 6.5), "Print at 100 % / actual size. Check: this bar measures 10 cm.", 6.5,
              "Helvetica-Bold")
    page.text(mm(x), mm(base + 3.5), "Imprimer à 100 % / taille réelle. Vérifier : la barre mesure 10 cm.", 6.5)
    page.text(mm(x), mm(base + 0.5), "One square = 2 cm × 2 cm (MT 1.02.b) / une case = 2 cm × 2 cm.", 6.5)


def _crop_marks(page: PdfPage, left: float, bottom: float, width: float, height: float) -> None:
    """Short corner marks in the page margin, 1 mm away from the printed piece."""
    gap, length = mm(1), mm(3)
    for x, dx in ((left, -1), (left + width, 1)):
        for y, dy in ((bottom, -1), (bottom + height, 1)):
            page.line(x + dx * gap, y, x + dx * (gap + length), y, width=0.4)
            page.line(x, y + dy * gap, x, y + dy * (gap + length), width=0.4)


def _margin_coordinates(page: PdfPage, tile: Tile, origin: tuple[int, int], p: int, left: float, top: float,
                        mm_per_px: float) -> None:
    """Small grey column letters above and row numbers left of the piece, on every page, so that
    pages from the middle of a big board still say where they go."""
    size = 5.5
    if tile.columns:
        for column in range(tile.columns[0], tile.columns[1] + 1):
            centre_px = origin[0] + (column + 0.5) * p - tile.x0
            if 0 <= centre_px <= tile.x1 - tile.x0:
                label = column_label(column)
                page.text(left + mm(centre_px * mm_per_px) - 0.3 * size * len(label), top + mm(1), label, size,
                          grey=0.35)
    if tile.rows:
        for row in range(tile.rows[0], tile.rows[1] + 1):
            centre_px = origin[1] + (row + 0.5) * p - tile.y0
            if 0 <= centre_px <= tile.y1 - tile.y0:
                label = str(row + 1)
                page.text(left - mm(1.5) - 0.56 * size * len(label), top - mm(centre_px * mm_per_px) - 0.35 * size,
                          label, size, grey=0.35)


def board_pdf(board: Board, *, paper: str = "a4", dpi: int = DEFAULT_DPI) -> PdfDocument:
    """The board at exact scale (MT 1.02.b), tiled over pages with overlaps, labels and a scale bar."""
    from boards.render import render_board  # cv2 only when actually rendering

    p = px_per_square_for(dpi)
    rendered = render_board(board, p)
    image = rendered.image
    plan = plan_tiles((image.shape[1], image.shape[0]), rendered.origin, p, (board.width, board.height), paper)
    page_w, page_h = plan.page_mm
    mm_per_px = SQUARE_MM / p
    doc = PdfDocument(title=f"{board.name} — {board.width}×{board.height}")
    for tile in plan.tiles:
        page = doc.add_page(mm(page_w), mm(page_h))
        piece = doc.add_image(image[tile.y0:tile.y1, tile.x0:tile.x1])
        width, height = mm((tile.x1 - tile.x0) * mm_per_px), mm((tile.y1 - tile.y0) * mm_per_px)
        left = mm(PAGE_MARGIN_MM)
        top = mm(page_h - PAGE_MARGIN_MM - HEADER_MM)
        bottom = top - height
        page.draw_image(piece, left, bottom, width, height)
        _overlap_marks(page, tile, plan, left, top, mm_per_px, width, height)
        _crop_marks(page, left, bottom, width, height)
        _margin_coordinates(page, tile, rendered.origin, p, left, top, mm_per_px)
        page.text(mm(PAGE_MARGIN_MM), mm(page_h - PAGE_MARGIN_MM - 3.5),
                  f"{board.name} ({board.width}×{board.height}) — {page_label(tile, plan)}", 9, "Helvetica-Bold")
        page.text(mm(PAGE_MARGIN_MM), mm(page_h - PAGE_MARGIN_MM - 7.0),
                  f"Sheet row {tile.sheet_row} of {plan.sheet_rows}, column {tile.sheet_column} of "
                  f"{plan.sheet_columns}. Cut along the dashed lines of the left and top edges and lay them on "
                  "the dashed lines of the neighbouring pages / couper sur les pointillés et superposer.", 6)
        _scale_note(page)
    return doc


def _overlap_marks(page: PdfPage, tile: Tile, plan: TilePlan, left: float, top: float, mm_per_px: float,
                   width: float, height: float) -> None:
    """Shade this page's half of every overlap strip lightly and dash the alignment line in its middle."""
    half = mm(plan.overlap_px * mm_per_px / 2)
    dash = (mm(2), mm(1.5))
    label, size = "overlap / recouvrement", 6.0
    label_length = mm(24)
    bottom = top - height
    vertical_lines = []
    if tile.sheet_column > 1:
        vertical_lines.append((left, left + half))
    if tile.sheet_column < plan.sheet_columns:
        vertical_lines.append((left + width - half, left + width - half))
    for strip_x, line_x in vertical_lines:
        page.rect(strip_x, bottom, half, height, fill=0.5, alpha=0.18)
        page.line(line_x, bottom, line_x, top, width=0.8, dash=dash)
        page.rect(strip_x + half / 2 - size * 0.6, bottom + height / 2 - label_length / 2 - 2, size * 1.2,
                  label_length + 4, fill=1.0)
        page.text(strip_x + half / 2 + size * 0.35, bottom + height / 2 - label_length / 2, label, size,
                  grey=0.2, vertical=True)
    horizontal_lines = []
    if tile.sheet_row > 1:
        horizontal_lines.append((top - half, top - half))
    if tile.sheet_row < plan.sheet_rows:
        horizontal_lines.append((bottom, bottom + half))
    for strip_y, line_y in horizontal_lines:
        page.rect(left, strip_y, width, half, fill=0.5, alpha=0.18)
        page.line(left, line_y, left + width, line_y, width=0.8, dash=dash)
        page.rect(left + width / 2 - label_length / 2 - 2, strip_y + half / 2 - size * 0.6, label_length + 4,
                  size * 1.2, fill=1.0)
        page.text(left + width / 2 - label_length / 2, strip_y + half / 2 - size * 0.35, label, size, grey=0.2)


# --- Token sheets ------------------------------------------------------------------------
def check_token_options(players: int, count: int) -> None:
    """Players 1..5 (MT 9.02.a: five token colours); numbers 1..MAX_NUMBER (the marker ids tokens carry)."""
    if not 1 <= players <= PLAYER_COUNT:
        raise PrintError(f"--players must be between 1 and {PLAYER_COUNT} (MT 9.02.a: five token colours), "
                         f"got {players}")
    if not 1 <= count <= MAX_NUMBER:
        raise PrintError(f"--count must be between 1 and {MAX_NUMBER} numbers per player, got {count}")


def _on_paper(bgra: np.ndarray) -> np.ndarray:
    """Composite a BGRA token over paper white (what the printer will show)."""
    alpha = bgra[..., 3:4].astype(np.float32) / 255.0
    paper = np.array(PAPER_BGR, dtype=np.float32)
    return np.round(bgra[..., :3] * alpha + paper * (1 - alpha)).astype(np.uint8)


def _token_rows(players: int, count: int, per_row: int, rows_per_page: int,
                packed: bool) -> list[list[tuple[int, list[int]]]]:
    """Pages of rows; a row is (player, numbers) and never mixes players. One player per sheet,
    or `packed`: players follow each other on the same pages, each starting on a new row."""
    pages: list[list[tuple[int, list[int]]]] = []
    for player in range(1, players + 1):
        if not packed or not pages:
            pages.append([])
        for first in range(1, count + 1, per_row):
            if len(pages[-1]) == rows_per_page:
                pages.append([])
            pages[-1].append((player, list(range(first, min(first + per_row, count + 1)))))
    return pages


def tokens_pdf(players: int, count: int, *, paper: str = "a4", dpi: int = 300,
               packed: bool = False) -> PdfDocument:
    """Token sheets: for each player, numbers 1..count, each printed TWICE side by side (MT 1.03.b:
    one on the grid, its twin on the card), TOKEN_DIAMETER_MM wide so a token sits inside a 2 cm
    square, with dashed cut circles and a legend naming each player's colour (FR / EN)."""
    from boards.render import render_token  # cv2 only when actually rendering

    check_token_options(players, count)
    page_w, page_h = paper_size_mm(paper)
    pair_w = 2 * TOKEN_CELL_MM + PAIR_GAP_MM
    pairs_per_row = int((page_w - 2 * PAGE_MARGIN_MM + PAIR_GAP_MM) // pair_w)
    rows_per_page = int((page_h - 2 * PAGE_MARGIN_MM - HEADER_MM - FOOTER_MM) // TOKEN_CELL_MM)
    diameter_px = round(TOKEN_DIAMETER_MM / 25.4 * dpi)
    radius = TOKEN_DIAMETER_MM / 2
    doc = PdfDocument(title=f"Magic Tactical tokens — {players} players × {count}")
    x_start = (page_w - (pairs_per_row * pair_w - PAIR_GAP_MM)) / 2
    top = page_h - PAGE_MARGIN_MM - HEADER_MM
    for rows in _token_rows(players, count, pairs_per_row, rows_per_page, packed):
        page = doc.add_page(mm(page_w), mm(page_h))
        players_here = {player: [n for p, ns in rows if p == player for n in ns] for player, _ in rows}
        if len(players_here) == 1:
            ((player, numbers),) = players_here.items()
            legend, size = (f"Player {player} / joueur {player}: {player_name(player, 'fr')} / "
                            f"{player_name(player, 'en')} — tokens {numbers[0]}–{numbers[-1]}"), 10
        else:
            legend, size = "Players / joueurs: " + " · ".join(
                f"{player} {player_name(player, 'fr')}/{player_name(player, 'en')} {numbers[0]}–{numbers[-1]}"
                for player, numbers in players_here.items()), 7
        page.text(mm(PAGE_MARGIN_MM), mm(page_h - PAGE_MARGIN_MM - 3.5), legend, size, "Helvetica-Bold")
        page.text(mm(PAGE_MARGIN_MM), mm(page_h - PAGE_MARGIN_MM - 7.0),
                  "Each number twice: one token on the grid, its twin on the card (MT 1.03.b) / chaque numéro "
                  "en double : un jeton sur la grille, son jumeau sur la carte. Cut along the dashed circles.", 6)
        for row, (player, numbers) in enumerate(rows):
            cy = top - row * TOKEN_CELL_MM - TOKEN_CELL_MM / 2
            for column, number in enumerate(numbers):
                token = doc.add_image(_on_paper(render_token(player, number, diameter_px)))  # stored once
                for twin in range(2):                                                     # drawn twice
                    cx = x_start + column * pair_w + (twin + 0.5) * TOKEN_CELL_MM
                    page.draw_image(token, mm(cx - radius), mm(cy - radius), mm(2 * radius), mm(2 * radius))
                    page.circle(mm(cx), mm(cy), mm(radius + 0.3), stroke=0.45, line_width=0.4,
                                dash=(mm(1), mm(1)))
        _scale_note(page)
    return doc
