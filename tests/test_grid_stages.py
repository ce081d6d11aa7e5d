"""The markerless finder's stages, each on its own small fixture (issue #28: the finder is a package whose
top function reads as its stages; each stage has typed input and output and its own tests).

segments → line families and vanishing points → lattice fit (through the lens) → extent → verification →
result. Every fixture is drawn here: a grid of ink lines on paper, on a wood-like table, seen from above or
through a perspective whose truth (grid units -> pixels) the test knows.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration import chequer
from calibration.chequer import ChequerBeyondLens, _Outline, find_chequer, largest_bend
from calibration.config import GridFinderConfig
from calibration.grid_finder.edges import border_support, edge_support
from calibration.grid_finder.extent import GridExtent, continuing_sides, find_extent, lines_inside_squares, whole_grid
from calibration.grid_finder.families import crossed_share, line_families
from calibration.grid_finder.find import BUDGET_REASON, find_verified_grid, verification
from calibration.grid_verify import square_skew, verify_grid
from calibration.grid_finder.lattice import Lattice, fit_lattice, lattice_hypothesis
from calibration.grid_finder.result import grid_result, plausible_squares
from calibration.grid_finder.segments import (SearchBudgetSpent, WorkBudget, WorkingImage, find_segments, working_chroma,
                                             working_gray, working_image)
from calibration.grid_lines import Segments, apply_h, detect_segments
from calibration.grid_synth import camera_homography, random_pose, render_flat_grid, table_texture
from calibration.mapping import GridMapping, RadialLens

CFG = GridFinderConfig()
NO_SEGMENTS = Segments(np.zeros((0, 2)), np.zeros((0, 2)))


def _drawn_grid(size: tuple[int, int], corners: list[tuple[float, float]], frame=(960, 720), margin=0.6,
                seed=3, blank_corner: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(photo, truth): a size[0]×size[1] grid of dark ink lines on white paper (a `margin` square wide),
    its outer corners at `corners` (top-left, top-right, bottom-right, bottom-left) on a wood-like table;
    truth: grid units -> photo pixels. `blank_corner`: its top-left block of that many squares either way has no
    lines inside (a nonogram's corner above its clue columns)."""
    w, h = size
    px = 40
    pad = int(margin * px)
    sheet = np.full((h * px + 2 * pad, w * px + 2 * pad, 3), 245, np.uint8)
    for k in range(w + 1):
        cv2.line(sheet, (pad + k * px, pad), (pad + k * px, pad + h * px), (40, 40, 40), 2)
    for k in range(h + 1):
        cv2.line(sheet, (pad, pad + k * px), (pad + w * px, pad + k * px), (40, 40, 40), 2)
    if blank_corner:
        block = pad + blank_corner * px - 2
        cv2.rectangle(sheet, (pad + 2, pad + 2), (block, block), (245,) * 3, -1)
    truth = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(corners))
    sheet_to_grid = np.array([[1 / px, 0, -pad / px], [0, 1 / px, -pad / px], [0, 0, 1.0]])
    to_photo = truth @ sheet_to_grid
    photo = table_texture(np.random.default_rng(seed), frame)
    warped = cv2.warpPerspective(sheet, to_photo, frame, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(sheet.shape[:2], 255, np.uint8), to_photo, frame) > 128
    photo[mask] = warped[mask]
    return photo, truth


TOP_DOWN = [(160, 120), (800, 120), (800, 600), (160, 600)]          # 8x6 squares of 80 px
SLANTED = [(230, 140), (760, 170), (850, 620), (120, 590)]           # the same grid in perspective


def _lattice_stages(photo: np.ndarray):
    """Stages 1 to 3 on a photo: (working image, the strongest pair's families, its fitted lattice)."""
    work = working_image(photo, None, CFG)
    families = next(line_families(work, find_segments(work)))
    hypothesis = lattice_hypothesis(work, families)
    assert hypothesis is not None
    return work, families, fit_lattice(work, hypothesis)


def _to_grid(truth: np.ndarray, points: np.ndarray) -> np.ndarray:
    return apply_h(np.linalg.inv(truth), points)


# -- stage 1: segments ------------------------------------------------------------------------------
def test_segments_lie_on_the_photos_pixel_centres_not_where_lsds_reduced_copy_puts_them():
    """Issue #28 (stop 69): OpenCV's LSD reads a copy reduced to 0.8 and maps its segments back by dividing by the
    scale, 0.125 px up and left of the photo's pixel centres (a lined grid at 4000×3000 read 0.5 px off). A step
    edge between columns 99 and 100 lies at x = 99.5, and a bright band's two edges at 49.5 and 149.5 across."""
    photo = np.zeros((200, 240), np.uint8)
    photo[:, 100:] = 255
    photo[50:150, :60] = 255
    segs = detect_segments(photo, 20.0)
    vertical = np.abs(segs.q[:, 0] - segs.p[:, 0]) < np.abs(segs.q[:, 1] - segs.p[:, 1])
    step = segs.subset(vertical & (np.abs(segs.p[:, 0] - 99.5) < 2))
    band = segs.subset(~vertical & (segs.p[:, 0] < 70))
    assert len(step) and len(band), segs
    assert np.abs(np.concatenate([step.p[:, 0], step.q[:, 0]]) - 99.5).max() < 0.03
    assert sorted(np.round(band.p[:, 1], 2)) == pytest.approx([49.5, 149.5], abs=0.03)


def test_segments_stage_finds_the_drawn_lines_and_weighs_ink_fully():
    """#28, stage 1: on a drawn 8x6 grid seen from above, the segments lie on the grid's lines (most of
    their length within 0.05 square of one), every one of its 9 + 7 lines has some, and ink is sharp:
    those segments weigh nearly fully (clarity), the table's soft grain far less."""
    photo, truth = _drawn_grid((8, 6), TOP_DOWN)
    work = working_image(photo, None, CFG)
    assert work.scale == 1.0 and work.gray.shape == photo.shape[:2]
    segs = find_segments(work)
    middle = _to_grid(truth, (segs.p + segs.q) / 2)
    vertical = np.abs(segs.q[:, 0] - segs.p[:, 0]) < np.abs(segs.q[:, 1] - segs.p[:, 1])
    across = np.where(vertical, middle[:, 0], middle[:, 1])
    on_line = (np.abs(across - np.round(across)) < 0.05) & np.all((middle > -0.1) & (middle < [8.1, 6.1]), axis=1)
    assert segs.length[on_line].sum() > 0.9 * segs.length[np.all((middle > -0.1) & (middle < [8.1, 6.1]), axis=1)].sum()
    assert set(np.round(across[on_line & vertical]).astype(int)) == set(range(9))
    assert set(np.round(across[on_line & ~vertical]).astype(int)) == set(range(7))
    assert segs.clarity is not None
    assert np.median(segs.clarity[on_line]) > 0.9
    assert np.median(segs.clarity[~on_line]) < 0.5 * np.median(segs.clarity[on_line])


def test_segments_stage_works_where_a_requested_boards_squares_are_big_enough():
    """#28, stage 1 (`segments.working_size`, `min_square_px`): a photo larger than the working size is
    searched on a copy; a 40x25 board asked for needs its squares at `min_square_px`, so a larger copy."""
    photo = np.zeros((2160, 3840, 3), np.uint8)
    assert working_image(photo, None, CFG).gray.shape[1] == CFG.segments.working_size
    big = working_image(photo, (40, 25), CFG)
    assert big.gray.shape[1] == CFG.segments.max_working_size and big.min_segment_px < working_image(
        photo, None, CFG).min_segment_px * 2


# -- stage 2: line families and vanishing points ---------------------------------------------------
def _direction_to(point: np.ndarray, origin: np.ndarray) -> float:
    """Angle (degrees, modulo 180) of the line from `origin` to a homogeneous point (finite or not)."""
    d = point[:2] - point[2] * origin
    return float(np.degrees(np.arctan2(d[1], d[0])) % 180)


def test_families_stage_gives_the_vanishing_points_of_a_drawn_perspective_grid():
    """#28, stage 2: on a drawn grid in perspective, the strongest pair of directions is the grid's; family
    x (the more vertical) holds the lines of constant grid x, and each vanishing point lies where the
    truth's lines meet (seen from the board's middle, within half a degree)."""
    photo, truth = _drawn_grid((8, 6), SLANTED)
    work = working_image(photo, None, CFG)
    families = next(line_families(work, find_segments(work)))
    assert families.strongest
    centre = apply_h(truth, np.array([[4.0, 3.0]]))[0]
    # lines of constant x run along grid y: their point is the image of y's point at infinity
    for vp, direction in ((families.vp_x, truth[:, 1]), (families.vp_y, truth[:, 0])):
        apart = abs(_direction_to(vp, centre) - _direction_to(direction, centre))
        assert min(apart, 180 - apart) < 0.5
    for family, axis in ((families.x, 0), (families.y, 1)):
        middle = _to_grid(truth, (family.p + family.q) / 2)[:, axis]
        assert np.mean(np.abs(middle - np.round(middle)) < 0.05) > 0.9


def test_families_stage_counts_only_segments_crossed_by_others():
    """Issue 18 (foreign boards, size given), #28 stage 2: a grained table's direction beside the board,
    sharp enough to count, swallowed the grid direction a few degrees off it (the broadened bench's
    photo 1: peaks at 0.5° for a grid at 5.8°). Only segments crossed by segments of another
    direction count fully for the direction peaks and vanishing points."""
    gray = np.zeros((600, 1000), np.uint8)
    work = WorkingImage.of(gray, gray, None, CFG)
    grid_p, grid_q = [], []
    for k in range(11):   # a 10x10 grid of 30 px squares, each line in 10 pieces, at x 600-900, y 100-400
        for piece in range(10):
            grid_p += [(600 + 30 * k, 100 + 30 * piece), (600 + 30 * piece, 100 + 30 * k)]
            grid_q += [(600 + 30 * k, 128 + 30 * piece), (628 + 30 * piece, 100 + 30 * k)]
    grain_p = [(20.0, 10.0 + 14 * k) for k in range(40)]   # long grain 2° off horizontal, at the left
    grain_q = [(420.0, 10.0 + 14 * k + 400 * np.tan(np.radians(2))) for k in range(40)]
    segs = Segments(np.array(grid_p + grain_p, float), np.array(grid_q + grain_q, float))
    crossed = crossed_share(work, segs)
    assert crossed[: len(grid_p)].mean() > 0.9
    assert crossed[len(grid_p):].mean() < 0.1


# -- stage 3: lattice fit ----------------------------------------------------------------------------
def test_lattice_stage_puts_every_drawn_line_on_a_whole_number():
    """#28, stage 3: the lattice fitted on a drawn grid in perspective (combs after rectification, refined
    on the segments) maps every grid corner to whole lattice numbers within 0.03 square, one lattice step
    per square (grid x along lattice a, the lines of family x)."""
    photo, truth = _drawn_grid((8, 6), SLANTED)
    _, _, lattice = _lattice_stages(photo)
    gx, gy = np.meshgrid(np.arange(9.0), np.arange(7.0), indexing="ij")
    corners = apply_h(truth, np.stack([gx.ravel(), gy.ravel()], axis=1))
    at = lattice.lattice_of(corners).reshape(9, 7, 2)
    assert np.abs(at - np.round(at)).max() < 0.03
    steps_x, steps_y = np.round(np.diff(at, axis=0)), np.round(np.diff(at, axis=1))
    assert np.all(np.abs(steps_x[..., 0]) == 1) and np.all(steps_x[..., 1] == 0)
    assert np.all(steps_y[..., 0] == 0) and np.all(np.abs(steps_y[..., 1]) == 1)


# -- stage 4: extent ---------------------------------------------------------------------------------
def test_extent_stage_is_the_drawn_grid_not_its_paper_margin():
    """#28, stage 4: on a drawn 8x6 grid whose paper shows a margin 1.5 squares wide (its edge a line on
    the table), the extent, size unknown, is the grid's 8x6 lines: its corners within 0.03 square of the
    truth's, not the sheet's edge."""
    photo, truth = _drawn_grid((8, 6), SLANTED, margin=1.5)
    work, families, lattice = _lattice_stages(photo)
    extent = find_extent(work, lattice, families, None)
    assert extent is not None
    a0, a1, b0, b1 = extent.rect
    assert (a1 - a0, b1 - b0) == (8, 6)
    corners = extent.lattice.image_of(np.array([[a0, b0], [a1, b0], [a1, b1], [a0, b1]], float))
    in_grid = _to_grid(truth, corners)
    assert {tuple(c) for c in np.round(in_grid).astype(int)} == {(0, 0), (8, 0), (8, 6), (0, 6)}
    assert np.abs(in_grid - np.round(in_grid)).max() < 0.03
    assert extent.score > 0.9


def _flat_grid(grid: tuple[int, int], config: GridFinderConfig) -> tuple[WorkingImage, Lattice]:
    """A working image of a top-down coloured grid laid on a table, and the grid's exact lattice
    (image -> lattice coordinates, line a = k is the grid's k-th column line)."""
    rng = np.random.default_rng(4)
    px, offset = 24, 60
    flat, margin = render_flat_grid(rng, grid, px, "coloured")
    canvas = table_texture(rng, (flat.shape[1] + 2 * offset, flat.shape[0] + 2 * offset))
    canvas[offset:offset + flat.shape[0], offset:offset + flat.shape[1]] = flat
    gray, plain, _ = working_gray(canvas, max(canvas.shape), config)
    origin = offset + margin
    lattice = Lattice(np.array([[1 / px, 0, -origin / px], [0, 1 / px, -origin / px], [0, 0, 1.0]]))
    return WorkingImage.of(gray, plain, None, config), lattice


def test_extent_stage_sees_a_grid_going_on_past_a_border_and_follows_it():
    """Issue 5, size unknown (a sub-grid is a wrong board), #28 stage 4: past a border of PART of a 20x12
    grid, the next lattice line and the separators across the strip are supported, so the
    grid goes on; past the printed grid's outer border (paper margin, table) it does not.
    From a 10x6 part, the outward search ends on the whole 20x12."""
    work, lattice = _flat_grid((20, 12), CFG)
    assert continuing_sides(work, lattice, (4, 14, 3, 9)) == (True, True, True, True)
    assert continuing_sides(work, lattice, (0, 14, 3, 12)) == (False, True, True, False)
    assert continuing_sides(work, lattice, (0, 20, 0, 12)) == (False, False, False, False)
    whole = whole_grid(work, lattice, NO_SEGMENTS, NO_SEGMENTS, (4, 14, 3, 9), 1.0)
    assert whole is not None and whole[1] == (0, 20, 0, 12)


def test_extent_stage_refuses_a_grid_going_on_beyond_the_largest_size_searched():
    """Issue 5, size unknown, #28 stage 4: a grid whose lines go on past every border the search may reach
    (here a 20x12 grid searched with at most 15 squares a side) is refused, not cut to a part."""
    cfg = GridFinderConfig(max_squares=15)
    work, lattice = _flat_grid((20, 12), cfg)
    assert whole_grid(work, lattice, NO_SEGMENTS, NO_SEGMENTS, (4, 14, 3, 9), 1.0) is None


def test_extent_stage_sees_squares_holding_a_finer_comb():
    """Issue 5, size unknown (a wrong board is worse than none), #28 stage 4: a lattice 2 or 3 times too
    coarse (its squares hold the grid's own lines at 1/2 or 1/3 of a square) is seen as such; the true
    lattice is not."""
    work, lattice = _flat_grid((20, 12), CFG)
    assert not lines_inside_squares(work, lattice, (0, 20, 0, 12))
    for k in (2, 3):
        coarse = Lattice(np.diag([1 / k, 1 / k, 1.0]) @ lattice.to_lattice)
        assert lines_inside_squares(work, coarse, (0, 20 // k, 0, 12 // k)), f"{k}x too coarse not seen"


def test_extent_stage_takes_a_chequer_of_small_squares_for_its_own_squares():
    """Issue 18 (the free path: the whole grid, or none), #28 stage 4: on a chequer of 12 px squares (a
    31x18 board at the frame's scale, 1819 #87 of the broadened bench set), lines at a fifth of a square
    lie 2.4 px from the squares' own edges, inside the band the edge measure reads beside a line: they
    read those edges, and the whole board was refused as groups of 5x5 finer squares. Such a comb is not
    measured there; a lattice twice too coarse is still seen (its finer lines are 12 px apart)."""
    px, origin, (w, h) = 12, 36, (20, 12)
    canvas = np.full((2 * origin + h * px, 2 * origin + w * px, 3), 235, np.uint8)
    for y in range(h):
        for x in range(w):
            if (x + y) % 2:
                canvas[origin + y * px:origin + (y + 1) * px, origin + x * px:origin + (x + 1) * px] = 25
    canvas = cv2.GaussianBlur(canvas, (0, 0), 1.6)   # a soft lens, and the photo scaled down
    gray, plain, _ = working_gray(canvas, max(canvas.shape), CFG)
    work = WorkingImage.of(gray, plain, None, CFG)
    lattice = Lattice(np.array([[1 / px, 0, -origin / px], [0, 1 / px, -origin / px], [0, 0, 1.0]]))
    assert not lines_inside_squares(work, lattice, (0, w, 0, h))
    coarse = Lattice(np.diag([0.5, 0.5, 1.0]) @ lattice.to_lattice)
    assert lines_inside_squares(work, coarse, (0, w // 2, 0, h // 2))


def test_extent_stage_reads_a_grey_line_between_squares_of_its_own_brightness_in_colour():
    """Issue 18 (no square the photo does not show), #28 stage 4's edges: grey ink lines between green and
    red squares of their own brightness give no grey edge at all, so a board's outer columns looked
    undivided and the rectangle one square off won. A colour edge (CIELAB a*, b*) counts as an edge: every
    edge between the squares is supported in colour, none in grey alone."""
    px, line, origin = 30, 4, 40
    canvas = np.full((origin * 2 + 8 * px, origin * 2 + 8 * px, 3), 200, np.uint8)
    grey = np.array([76, 76, 76], np.uint8)   # the brightness of the green and the red below
    for i in range(8):
        for j in range(8):
            colour = (0, 130, 0) if (i + j) % 2 else (0, 0, 255)
            y, x = origin + i * px, origin + j * px
            canvas[y:y + px, x:x + px] = colour
    for k in range(9):
        c = origin + k * px
        canvas[c - line // 2:c + line // 2, origin:origin + 8 * px] = grey
        canvas[origin:origin + 8 * px, c - line // 2:c + line // 2] = grey
    gray, plain, _ = working_gray(canvas, max(canvas.shape), CFG)
    assert np.ptp(gray[origin + 5:origin + 8 * px - 5, origin + 5:origin + 8 * px - 5]) < 6   # no grey edge inside
    lattice = Lattice(np.array([[1 / px, 0, -origin / px], [0, 1 / px, -origin / px], [0, 0, 1.0]]))
    inner = np.s_[1:-1, :]
    for chroma, expected in ((None, 0.0), (working_chroma(canvas, gray.shape, CFG), 1.0)):
        vert, horiz = edge_support(WorkingImage.of(gray, plain, None, CFG, chroma), lattice, 0, 8, 0, 8)
        assert np.nanmean(vert[inner]) == pytest.approx(expected, abs=0.05)
        assert np.nanmean(horiz.T[inner]) == pytest.approx(expected, abs=0.05)


def _fresh(work: WorkingImage) -> WorkingImage:
    """The same working image with nothing remembered and an unarmed budget."""
    return replace(work, edge_memo={}, budget=WorkBudget())


def test_extent_stage_reads_remembered_edges_as_if_it_scored_them_again():
    """#28 stage 4's edges (the busy page's time): edges of a lattice already scored are read from what the
    working image remembers, inner lines cut from wider ones; the scores and the budget spent are those
    of scoring them afresh, so the search's answers do not depend on what was remembered."""
    work, lattice = _flat_grid((8, 6), CFG)
    wide = border_support(work, lattice, -2, 10, -2, 8)
    assert work.edge_memo
    fresh, cut = _fresh(work), replace(work, budget=WorkBudget(left=10 ** 9))
    armed = replace(fresh, budget=WorkBudget(left=10 ** 9))
    for got, expected in zip(border_support(cut, lattice, 0, 8, 1, 6), border_support(armed, lattice, 0, 8, 1, 6)):
        np.testing.assert_array_equal(got, expected)
    assert cut.budget.left == armed.budget.left < 10 ** 9
    for got, expected in zip(edge_support(work, lattice, 0, 8, 1, 6), edge_support(fresh, lattice, 0, 8, 1, 6)):
        np.testing.assert_array_equal(got, expected)
    moved = Lattice(np.array([[1, 0, 0.3], [0, 1, 0], [0, 0, 1.0]]) @ lattice.to_lattice)   # lines 0.3 square off
    remembered = len(work.edge_memo)
    moved_support = border_support(work, moved, -2, 10, -2, 8)   # another lattice is scored anew
    assert len(work.edge_memo) > remembered
    assert not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(moved_support, wide))
    for got, expected in zip(moved_support, border_support(_fresh(work), moved, -2, 10, -2, 8)):
        np.testing.assert_array_equal(got, expected)


def test_border_support_measured_on_fewer_lines_keeps_the_lattices_threshold():
    """#28 stage 4: the rectangle search measures borders only on the lines it keeps; the contrast a line
    needs stays the one all the lattice's lines set (`threshold_lines`), so each kept edge is judged as
    when every line was measured. Here the first lines are drawn ever fainter: on their own they would set
    a far lower threshold, and pass."""
    px, origin, n = 30, 45, 8
    canvas = np.full((origin * 2 + n * px, origin * 2 + n * px, 3), 235, np.uint8)
    for k in range(n + 1):
        c, ink = origin + k * px, 30 if k >= 4 else 235 - 12 * (k + 1)
        canvas[c - 1:c + 1, origin:origin + n * px] = ink
        canvas[origin:origin + n * px, c - 1:c + 1] = ink
    gray, plain, _ = working_gray(canvas, max(canvas.shape), CFG)
    work = WorkingImage.of(gray, plain, None, CFG)
    lattice = Lattice(np.array([[1 / px, 0, -origin / px], [0, 1 / px, -origin / px], [0, 0, 1.0]]))
    whole = border_support(_fresh(work), lattice, -1, 9, -1, 9)
    kept = border_support(_fresh(work), lattice, 0, 3, 0, 3, threshold_lines=(-1, 9, -1, 9))
    vertical = (0, 1, 4, 6)   # (vert low, vert high, horiz low, horiz high, vert gap, horiz gap, blanks)
    for k, (got, expected) in enumerate(zip(kept, whole)):
        # vertical edges: lines a 0..3, cells b 0..2; horizontal: cells a 0..2, lines b 0..3
        np.testing.assert_array_equal(got, expected[1:5, 1:4] if k in vertical else expected[1:4, 1:5])
    assert np.nanmean(kept[0]) < np.nanmean(border_support(_fresh(work), lattice, 0, 3, 0, 3)[0])


# -- stage 5: verification ---------------------------------------------------------------------------
def test_verification_stage_proves_a_drawn_grid_and_refuses_the_same_fit_on_a_blank_page():
    """#28, stage 5 (calibration.grid_verify, section `verify`): the fit of a drawn grid is proved by its
    lines; the same fit laid on a blank page (no line stands out from the squares) is refused, with why."""
    from calibration.grid_finder import GridFit

    photo, truth = _drawn_grid((8, 6), SLANTED)
    fit = GridFit(GridMapping(truth), 8, 6, 1.0)
    assert verification(photo, fit, CFG).found
    refused = verification(np.full_like(photo, 200), fit, CFG)
    assert not refused.found and refused.reason


# -- stage 6: result ---------------------------------------------------------------------------------
def test_result_stage_numbers_the_rectangle_upright_in_the_working_images_pixels():
    """#28, stage 6: the extent's rectangle of a lattice of 30 px squares becomes a fit whose (0, 0) is the
    rectangle's top-left corner in the image, read upright (x to the right) however the lattice numbers
    its lines, of the size asked when given (a 8x6 rectangle read as 6x8 is the same board turned)."""
    straight = Lattice(np.diag([1 / 30, 1 / 30, 1.0]))
    mirrored = Lattice(np.array([[-1 / 30, 0, 12], [0, 1 / 30, 0], [0, 0, 1.0]]))   # a counted right to left
    for lattice, rect in ((straight, (2, 10, 1, 7)), (mirrored, (2, 10, 1, 7))):
        extent = GridExtent(lattice, rect, 0.97)
        fit = grid_result(extent, None, CFG)
        assert fit is not None and (fit.width, fit.height, fit.score) == (8, 6, 0.97)
        corners = fit.mapping.to_image(np.array([[0, 0], [8, 0], [8, 6]], float))
        top_left = lattice.image_of(np.array([[rect[0], rect[2]], [rect[1], rect[2]]], float)).min(axis=0)
        assert corners[0] == pytest.approx(top_left)
        assert corners[1][0] > corners[0][0] and corners[2][1] > corners[1][1]
    turned = grid_result(GridExtent(straight, (2, 10, 1, 7), 0.97), (6, 8), CFG)
    assert turned is not None and (turned.width, turned.height) == (6, 8)
    assert grid_result(GridExtent(straight, (2, 10, 1, 7), 0.97), (5, 5), CFG) is None


def test_result_stage_refuses_a_lattice_squashed_to_a_sliver():
    """Issue 5, never invent a board (a no-board bench photo, rng 2028 #28, gave a 4x7 'grid' one
    pixel tall on table grain), #28 stage 6 (`result.min_square_side_px`, `min_square_aspect`): squares
    seen thinner than a few pixels, or a quarter as wide as tall, or folded over, are not a printed
    grid's squares."""
    upright = Lattice(np.diag([1 / 30, 1 / 30, 1.0]))          # 30 px squares
    sliver = Lattice(np.diag([1 / 30, 1 / 0.8, 1.0]))          # 30 x 0.8 px
    stretched = Lattice(np.diag([1 / 30, 1 / 6, 1.0]))         # 30 x 6 px
    folded = Lattice(np.linalg.inv(np.array([[30, 0, 0], [0, 30, 0], [0.02, 0, 1.0]])))  # horizon inside
    assert plausible_squares(upright, (0, 8, 0, 8), CFG)
    assert not plausible_squares(sliver, (0, 4, 0, 7), CFG)
    assert not plausible_squares(stretched, (0, 4, 0, 7), CFG)
    assert not plausible_squares(folded, (-80, 8, 0, 8), CFG)
    assert grid_result(GridExtent(sliver, (0, 4, 0, 7), 1.0), None, CFG) is None


def _flat_chequer(px: int, pad: int, size: tuple[int, int]) -> np.ndarray:
    """A chessboard of `size` squares of `px` pixels seen straight on, dark top-left, on light paper
    `pad` pixels wide."""
    w, h = size
    photo = np.full((h * px + 2 * pad, w * px + 2 * pad, 3), 235, np.uint8)
    for y in range(h):
        for x in range(w):
            if (x + y) % 2 == 0:
                cv2.rectangle(photo, (pad + x * px, pad + y * px), (pad + (x + 1) * px - 1, pad + (y + 1) * px - 1),
                              (30, 30, 30), -1)
    return photo


def _sudoku_page(seed: int = 5) -> np.ndarray:
    """A top-down newspaper sudoku (squares 40 px from (40, 200), thick lines every 3) with text around it."""
    from vision.synth_sudoku import draw_sudoku, text_column

    rng = np.random.default_rng(seed)
    page = np.full((720, 960, 3), 240, np.uint8)
    draw_sudoku(rng, page, (40, 200), 40, digits=0.3)
    text_column(rng, page, (405, 20, 940, 700), 18)
    text_column(rng, page, (30, 20, 420, 180), 18)
    return page


def test_verification_stage_refuses_a_column_of_text_taken_in_beside_a_sudoku():
    """Issue 28 ("another sudoku grew to 12×9 by taking in the column of text beside it"): a ruled grid's
    lines must cross its outer rows and columns as they cross the others; a strip of text is crossed by none
    (a plain strip, tiles whose white merges with the paper, is not judged)."""
    page = _sudoku_page()
    to_photo = np.array([[40.0, 0, 40], [0, 40.0, 200], [0, 0, 1]])
    fit = GridMapping.coerce(to_photo)
    right = verify_grid(page, fit, 9, 9, CFG.verify)
    with_text = verify_grid(page, fit, 10, 9, CFG.verify)
    assert right.found, right.reason
    assert not with_text.found and "not crossed by its lines" in with_text.reason
    assert with_text.evidence.outer_seen < CFG.verify.min_outer_seen <= right.evidence.outer_seen


def test_lattice_stage_finds_a_newspaper_sudoku_from_its_long_lines_where_text_sets_the_comb():
    """Issue 28: text columns beside a sudoku lock the strongest pair's comb on the text's line spacing
    (the fit lands over the text, refused); the pair's long segments alone give the sudoku, 9×9 placed."""
    from vision.synth_sudoku import photograph_sudoku

    photo = photograph_sudoku(np.random.default_rng([28, 0, 4]), "beside")
    fit, verdict = find_verified_grid(photo.image, (9, 9))
    assert fit is not None, verdict
    corners = apply_h(np.linalg.inv(photo.homography), fit.mapping.to_image(
        np.array([[0, 0], [9, 0], [9, 9], [0, 9]], float)))
    assert np.abs(np.sort(np.round(corners), axis=0) - np.sort([[0, 0], [9, 0], [9, 9], [0, 9]], axis=0)).max() == 0
    assert np.abs(corners - np.round(corners)).max() < 0.25


def test_size_unknown_a_fit_with_a_strip_of_text_beside_the_sudoku_is_returned_without_it():
    """Issue 28 ("another sudoku grew to 12×9 by taking in the column of text beside it"): size unknown,
    a ruled fit refused for outer strips its lines do not cross comes back without them, and is proved."""
    from calibration.grid_finder.find import _without_uncrossed_strips
    from calibration.grid_finder.result import GridFit

    page = _sudoku_page()
    to_photo = np.array([[40.0, 0, 40], [0, 40.0, 200], [0, 0, 1]])
    with_text = GridFit(GridMapping.coerce(to_photo), 10, 9, 0.9)         # a column of text right of the sudoku
    trimmed = _without_uncrossed_strips(with_text, verification(page, with_text, CFG), CFG)
    assert trimmed is not None and (trimmed.width, trimmed.height) == (9, 9)
    assert np.allclose(trimmed.mapping.to_image(np.array([[0.0, 0.0], [9.0, 9.0]])), [[40, 200], [400, 560]])
    assert verification(page, trimmed, CFG).found


def _sudoku_under_large_print(seed: int, square: int = 80) -> tuple[np.ndarray, np.ndarray]:
    """A top-down sudoku (squares `square` px from (60, 200)) right under four lines of bold print two to a square,
    as a newspaper prints its rules above the grid; and its placement (grid units -> pixels)."""
    from vision.synth_sudoku import draw_sudoku

    rng = np.random.default_rng(seed)
    page = np.full((220 + 9 * square, 120 + 9 * square, 3), 236, np.uint8)
    draw_sudoku(rng, page, (60, 200), square, digits=0.3)
    words = "Ein Sudoku besteht aus Quadraten In jeder Zeile steht eine Zahl Die leeren Felder sind zu fullen".split()
    for line in range(4):
        x, baseline = 60, 200 - 6 - line * square // 2
        while True:
            word = words[int(rng.integers(len(words)))]
            (width, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, square / 60, 3)
            if x + width > 60 + 9 * square:
                break
            cv2.putText(page, word, (x, baseline), cv2.FONT_HERSHEY_DUPLEX, square / 60, (30, 30, 30), 3, cv2.LINE_AA)
            x += width + square // 5
    return page, np.array([[float(square), 0, 60], [0, float(square), 200], [0, 0, 1]])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_verification_stage_reads_large_print_beside_a_ruled_grid_as_no_row_of_it(seed):
    """Issue 28 ("text columns or rulers beside a grid not absorbed"; a thirteenth blind look, 7 Dec 2026: a
    newspaper sudoku read 9×11 with the size unknown, two rows of its rules' large print above it taken in, and
    refused with 9×9 given, its lines "going on" across that print). Print reads as lines wherever the lattice
    lays them, and as much between them: a strip's separators count only where they are seen along their length
    more than its squares' middles (`_stands_out`, `min_line_sample_lead`). The print taken in is crossed by none
    of the grid's lines, and past the sudoku's top its lines do not go on."""
    page, truth = _sudoku_under_large_print(seed)
    two_rows_up = truth @ np.array([[1.0, 0, 0], [0, 1, -2], [0, 0, 1]])
    with_print = verify_grid(page, GridMapping(two_rows_up), 9, 11, CFG.verify)
    assert not with_print.found and "not crossed by its lines" in with_print.reason, with_print.reason
    assert with_print.evidence.outer_strips[2] == 0.0 and with_print.evidence.outer_crossed[2] > 0.5
    sudoku = verify_grid(page, GridMapping(truth), 9, 9, CFG.verify)
    assert sudoku.found, sudoku.reason
    assert sudoku.evidence.beyond_strips[2] == 0.0


def test_size_unknown_rows_of_large_print_taken_in_above_a_sudoku_are_cut_off_one_by_one(monkeypatch):
    """Issue 28 (a thirteenth blind look, 7 Dec 2026: a newspaper sudoku read 9×11 over two rows of print): size
    unknown, a fit refused for an outer row its lines do not cross is cut for as long as it is refused so — here
    twice — and the sudoku is returned where it is, 9×9."""
    from calibration.grid_finder.result import GridFit

    page, truth = _sudoku_under_large_print(1)
    two_rows_up = truth @ np.array([[1.0, 0, 0], [0, 1, -2], [0, 0, 1]])
    fit = _found_size_unknown(monkeypatch, page, GridFit(GridMapping(two_rows_up), 9, 11, 0.9))
    assert (fit.width, fit.height) == (9, 9) and _placed_on(fit, truth)


def test_a_square_whose_centre_lies_off_the_photo_is_not_shown_though_half_of_it_is_in():
    """Issue #28 (lanecam calibration4: square (8, 6), its centre 2 px below the frame, returned as
    read): a square the frame cuts through its middle is not shown — `visible: false`, never read —
    even where half of its area (the old rule) lies inside; one whose centre is in stays shown."""
    from vision.scanner import MIN_SHOWN_SHARE, shown_squares

    # 10×7 squares of 100 px, the bottom row's centres (y 704) 2 px below a 1000×702 photo
    mapping = GridMapping(np.array([[100.0, 0, 0], [0, 100.0, 54.0], [0, 0, 1]]))
    frame = (1000, 702)
    share = mapping.inside_share(10, 7, frame)
    assert share[6, 4] >= MIN_SHOWN_SHARE, "the fixture: half of the cut square is in (shown by area alone)"
    shown = shown_squares(mapping, 10, 7, frame)
    assert not shown[6].any() and shown[:6].all()


def test_verification_stage_refuses_a_ruled_grid_shifted_a_square_onto_its_margin():
    """Issue #28 (t660i image40, a sudoku placed 1.25 squares off with 9 squares that do not exist): the
    fit a column off, its first column left out and the blank margin taken in on the far side, is
    refused — its outer column is paper none of its lines cross while the grid goes on past its other
    side; the right fit, and the same grid seen with its margin and nothing past it, are proved."""
    photo, truth = _drawn_grid((9, 9), [(150, 100), (690, 100), (690, 640), (150, 640)], frame=(960, 720),
                               margin=1.6)
    one_column = np.array([[1.0, 0, 1.0], [0, 1.0, 0], [0, 0, 1]])     # grid units: a square to the right
    right = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    shifted = verify_grid(photo, GridMapping(truth @ one_column), 9, 9, CFG.verify)
    assert right.found, right.reason
    assert shifted.evidence.outer_crossed[1] <= CFG.verify.max_uncrossed_outer
    assert shifted.evidence.beyond_strips[0] >= CFG.verify.min_beyond_seen
    assert not shifted.found and "shifted a square" in shifted.reason
    assert right.evidence.shifted_side(CFG.verify.max_uncrossed_outer, CFG.verify.min_beyond_seen) is None


def test_a_lattice_taking_in_the_margin_on_two_opposite_sides_is_refused():
    """Issue #28 (a ruled foreign board with a large black area, its lines seen on 68 % of the edges, fitted
    1.6 squares off with the sheet's margins inside): a fit whose two opposite outer strips are blank paper
    none of its lines cross, while its lines cross the other two, is larger than the grid it shows. Here a
    9×11 laid over a 9×9 grid a row past it at the top and at the bottom; the 9×9 itself stays found."""
    photo, truth = _drawn_grid((9, 9), [(250, 120), (610, 120), (610, 480), (250, 480)], frame=(960, 720),
                               margin=1.6)
    one_row_up = np.array([[1.0, 0, 0], [0, 1.0, -1.0], [0, 0, 1]])
    overrun = verify_grid(photo, GridMapping(truth @ one_row_up), 9, 11, CFG.verify)
    assert not overrun.found and "larger than the grid" in overrun.reason, overrun.reason
    assert overrun.evidence.overrun_pair(CFG.verify.max_uncrossed_outer, CFG.verify.min_crossed_across) == \
        "top and bottom"
    right = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert right.found, right.reason


def test_a_lattice_taking_in_the_margin_on_three_sides_is_refused():
    """Issue #28 (seed 2030, a ruled foreign board fitted at a period 1.11× its own, a square off: its left,
    right and bottom outer strips crossed by 0-5 % of its lines, its top by 68 %; 57 squares read wrong,
    sure): two opposite outer strips none of its lines cross, with one other side crossed, is a fit larger
    than its grid — one side crossed is enough. Here a 10×11 laid over a 9×9 grid, a column past its left and a
    row past its top and bottom (its right side crossed, its top, left and bottom blank): found before the rule."""
    photo, truth = _drawn_grid((9, 9), [(250, 120), (610, 120), (610, 480), (250, 480)], frame=(960, 720),
                               margin=1.6)
    up_left = np.array([[1.0, 0, -1.0], [0, 1.0, -1.0], [0, 0, 1]])
    overrun = verify_grid(photo, GridMapping(truth @ up_left), 10, 11, CFG.verify)
    assert overrun.evidence.outer_crossed[0] == overrun.evidence.outer_crossed[2] == 0.0
    assert overrun.evidence.outer_crossed[1] >= CFG.verify.min_crossed_across
    assert not overrun.found and "larger than the grid" in overrun.reason, overrun.reason


def test_a_lattice_at_a_finer_period_than_the_grid_is_refused_its_lines_through_the_middles_blind():
    """Issue #28 (held-out seeds 2029 and 2054: foreign boards fitted at half and at about a third of their period,
    116 and 185 squares read sure that do not exist; they passed every other check): a grid's every line is seen
    somewhere along its length; a lattice at a finer period lays most of its lines through the squares' middles,
    seen on no edge. Here an 18×18 laid over a 9×9 (half the period both ways, so both families are seen alike
    and half its lines stand out: found without the rule); the 9×9 itself has no blind line."""
    photo, truth = _drawn_grid((9, 9), [(250, 120), (610, 120), (610, 480), (250, 480)], frame=(960, 720),
                               margin=1.6)
    finer = GridMapping(truth @ np.diag([0.5, 0.5, 1.0]))
    refused = verify_grid(photo, finer, 18, 18, CFG.verify)
    assert refused.evidence.blind_lines == pytest.approx((9 / 17, 9 / 17))   # its odd inner lines
    assert not refused.found and "finer period" in refused.reason, refused.reason
    assert refused.evidence.alternate_absent == (1.0, 1.0)   # (refused by `min_alternate_absent` as well)
    assert verify_grid(photo, finer, 18, 18, replace(CFG.verify, max_blind_lines=1.1, min_alternate_absent=1.1)).found
    right = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert right.found and right.evidence.blind_lines == (0.0, 0.0), right.reason


def _stroke(photo: np.ndarray, mapping: GridMapping, start: tuple[float, float], end: tuple[float, float],
            colour: tuple[int, int, int], thickness: int) -> None:
    """Draw a line from `start` to `end` (grid units) on the photo."""
    a, b = np.round(mapping.to_image(np.array([start, end], float))).astype(int)
    cv2.line(photo, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), colour, thickness)


def test_a_lattice_at_half_the_period_through_a_mark_in_every_square_is_refused_its_odd_lines_absent_between():
    """Issue #28 (a fourteenth blind look, 7 Dec 2026: AlexKubiesa 01_03_iphone_14_1, a completed sudoku in
    handwriting, read as 18×9 with the size unknown, none of its squares flagged): a lattice at half the grid's
    period lays every other line through the squares' middles; where a mark fills each square those lines are seen
    across the marks, so none is blind, but they are absent between them, where a grid's lines run whole. Here an
    18×18 over a 9×9 with a cross in every square: found without the rule. A kenken's faint thin lines between its
    cage lines are there along their length: 0."""
    photo, truth = _drawn_grid((9, 9), [(250, 120), (610, 120), (610, 480), (250, 480)], frame=(960, 720),
                               margin=1.6)
    mapping = GridMapping(truth)
    for x in range(9):
        for y in range(9):
            _stroke(photo, mapping, (x + 0.5, y + 0.3), (x + 0.5, y + 0.7), (30, 30, 30), 4)
            _stroke(photo, mapping, (x + 0.3, y + 0.5), (x + 0.7, y + 0.5), (30, 30, 30), 4)
    half = GridMapping(truth @ np.diag([0.5, 0.5, 1.0]))
    refused = verify_grid(photo, half, 18, 18, CFG.verify)
    assert refused.evidence.blind_lines == (0.0, 0.0), refused.evidence       # its odd lines cross the marks
    assert refused.evidence.alternate_absent == pytest.approx((0.4, 0.4))       # 2 of each edge's 5 samples
    assert not refused.found and "every other line" in refused.reason, refused.reason
    assert verify_grid(photo, half, 18, 18, replace(CFG.verify, min_alternate_absent=1.1)).found
    kenken, truth = _drawn_grid((6, 6), [(250, 120), (610, 120), (610, 480), (250, 480)], frame=(960, 720),
                                margin=1.6)
    mapping = GridMapping(truth)
    for k in (1, 3, 5):
        for start, end in (((k, 0), (k, 6)), ((0, k), (6, k))):
            _stroke(kenken, mapping, start, end, (245, 245, 245), 4)     # the ink line wiped ...
            _stroke(kenken, mapping, start, end, (205, 205, 205), 1)     # ... for a faint thin one
    thin = verify_grid(kenken, mapping, 6, 6, CFG.verify)
    assert thin.found and thin.evidence.alternate_absent == (0.0, 0.0), thin


def test_a_fit_run_off_the_frame_while_the_grid_goes_on_past_its_other_side_is_refused():
    """Issue #28 (a tiled foreign board fitted 7 rows off, its last rows laid over the table and out of the
    frame): with the size given, a fit whose one side runs out of the photo while the grid is seen going on
    past the opposite side is not the board — a board of that size lies further that way. Here a 9×9 fitted
    three rows down a 9×9 near the bottom of the frame; the 9×9 itself stays found."""
    photo, truth = _drawn_grid((9, 9), [(300, 290), (660, 290), (660, 650), (300, 650)], frame=(960, 720),
                               margin=1.6)
    three_rows_down = np.array([[1.0, 0, 0], [0, 1.0, 3.0], [0, 0, 1]])
    off = verify_grid(photo, GridMapping(truth @ three_rows_down), 9, 9, CFG.verify)
    assert off.evidence.off_photo == (False, False, False, True)
    assert not off.found and "goes on past its top side" in off.reason, off.reason
    right = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert right.found, right.reason


def test_a_fit_a_square_off_onto_its_margin_is_moved_where_the_grid_goes_on_and_proved_there():
    """Issue #28 (a foreign board's margin in deep shadow read as its first column, its last column left out:
    20 squares that do not exist, read): the fit refused as shifted a square is moved a square towards the
    side the grid goes on past, away from its blank side, and verified again — found where the grid is,
    never where it is not."""
    from calibration.grid_finder.find import _walked_onto_grid
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((9, 9), [(150, 100), (690, 100), (690, 640), (150, 640)], frame=(960, 720),
                               margin=1.6)
    one_column = np.array([[1.0, 0, 1.0], [0, 1.0, 0], [0, 0, 1]])     # grid units: a square to the right
    off = GridFit(GridMapping(truth @ one_column), 9, 9, 0.9)
    walked = _walked_onto_grid(photo, off, verification(photo, off, CFG), CFG)
    assert walked is not None and walked[1].found
    corners = np.array([[0.0, 0.0], [9.0, 9.0]])
    assert np.allclose(walked[0].mapping.to_image(corners), GridMapping(truth).to_image(corners))
    right = GridFit(GridMapping(truth), 9, 9, 0.9)
    assert _walked_onto_grid(photo, right, verification(photo, right, CFG), CFG) is None   # found: left as it is


def test_a_fit_run_rows_off_the_frame_is_walked_back_onto_its_grid_a_square_at_a_time(monkeypatch):
    """Issue #28 (a tiled board in full view fitted 7 rows down, over the table and out of the frame, then
    refused): the refused fit is moved a square at a time towards the side its grid goes on past, verified
    at each step, for as long as the evidence points that way — and found where the grid is. Its first two
    steps are refused (still off the frame; then rows over the table none of its lines cross)."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((9, 9), [(300, 290), (660, 290), (660, 650), (300, 650)], frame=(960, 720),
                               margin=1.6)
    three_rows_down = np.array([[1.0, 0, 0], [0, 1.0, 3.0], [0, 0, 1]])
    off = GridFit(GridMapping(truth @ three_rows_down), 9, 9, 0.9)
    refused = find.verification(photo, off, CFG)
    assert not refused.found and "goes on past its top side" in refused.reason
    steps = []
    original = find.verification

    def counted(image, fit, cfg):
        steps.append(original(image, fit, cfg))
        return steps[-1]

    monkeypatch.setattr(find, "verification", counted)
    walked = find._walked_onto_grid(photo, off, refused, CFG)
    assert walked is not None and walked[1].found
    corners = np.array([[0.0, 0.0], [9.0, 9.0]])
    assert np.allclose(walked[0].mapping.to_image(corners), GridMapping(truth).to_image(corners))
    assert len(steps) == 3 and not any(step.found for step in steps[:2])


def test_a_ruled_grid_going_on_in_full_past_one_side_makes_a_little_crossed_opposite_strip_a_shift():
    """Issue #28 (a tiled board fitted 3-5 rows down, its lines seen on 83 % of the edges, its far rows over a
    carpet whose grain crossed 9-36 % of their separators): where a ruled grid is seen going on in full past one
    side (`min_going_on`), an opposite outer strip crossed by at most `max_crossed_going_on` of the lines is the
    table taken in — the fit is shifted. Not on a grid without lines inside (an unlined board placed right, dev
    seed 2033: its outer strips crossed 26-36 % by nature, a ruler's ticks beyond one side read 92 % going on),
    nor with the grid going on less than in full (the bar stays `max_uncrossed_outer`)."""
    from calibration.grid_verify import GridEvidence, shifted_side

    verify = CFG.verify
    over_carpet = GridEvidence(25.0, 0.83, verify.ruled_seen_share + 0.1, 500, outer_crossed=(1.0, 0.36, 0.9, 0.95),
                               beyond_strips=(1.0, 0.0, 0.0, 0.0))
    assert shifted_side(over_carpet, verify) == "right"
    unlined = GridEvidence(25.0, 0.83, verify.ruled_seen_share - 0.3, 500, outer_crossed=(0.36, 0.27, 0.32, 0.26),
                           beyond_strips=(0.17, 0.92, 0.53, 0.58))
    assert shifted_side(unlined, verify) is None
    partly = replace(over_carpet, beyond_strips=(verify.min_going_on - 0.1, 0.0, 0.0, 0.0))
    assert shifted_side(partly, verify) is None
    crossed = replace(over_carpet, outer_crossed=(1.0, verify.max_crossed_going_on + 0.1, 0.9, 0.95))
    assert shifted_side(crossed, verify) is None


def _found_size_unknown(monkeypatch, photo: np.ndarray, proposed):
    """`find_verified_grid` with the size unknown, the search proposing `proposed` (a GridFit): the fit returned,
    which must be found."""
    from calibration.grid_finder import find

    monkeypatch.setattr(find, "unverified_grid", lambda *args, **kwargs: proposed)
    fit, verdict = find.find_verified_grid(photo, None, config=CFG)
    assert fit is not None and verdict is not None and verdict.found, verdict
    return fit


def _placed_on(fit, truth: np.ndarray) -> bool:
    """Whether the fit's outline lies where `truth` (grid units -> pixels) puts a grid of its size."""
    outline = np.array([[0.0, 0.0], [fit.width, 0.0], [fit.width, fit.height], [0.0, fit.height]], float)
    return bool(np.allclose(fit.mapping.to_image(outline), GridMapping(truth).to_image(outline)))


def test_a_fit_moved_a_square_with_the_size_unknown_is_partial_where_it_now_is(monkeypatch):
    """Issue #28: the sides a moved fit is partial on are read where it now is, not kept from where it
    was a square off (the search's fit, a square right of the grid, saw its left side; moved onto the grid,
    that side is the frame's edge: the photo cannot say whether the grid goes on there)."""
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((9, 9), [(12, 100), (552, 100), (552, 640), (12, 640)], frame=(960, 720),
                               margin=1.6)
    one_column = np.array([[1.0, 0, 1.0], [0, 1.0, 0], [0, 0, 1]])
    fit = _found_size_unknown(monkeypatch, photo, GridFit(GridMapping(truth @ one_column), 9, 9, 0.9))
    assert (fit.width, fit.height, fit.partial) == (9, 9, ("left",)) and _placed_on(fit, truth)


def test_size_unknown_a_ruled_grid_seen_going_on_past_a_side_is_grown_to_where_it_ends(monkeypatch):
    """Issue #28 (blind Go boards, 5 Dec 2026: a board's far row, thin in perspective, left out by the search and
    18×17 returned, said whole, for an 18×18): with the size unknown, a ruled fit proved while its lines are
    seen going on in full past a side the photo shows is grown that way a row at a time, verified at each
    step, and ends where the grid ends — here a 9×9 the search saw as its bottom 9×7."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((9, 9), [(210, 90), (750, 90), (750, 630), (210, 630)], frame=(960, 720),
                               margin=1.6)
    two_rows_down = np.array([[1.0, 0, 0], [0, 1.0, 2.0], [0, 0, 1]])
    bottom_rows = GridFit(GridMapping(truth @ two_rows_down), 9, 7, 0.9)
    refused = find.verification(photo, bottom_rows, CFG)
    assert not refused.found and refused.going_on == "top", refused
    fit = _found_size_unknown(monkeypatch, photo, bottom_rows)
    assert (fit.width, fit.height, fit.partial) == (9, 9, ()) and _placed_on(fit, truth)
    # a 9×7 asked for: no 9×7 ends where its lines do here (walked up, the lines go on past its bottom instead)
    fit, verdict = find.find_verified_grid(photo, (9, 7), config=CFG)
    assert fit is None and verdict is not None and "go on in full past its top side" in verdict.reason, verdict


def test_size_unknown_a_lens_bent_toward_a_boards_frame_gives_way_to_the_plain_grid_the_size_given_proves(
        monkeypatch):
    """Issue #28 (a seventh blind look, 6 Dec 2026: Othello boards in black frames read, size unknown, through a lens
    bent toward the frame, a corner 0.62 and 1.21 squares off, the verification proving them): with the size
    unknown, a fit through a lens whose corner lies half a square or more from the plain grid that the size-given
    search proves around the same middle gives way to that grid; one within half a square of it keeps its lens."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((8, 6), [(160, 120), (800, 120), (800, 600), (160, 600)], margin=2.0)
    outline = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 6.0], [0.0, 6.0]])
    frame = [apply_h(truth, outline * (1 + 2 * d / np.array([8.0, 6.0])) - d).astype(np.int32) for d in (1.25, 0.25)]
    band = np.zeros(photo.shape[:2], np.uint8)
    cv2.fillPoly(band, [frame[0]], 255)
    cv2.fillPoly(band, [frame[1]], 0)
    photo[band > 0] = (25, 25, 25)                    # a dark frame a quarter square past the grid's lines
    search = find.unverified_grid
    for k1, bent_off in ((-0.6, True), (-0.3, False)):
        bent = GridFit(GridMapping.with_lens(truth, RadialLens.for_image((960, 720), k1), 8, 6), 8, 6, 0.9)
        corner_off = np.linalg.norm(bent.mapping.to_image(outline) - apply_h(truth, outline), axis=1).max() / 80
        assert (corner_off >= 0.5) == bent_off and find.verification(photo, bent, CFG).found   # (proved all the same)
        monkeypatch.setattr(find, "unverified_grid",
                            lambda image, grid, *args, bent=bent, **kwargs: bent if grid is None else search(
                                image, grid, *args, **kwargs))
        fit, verdict = find.find_verified_grid(photo, None, config=CFG)
        assert fit is not None and verdict is not None and verdict.found, verdict
        if bent_off:
            assert fit.mapping.lens is None and (fit.width, fit.height) == (8, 6)
            assert np.abs(fit.mapping.to_image(outline) - apply_h(truth, outline)).max() < 0.1 * 80
        else:
            assert fit.mapping is bent.mapping


def _chessboard_truth(squares: tuple[int, int], square_px: int, frame=(1280, 960)) -> np.ndarray:
    """Grid units -> photo pixels of `_chessboard(squares, square_px, frame)`'s squares."""
    w, h = squares
    x0 = (frame[0] - (w + 2) * square_px) // 2 + square_px
    y0 = (frame[1] - (h + 2) * square_px) // 3 + square_px
    return np.array([[square_px, 0.0, x0], [0.0, square_px, y0], [0.0, 0.0, 1.0]])


def test_a_chequer_fitted_over_its_margin_is_refused_and_size_unknown_comes_back_without_it(monkeypatch):
    """Issue #28 (a fourth blind look, 6 Dec 2026: a phone photo of a 7×10 chessboard at a grazing angle read, size
    unknown, as an 8×9 over its 7 columns and the white margin): a chequer's squares alternate to its very edge, so
    a fit whose outer column none of its lines cross took in the margin — refused; with the size unknown the fit
    comes back without that column, and is proved."""
    from calibration.grid_finder.result import GridFit

    photo, truth = _chessboard((7, 9), 40), _chessboard_truth((7, 9), 40)
    a_column_left = np.array([[1.0, 0, -1.0], [0, 1.0, 0], [0, 0, 1]])
    over_the_margin = verify_grid(photo, GridMapping(truth @ a_column_left), 8, 9, CFG.verify)
    assert over_the_margin.evidence.blank_sides(CFG.verify) == ("left",), over_the_margin.evidence
    assert not over_the_margin.found and "left column is blank" in over_the_margin.reason, over_the_margin
    assert verify_grid(photo, GridMapping(truth), 7, 9, CFG.verify).found
    over_the_margin_fit = GridFit(GridMapping(truth @ a_column_left), 8, 9, 0.9, method="lines")
    fit = _found_size_unknown(monkeypatch, photo, over_the_margin_fit)
    assert (fit.width, fit.height, fit.partial) == (7, 9, ()) and _placed_on(fit, truth)


def test_size_unknown_a_chequer_going_on_past_one_side_is_grown_to_where_it_ends(monkeypatch):
    """Issue #28 (a fourth blind look, 6 Dec 2026: a fisheye photo of a 7×10 chessboard whose last row's light
    squares are as white as its margin, read size unknown as a 7×9 said whole): past one side of a found chequer,
    the neighbours of its light and of its dark outer squares going on with it show it going on — with the size
    unknown the fit is grown that way and verified again, and ends where the chequer does; where it may not grow,
    it is said partial there, never whole."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _chessboard((7, 10), 40), _chessboard_truth((7, 10), 40)
    top_rows = GridFit(GridMapping(truth), 7, 9, 0.9, method="lines")
    proved = find.verification(photo, top_rows, CFG)
    assert proved.found and proved.evidence.chequer_going_on_sides(CFG.verify) == ["bottom"], proved.evidence
    fit = _found_size_unknown(monkeypatch, photo, top_rows)
    assert (fit.width, fit.height, fit.partial) == (7, 10, ()) and _placed_on(fit, truth)
    fit, _ = find.find_verified_grid(photo, None, config=replace(CFG, max_squares=9))
    assert fit is not None and (fit.width, fit.height, fit.partial) == (7, 9, ("bottom",))
    fit, _ = find.find_verified_grid(photo, (7, 9), config=CFG)   # the size given: as the verification said
    assert fit is not None and (fit.width, fit.height) == (7, 9)


def _colour_chart(columns: int, rows: int, period: int = 40, gap: int = 8, frame=(960, 720), seed: int = 3):
    """A colour chart: patches of random colours on a black card, its last column white, grey and black patches in
    turn (the black ones hardly show on the card), on a grey table; (the photo, its grid units -> pixels)."""
    rng = np.random.default_rng(seed)
    photo = np.full((frame[1], frame[0], 3), 205, np.uint8)
    x0, y0 = (frame[0] - columns * period) // 2, (frame[1] - rows * period) // 2
    card = period // 2
    cv2.rectangle(photo, (x0 - card, y0 - card), (x0 + columns * period + card, y0 + rows * period + card),
                  (28, 28, 28), -1)
    last_column = [(235, 235, 235), (120, 120, 120), (38, 38, 38)]
    for j in range(rows):
        for i in range(columns):
            colour = last_column[j % 3] if i == columns - 1 else tuple(int(v) for v in rng.integers(40, 250, 3))
            x, y = x0 + i * period + gap // 2, y0 + j * period + gap // 2
            cv2.rectangle(photo, (x, y), (x + period - gap - 1, y + period - gap - 1), colour, -1)
    return photo, np.array([[period, 0.0, x0], [0.0, period, y0], [0.0, 0.0, 1.0]])


def test_size_unknown_a_colour_chart_seen_going_on_past_one_side_is_grown_to_its_last_column(monkeypatch):
    """Issue #28 (an eighth blind look, 6 Dec 2026: a ColorChecker Digital SG read, size unknown, as 13×10 said
    whole, its last column of white, grey and black patches on the black card left out): past a found chequer's
    side, its lines seen across the strip and along its far side in full (`beyond_strips` ≥ `min_going_on`), a
    share of them as strong as its own (`min_chequer_seen_going_on`: the black patches hardly show), show the grid
    going on where its patches do not alternate like a chessboard's — the fit is grown that way and ends where
    the chart does. Past a chessboard's end, its margin shows neither."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _colour_chart(7, 5)
    short = GridFit(GridMapping(truth), 6, 5, 0.9, method="lines")
    fit = _found_size_unknown(monkeypatch, photo, short)
    assert (fit.width, fit.height, fit.partial) == (7, 5, ()) and _placed_on(fit, truth)
    evidence = find.verification(photo, short, CFG).evidence
    assert evidence.chequer_going_on_sides(CFG.verify) == [] and evidence.chequer_seen_going_on_sides(CFG.verify) == [
        "right"], evidence
    right = 1   # (the evidence's sides: left, right, top, bottom)
    for weaker in (replace(evidence, beyond_strips=(0.0, 0.89, 0.0, 0.0)),
                   replace(evidence, strong_beyond=(0.0, 0.11, 0.0, 0.0))):
        assert weaker.chequer_seen_going_on_sides(CFG.verify) == [], weaker   # a chessboard's margin reads so
    chessboard, board_truth = _chessboard((7, 9), 40), _chessboard_truth((7, 9), 40)
    whole = verify_grid(chessboard, GridMapping(board_truth), 7, 9, CFG.verify)
    assert whole.found and whole.evidence.chequer_seen_going_on_sides(CFG.verify) == [], whole.evidence
    assert evidence.strong_beyond[right] < CFG.verify.min_chequer_lines_going_on   # (not a piece of a larger one)


def test_size_given_none_found_at_it_a_whole_grid_of_that_size_the_size_unknown_proves_is_the_answer(monkeypatch):
    """Issue #28 (an eighth blind look, 6 Dec 2026: a 6×4 colour chart under booth light, asked at its size, was
    refused — "no grid of that size", the search's budget spent — while the size unknown placed it right: the
    free search saw 6×3 and grew it by the row it saw going on). The size-given search is never worse than the
    free one: where it finds nothing, the free search's fit of another size is proved as the size unknown proves
    it, and kept where that is a whole grid of the size asked; any other size is still not found."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _colour_chart(7, 5)
    short = GridFit(GridMapping(truth), 6, 5, 0.9, method="lines")   # the free search sees all but the last column
    monkeypatch.setattr(find, "_search", lambda image, grid, *args, **kwargs: None if grid else short)
    fit, verdict = find.find_verified_grid(photo, (7, 5), config=CFG)
    assert fit is not None and verdict is not None and verdict.found, verdict
    assert (fit.width, fit.height, fit.partial) == (7, 5, ()) and _placed_on(fit, truth)
    for other in ((8, 5), (7, 6)):   # the size unknown proves a 7×5: not the board asked for
        assert find.find_verified_grid(photo, other, config=CFG) == (None, None), other


def test_size_given_a_fit_refused_for_its_lines_seen_one_way_gives_way_to_the_free_search_and_no_other_refusal_does(
        monkeypatch):
    """Issue #28 (blind photos, stops 59 and 60: a tic-tac-toe sheet and a xiangqi board asked at their size were
    fitted at another period across, refused — "its lines are seen on 53 % of the edges one way and 100 % the
    other" — while the size unknown placed them right): a fit refused for its lines seen one way far less than the
    other is a lattice off across one family; the free search, which fits its lattice to the lines it sees, is
    asked, and its grid kept where it is the size asked and proved. A fit refused for anything else asks no more
    search, and keeps its reason."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((10, 7), [(180, 150), (780, 150), (780, 570), (180, 570)], margin=1.2)
    half_period_across = GridFit(GridMapping(truth @ np.diag([0.5, 1.0, 1.0])), 10, 7, 0.9)
    assert find.verification(photo, half_period_across, CFG).one_way   # (what the blind photos' fits showed)
    right = GridFit(GridMapping(truth), 10, 7, 0.9)
    free_searches = []

    def search(image, grid, *args, **kwargs):
        if grid is None:
            free_searches.append(grid)
            return right
        return proposed

    monkeypatch.setattr(find, "_search", search)
    proposed = half_period_across
    fit, verdict = find.find_verified_grid(photo, (10, 7), config=CFG)
    assert fit is not None and verdict is not None and verdict.found, verdict
    assert (fit.width, fit.height) == (10, 7) and _placed_on(fit, truth) and len(free_searches) == 1
    fit, verdict = find.find_verified_grid(photo, (7, 10), config=CFG)   # the same board, asked the other way round
    assert fit is not None and (fit.width, fit.height) == (7, 10)

    free_searches.clear()
    proposed = GridFit(GridMapping(truth @ np.diag([0.5, 0.5, 1.0])), 10, 7, 0.9)   # half the period both ways
    refusal = find.verification(photo, proposed, CFG)
    assert not refusal.found and not refusal.one_way
    fit, verdict = find.find_verified_grid(photo, (10, 7), config=CFG)
    assert fit is None and verdict is not None and verdict.reason == refusal.reason and free_searches == []


def test_a_fit_a_square_off_two_ways_is_walked_one_way_then_the_other_onto_its_grid(monkeypatch):
    """Issue #28 (an eighth blind look, 6 Dec 2026: a colour chart asked at its size was fitted a column right and a
    row down, over its row and its column of labels, and refused): the evidence of the fit refused says the grid lies
    a square left (its right column blank, the grid going on past its left side); a square left, it says a square
    up. The walk follows the evidence where it turns, and the fit is proved on the grid."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _drawn_grid((9, 7), [(200, 120), (740, 120), (740, 540), (200, 540)], margin=1.6)
    a_square_right_and_down = np.array([[1.0, 0, 1.0], [0, 1.0, 1.0], [0, 0, 1]])
    proposed = GridFit(GridMapping(truth @ a_square_right_and_down), 9, 7, 0.9)
    monkeypatch.setattr(find, "unverified_grid", lambda *args, **kwargs: proposed)
    fit, verdict = find.find_verified_grid(photo, (9, 7), config=CFG)
    assert fit is not None and verdict is not None and verdict.found, verdict
    assert (fit.width, fit.height) == (9, 7) and _placed_on(fit, truth)


def test_a_ruled_fit_a_row_off_over_a_line_of_print_is_walked_where_its_lines_go_on_in_full():
    """Issue #28 (blind sudokus of 5 Dec 2026: a 9×9 fitted a row down, its bottom row over the "difficulty
    rating" print below the grid, crossed by 62 % of its lines — refused as not crossed, too crossed to be the
    blank strip of a shifted fit): where a ruled grid's lines go on in full past the opposite side, inside the
    photo, the refused fit is walked that way and proved where the grid is."""
    from calibration.grid_finder.find import _walked_onto_grid
    from calibration.grid_finder.result import GridFit

    corners = [(210, 60), (750, 60), (750, 600), (210, 600)]      # 60 px squares
    photo, truth = _drawn_grid((9, 9), corners, frame=(960, 720), margin=1.6)
    for k in (0, 1, 3, 4, 6, 8):   # strokes of print below the grid, on 6 of the 10 lines' continuations
        top, bottom = GridMapping(truth).to_image(np.array([[k + 0.05, 9.3], [k + 0.05, 9.7]]))
        cv2.line(photo, (int(top[0]), int(top[1])), (int(bottom[0]), int(bottom[1])), (40, 40, 40), 3)
    a_row_down = np.array([[1.0, 0, 0], [0, 1.0, 1.0], [0, 0, 1]])
    off = GridFit(GridMapping(truth @ a_row_down), 9, 9, 0.9)
    refused = verification(photo, off, CFG)
    assert not refused.found and refused.evidence.beyond_strips[2] >= CFG.verify.min_going_on, refused.reason
    walked = _walked_onto_grid(photo, off, refused, CFG)
    assert walked is not None and walked[1].found
    outline = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]])
    assert np.allclose(walked[0].mapping.to_image(outline), GridMapping(truth).to_image(outline))


def test_a_ruled_fit_run_off_the_frame_over_blank_paper_is_refused_a_grid_cut_by_the_frame_is_not():
    """Issue #28 (blind Go diagrams asked as 19×19, their lines, not their squares: the 18×18 grid with a phantom
    column and row over the margin at the photo's left and bottom edges, 360 of 361 squares read): a ruled fit
    whose side runs mostly out of the photo while its outer strip, where the photo shows it, is crossed by none of
    its lines is refused — a grid cut by the frame shows its lines across the part in view, and stays found."""
    corners = [(40, 60), (580, 60), (580, 600), (40, 600)]          # 9×9 of 60 px, 36 px of paper to the left
    photo, truth = _drawn_grid((9, 9), corners, frame=(960, 720), margin=0.6)
    a_column_more = np.array([[1.0, 0, -1.0], [0, 1.0, 0], [0, 0, 1]])   # a 10×9 from a column left of the grid
    over_the_margin = verify_grid(photo, GridMapping(truth @ a_column_more), 10, 9, CFG.verify)
    assert over_the_margin.evidence.off_photo[0], over_the_margin.evidence
    assert not over_the_margin.found and "runs out of the photo over blank paper" in over_the_margin.reason
    assert verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify).found
    cut = [(-20, 60), (520, 60), (520, 600), (-20, 600)]             # the first column two thirds in the photo
    photo, truth = _drawn_grid((9, 9), cut, frame=(960, 720), margin=0.6)
    cut_by_the_frame = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert cut_by_the_frame.evidence.off_photo[0] and cut_by_the_frame.found, cut_by_the_frame.reason


def test_a_ruled_fit_over_its_blank_margin_is_refused_and_its_outer_row_is_the_one_the_photo_shows():
    """Issue #28 (a fifth blind look, 6 Dec 2026: a sudoku on a curled page asked as 9×9, fitted two rows down — its
    last row out of the frame, the row before it over the blank margin — and found there): a ruled grid's lines run
    to its border, so an outer row in the photo that none of them cross is the margin taken in, refused whatever the
    other sides show (here nothing past the top: the fit is a 9×9 over a 9×8 grid and its margin); and where the
    fit's last row lies out of the photo, the row the photo shows before it is the one judged."""
    from calibration.grid_finder import find

    corners = [(60, 60), (600, 60), (600, 540), (60, 540)]          # 9×8 squares of 60 px, 1.5 squares of paper
    photo, truth = _drawn_grid((9, 8), corners, frame=(960, 720), margin=1.5)
    over_the_margin = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert over_the_margin.evidence.blank_sides(CFG.verify) == ("bottom",), over_the_margin.evidence
    assert not over_the_margin.found and "bottom row is blank" in over_the_margin.reason, over_the_margin
    assert find._towards_grid(over_the_margin, CFG) == "top"   # a blank side: the grid lies the other way
    assert verify_grid(photo, GridMapping(truth), 9, 8, CFG.verify).found

    photo, truth = _drawn_grid((9, 9), [(60, 60), (600, 60), (600, 600), (60, 600)], frame=(960, 670), margin=1.5)
    two_rows_down = verify_grid(photo, GridMapping(truth @ np.array([[1.0, 0, 0], [0, 1.0, 2.0], [0, 0, 1]])), 9, 9,
                                CFG.verify)
    assert two_rows_down.evidence.off_photo[3] and two_rows_down.evidence.outer_crossed[3] == 0.0, two_rows_down
    assert not two_rows_down.found


def _two_grids_one_above_the_other() -> tuple[np.ndarray, np.ndarray]:
    """(photo, truth): a 9×9 grid of 40 px squares and, a square of paper below it, a 9×3 one, drawn as one
    9×13 lattice whose row 10 is paper (no line crosses it); truth: the 9×13's grid units -> photo pixels."""
    photo, truth = _drawn_grid((9, 13), [(200, 60), (560, 60), (560, 580), (200, 580)], frame=(760, 640))
    top, bottom = (int(GridMapping(truth).to_image(np.array([[0.0, y]]))[0, 1]) for y in (9, 10))
    photo[top + 3: bottom - 2, 190:571] = 245     # the paper between them, its lines wiped
    return photo, truth


def test_two_grids_one_above_the_other_are_not_one_and_size_unknown_the_larger_is_found(monkeypatch):
    """Issue #28 (a fifth blind look, 6 Dec 2026: two sudokus printed one above the other read as one 9×11 with the
    size unknown; a newspaper sudoku asked as 9×9, fitted over its banner and the "Level" line below it): a ruled
    grid's lines cross every row inside it, so a fit with an inner row none of them cross is refused, and with the
    size unknown the larger part beside that row is verified on its own and returned whole."""
    photo, truth = _two_grids_one_above_the_other()
    as_one = verify_grid(photo, GridMapping(truth), 9, 13, CFG.verify)
    assert as_one.evidence.blank_inner_strip(CFG.verify) == ("row", 9), as_one.evidence
    assert not as_one.found and "row 10 of 13 (from the top) is blank" in as_one.reason, as_one
    assert verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify).found      # the top grid alone
    from calibration.grid_finder.result import GridFit
    searched, _ = find_verified_grid(photo, None, config=CFG)      # (the search alone proposes the 9×13)
    assert searched is not None and (searched.width, searched.height, searched.partial) == (9, 9, ()), searched
    corners = np.array([[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]])
    assert np.abs(searched.mapping.to_image(corners) - GridMapping(truth).to_image(corners)).max() < 2.0   # px
    fit = _found_size_unknown(monkeypatch, photo, GridFit(GridMapping(truth), 9, 13, 0.9))
    assert (fit.width, fit.height, fit.partial) == (9, 9, ()) and _placed_on(fit, truth)


def _faded(photo: np.ndarray, truth: np.ndarray, width: int, height: int, share: float, seed: int = 0) -> np.ndarray:
    """The photo with about `share` of the width×height lattice's edges (truth: grid units -> pixels) wiped to paper
    along their length, their crossings left: ink lines that fade in places, as on a curled page or in poor light."""
    rng = np.random.default_rng(seed)
    faded, mapping = photo.copy(), GridMapping(truth)
    edges = ([((x, y), (0, 1)) for x in range(width + 1) for y in range(height)]
             + [((x, y), (1, 0)) for x in range(width) for y in range(height + 1)])
    for start, along in edges:
        if rng.random() < share:
            a, d = np.array(start, float), np.array(along, float)
            n = d[::-1] * 0.08
            quad = np.array([a + 0.05 * d - n, a + 0.95 * d - n, a + 0.95 * d + n, a + 0.05 * d + n])
            cv2.fillConvexPoly(faded, np.round(mapping.to_image(quad)).astype(np.int32), (245, 245, 245))
    return faded


def _chess_mat_on_a_carpet(square: int = 40, frame=(960, 720), seed: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """An 8×8 chessboard on a sheet a square wide, a letter beside each rank in the margin on its right, on a
    carpet of fine dark and light flecks (a US Chess mat on a red carpet); and its truth, grid units -> pixels."""
    sheet = np.full((10 * square, 10 * square, 3), 240, np.uint8)
    for j in range(8):
        for i in range(j % 2, 8, 2):
            sheet[(j + 1) * square:(j + 2) * square, (i + 1) * square:(i + 2) * square] = 25
    rng = np.random.default_rng(seed)
    flecks = rng.integers(0, 2, (frame[1] // 3 + 1, frame[0] // 3 + 1)).astype(np.uint8) * 150 + 40
    photo = np.repeat(np.repeat(flecks, 3, 0), 3, 1)[:frame[1], :frame[0], None].repeat(3, 2)
    y0, x0 = (frame[1] - sheet.shape[0]) // 3, (frame[0] - sheet.shape[1]) // 2
    photo[y0:y0 + sheet.shape[0], x0:x0 + sheet.shape[1]] = sheet
    for j in range(8):
        cv2.putText(photo, "abcdefgh"[j], (x0 + 9 * square + square // 3, y0 + (j + 1) * square + 2 * square // 3),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.7, (60, 60, 60), 2)
    return photo, np.array([[square, 0, x0 + square], [0, square, y0 + square], [0, 0, 1.0]])


def test_a_chequer_with_its_margin_and_the_carpet_taken_in_is_refused_and_size_unknown_the_board_is_found(monkeypatch):
    """Issue #28 (grids-public, jialinding 15_4: a chess mat on a carpet read 10×8 with the size unknown, its
    lettered margin the ninth column and the carpet, whose flecks cross its lines, the tenth): a chequer's squares
    alternate across every column inside it, so an inner column none of its colour steps cross is refused
    (`blank_inner_strip`), and the board beside it is found on its own."""
    photo, truth = _chess_mat_on_a_carpet()
    taken_in = verify_grid(photo, GridMapping(truth), 10, 8, CFG.verify)
    assert taken_in.evidence.chequered(CFG.verify) and taken_in.evidence.blank_inner_strip(CFG.verify) == ("column", 8)
    assert not taken_in.found and "column 9 of 10 (from the left) is blank" in taken_in.reason, taken_in
    from calibration.grid_finder.result import GridFit
    fit = _found_size_unknown(monkeypatch, photo, GridFit(GridMapping(truth), 10, 8, 0.9))
    assert (fit.width, fit.height) == (8, 8) and _placed_on(fit, truth)


def test_a_chequer_asked_at_its_size_and_fitted_rows_down_is_walked_up_onto_its_board():
    """Issue #28 (grids-public, cschubiner IMG_1499: a chess set in its case asked as 8×8, fitted two rows down over
    its frame and the table, refused for the chequer going on past its top): the side past which a chequer goes on
    and the side opposite its one blank row say where its board lies (`_towards_grid`); walked there a row at a
    time, it is found where the board is."""
    from calibration.grid_finder.find import _walked_onto_grid
    from calibration.grid_finder.result import GridFit
    photo, truth = _chess_mat_on_a_carpet()
    off = GridFit(GridMapping(truth @ np.array([[1, 0, 0], [0, 1, 2], [0, 0, 1.0]])), 8, 8, 0.9)
    refused = verification(photo, off, CFG)
    assert not refused.found and "goes on past its top side" in refused.reason, refused
    walked = _walked_onto_grid(photo, off, refused, CFG)
    assert walked is not None and walked[1].found and _placed_on(walked[0], truth)


def test_two_grids_taken_as_one_are_refused_where_their_ink_lines_fade_under_the_ruled_share():
    """Issue #28 (a fourteenth blind look, 7 Dec 2026: INIGO-7 sudokuLibro12, a curled book page with two sudokus,
    asked as 9×9 was laid across the upper grid's last rows, the paper between them and the lower grid's first rows;
    its lines seen on 69 % of its edges, under `ruled_seen_share`, so it was judged as a board without lines inside
    and its blank inner row was not): a grid seen on fewer edges whose seen edges are ink lines between alike
    squares is ruled (`ink_ruled`), and judged by the ruled checks. The same fits with that judgement off (as
    before) were found."""
    photo, truth = _two_grids_one_above_the_other()
    photo = _faded(photo, truth, 9, 13, 0.4)
    across = GridMapping(truth @ np.array([[1.0, 0, 0], [0, 1.0, 4], [0, 0, 1]]))   # rows 5–13: the paper is its 6th
    without_ink = replace(CFG.verify, min_ink_seen_share=1.0)
    for mapping, height, row in ((GridMapping(truth), 13, 10), (across, 9, 6)):
        verdict = verify_grid(photo, mapping, 9, height, CFG.verify)
        evidence = verdict.evidence
        assert CFG.verify.min_ink_seen_share <= evidence.seen_share < CFG.verify.ruled_seen_share, evidence
        assert evidence.ink_ruled and evidence.ruled(CFG.verify), evidence
        assert not verdict.found and f"row {row} of {height} (from the top) is blank" in verdict.reason, verdict
        assert verify_grid(photo, mapping, 9, height, without_ink).found
    top = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify)
    assert top.found and top.evidence.ink_ruled, top      # the upper grid alone, its lines as faded


def test_a_board_without_lines_inside_is_not_ink_ruled_its_edges_are_colour_borders():
    """Issue #28: `ink_ruled` reads what a seen edge is — an ink line between alike squares, or a step between two
    colours. A board of coloured squares without lines (its seen edges: where two colours meet) is not ink-ruled
    where its share seen falls in the band (`ruled_seen_share` raised over it here); a ruled grid drawn in ink, its
    lines faded as much, is."""
    frame, corners, size, square, pad = (760, 640), [(200, 60), (560, 60), (560, 420), (200, 420)], 9, 40, 24
    colours = np.array([(60, 60, 200), (60, 170, 60), (200, 120, 40)], np.uint8)
    picks = np.random.default_rng(1).integers(len(colours), size=(size, size))
    sheet = np.full((size * square + 2 * pad,) * 2 + (3,), 245, np.uint8)
    sheet[pad:-pad, pad:-pad] = colours[picks].repeat(square, 0).repeat(square, 1)
    truth = cv2.getPerspectiveTransform(np.float32([[0, 0], [size, 0], [size, size], [0, size]]), np.float32(corners))
    to_photo = truth @ np.array([[1 / square, 0, -pad / square], [0, 1 / square, -pad / square], [0, 0, 1.0]])
    photo = table_texture(np.random.default_rng(3), frame)
    mask = cv2.warpPerspective(np.full(sheet.shape[:2], 255, np.uint8), to_photo, frame) > 128
    photo[mask] = cv2.warpPerspective(sheet, to_photo, frame, flags=cv2.INTER_AREA)[mask]
    banded = replace(CFG.verify, ruled_seen_share=0.9)
    unlined = verify_grid(photo, GridMapping(truth), size, size, banded).evidence
    assert banded.min_ink_seen_share <= unlined.seen_share < banded.ruled_seen_share, unlined
    assert not unlined.ink_ruled and not unlined.ruled(banded), unlined
    drawn, truth = _drawn_grid((size, size), corners, frame=frame)
    ruled = verify_grid(_faded(drawn, truth, size, size, 0.25), GridMapping(truth), size, size, banded).evidence
    assert banded.min_ink_seen_share <= ruled.seen_share < banded.ruled_seen_share and ruled.ink_ruled, ruled


def test_a_ruled_grids_inner_strips_are_judged_between_the_outermost_ones_the_photo_shows():
    """Issue #28: `inner_crossed` is the least crossed column and row strictly inside the outer strips judged — a
    grid whose every line is drawn reads 1 with its index; a grid of under 3 squares either way has none (-1)."""
    photo, truth = _drawn_grid((9, 9), [(200, 60), (560, 60), (560, 420), (200, 420)], frame=(760, 640))
    evidence = verify_grid(photo, GridMapping(truth), 9, 9, CFG.verify).evidence
    assert evidence.inner_crossed == (1.0, 1.0) and min(evidence.inner_crossed_at) >= 1, evidence
    assert evidence.blank_inner_strip(CFG.verify) is None
    assert verify_grid(photo, GridMapping(truth), 2, 9, CFG.verify).evidence.inner_crossed_at == (-1, -1)


def test_size_unknown_a_grid_whose_lines_cross_every_row_the_frame_cuts_is_no_board_one_with_margins_is():
    """Issue #28 (blind negatives of 5 Dec 2026: a woven wire mesh filling the frame read as a 19×16 board ending
    0.7 square inside the photo's edges, a woven lattice as a 5×5): past a side where the frame cuts the next row
    before its far line, a grid going on shows its lines crossing the part in view (`cut_strips`), a board's margin
    does not. A fit whose every side is so open is no board — its size and first square cannot be told — while the
    same grid of squares ending in a paper margin cut by the frame as close is found whole."""
    frame = (536, 456)                                                 # 12×10 squares of 40 px, 28 px to spare
    mesh, truth = _drawn_grid((14, 12), [(-12, -12), (548, -12), (548, 468), (-12, 468)], frame=frame)
    inner = GridMapping(truth @ np.array([[1.0, 0, 1], [0, 1.0, 1], [0, 0, 1]]))
    assert verify_grid(mesh, inner, 12, 10, CFG.verify).evidence.cut_strips == (1.0, 1.0, 1.0, 1.0)
    fit, verdict = find_verified_grid(mesh, None, config=CFG)
    assert fit is None and verdict is not None and "every side" in verdict.reason, verdict
    from vision import scan
    error = scan(mesh).error   # the app and the scan JSON say why, in the player's language
    assert error is not None and error.key == "camera.vision.grid_fills_photo", error
    board, truth = _drawn_grid((12, 10), [(28, 28), (508, 28), (508, 428), (28, 428)], frame=frame, margin=0.9)
    assert verify_grid(board, GridMapping(truth), 12, 10, CFG.verify).evidence.cut_strips == (0.0, 0.0, 0.0, 0.0)
    fit, verdict = find_verified_grid(board, None, config=CFG)
    assert fit is not None and (fit.width, fit.height) == (12, 10) and fit.partial == (), verdict


def test_a_side_the_frame_cuts_is_open_only_where_a_ruled_grids_lines_cross_in_full_what_is_in_view():
    """Issue #28: `cut_sides` names the sides past which a ruled grid's lines cross the part in view of a row the
    frame cuts (`min_going_on`) — not a chequer's (a blind webcam chessboard on a cutting mat, 5 Dec 2026: its
    paper's edge and the mat's ruler crossed the strip in full), not lines crossing less than in full."""
    from calibration.grid_verify import GridEvidence

    verify = CFG.verify
    ruled = GridEvidence(25.0, 1.0, verify.ruled_seen_share + 0.1, 500, cut_strips=(1.0, 0.0, verify.min_going_on, 0.5))
    assert ruled.cut_sides(verify) == ("left", "top")
    assert replace(ruled, neighbour_step=verify.min_chequer_step + 1).cut_sides(verify) == ()
    assert replace(ruled, seen_share=verify.ruled_seen_share - 0.1).cut_sides(verify) == ()


def _chessboard_cut_top(square: int, cut: float, *, back_ranks: bool) -> np.ndarray:
    """An 8×8 chessboard (brown and cream) on a wooden table, its left and right sides in the photo; the frame cuts
    its first and last rows, `cut` of a square of each out of view. `back_ranks`: a chess game's pieces on its two
    first and two last rows (dark discs above, light below); otherwise the cut rows are a green cutting mat whose
    ruled lines carry on its columns' lines, and the board is the 8×6 between them."""
    top = -int(round(cut * square))
    image = np.full((8 * square + 2 * top, 11 * square, 3), (70, 95, 120), np.uint8)
    left = int(1.5 * square)
    for y in range(8):
        for x in range(8):
            x0, y0 = left + x * square, top + y * square
            if not back_ranks and y in (0, 7):
                cv2.rectangle(image, (x0, y0), (x0 + square, y0 + square), (90, 140, 80), -1)
                cv2.line(image, (x0, y0), (x0, y0 + square), (40, 60, 35), 1)
                continue
            cv2.rectangle(image, (x0, y0), (x0 + square - 1, y0 + square - 1),
                          (40, 60, 100) if (x + y) % 2 else (190, 210, 225), -1)
            if back_ranks and y in (0, 1, 6, 7):
                cv2.circle(image, (x0 + square // 2, y0 + square // 2), int(0.38 * square),
                           (25, 30, 40) if y < 2 else (215, 225, 230), -1)
    return image


def test_size_unknown_a_chess_game_cropped_through_its_back_ranks_goes_on_where_the_frame_cuts_them():
    """Issue #28 (blind look 14, WolfgangFahl chessBoard012: a chess game cropped to its board, read 8×6 said to end
    where its first and last rows, a row of pieces each, reach the frame). A chequer past whose side the frame cuts
    a row whose lines cross the part in view in full, a share of them as strong as its own colour steps
    (`chequer_cut_going_on_sides`), goes on there: grown that way, and partial where the frame cuts it. A cutting
    mat's ruled lines crossing the cut strip are no colour step: the 8×6 board on it ends there."""
    game = _chessboard_cut_top(40, 0.3, back_ranks=True)
    fit, verdict = find_verified_grid(game, None, config=CFG)
    assert fit is not None and (fit.width, fit.height) == (8, 8), (fit, verdict)
    assert set(fit.partial) == {"top", "bottom"}, fit.partial
    mat = _chessboard_cut_top(40, 0.3, back_ranks=False)
    fit, verdict = find_verified_grid(mat, None, config=CFG)
    assert fit is not None and (fit.width, fit.height) == (8, 6) and fit.partial == (), (fit, verdict)
    assert verdict.evidence.cut_strips[2] >= CFG.verify.min_going_on   # the ruler crosses the cut strip in full
    assert verdict.evidence.chequer_cut_going_on_sides(CFG.verify) == []


def test_a_chequer_goes_on_where_the_frame_cuts_only_where_its_strong_lines_cross_the_part_in_view():
    """Issue #28: `chequer_cut_going_on_sides` needs a chequer, its lines across the cut strip in full at the plain
    level (`min_going_on`) and a share as strong as its own (`min_chequer_seen_going_on`)."""
    from calibration.grid_verify import GridEvidence

    verify = CFG.verify
    chequer = GridEvidence(60.0, 2.0, 1.0, 500, neighbour_step=verify.min_chequer_step + 1,
                           cut_strips=(1.0, verify.min_going_on, 1.0, 0.5),
                           strong_cut=(verify.min_chequer_seen_going_on, 1.0, 0.0, 1.0))
    assert chequer.chequer_cut_going_on_sides(verify) == ["left", "right"]
    assert replace(chequer, neighbour_step=verify.min_chequer_step - 1).chequer_cut_going_on_sides(verify) == []


def test_a_ruled_grid_whose_corner_block_is_blank_goes_on_where_its_lines_cross_the_next_row_as_they_cross_its_own():
    """Issue #28 (a sixth blind look's nonogram, nono4: its top-left block of clue cells blank, read 18×17 with the
    size unknown and said whole, its top row of clue cells left out). Past a side where the grid's lines cross the
    strip as much as they cross its own outermost strip there (`ruled_seen_going_on_sides`), the grid goes on, short
    of `min_going_on` as its own strips are; the whole grid goes on nowhere."""
    photo, truth = _drawn_grid((18, 18), [(160, 40), (800, 40), (800, 680), (160, 680)], blank_corner=3)
    row_short = verify_grid(photo, GridMapping(truth @ np.array([[1.0, 0, 0], [0, 1.0, 1], [0, 0, 1]])), 18, 17,
                            CFG.verify)
    assert row_short.found and row_short.going_on is None, row_short.reason   # proved: nothing refused it before
    assert row_short.evidence.beyond_strips[2] < CFG.verify.min_going_on
    assert row_short.evidence.ruled_seen_going_on_sides(CFG.verify) == ["top"], row_short.evidence
    whole = verify_grid(photo, GridMapping(truth), 18, 18, CFG.verify)
    assert whole.found and whole.evidence.ruled_seen_going_on_sides(CFG.verify) == [], whole.evidence


def _sudoku_top_line_lifted(lift_left: float, lift_right: float) -> tuple[np.ndarray, np.ndarray]:
    """(photo, truth): a 9×9 ruled grid (thick every third line) whose top line, thin, lies `lift_left` of a square
    above its place at the left and `lift_right` at the right, its columns' lines running up to it: the top edge of
    a curled page lifting off the lattice of the rest. truth: the lattice of the rows below."""
    px, pad, origin = 44, 30, (150, 70)
    sheet = np.full((9 * px + 2 * pad, 9 * px + 2 * pad, 3), 245, np.uint8)

    def top(x: float) -> float:
        return pad - px * (lift_left + (lift_right - lift_left) * (x - pad) / (9 * px))

    xs = np.arange(pad, pad + 9 * px + 1)
    cv2.polylines(sheet, [np.stack([xs, [top(x) for x in xs]], 1).round().astype(np.int32)], False, (40, 40, 40), 1)
    for k in range(1, 10):
        cv2.line(sheet, (pad, pad + k * px), (pad + 9 * px, pad + k * px), (40, 40, 40), 3 if k % 3 == 0 else 1)
    for k in range(10):
        x = pad + k * px
        cv2.line(sheet, (x, int(round(top(x)))), (x, pad + 9 * px), (40, 40, 40), 3 if k % 3 == 0 else 1)
    photo = table_texture(np.random.default_rng(5), (760, 640))
    photo[origin[1]:origin[1] + sheet.shape[0], origin[0]:origin[0] + sheet.shape[1]] = sheet
    return photo, np.array([[px, 0, origin[0] + pad], [0, px, origin[1] + pad], [0, 0, 1.0]])


def test_size_unknown_a_ruled_grid_grows_over_a_curled_row_where_the_grown_grid_is_proved_with_that_row_crossed():
    """Issue #28 (a fifth blind look's curled sudoku, LiorSinai IMG_3637: read 9×8 said whole, its top row left
    out). Where a curled page lifts the top line off the lattice of the rows below, the strip past the fit reads its
    far side at the lattice's reach and sees it only in part (`beyond_strips` 0.33–0.67, under `min_going_on`). The
    fit grown over it judges that line as its border, at the border's reach: proved, its new row crossed as much as
    the row it had, so the grid is that row larger (`find._side_to_grow`). The whole grid grows no further."""
    from calibration.grid_finder import find
    from calibration.grid_finder.result import GridFit

    photo, truth = _sudoku_top_line_lifted(0.1, 0.35)
    short = GridFit(GridMapping(truth @ np.array([[1.0, 0, 0], [0, 1.0, 1], [0, 0, 1]])), 9, 8, 1.0)
    proved = find.verification(photo, short, CFG)
    assert proved.found and 0.0 < proved.evidence.beyond_strips[2] < CFG.verify.min_going_on, proved.evidence
    assert find._side_to_grow(photo, short, proved, CFG) == "top"
    whole = GridFit(GridMapping(truth), 9, 9, 1.0)
    assert find._side_to_grow(photo, whole, find.verification(photo, whole, CFG), CFG) is None
    fit, verdict = find_verified_grid(photo, None, config=CFG)
    assert fit is not None and (fit.width, fit.height) == (9, 9) and fit.partial == (), (fit, verdict)
    corners = fit.mapping.to_image(np.array([[0, 9], [9, 9]], float))
    assert np.abs(corners - apply_h(truth, np.array([[0, 9], [9, 9]], float))).max() < 0.25 * 44, corners


def test_a_ruled_grid_goes_on_only_where_the_next_strip_is_crossed_as_much_as_its_own_and_in_the_photo():
    """Issue #28: `ruled_seen_going_on_sides` compares each side's strip past it with the grid's own outermost strip
    there — print beside a sudoku, crossed less, is no row of it — and judges neither chequers nor sides out of the
    photo."""
    from calibration.grid_verify import GridEvidence

    verify = CFG.verify
    ruled = GridEvidence(25.0, 1.0, verify.ruled_seen_share + 0.1, 500, beyond_strips=(0.88, 0.75, 0.0, 0.5),
                         outer_crossed=(0.88, 1.0, 0.5, 0.5))
    assert ruled.ruled_seen_going_on_sides(verify) == ["left", "bottom"]
    assert replace(ruled, off_photo=(True, False, False, False)).ruled_seen_going_on_sides(verify) == ["bottom"]
    assert replace(ruled, neighbour_step=verify.min_chequer_step + 1).ruled_seen_going_on_sides(verify) == []


def test_a_ruled_grid_is_said_to_go_on_only_where_its_lines_go_on_in_full_inside_the_photo():
    """Issue #28: the verification's last check refuses a ruled grid whose lines are seen going on in full
    (`min_going_on`) past a side inside the photo, and says which side (`Verdict.going_on`) — not a chequer (a
    webcam chessboard's margin reads 0.89 going on past its side; a chequer's end is `chequer_beyond`'s to judge),
    not lines going on less than in full (text beside a sudoku: ≤ 0.67 on the labelled sets), not a side out of
    the photo (the frame's edge: `partial` says that), not a grid without lines inside."""
    from calibration.grid_verify import GridEvidence

    verify = CFG.verify
    ruled = GridEvidence(25.0, 1.0, verify.ruled_seen_share + 0.1, 500, beyond_strips=(0.0, 0.0, 0.94, 0.0))
    assert ruled.ruled_going_on_side(verify) == "top"
    assert replace(ruled, neighbour_step=verify.min_chequer_step + 1).ruled_going_on_side(verify) is None
    partly = replace(ruled, beyond_strips=(0.0, 0.0, verify.min_going_on - 0.05, 0.0))
    assert partly.ruled_going_on_side(verify) is None
    assert replace(ruled, off_photo=(False, False, True, False)).ruled_going_on_side(verify) is None
    assert replace(ruled, seen_share=verify.ruled_seen_share - 0.1).ruled_going_on_side(verify) is None


def test_a_grid_without_lines_on_every_edge_is_judged_shifted_only_on_plain_evidence():
    """Issue #28: coloured squares show a border only between two colours, so an outer strip may be little
    crossed by nature; on such a grid (seen on fewer than `ruled_seen_share` of its edges) the grid going on
    past the opposite side must be plain (`min_beyond_seen_unruled`) for the fit to be called shifted."""
    from calibration.grid_verify import GridEvidence, shifted_side

    verify = CFG.verify
    unruled = GridEvidence(9.0, 2.5, verify.ruled_seen_share - 0.02, 500, outer_crossed=(0.0, 1.0, 0.7, 0.8),
                           beyond_strips=(0.0, 1.0, 0.05, 0.15))
    assert shifted_side(unruled, verify) == "left"
    halfway = replace(unruled, beyond_strips=(0.0, verify.min_beyond_seen_unruled - 0.1, 0.05, 0.15))
    assert shifted_side(halfway, verify) is None
    assert shifted_side(replace(halfway, seen_share=verify.ruled_seen_share), verify) == "left"   # a ruled grid's bar


def test_verification_stage_refuses_a_ruled_grid_whose_side_lies_in_the_text_beside_it():
    """Issue #28 (gs image204 read 12×9 with the text columns beside it, s4 image1083 9×11 with a title and
    a solution grid): where the text beside a sudoku is ruled on the sudoku's rows, its rules cross the strip
    taken in, but the print between them is seen as much (`_stands_out`): the strip is crossed by none of the
    grid's lines. And the fit's side lies in the text, no more a line than the text a quarter square inside it:
    the border check alone (every strip whose rules are seen taken as crossed) refuses it too. The sudoku itself
    (its border a thick line) is proved."""
    page = _sudoku_page()
    for k in range(10):    # the text ruled on the sudoku's rows
        cv2.line(page, (400, 200 + 40 * k), (940, 200 + 40 * k), (40, 40, 40), 2)
    fit = GridMapping.coerce(np.array([[40.0, 0, 40], [0, 40.0, 200], [0, 0, 1]]))
    right = verify_grid(page, fit, 9, 9, CFG.verify)
    assert right.found, right.reason
    rules_as_lines = replace(CFG.verify, min_line_sample_lead=-1.0)
    for width in (10, 12):
        with_text = verify_grid(page, fit, width, 9, CFG.verify)
        assert not with_text.found and "not crossed by its lines" in with_text.reason, with_text.reason
        assert with_text.evidence.outer_crossed[1] >= CFG.verify.min_outer_seen > with_text.evidence.outer_strips[1]
        border_alone = verify_grid(page, fit, width, 9, rules_as_lines)
        assert border_alone.evidence.outer_seen >= CFG.verify.min_outer_seen, "the strip passes as crossed"
        assert border_alone.evidence.border_ratios[1] < CFG.verify.min_border_ratio <= min(right.evidence.border_ratios)
        assert not border_alone.found and "right side is no border" in border_alone.reason


def test_verification_stage_refuses_a_few_squares_of_a_larger_chequer():
    """Issue #28 (size unknown, 3×3 squares of a GoPro's 9×7 chessboard returned): a chequer fit whose
    outer squares' neighbours past a side alternate with them as its own squares do is a part of a larger
    chequer, refused; the whole board, its margin the paper past every side, is proved."""
    px, pad, (w, h) = 50, 40, (9, 7)
    photo = _flat_chequer(px, pad, (w, h))
    whole = GridMapping(np.array([[float(px), 0, pad], [0, float(px), pad], [0, 0, 1]]))
    part = GridMapping(np.array([[float(px), 0, pad + 3 * px], [0, float(px), pad + 2 * px], [0, 0, 1]]))
    board = verify_grid(photo, whole, w, h, CFG.verify)
    assert board.found, board.reason
    assert board.evidence.chequer_beyond == (0.0, 0.0, 0.0, 0.0)   # past its dark outer squares only: paper
    three = verify_grid(photo, part, 3, 3, CFG.verify)
    assert three.evidence.neighbour_step >= CFG.verify.min_chequer_step
    assert not three.found and "chequer goes on" in three.reason


def test_a_piece_of_a_chequer_whose_squares_past_it_hold_pieces_is_refused_by_its_lines_going_on():
    """Issue #28 (blind chess games of 5 Dec 2026, an 8×8 asked as 7×7 or 8×7: a piece of it found on 30 and 31 of
    32 photos): pieces standing on the squares past a piece of a chequer hide their colours (`chequer_beyond` 0),
    but the chequer's lines go on across those rows, as strong as its own (`strong_beyond`), on the whole side or
    all but a line a piece hides: past one side, a piece of a larger chequer, refused. The whole board, its margin
    the paper, is proved."""
    px, pad, (w, h) = 50, 40, (9, 7)
    photo = _flat_chequer(px, pad, (w, h))
    for x in range(2, 7):                                   # a grey piece on every square round the 3×3 below
        for y in range(1, 6):
            if not (3 <= x < 6 and 2 <= y < 5):
                cv2.circle(photo, (pad + x * px + px // 2, pad + y * px + px // 2), int(0.36 * px), (128, 128, 128), -1)
    part = GridMapping(np.array([[float(px), 0, pad + 3 * px], [0, float(px), pad + 2 * px], [0, 0, 1]]))
    three = verify_grid(photo, part, 3, 3, CFG.verify)
    assert max(three.evidence.chequer_beyond) < CFG.verify.max_chequer_beyond, three.evidence
    assert min(three.evidence.strong_beyond) >= CFG.verify.min_chequer_lines_going_on, three.evidence
    assert not three.found and "chequer goes on" in three.reason, three.reason
    whole = GridMapping(np.array([[float(px), 0, pad], [0, float(px), pad], [0, 0, 1]]))
    assert verify_grid(photo, whole, w, h, CFG.verify).found
    # one side is enough (asked as 8×7): the last column under pieces, the board's ruled border past it (a chess
    # mat's), the paper past the three other sides
    board = _flat_chequer(px, pad, (w, h))
    cv2.rectangle(board, (pad - 2, pad - 2), (pad + w * px + 1, pad + h * px + 1), (30, 30, 30), 3)
    for y in range(h):
        cv2.circle(board, (pad + (w - 1) * px + px // 2, pad + y * px + px // 2), int(0.36 * px), (128, 128, 128), -1)
    all_but_one = verify_grid(board, whole, w - 1, h, CFG.verify)
    assert all_but_one.evidence.strong_beyond[1] >= CFG.verify.min_chequer_lines_going_on, all_but_one.evidence
    assert not all_but_one.found and "goes on past its right side" in all_but_one.reason, all_but_one.reason
    assert verify_grid(board, whole, w, h, CFG.verify).found
    # a larger piece there hiding one of the lines across that column (andreyadriano 0013 asked as 8×7: 7 of 8)
    x0, y0 = pad + (w - 1) * px, pad + 3 * px
    cv2.rectangle(board, (x0 + px // 8, y0 - px // 3), (x0 + px - px // 8, y0 + px // 3), (128, 128, 128), -1)
    one_hidden = verify_grid(board, whole, w - 1, h, CFG.verify)
    assert CFG.verify.min_chequer_lines_going_on <= one_hidden.evidence.strong_beyond[1] < 1.0, one_hidden.evidence
    assert not one_hidden.found and "goes on past its right side" in one_hidden.reason, one_hidden.reason
    assert verify_grid(board, whole, w, h, CFG.verify).found


def test_a_small_coloured_board_on_a_grained_table_is_no_piece_of_a_chequer_its_grain_is_no_line():
    """Issue #28: past a small board's margin, a grained table's streaks cross the chequer's lines continued there
    at the plain level (`beyond_strips` 1.0 past two sides of the fit of the vision bench's synthetic 3×3, seed 16,
    before busy strips were judged by `_stands_out`) as much as they cross the strip between those lines: they do
    not stand out from it (`beyond_strips` 0 there now), and they are not as strong as a share of the chequer's own
    lines (`strong_beyond`). Not a piece of a chequer: it is found, placed within 0.1 square."""
    from companion.bench.grid_sets import synthetic_case, synthetic_error

    photo, (w, h), _ = synthetic_case(16)
    fit, verdict = find_verified_grid(photo.image, (w, h), config=CFG)
    assert fit is not None, verdict
    assert max(verdict.evidence.beyond_strips) < CFG.verify.min_going_on, verdict.evidence
    assert max(verdict.evidence.strong_beyond) < CFG.verify.min_chequer_lines_going_on, verdict.evidence
    assert synthetic_error(fit, photo.homography, w, h) < 0.1


def test_a_chequer_goes_on_past_a_side_only_where_it_goes_on_beside_its_light_and_its_dark_squares():
    """Issue #28 (a blind fisheye photo of a monitor's chequer, 5 Dec 2026: a 16×15 piece returned, its lines
    drifting off the squares towards its sides, 67–75 % of its outer squares' neighbours going on): the light and
    the dark outer squares are judged apart. A board's margin, one surface, is the other colour beside one of them
    only (0, where counted together it reads half); a chequer going on is beside both, even where a third of the
    neighbours are misread."""
    from calibration.grid_verify import _chequer_beyond

    w, h = 6, 5
    ys, xs = np.mgrid[0:h + 2, 0:w + 2]
    chequer = np.where((xs + ys) % 2 == 0, 60.0, 200.0)              # the grid and its ring, one chequer
    in_photo = np.ones((h + 2, w + 2), bool)
    assert _chequer_beyond(chequer, in_photo, w, h, CFG.verify) == (1.0, 1.0, 1.0, 1.0)
    margin = chequer.copy()
    margin[[0, -1], :], margin[:, [0, -1]] = 235.0, 235.0             # white paper past every side
    assert _chequer_beyond(margin, in_photo, w, h, CFG.verify) == (0.0, 0.0, 0.0, 0.0)
    misread = chequer.copy()
    misread[0, 1::3] = misread[-1, 1::3] = 130.0                      # a third of the ring read between the colours
    misread[1::3, 0] = misread[1::3, -1] = 130.0
    shares = _chequer_beyond(misread, in_photo, w, h, CFG.verify)
    assert all(CFG.verify.max_chequer_beyond <= share < 1.0 for share in shares), shares

def test_verification_stage_refuses_cells_that_are_no_squares_on_any_plane():
    """Issue 28 (a 20×12 laid over 0.6 × 1.1 of a foreign board's squares, passed): the fit's cells, brought back
    to their plane through any plausible camera (focal ≥ 0.3 × the diagonal, centred between the photo's centre
    and the grid's), must be squares. A grid of 2:1 rectangles seen from above, every line drawn and seen, its
    cells plain, is refused for that alone; the same drawing with square cells, and in perspective, is proved."""
    oblong, oblong_truth = _drawn_grid((8, 6), [(160, 120), (800, 120), (800, 360), (160, 360)])
    refused = verify_grid(oblong, GridMapping.coerce(oblong_truth), 8, 6, CFG.verify)
    assert not refused.found and "no squares" in refused.reason
    assert refused.evidence.square_skew > CFG.verify.max_square_skew
    for corners in (TOP_DOWN, SLANTED):
        photo, truth = _drawn_grid((8, 6), corners)
        proved = verify_grid(photo, GridMapping.coerce(truth), 8, 6, CFG.verify)
        assert proved.found, proved.reason
        assert proved.evidence.square_skew < 0.1


def test_search_budget_counts_only_while_armed_and_stops_the_search_it_arms():
    """Issue #28: the line search's fallbacks are budgeted in edge samples scored (counted, not timed: the same
    photo gets the same answer on a loaded machine); unarmed, nothing is counted."""
    budget = WorkBudget()
    budget.spend(10**9)                               # unarmed: the direct search is never cut
    assert not budget.spent_out
    budget.left = 100
    budget.spend(60)
    with pytest.raises(SearchBudgetSpent):
        budget.spend(60)
    assert budget.spent_out


def test_a_size_given_search_cut_by_its_budget_says_so_instead_of_answering():
    """Issue #28: asked a size the drawn grid does not show (10×8 on an 8×6 grid), the search tries the other
    lattices (outline, doubled period, grown, lens) after its own: with no budget for them, the answer is
    "not found" with the budget as its reason; with the default budget they run out and find nothing, and
    nothing is said of a budget. The right size is found either way (no fallback needed)."""
    photo, _ = _drawn_grid((8, 6), SLANTED)
    no_fallbacks = GridFinderConfig(fallback_square_samples=0)
    fit, verdict = find_verified_grid(photo, (10, 8), config=no_fallbacks)
    assert fit is None and verdict is not None and verdict.reason == BUDGET_REASON
    fit, verdict = find_verified_grid(photo, (10, 8))
    assert fit is None and (verdict is None or verdict.reason != BUDGET_REASON)
    fit, _ = find_verified_grid(photo, (8, 6), config=no_fallbacks)
    assert fit is not None and sorted((fit.width, fit.height)) == [6, 8]


def _chessboard(squares: tuple[int, int], square_px: int, frame=(1280, 960), seed=4) -> np.ndarray:
    """A chessboard of `squares` (w, h) of `square_px`, on a white sheet a square wide, on a wood-like table."""
    w, h = squares
    sheet = np.full(((h + 2) * square_px, (w + 2) * square_px, 3), 240, np.uint8)
    for j in range(h):
        for i in range(w):
            if (i + j) % 2 == 0:
                y, x = (j + 1) * square_px, (i + 1) * square_px
                sheet[y:y + square_px, x:x + square_px] = 25
    photo = table_texture(np.random.default_rng(seed), frame)
    y0, x0 = (frame[1] - sheet.shape[0]) // 3, (frame[0] - sheet.shape[1]) // 2
    photo[y0:y0 + sheet.shape[0], x0:x0 + sheet.shape[1]] = sheet
    return photo


def test_chequer_candidate_finds_a_board_smaller_in_the_photo_than_assumed_and_either_way_round():
    """Issue #28: a 9×7 chessboard spanning a fifth of the photo (a calibration board across a corridor) has
    squares of ~4 px on SB's first copy, made for a board spanning half of it: SB is asked again on a copy for
    a board spanning a quarter (the line search took 1–3 s on such photos). SB is asked one way round only:
    a board lying 7×9 is found asked 9×7. Without the second copy (`small_board_pixels` too small) it is not."""
    photo = _chessboard((7, 9), 16)
    cfg = CFG.chequer
    found = find_chequer(photo, (9, 7), config=cfg, larger=False)
    assert found is not None and sorted(found.squares) == [7, 9]
    assert find_chequer(photo, (9, 7), config=replace(cfg, small_board_pixels=10_000), larger=False) is None


def test_chequer_candidate_grows_the_larger_modes_chequer_before_asking_a_larger_copy(monkeypatch):
    """Issue #28 (speed against SB): the size given and SB's exact mode blind on its copy, the "larger" mode on
    that copy (~10 ms) comes before the exact mode on a copy for a smaller board (30–130 ms): a chequer it grows
    to the whole size asked is the board, and the larger copy is not asked (GoPro 0068 at 360×270, where both
    exact tries failed). Grown to less than the size asked, the larger copy is still asked, and the "larger"
    mode's chequer is not looked for twice."""
    real_sb, asked = chequer._sb, []

    def exact_mode_blind(gray, pattern, flags, margin=0, seed=chequer.SB_SEED):
        asked.append(("larger" if flags & cv2.CALIB_CB_LARGER else "exact", gray.shape))
        return None if not flags & cv2.CALIB_CB_LARGER else real_sb(gray, pattern, flags, margin, seed)

    monkeypatch.setattr(chequer, "_sb", exact_mode_blind)
    photo, cfg = _chessboard((9, 7), 40), replace(CFG.chequer, classic_first=False)
    found = find_chequer(photo, (9, 7), config=cfg)
    assert found is not None and sorted(found.squares) == [7, 9] and np.isfinite(found.corners).all()
    assert [mode for mode, _ in asked] == ["exact", "larger"]
    asked.clear()
    found = find_chequer(photo, (10, 7), config=cfg)   # grown: 9×7, not the 10×7 asked
    assert [mode for mode, _ in asked] == ["exact", "larger", "exact"]
    assert asked[2][1][0] > asked[0][1][0]             # ... on a larger copy
    assert found is not None and sorted(found.squares) == [7, 9]   # the caller decides what a smaller one is


# -- the chequer candidate through a fisheye (issue #28: GoPro chessboards placed half a square off) ---------
def test_a_chess_game_with_its_pieces_filling_the_outer_rows_is_found_its_chequer_judged_by_its_separators():
    """Issue #28 (a regression look, 7 Dec 2026: the tournament-mat chess games of the blind look of 5 Dec, in their
    starting position, 12 of 12 refused since stop 63 — "an outer row or column is not crossed by its lines"): a
    strip's separators count only where they lead its middles (`_stands_out`, print beside a sudoku), but a chess
    game's pieces fill its outer two rows' middles. A chequer's separators are colour steps between alternating
    squares, which print does not make: its outer strips are judged by their separators alone. The same board judged
    as unchequered loses its bottom row."""
    photo, truth = _chessboard((8, 8), 60), _chessboard_truth((8, 8), 60)
    mapping = GridMapping(truth)
    for y in (0, 1, 6, 7):
        for x in range(8):
            centre = mapping.to_image(np.array([[x + 0.5, y + 0.5]]))[0].round().astype(int)
            cv2.circle(photo, (int(centre[0]), int(centre[1])), 22, (70, 70, 160) if y < 2 else (150, 200, 230), -1)
            _stroke(photo, mapping, (x + 0.5, y + 0.15), (x + 0.5, y + 0.85), (20, 20, 20), 5)   # its crown's
            _stroke(photo, mapping, (x + 0.15, y + 0.5), (x + 0.85, y + 0.5), (20, 20, 20), 5)   # cross
    verdict = verify_grid(photo, mapping, 8, 8, CFG.verify)
    assert verdict.evidence.neighbour_step >= CFG.verify.min_chequer_step, verdict.evidence
    assert verdict.found and verdict.evidence.outer_strips == (1.0, 1.0, 1.0, 1.0), verdict
    unchequered = verify_grid(photo, mapping, 8, 8, replace(CFG.verify, min_chequer_step=255.0))
    assert min(unchequered.evidence.outer_strips) == 0.0 and not unchequered.found, unchequered
    corners = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]])
    for size in ((8, 8), None):
        fit, _ = find_verified_grid(photo, size, config=CFG)
        assert fit is not None and (fit.width, fit.height, fit.partial) == (8, 8, ()), fit
        assert np.abs(fit.mapping.to_image(corners) - mapping.to_image(corners)).max() < 2.0   # px


def _fisheye_chessboard(strength: float, *, equidistant: bool = False, side: float = 44.0, tilt: float = 0.0,
                        size=(9, 7), frame=(640, 480)):
    """(photo, truth): a size[0]×size[1] chessboard on white paper (a margin of 0.6 square) on a grey wall,
    centred, its squares `side` px before the lens, seen through a strong barrel lens: our radial model
    with k1 = -`strength` (folding over before the photo's corners, as a GoPro's does), or an equidistant
    fisheye (r_photo = atan(strength · r) / strength, a lens no k1, k2 follows to a board's edge); truth:
    grid units -> photo pixels."""
    (w, h), (fw, fh) = size, frame
    lens = RadialLens.for_image(frame, -strength)
    half_w, half_h = w * side / 2, h * side / 2
    cx, cy = lens.centre
    pinhole_corners = np.float32([[cx - half_w - tilt, cy - half_h], [cx + half_w + tilt, cy - half_h - tilt],
                                  [cx + half_w + tilt, cy + half_h + tilt], [cx - half_w - tilt, cy + half_h]])
    homography = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), pinhole_corners)

    def radius_scale(photo_radius):   # equidistant: pinhole radius / photo radius (normalised radii)
        return np.tan(np.minimum(photo_radius * strength, 1.5)) / (strength * np.maximum(photo_radius, 1e-12))

    ys, xs = np.mgrid[0:fh, 0:fw].astype(np.float64)
    photo_px = np.stack([xs, ys], -1)
    if equidistant:
        d = (photo_px - lens.centre) / lens.focal
        pinhole = d * radius_scale(np.linalg.norm(d, axis=-1, keepdims=True)) * lens.focal + lens.centre
        folded = np.zeros((fh, fw), bool)
    else:
        pinhole = lens.undistort(photo_px)
        folded = np.linalg.norm(lens.distort(pinhole) - photo_px, axis=-1) > 0.5   # past the fold: the wall
    gx, gy = np.moveaxis(apply_h(np.linalg.inv(homography), pinhole.reshape(-1, 2)).reshape(fh, fw, 2), -1, 0)
    photo = np.full((fh, fw), 120.0)
    photo[(gx > -0.6) & (gx < w + 0.6) & (gy > -0.6) & (gy < h + 0.6) & ~folded] = 235
    photo[(gx >= 0) & (gx < w) & (gy >= 0) & (gy < h) & ~folded & ((np.floor(gx) + np.floor(gy)) % 2 == 0)] = 30
    photo = cv2.cvtColor(cv2.GaussianBlur(photo, (3, 3), 0.8).astype(np.uint8), cv2.COLOR_GRAY2BGR)

    def truth(points):
        p = apply_h(homography, np.asarray(points, np.float64).reshape(-1, 2))
        if not equidistant:
            return lens.distort(p)
        d = (p - lens.centre) / lens.focal
        r = np.linalg.norm(d, axis=-1, keepdims=True)
        return d * np.arctan(r * strength) / (strength * np.maximum(r, 1e-12)) * lens.focal + lens.centre
    return photo, truth


def _outline_error(mapping, width: int, height: int, truth, size=(9, 7)) -> float:
    """The worst of the fit's outer corners, in squares (local: the truth's square at that corner), from
    the nearest true outer corner (a chequer fit is numbered as SB ordered its corners)."""
    w, h = size
    got = mapping.to_image(np.array([[0, 0], [width, 0], [width, height], [0, height]], float))
    true_corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    inward = true_corners + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], float)
    want, side = truth(true_corners), np.linalg.norm(truth(inward) - truth(true_corners), axis=1) / np.sqrt(2)
    return max(float(np.min(np.linalg.norm(want - g, axis=1) / side)) for g in got)


def test_chequer_follows_a_fisheye_folding_before_the_photos_corners_out_to_the_outer_ring():
    """Issue #28 (GoPro chessboards 0033, 0042, 0043): a lens that folds over before the photo's corners
    was refused although it keeps radii in order over the board, and the plain homography put the outer
    ring, extrapolated past the inner corners, half a square off. The chequer's lens need only be
    monotonic over its board and a square around it."""
    for strength, tilt in ((1.0, 0.0), (1.2, 10.0)):
        photo, truth = _fisheye_chessboard(strength, side=42.0, tilt=tilt)
        chequer = find_chequer(photo, (9, 7), config=CFG.chequer, exact=True, larger=False)
        assert chequer is not None and chequer.squares in ((9, 7), (7, 9))
        assert chequer.mapping.lens is not None
        assert _outline_error(chequer.mapping, *chequer.squares, truth) < 0.15


def test_chequer_whose_lens_model_misses_its_outer_ring_is_refused_not_placed_a_square_off():
    """Issue #28 (GoPro 0035, a board filling the frame, placed 1.4 squares off with 5 squares that do not
    exist): where no k1, k2 follows the lens out to the board's edge — even fitted on the outline's corners
    measured — the mapping's outline is far from them (`chequer.max_ring_disagreement`): no chequer. SB having
    found the whole chequer asked for, the finder says so at once (`ChequerBeyondLens`): the line search fits
    the same lens model and cost 1–2 s on GoPro 0034/0035 to find nothing."""
    photo, truth = _fisheye_chessboard(3.0, equidistant=True, side=60.0)
    with pytest.raises(ChequerBeyondLens):
        find_chequer(photo, (9, 7), config=CFG.chequer, exact=True, larger=False)
    loose = replace(CFG.chequer, max_ring_disagreement=10.0)    # (the same fit, unchecked, is a square off)
    unchecked = find_chequer(photo, (9, 7), config=loose, exact=True, larger=False)
    assert unchecked is not None and _outline_error(unchecked.mapping, *unchecked.squares, truth) > 0.5
    fit, verdict = find_verified_grid(photo, (9, 7), config=CFG)
    assert fit is None and verdict is not None and "lens" in verdict.reason


def test_chequer_outline_is_measured_so_a_fisheye_filling_the_frame_is_placed_right():
    """Issue #28 (GoPro 0034/0035: a fisheye filling the frame; k1, k2 fitted on the inner corners alone put the
    outline 0.46 / 0.77 square off, refused): the outline of the ring has no saddles, but each of its points is
    the corner of a dark ring square against the light squares and the margin. Measured there and fitted
    with the inner corners, the lens follows the board out to its edge: placed within 0.1 square. Without
    the outline measured (`chequer.min_outline_step` out of reach), the same board is refused."""
    photo, truth = _fisheye_chessboard(2.0, equidistant=True, side=60.0)
    chequer = find_chequer(photo, (9, 7), config=CFG.chequer, exact=True, larger=False)
    assert chequer is not None and chequer.squares in ((9, 7), (7, 9))
    assert _outline_error(chequer.mapping, *chequer.squares, truth) < 0.1
    with pytest.raises(ChequerBeyondLens):
        find_chequer(photo, (9, 7), config=replace(CFG.chequer, min_outline_step=255.0), exact=True, larger=False)


def _outline_points(chequer) -> np.ndarray:
    w, h = chequer.squares
    return chequer.mapping.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))


def _same_outline(a, b) -> float:
    """The largest distance (px) from a corner of one chequer's outline to the nearest of the other's (the
    two finders may number a board from different corners)."""
    got, want = _outline_points(a), _outline_points(b)
    return max(float(np.linalg.norm(want - g, axis=1).min()) for g in got)


def _sb_calls_recorded(monkeypatch) -> list:
    """A list that gets an entry at each call of OpenCV's SB (which still runs)."""
    calls: list = []
    sb = cv2.findChessboardCornersSBWithMeta
    monkeypatch.setattr(cv2, "findChessboardCornersSBWithMeta", lambda *args: calls.append(args) or sb(*args))
    return calls


def test_chequer_of_the_size_asked_is_found_by_the_classic_finder_where_sb_finds_it(monkeypatch):
    """Issue #28 (speed against SB: 630×420 calibration photos took 1.3–1.7× SB's time, SB itself 10–15 ms of
    the scan's 35): size given, OpenCV's classic quad finder runs on the copy first (1–20 ms); a whole chequer
    it finds with a smooth lattice is placed without SB, where SB places it (flat, and through a fisheye).
    With `chequer.classic_first` off, SB finds the same board."""
    sb_calls = _sb_calls_recorded(monkeypatch)
    for photo, size in ((_flat_chequer(20, 30, (10, 7)), (10, 7)), (_fisheye_chessboard(1.0, side=42.0)[0], (9, 7))):
        sb_calls.clear()
        quick = find_chequer(photo, size, config=CFG.chequer, larger=False)
        assert quick is not None and sorted(quick.squares) == sorted(size) and not sb_calls
        by_sb = find_chequer(photo, size, config=replace(CFG.chequer, classic_first=False), larger=False)
        assert by_sb is not None and sb_calls
        assert _same_outline(quick, by_sb) < 0.05


def test_classic_finder_is_asked_again_on_a_copy_with_squares_twice_as_large(monkeypatch):
    """Issue #28 (AntonioLDM17's 12×11 boards, GoPro 0066–0070: the classic finder needs larger squares than SB
    and missed 25 of the 88 chessboards of the speed bench on SB's copy, 20 of them found on a copy twice as
    large): a 10×7 board of 30 px squares in a 1280×960 photo has squares of 7.5 px on SB's copy; it is found
    without SB on the second copy (`chequer.classic_copies`), where SB finds it; with one copy only, SB is asked."""
    sb_calls = _sb_calls_recorded(monkeypatch)
    photo = _chessboard((10, 7), 30)
    quick = find_chequer(photo, (10, 7), config=CFG.chequer, larger=False)
    assert quick is not None and quick.squares == (10, 7) and not sb_calls
    by_sb = find_chequer(photo, (10, 7), config=replace(CFG.chequer, classic_copies=(1.0,)), larger=False)
    assert by_sb is not None and sb_calls
    assert _same_outline(quick, by_sb) < 0.05


def test_a_classic_lattice_with_a_corner_on_the_wrong_saddle_is_left_to_sb(monkeypatch):
    """Issue #28 (lanecam calibration7 and 17: the classic finder's quad linking put one or two corners a quarter
    to half a square off): `largest_bend` is about 0 on a lattice seen in perspective and at least twice a corner's
    error where one corner is out of place; a classic lattice bent past `chequer.max_classic_bend` is dropped
    and SB places the board."""
    tilted = cv2.getPerspectiveTransform(np.float32([[0, 0], [9, 0], [9, 6], [0, 6]]),
                                         np.float32([[100, 80], [420, 110], [400, 330], [120, 300]]))
    lattice = apply_h(tilted, np.stack(np.meshgrid(np.arange(10.0), np.arange(7.0)), -1).reshape(-1, 2)).reshape(7, 10, 2)
    assert largest_bend(lattice) < 0.1   # a strong perspective: ~0.05
    side = float(np.linalg.norm(lattice[3, 5] - lattice[3, 4]))
    bent = lattice.copy()
    bent[3, 4] += (0.3 * side, 0.0)
    assert 0.6 <= largest_bend(bent) < 1.0   # at least twice 0.3 (the corner nears one neighbour: its side shrinks)

    photo = _flat_chequer(20, 30, (10, 7))    # squares of 20 px, on a copy at full size
    classic = cv2.findChessboardCorners

    def one_corner_off(image, pattern, flags=0):
        ok, corners = classic(image, pattern, flags=flags)
        corners = corners.copy()
        corners[20] += (10.0, 0.0)   # half a square: beyond where refinement may move it
        return ok, corners
    sb_calls = _sb_calls_recorded(monkeypatch)
    monkeypatch.setattr(cv2, "findChessboardCorners", one_corner_off)
    placed = find_chequer(photo, (10, 7), config=CFG.chequer, larger=False)
    assert placed is not None and sb_calls
    by_sb = find_chequer(photo, (10, 7), config=replace(CFG.chequer, classic_first=False), larger=False)
    assert np.abs(placed.corners - by_sb.corners).max() < 1e-9
    with pytest.raises(ChequerBeyondLens):   # unchecked, the bent lattice misleads the lens fit: the board refused
        find_chequer(photo, (10, 7), config=replace(CFG.chequer, max_classic_bend=10.0), larger=False)


def test_chequer_candidate_finds_a_board_running_to_the_frames_edge_on_its_copy():
    """Issue #28 (lanecam calibration4, GoPro 0044: a calibration board held close, its outer squares cut
    by the frame): SB reads each corner's sectors a few pixels around it and missed such a board on its
    reduced copy (70–130 ms a failure, then found on a copy twice as large). SB's copy is framed in
    `chequer.sb_margin_px` of mid-grey: found there, its corners in the photo's pixels."""
    px, cut = 16, 8   # half of each outer square cut off by the frame
    photo = _flat_chequer(px, 0, (10, 7))[cut:-cut, cut:-cut]
    found = find_chequer(photo, (10, 7), config=CFG.chequer, larger=False)
    assert found is not None and found.squares == (10, 7)
    corners = found.corners.reshape(-1, 2)
    assert np.abs(corners.min(axis=0) - (px - cut - 0.5)).max() < 0.5   # the first inner corner, not shifted by the frame
    assert find_chequer(photo, (10, 7), config=replace(CFG.chequer, sb_margin_px=0), larger=False) is None


def test_chequer_ring_disagreement_is_measured_in_squares_wherever_the_board_lies():
    """Issue #28: the outline's disagreement (`chequer.max_ring_disagreement`) is in squares of the board: a
    mapping half a square off reads 0.5 whether the board lies at the photo's left or right (the square's
    side was once taken from its corner's coordinates, x − y: the same miss read 0.005 to 1 by position),
    and the mapping the corners were drawn by reads 0 (the local fits are solved in one batch)."""
    rng = np.random.default_rng(28)
    for left in (40.0, 700.0):
        drawn = np.array([[30.0, 4.0, left], [-3.0, 28.0, 60.0], [1e-4, 2e-4, 1.0]])   # grid units -> px
        gi, gj = np.meshgrid(np.arange(1.0, 9.0), np.arange(1.0, 7.0))   # 8×6 inner corners at (i + 1, j + 1)
        corners = apply_h(drawn, np.stack([gi, gj], -1).reshape(-1, 2)).reshape(6, 8, 2)
        corners += rng.normal(0.0, 0.05, corners.shape)
        corners[2, 3] = np.nan                                          # (a hidden corner is left out)
        outline = _Outline.of(corners)
        unmeasured = np.full_like(outline.points, np.nan)    # (no photo: the outline extrapolated)
        assert outline.disagreement(GridMapping.coerce(drawn), unmeasured) < 0.05
        half_off = np.array([[1.0, 0.0, 15.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ drawn   # 15 px: half a square
        assert 0.4 < outline.disagreement(GridMapping.coerce(half_off), unmeasured) < 0.6


def test_chequer_with_half_a_row_of_saddles_past_it_is_no_board_one_row_short():
    """Issue #28 (GoPro 0034, size unknown, a 9×7 chessboard returned 9×6): a row of corners dropped from the
    chequer's rectangle though half its saddles were seen (a fisheye bends the board's last row; here a hand
    hides the rest) means the chequer goes on past that side (`chequer.max_cut_share`): no chequer, rather
    than the rectangle left read as a whole board one row short."""
    px, pad, (w, h) = 40, 40, (9, 7)
    photo = _flat_chequer(px, pad, (w, h))
    hand = (int(pad + 4.6 * px), int(pad + 5.6 * px))   # hides the last row of corners' right half
    cv2.rectangle(photo, hand, (photo.shape[1] - 1, photo.shape[0] - 1), (140, 120, 170), -1)
    photo = cv2.copyMakeBorder(photo, 60, 60, 60, 60, cv2.BORDER_CONSTANT, value=(110, 110, 110))
    assert find_chequer(photo, None, config=CFG.chequer) is None
    cut_allowed = replace(CFG.chequer, max_cut_share=1.0)   # (trimmed as before: a 9×6 chequer)
    assert sorted(find_chequer(photo, None, config=cut_allowed).squares) == [6, 9]
    fit, _ = find_verified_grid(photo, None, config=CFG)
    assert fit is None or sorted((fit.width, fit.height)) == [7, 9] or fit.partial


def test_synthetic_poses_are_a_camera_whose_squares_pass_the_squares_on_a_plane_bound():
    """Issue 28: `verify.max_square_skew` is tight (0.22: curtain walls read as 9×9 are 0.244+) only because the
    synthetic photographer is a real pinhole camera: its boards' true squares read ≤ 0.03 at any size, and a
    board seen at 45° of tilt through a 3× telephoto is still squares, while 1 : 2 cells on its plane are not."""
    rng = np.random.default_rng(28)
    for draw in range(200):
        grid = ((8, 8), (20, 12), (3, 3), (40, 25))[draw % 4]
        pose = random_pose(rng, grid, (1280, 960))
        assert square_skew(pose, grid[0], grid[1], (1280, 960), CFG.verify) < 0.03, (draw, grid)
    tilted = camera_homography(1.7 * 1600, 45.0, 0.7, 0.3, (4.0, 4.0), 60.0, (8, 8), (1280, 960))
    assert square_skew(tilted, 8, 8, (1280, 960), CFG.verify) < 0.03
    oblong = tilted @ np.diag([1.0, 2.0, 1.0])   # cells 1 : 2 on the same plane
    assert square_skew(oblong, 8, 8, (1280, 960), CFG.verify) > CFG.verify.max_square_skew
