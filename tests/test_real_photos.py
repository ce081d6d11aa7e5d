"""Issue 18: the labelled real photos of both sets (tests/fixtures/real_photos*, vision.labelled),
scanned with the size given and without: grids placed right, no phantom square, no square read
wrong without a flag (MT 2.02.e), and the size-given path never worse than the free one.

The per-photo checks over the whole set are marked `accuracy` (the second step of `./run.sh test`;
`tactical bench vision` prints the same scans as figures); the `partial` answer is a unit test."""
from __future__ import annotations

import pytest

from vision import scan
from vision.labelled import labelled_photos, score_scan

PHOTOS = labelled_photos()


@pytest.fixture(scope="module")
def scans():
    """name -> (photo, image shape, score with the size given, score without)."""
    out = {}
    for photo in PHOTOS:
        image = photo.image()
        out[photo.name] = (photo, image.shape, score_scan(scan(image, grid=photo.grid), photo, image.shape),
                           score_scan(scan(image), photo, image.shape))
    return out


@pytest.mark.accuracy
@pytest.mark.parametrize("name", [p.name for p in PHOTOS])
def test_a_real_grid_with_its_size_given_is_placed_right_with_no_phantom_square_MT_2_02_e(name, scans):
    """Size given: the grid found, each labelled outer corner within half a square, no square
    reported where the photo shows none, none read wrong without a flag."""
    photo, _, given, _ = scans[name]
    assert given.placed, f"{name}: corners {given.corner_error:.2f} square off (or not found)"
    assert given.phantom == 0 and given.wrong_unflagged == 0


@pytest.mark.accuracy
@pytest.mark.parametrize("name", [p.name for p in PHOTOS])
def test_a_real_grid_without_its_size_is_found_whole_MT_2_02_e(name, scans):
    """Size unknown: the whole grid (the right size, placed right), never a smaller part of it
    (7×6 or 9×7 of a 10×7 before issue 18), no phantom square, no unflagged wrong square."""
    photo, _, _, free = scans[name]
    assert free.right_size and free.placed, f"{name}: not found whole"
    assert free.phantom == 0 and free.wrong_unflagged == 0


@pytest.mark.accuracy
@pytest.mark.parametrize("name", [p.name for p in PHOTOS])
def test_the_size_given_path_is_never_worse_than_the_free_one(name, scans):
    """Issue 18: on the same photo, giving the size never places the grid worse than not giving
    it (they disagreed: 40×25 found without the size but not with it). Within 0.06 square: both paths
    fit a plane, and on the newspaper sudoku, whose page curls up at its top right corner (labelled 12–15 px
    above where either path's plane puts it), both are 0.26–0.31 square off there, a few pixels apart
    (0.311 and 0.267 on stop 68's code; 0.313 and 0.263 with LSD's segments on the pixel centres, stop 69)."""
    _, _, given, free = scans[name]
    if free.placed:
        assert given.placed and given.corner_error <= free.corner_error + 0.06
    assert given.phantom <= free.phantom and given.wrong_unflagged <= free.wrong_unflagged


def test_a_free_answer_says_where_the_photo_cuts_the_grid_off():
    """Issue 18, no silently smaller board: without the size, a grid running out of the frame is
    answered as seen, with the sides where the photo does not show whether it goes on (`partial`);
    a grid with paper all round it has none."""
    by_name = {p.name: p for p in PHOTOS}
    angle = scan(by_name["chess-8x8-angle.jpg"].image())
    assert angle.found and angle.to_dict()["partial"] == ["right"]
    paper = scan(by_name["paper-grid-on-table.jpg"].image())
    assert paper.found and paper.to_dict()["partial"] == []
