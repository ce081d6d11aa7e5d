"""calibration.mapping: the grid <-> image mapping and its radial lens (docs/vision.md, "Lenses")."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.mapping import GridMapping, RadialLens

H = np.array([[52.0, 6.0, 310.0], [-4.0, 49.0, 180.0], [0.00002, 0.0004, 1.0]])
POINTS = np.array([[0.0, 0.0], [20.0, 0.0], [20.0, 12.0], [0.0, 12.0], [7.5, 3.25], [13.0, 11.5]])


def test_a_straight_mapping_is_its_homography_both_ways():
    mapping = GridMapping(H)
    expected = cv2.perspectiveTransform(POINTS.reshape(-1, 1, 2), H).reshape(-1, 2)
    assert mapping.straight and mapping.lens is None
    np.testing.assert_allclose(mapping.to_image(POINTS), expected)
    np.testing.assert_allclose(mapping.to_grid(expected), POINTS, atol=1e-9)
    assert mapping.to_image(POINTS.reshape(2, 3, 2)).shape == (2, 3, 2)
    np.testing.assert_array_equal(mapping.local_homography((0, 0, 3, 3)), mapping.homography)


def test_the_lens_follows_opencvs_convention():
    """distort = cv2.projectPoints with camera matrix (f, centre) and (k1, k2, 0, 0); undistort = its inverse."""
    lens = RadialLens.for_image((1920, 1080), -0.32, 0.05)
    pinhole = np.array([[100.0, 80.0], [1800.0, 1000.0], [960.0, 540.0], [300.0, 900.0]])
    ray = np.hstack([(pinhole - lens.centre) / lens.focal, np.ones((4, 1))])
    expected, _ = cv2.projectPoints(ray, np.zeros(3), np.zeros(3), lens.camera_matrix, lens.dist_coeffs)
    bent = lens.distort(pinhole)
    np.testing.assert_allclose(bent, expected.reshape(-1, 2), atol=1e-6)
    np.testing.assert_allclose(lens.undistort(bent), pinhole, atol=1e-6)
    back = cv2.undistortPoints(bent.reshape(-1, 1, 2), lens.camera_matrix, lens.dist_coeffs, P=lens.camera_matrix)
    np.testing.assert_allclose(back.reshape(-1, 2), pinhole, atol=1e-2)
    assert lens.monotonic_to(np.hypot(960, 540))
    assert not RadialLens.for_image((1920, 1080), -1.5).monotonic_to(np.hypot(960, 540))


def test_a_mapping_through_a_lens_bends_grid_lines_and_keeps_the_plain_fit():
    lens = RadialLens.for_image((1280, 960), -0.3)
    mapping = GridMapping.with_lens(H, lens, 20, 12)
    line = np.stack([np.full(21, 10.0), np.linspace(0, 12, 21)], axis=1)
    seen = mapping.to_image(line)
    # the grid line x = 10 is no longer straight in the photo ...
    chord = seen[-1] - seen[0]
    rel = seen - seen[0]
    off_chord = np.abs(chord[0] * rel[:, 1] - chord[1] * rel[:, 0]) / np.linalg.norm(chord)
    assert off_chord.max() > 3.0
    # ... and the mapping inverts exactly
    np.testing.assert_allclose(mapping.to_grid(seen), line, atol=1e-7)
    # the plain homography is the least-squares straight fit of the bent corners
    gx, gy = np.meshgrid(np.arange(21.0), np.arange(13.0))
    corners = np.stack([gx.ravel(), gy.ravel()], axis=1)
    plain = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), mapping.homography).reshape(-1, 2)
    lens_only = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H).reshape(-1, 2)
    bent = mapping.to_image(corners)
    assert np.sqrt(((plain - bent) ** 2).sum(1).mean()) < np.sqrt(((lens_only - bent) ** 2).sum(1).mean())


def test_the_rectifying_warp_shows_the_photo_where_the_mapping_says():
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 255, (960, 1280, 3), dtype=np.uint8), (0, 0), 3)
    mapping = GridMapping.with_lens(H, RadialLens.for_image((1280, 960), -0.25), 20, 12)
    px = 10
    canvas_to_grid = np.array([[1 / px, 0, 0.5 / px], [0, 1 / px, 0.5 / px], [0, 0, 1]])
    warped, inside = mapping.rectify(image, canvas_to_grid, (20 * px, 12 * px))
    assert inside.mean() > 0.9
    for u, v in ((15, 22), (150, 70), (199, 119)):
        x, y = mapping.to_image(np.array([[(u + 0.5) / px, (v + 0.5) / px]]))[0]
        expected = cv2.getRectSubPix(image, (1, 1), (float(x), float(y)))[0, 0].astype(float)
        if inside[v, u]:
            np.testing.assert_allclose(warped[v, u].astype(float), expected, atol=2.0)


@pytest.mark.parametrize("photo_size", [(1600, 960), (1448, 960), (1447, 960), (1280, 960), (700, 500)])
@pytest.mark.parametrize("bent", [False, True])
def test_the_inside_mask_is_what_a_white_frame_warped_shows(photo_size, bent):
    """The mask of canvas pixels from inside the photo, taken as all true without a second warp when
    the board is well inside the photo (issue 28: speed), equals the warp of a white frame read above
    250 — the board all in view, or cut by the frame's edge at the smaller sizes."""
    w, h = photo_size
    mapping = GridMapping.with_lens(H, RadialLens.for_image((w, h), -0.25), 20, 12) if bent else GridMapping(H)
    px = 10
    canvas_to_grid = np.array([[1 / px, 0, -0.6 + 0.5 / px], [0, 1 / px, -0.6 + 0.5 / px], [0, 0, 1]])
    size = (int(21.2 * px), int(13.2 * px))
    image = np.zeros((h, w, 3), np.uint8)
    _, inside = mapping.rectify(image, canvas_to_grid, size)
    white = mapping.warp(np.full((h, w), 255, np.uint8), canvas_to_grid, size) > 250
    np.testing.assert_array_equal(inside, white)
    # the fixture: all in view at 1600 px; the straight board reaches x = 1447.x (a warp cut by a pixel at 1447)
    if w == 1600:
        assert inside.all()
    if w <= 1280:
        assert not inside.all()


def test_a_mapping_round_trips_through_its_json():
    """The scan JSON carries `homography` (plain fit) and `lens` (model, coefficients, own homography)."""
    for mapping in (GridMapping(H), GridMapping.with_lens(H, RadialLens.for_image((640, 480), -0.41, 0.12), 7, 10)):
        doc = mapping.to_dict()
        again = GridMapping.from_dict(doc)
        np.testing.assert_allclose(again.to_image(POINTS), mapping.to_image(POINTS), atol=1e-6)
        assert (doc["lens"] is None) == mapping.straight
    with pytest.raises(ValueError, match="unknown model"):
        RadialLens.from_dict({"model": "fisheye", "k1": 0, "k2": 0, "camera_matrix": np.eye(3).tolist()})


def test_no_points_map_to_no_points_both_ways_with_or_without_a_lens():
    """Issue 18 (every grid → pixel mapping through the lens model): an empty set of points (a
    stage that kept none of a line's points) maps to an empty set, not an error (OpenCV's
    perspectiveTransform gives None for it)."""
    plain = GridMapping(np.diag([40.0, 40.0, 1.0]))
    bent = GridMapping.with_lens(np.diag([40.0, 40.0, 1.0]), RadialLens.for_image((640, 480), -0.3), 10, 8)
    for mapping in (plain, bent):
        for convert in (mapping.to_image, mapping.to_grid):
            assert convert(np.zeros((0, 2))).shape == (0, 2)
            assert convert(np.zeros((3, 0, 2))).shape == (3, 0, 2)


def test_a_side_is_out_of_the_photo_when_most_of_its_line_is_issue_28():
    """`sides_out_of_photo` (the finder's open sides, the verification's sides off the frame): a 10×5 grid of
    40 px squares whose left border lies 10 px inside a 960×720 photo has that border in the photo, and
    the line half a square past it out; its other sides are in."""
    from calibration.mapping import sides_out_of_photo

    mapping = GridMapping(np.array([[40.0, 0, 10], [0, 40.0, 300], [0, 0, 1]]))
    assert sides_out_of_photo(mapping.to_image, 10, 5, (960, 720)) == \
        {"left": False, "right": False, "top": False, "bottom": False}
    assert sides_out_of_photo(mapping.to_image, 10, 5, (960, 720), reach=0.5) == \
        {"left": True, "right": False, "top": False, "bottom": False}


@pytest.mark.parametrize("scale, interpolation", [(0.25, cv2.INTER_AREA), (0.3, cv2.INTER_AREA), (0.8, cv2.INTER_LINEAR),
                                                  (2.7, cv2.INTER_CUBIC)])
def test_points_found_on_a_resized_copy_map_back_by_pixel_centres_issue_28(scale, interpolation):
    """#28 (a grid placed where the photo has it): a blob centred on (123, 77) of a 400×300 photo, found on a
    copy resized by `scale` as `cv2.resize` makes it, maps back to (123, 77) within 0.05 px through
    `from_resized` and the matrix `resized_to_photo`; dividing by the scale alone missed by (1/scale − 1)/2 px
    (1.5 px at a quarter). `to_resized` is their inverse."""
    from calibration.mapping import from_resized, resized_to_photo, to_resized

    ys, xs = np.mgrid[0:300, 0:400].astype(np.float64)
    photo = 255 * np.exp(-((xs - 123.0) ** 2 + (ys - 77.0) ** 2) / (2 * 6.0 ** 2))
    copy = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=interpolation)
    weight = np.clip(copy, 0, None)
    cy, cx = np.mgrid[0:copy.shape[0], 0:copy.shape[1]]
    seen = np.array([[(weight * cx).sum() / weight.sum(), (weight * cy).sum() / weight.sum()]])
    np.testing.assert_allclose(from_resized(seen, scale), [[123.0, 77.0]], atol=0.05)
    np.testing.assert_allclose(GridMapping(resized_to_photo(scale)).to_image(seen), from_resized(seen, scale), atol=1e-9)
    np.testing.assert_allclose(to_resized(from_resized(seen, scale), scale), seen, atol=1e-9)
