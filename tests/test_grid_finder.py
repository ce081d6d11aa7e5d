"""Markerless grid finding (issue 5, markerless half): real photos, synthetic grids, no-grid scenes.

Real-photo truth comes from tests/fixtures/real_photos.yaml (how it was measured is written
there); synthetic truth from calibration.grid_synth, which knows the homography it warped with.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from calibration.grid_finder import GridFinderConfig, GridFit, find_grid
from calibration.grid_lines import fit_comb
from calibration.grid_synth import STYLES, no_grid_scenes, synthetic_grid_photo

FIXTURES = Path(__file__).parent / "fixtures"
PHOTO_DIR = FIXTURES / "real_photos"          # copies of /work/shared/real-photos/
LABELS = yaml.safe_load((FIXTURES / "real_photos.yaml").read_text())["photos"]
CORNER_TOLERANCE = 0.05   # squares: "within a few % of a square"


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.c_[pts, np.ones(len(pts))] @ h.T
    return q[:, :2] / q[:, 2:]


def _grid_corners(w: int, h: int) -> np.ndarray:
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], float)


def _corner_errors(fit: GridFit, image_corners: list, w: int, h: int) -> list[float]:
    """Distance, in squares, between each labelled image corner and the grid corner it
    should be, measured in the fit's grid coordinates (None where the label is None)."""
    inv = np.linalg.inv(fit.homography)
    errors = []
    for ideal, seen in zip(_grid_corners(w, h), image_corners):
        errors.append(None if seen is None else float(np.linalg.norm(_apply(inv, np.array([seen], float))[0] - ideal)))
    return errors


@pytest.fixture(scope="module")
def photos() -> dict[str, np.ndarray]:
    images = {label["file"]: cv2.imread(str(PHOTO_DIR / label["file"])) for label in LABELS}
    missing = [name for name, image in images.items() if image is None]
    assert not missing, f"cannot read {missing} in {PHOTO_DIR}"
    return images


@pytest.fixture(scope="module")
def sized_fits(photos) -> dict[str, GridFit | None]:
    """One size-given search per photo, shared by the tests that read it."""
    return {label["file"]: find_grid(photos[label["file"]], tuple(label["grid"])) for label in LABELS}


@pytest.mark.parametrize("label", LABELS, ids=[l["file"] for l in LABELS])
def test_real_photo_corners_with_size_given(label, sized_fits):
    """Issue 5 (MT 1.02.a grids): with the size given, every labelled corner inside the frame
    is found within a few % of a square, in the labelled orientation."""
    w, h = label["grid"]
    fit = sized_fits[label["file"]]
    assert fit is not None, f"{label['file']}: no grid found"
    assert (fit.width, fit.height) == (w, h)
    errors = _corner_errors(fit, label["corners"], w, h)
    measured = [e for e in errors if e is not None]
    assert len(measured) >= 3
    assert max(measured) < CORNER_TOLERANCE, f"{label['file']}: corner errors {errors} squares"


@pytest.mark.parametrize("label", [l for l in LABELS if l["size_findable"]], ids=lambda l: l["file"])
def test_real_photo_size_found_when_unknown(label, photos):
    """Issue 5: grid=None finds the labelled size (either orientation) and the same corners."""
    w, h = label["grid"]
    fit = find_grid(photos[label["file"]])
    assert fit is not None
    assert sorted((fit.width, fit.height)) == sorted((w, h))
    if (fit.width, fit.height) == (w, h):
        assert max(e for e in _corner_errors(fit, label["corners"], w, h) if e is not None) < CORNER_TOLERANCE


@pytest.mark.parametrize("label", [l for l in LABELS if "B" in "".join(l["colours"])], ids=lambda l: l["file"])
def test_real_photo_square_colours_follow_the_fit(label, photos, sized_fits):
    """Issue 5: the fit's square (x, y) is the labelled square (x, y): sampled at the fitted
    centres, squares labelled W are brighter than those labelled B (orientation and parity)."""
    w, h = label["grid"]
    image = photos[label["file"]]
    fit = sized_fits[label["file"]]
    assert fit is not None
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    centres = np.array([[x + 0.5, y + 0.5] for y in range(h) for x in range(w)])
    px = np.round(_apply(fit.homography, centres)).astype(int)
    inside = (px[:, 0] >= 0) & (px[:, 0] < gray.shape[1]) & (px[:, 1] >= 0) & (px[:, 1] < gray.shape[0])
    letters = np.array(list("".join(label["colours"])))
    values = gray[px[inside, 1], px[inside, 0]].astype(float)
    seen = letters[inside]
    threshold = (values[seen == "W"].min() + values[seen == "B"].max()) / 2
    assert values[seen == "W"].min() > values[seen == "B"].max(), f"W/B overlap around {threshold}"


SYNTH_SIZES = [(8, 8), (4, 8), (20, 12), (12, 20), (5, 7), (15, 10), (3, 3), (10, 10), (6, 9), (40, 25)]


def _synthetic_case(seed: int):
    rng = np.random.default_rng(1000 + seed)
    grid = SYNTH_SIZES[seed % len(SYNTH_SIZES)]
    style = STYLES[seed % len(STYLES)]
    return synthetic_grid_photo(rng, grid, style=style), grid, style


def _synthetic_error(fit: GridFit, truth: np.ndarray, w: int, h: int) -> float:
    """Worst corner error in squares, up to the grid's symmetry (a square grid seen from
    above has no 'up'; a found w x h grid may be the truth turned by 180 degrees)."""
    found = _apply(np.linalg.inv(truth), _apply(fit.homography, _grid_corners(w, h)))
    ideal = _grid_corners(w, h)
    return min(float(np.abs(np.roll(found, k, axis=0) - ideal).max()) for k in range(4))


def test_synthetic_grids_found_with_size_given():
    """Issue 5, MT 1.02.a: many sizes (3x3 .. 40x25), three drawing styles, random poses with
    perspective, on a grained table: the size-given search succeeds (corners within 0.1 square)
    in >= 80 % of 30 cases (28/30 measured; the misses are listed in docs/grid-finding.md)."""
    ok, failures = 0, []
    for seed in range(30):
        photo, (w, h), style = _synthetic_case(seed)
        fit = find_grid(photo.image, (w, h))
        if fit is not None and (fit.width, fit.height) == (w, h) and _synthetic_error(fit, photo.homography, w, h) < 0.1:
            ok += 1
        else:
            failures.append((seed, (w, h), style))
    assert ok / 30 >= 0.80, f"only {ok}/30 found; failures: {failures}"


def test_synthetic_grids_size_found_when_unknown():
    """Issue 5, MT 1.02.a: grid=None recovers the size (either orientation) in >= 70 % of 30
    cases (24/30 measured: finding the size is harder than fitting a known one)."""
    ok, failures = 0, []
    for seed in range(30, 60):
        photo, (w, h), style = _synthetic_case(seed)
        fit = find_grid(photo.image)
        if fit is not None and sorted((fit.width, fit.height)) == sorted((w, h)):
            ok += 1
        else:
            failures.append((seed, (w, h), style, None if fit is None else (fit.width, fit.height)))
    assert ok / 30 >= 0.70, f"only {ok}/30 sized; failures: {failures}"


@pytest.mark.parametrize("seed", range(3))
def test_no_grid_in_scenes_without_one(seed):
    """Issue 5: never invent a board: noise, a gradient, a table, a page of text -> None."""
    for name, image in no_grid_scenes(np.random.default_rng(seed)).items():
        assert find_grid(image) is None, f"invented a grid in '{name}' (seed {seed})"
        assert find_grid(image, (8, 8)) is None, f"invented an 8x8 grid in '{name}' (seed {seed})"


def test_blank_and_tiny_images_give_none():
    """Issue 5: an ordinary bad photo (blank, tiny, grey) is None, never an exception."""
    assert find_grid(np.zeros((480, 640, 3), np.uint8)) is None
    assert find_grid(np.full((8, 8, 3), 128, np.uint8), (3, 3)) is None
    assert find_grid(np.full((600, 800), 200, np.uint8)) is None


def test_wrong_arguments_are_programming_errors():
    """Not an image or a non-positive size is a caller's bug and says so."""
    with pytest.raises(TypeError):
        find_grid("photo.jpg")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="grid size"):
        find_grid(np.zeros((100, 100, 3), np.uint8), (0, 8))


def test_homography_convention_on_a_synthetic_grid():
    """Contract: grid point (0,0) maps to the outer top-left corner, (w,h) to the outer
    bottom-right; the returned rotation is the one closest to upright (x axis towards +x)."""
    photo, (w, h), _ = _synthetic_case(0)
    fit = find_grid(photo.image, (w, h))
    assert fit is not None and 0.0 <= fit.score <= 1.0
    corners = _apply(fit.homography, _grid_corners(w, h))
    x_axis = corners[1] - corners[0]
    alternatives = [corners[(k + 1) % 4] - corners[k] for k in range(4)]
    same_length = [d for d in alternatives if abs(np.linalg.norm(d) - np.linalg.norm(x_axis)) < 0.2 * np.linalg.norm(x_axis)]
    assert x_axis[0] / np.linalg.norm(x_axis) >= max(d[0] / np.linalg.norm(d) for d in same_length) - 1e-9
    assert _synthetic_error(fit, photo.homography, w, h) < 0.1


def test_config_thresholds_are_used():
    """The thresholds live in GridFinderConfig: an impossible confidence floor finds nothing."""
    photo, (w, h), _ = _synthetic_case(0)
    assert find_grid(photo.image, (w, h)) is not None
    assert find_grid(photo.image, (w, h), config=GridFinderConfig(min_score=1.01)) is None


def _our_board_photo(name: str, seed: int):
    """A photo of one of our library boards (boards.render) with its markers hidden:
    everything outside the grid is painted paper-white, then warped onto a table."""
    from boards import load_board
    from boards.render import render_board
    from calibration.grid_synth import random_pose, table_texture
    import boards

    board = load_board(Path(boards.__file__).parent / "library" / f"{name}.yaml")
    px = 40
    printed = render_board(board, px)
    image = printed.image.copy()
    ox, oy = printed.origin
    keep = np.zeros(image.shape[:2], bool)
    keep[max(0, oy - px // 2): oy + board.height * px + px // 2, max(0, ox - px // 2): ox + board.width * px + px // 2] = True
    image[~keep] = 255
    rng = np.random.default_rng(seed)
    size = (1920, 1080)
    truth = random_pose(rng, (board.width, board.height), size)
    warp = truth @ np.linalg.inv(np.array([[px, 0, ox], [0, px, oy], [0, 0, 1.0]]))
    photo = cv2.warpPerspective(image, warp, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), warp, size)[:, :, None] / 255.0
    photo = (photo * alpha + table_texture(rng, size) * (1 - alpha)).astype(np.uint8)
    return photo, truth, (board.width, board.height)


def test_our_printed_boards_with_markers_hidden():
    """Issue 5, MT 1.02.a: our own 20x12 and 31x18 library boards, markers hidden, random pose on
    a grained table: with the size given, >= 7 of 8 photos are fitted within 0.1 square (8/8
    measured since the working scale follows the requested size; 4/8 before, when small boards
    in a big photo had squares of 10-20 px; see docs/grid-finding.md)."""
    ok, failures = 0, []
    for name in ("duel-20x12", "trio-31x18"):
        for seed in range(4):
            photo, truth, (w, h) = _our_board_photo(name, seed)
            fit = find_grid(photo, (w, h))
            if fit is not None and (fit.width, fit.height) == (w, h) and _synthetic_error(fit, truth, w, h) < 0.1:
                ok += 1
            else:
                failures.append((name, seed))
    assert ok >= 7, f"only {ok}/8; failures: {failures}"


def test_comb_fit_on_coincident_lines_is_no_lattice_not_a_zero_period():
    """Issue 5 (bug from the scan bench, vision.synth.photograph_no_board seed 28): two near-
    coincident strong lines made the comb's least-squares period 0 and find_grid divided by it.
    Such evidence is 'no lattice' (quality 0), never a zero or negative period."""
    lines = np.array([-255.82945452, -243.05975046, 280.49811569, 626.69898112])
    strength = np.array([1.0, 1.0, 0.17238342, 0.20165301])
    period, _, quality, _ = fit_comb(lines, strength, 16.215497209608078, 467.00631963671265)
    assert period > 0 and (quality == 0 or period >= 16.215497209608078 / 2)


def test_no_board_photos_of_the_scan_bench_give_none():
    """Issue 5, never invent a board: the scan bench's no-board photos (table grain, books, cups,
    pens, text, a hand; seed 28 used to raise ZeroDivisionError) never raise, and at most 1 of 8
    gives a grid without a size (0 of 40 measured; 13 of 40 before edges had to show in the photo
    itself, not only after CLAHE); with the size given, none."""
    from vision.synth import photograph_no_board

    invented = []
    for seed in (28, *range(7)):
        image = photograph_no_board(seed=seed).image
        if find_grid(image) is not None:
            invented.append(seed)
        assert find_grid(image, (20, 12)) is None, f"invented a 20x12 board (seed {seed})"
    assert len(invented) <= 1, f"grids invented in no-board photos {invented}"
