"""render_board and the palette: what gets printed (MT 1.02.b, 2.02.d, 2.03.c, 2.04) and the
printing ↔ calibration marker contract (boards.markers)."""
from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from boards import Board
from boards import palette
from boards.markers import ARUCO_DICTIONARY, MARGIN, board_markers
from boards.render import colour_sectors, render_board, render_token

P = 48  # px per square: small enough to be fast, large enough for markers and glyphs

MIXED_ROWS = [" ".join(row) for row in [
    ["W", "U", "B", "R", "G", "WU", "UB", "BR", "RG", "GW", "WUB", ".", "R#", "W@", "G*", "WUBRG", "UR", "BG",
     "WR", "UG"],
] * 12]


@pytest.fixture(scope="module")
def mixed():
    board = Board.from_rows(MIXED_ROWS)
    return board, render_board(board, P)


def square_pixels(rendered, x, y, inset=0):
    """The pixels of square (x, y), optionally without `inset` px along its edges (grid lines)."""
    ox, oy = rendered.origin
    p = rendered.px_per_square
    return rendered.image[oy + y * p + inset:oy + (y + 1) * p - inset, ox + x * p + inset:ox + (x + 1) * p - inset]


def share_of(pixels, bgr) -> float:
    return float(np.all(pixels == np.array(bgr, dtype=np.uint8), axis=-1).mean())


def test_image_size_margin_and_origin_mt_1_02_b(mixed):
    """The printed image is the grid plus MARGIN squares of paper on every side; origin is grid (0, 0)."""
    board, rendered = mixed
    margin = round(MARGIN * P)
    assert rendered.image.shape == (board.height * P + 2 * margin, board.width * P + 2 * margin, 3)
    assert rendered.origin == (margin, margin)
    assert rendered.px_per_square == P
    assert np.all(rendered.image[:3, :, :] == palette.PAPER_BGR)  # outer margin is plain paper


def test_markers_detected_at_contract_positions(mixed):
    """Every marker of boards.markers.board_markers is found by cv2.aruco.ArucoDetector with its id at
    origin + grid * px_per_square (the printing ↔ calibration contract), within a pixel."""
    board, rendered = mixed
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(rendered.image, cv2.COLOR_BGR2GRAY))
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)}
    expected = board_markers(board.width, board.height)
    assert set(found) == {m.id for m in expected}
    for marker in expected:
        # OpenCV puts pixel centres on integers: the outer corner of pixel column c is at c - 0.5
        want = np.asarray(rendered.origin) + marker.corners * P - 0.5
        assert np.abs(found[marker.id] - want).max() <= 1.0, marker.id


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_multicoloured_square_shows_every_colour_mt_2_02_d(count):
    """MT 2.02.d: every colour of a multicoloured square is plainly visible, and (up to four colours)
    each owns a whole corner, which a token in the centre leaves uncovered."""
    for colours in itertools.combinations("WUBRG", count):
        board = Board.from_rows(["".join(colours)])
        square = square_pixels(render_board(board, P), 0, 0, inset=2)
        size = square.shape[0]
        yy, xx = np.mgrid[0:size, 0:size]
        token_radius = 17.5 / 20 / 2 * P
        around_token = np.hypot(yy - (size - 1) / 2, xx - (size - 1) / 2) > token_radius
        corner = size // 6
        for colour in colours:
            bgr = palette.SQUARE_BGR[colour]
            assert share_of(square, bgr) >= 0.8 / count / 2, (colours, colour)
            assert share_of(square[around_token], bgr) > 0.02, (colours, colour)
            if count <= 4:
                corners = [square[:corner, :corner], square[:corner, -corner:], square[-corner:, :corner],
                           square[-corner:, -corner:]]
                assert any(share_of(c, bgr) == 1.0 for c in corners), (colours, colour)


def test_colour_sectors_cover_the_square_evenly_mt_2_02_d():
    """MT 2.02.d: no colour of a multicoloured square is a sliver (each sector ≥ 60 % of a fair share)."""
    for count in range(1, 6):
        shares = np.bincount(colour_sectors(count, 120).ravel(), minlength=count) / 120 ** 2
        assert shares.min() >= 0.6 / count


def test_coloured_obstacle_reads_as_obstacle_and_colour_mt_2_03_c(mixed):
    """MT 2.03.c: R# keeps most of its surface red AND carries the ink hatching; '.' is hatched grey;
    a plain R square has no hatching."""
    _, rendered = mixed
    red_obstacle = square_pixels(rendered, 12, 0, inset=2)
    plain_red = square_pixels(rendered, 3, 0, inset=2)
    colourless = square_pixels(rendered, 11, 0, inset=2)
    assert share_of(red_obstacle, palette.SQUARE_BGR["R"]) > 0.45
    assert share_of(red_obstacle, palette.INK_BGR) > 0.05
    assert share_of(plain_red, palette.SQUARE_BGR["R"]) > 0.98
    assert share_of(colourless, palette.OBSTACLE_BGR) > 0.3
    assert share_of(colourless, palette.INK_BGR) > 0.05


@pytest.mark.parametrize("colour", list("WUBRG"))
def test_start_and_temple_glyphs_contrast_on_every_colour_mt_2_04(colour):
    """MT 2.04.a/b: the planeswalker (start) and lotus (Temple du Deus) glyphs are white with an ink
    outline on every square colour, and the two glyphs differ."""
    board = Board.from_rows([f"{colour}@ {colour}* {colour}"])
    rendered = render_board(board, P)
    start, temple, plain = (square_pixels(rendered, x, 0, inset=2) for x in range(3))
    for glyph in (start, temple):
        assert share_of(glyph, palette.PAPER_BGR) > 0.08
        assert np.mean(np.abs(glyph.astype(int) - plain.astype(int)).sum(-1) > 60) > 0.12
    assert np.mean(np.any(start != temple, axis=-1)) > 0.1


def test_coordinates_printed_on_all_four_sides(mixed):
    """Column letters and row numbers appear in the label band on every side (people read A1 from any seat)."""
    board, rendered = mixed
    ox, oy = rendered.origin
    band = round(0.7 * P)
    w, h = board.width * P, board.height * P
    image = rendered.image
    bands = {
        "top": image[oy - band:oy - 3, ox:ox + w], "bottom": image[oy + h + 3:oy + h + band, ox:ox + w],
        "left": image[oy:oy + h, ox - band:ox - 3], "right": image[oy:oy + h, ox + w + 3:ox + w + band],
    }
    for side, pixels in bands.items():
        dark = np.all(pixels < 100, axis=-1)
        along = dark.any(axis=0 if side in ("top", "bottom") else 1)
        per_square = along[: (len(along) // P) * P].reshape(-1, P).any(axis=1)
        assert per_square.all(), side


def test_render_is_deterministic(mixed):
    board, rendered = mixed
    assert np.array_equal(render_board(board, P).image, rendered.image)


def test_render_token_is_reexported():
    token = render_token(1, 7, 64)
    assert token.shape == (64, 64, 4)


def test_ciede2000_matches_sharma_reference_pairs():
    """Reference pairs from Sharma, Wu & Dalal (2005), so the palette figures can be trusted."""
    pairs = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
             ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]
    for lab1, lab2, expected in pairs:
        assert palette.delta_e_2000(np.array(lab1), np.array(lab2)) == pytest.approx(expected, abs=1e-4)


def test_srgb_to_lab_reference_colours():
    """sRGB white is L*=100 neutral; sRGB red is (53.24, 80.09, 67.20) in CIELAB D65."""
    white, red = palette.linear_to_lab(palette.srgb_to_linear([(255, 255, 255), (255, 0, 0)]))
    assert white == pytest.approx([100.0, 0.0, 0.0], abs=0.05)
    assert red == pytest.approx([53.24, 80.09, 67.20], abs=0.05)


PALETTE_MIN_DELTA_E = 18.0


def test_palette_colours_stay_apart_under_light_and_print_mt_2_02_d():
    """MT 2.02.d (a colour counts only if clearly visible): every pair of square colours stays at
    CIEDE2000 ≥ 18 printed, under warm (3000 K) and cool (8000 K) light, with and without the
    camera's gray-world balance (docs/printing.md has the table)."""
    worst, condition, first, second = palette.minimum_separation()
    assert worst >= PALETTE_MIN_DELTA_E, f"{first} vs {second} under {condition}: ΔE2000 {worst:.1f}"


def test_palette_check_catches_a_bad_palette():
    """The separation check fails for a blue too close to black (so a bad palette edit is caught)."""
    bad = {**palette.SQUARE_BGR, "U": (70, 45, 40), "obstacle": palette.OBSTACLE_BGR}
    assert palette.minimum_separation(bad)[0] < PALETTE_MIN_DELTA_E
