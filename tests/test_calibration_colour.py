"""White balance from the paper, colour profiles and the configuration (issue 5, MT 2.02.d)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boards.palette import OBSTACLE_BGR, SQUARE_BGR
from calibration.colour import (CLASSES, Calibration, ColourProfile, bgr_bins, illumination_field, to_lab,
                                white_balance)
from calibration.config import ConfigError, VisionConfig


def test_palette_profile_reads_every_printed_colour_MT_2_02_a():
    profile = ColourProfile.from_palette()
    colours = [SQUARE_BGR[c] for c in CLASSES[:5]] + [OBSTACLE_BGR]
    image = np.array([colours], np.float32)
    assert list(profile.classify_bgr(image)[0]) == list(range(len(CLASSES)))


def test_adapting_learns_the_colours_as_this_light_shows_them():
    """A small residual cast after white balance: the profile re-learnt from the
    board's own pixels moves its means onto the observed colours and reads them."""
    rng = np.random.default_rng(1)
    colours = np.array([SQUARE_BGR[c] for c in CLASSES[:5]] + [OBSTACLE_BGR], np.float32)
    truth = rng.integers(0, len(colours), 5000)
    seen = colours * np.array([0.94, 0.98, 1.03], np.float32)
    pixels = seen[truth] + rng.normal(0, 3, (5000, 3))
    palette = ColourProfile.from_palette()
    adapted = palette.adapt(bgr_bins(pixels))
    target = to_lab(seen.reshape(-1, 1, 3)).reshape(-1, 3)
    assert np.abs(adapted.means - target).mean() < 0.5 * np.abs(palette.means - target).mean()
    assert (adapted.classify_bgr(pixels) == truth).mean() > 0.99


def test_illumination_field_removes_a_light_gradient():
    h, w = 60, 100
    ramp = np.linspace(0.6, 1.0, w, dtype=np.float32)[None, :, None] * np.ones((h, 1, 1), np.float32)
    sheet = np.full((h, w, 3), 255, np.float32) * ramp * np.array([0.8, 0.9, 1.0], np.float32)
    paper = np.zeros((h, w), bool)
    paper[:8] = paper[-8:] = True
    balanced = white_balance(sheet, illumination_field(sheet, paper))
    assert np.abs(balanced - 255).max() < 3


def test_illumination_field_follows_every_term_of_a_quadratic_light_per_channel():
    """The surface is evaluated term by term from a row and a column (#28: 5 ms less per 1080p
    scan): each of u, v, u·v, u², v² must land on its own axis and channel of a non-square frame."""
    h, w = 70, 130
    u = (np.arange(w) + 0.5) / w - 0.5
    v = ((np.arange(h) + 0.5) / h - 0.5)[:, None]
    terms = [np.ones((h, w)), u + 0 * v, v + 0 * u, u * v, u * u + 0 * v, v * v + 0 * u]
    coef = np.array([[200, 180, 160], [30, -20, 10], [-25, 15, 35], [60, -40, 20], [-50, 30, 0], [0, -35, 45]])
    light = np.stack([sum(c * t for c, t in zip(coef[:, ch], terms)) for ch in range(3)], axis=2).astype(np.float32)
    field = illumination_field(light, np.ones((h, w), bool), percentile=100)
    assert field.shape == (h, w, 3)
    assert np.abs(field - light).max() < 1.5   # a term on the wrong axis or channel: tens of levels off


def test_calibration_round_trip(tmp_path):
    profile = ColourProfile.from_palette()
    Calibration(20, 12, np.eye(3), profile, "camera 0").save(tmp_path)
    loaded = Calibration.load(tmp_path)
    assert (loaded.width, loaded.height, loaded.source) == (20, 12, "camera 0")
    assert np.allclose(loaded.profile.means, profile.means, atol=1e-3)


def test_calibration_saves_the_lens_with_the_profile(tmp_path):
    """A calibration keeps the camera's lens (calibration.mapping) with its colour profile; a file
    saved before lenses (no "lens") loads as a plain homography."""
    from calibration.mapping import GridMapping, RadialLens

    lens = RadialLens.for_image((1280, 720), -0.28, 0.03)
    mapping = GridMapping.with_lens(np.array([[40.0, 3, 200], [-2, 38, 120], [0, 0.0002, 1]]), lens, 20, 12)
    Calibration(20, 12, mapping.homography, ColourProfile.from_palette(), "camera 0", mapping.lens,
                mapping.lens_homography).save(tmp_path)
    loaded = Calibration.load(tmp_path)
    assert loaded.lens == lens
    points = np.array([[0.0, 0.0], [20.0, 12.0], [3.5, 9.25]])
    np.testing.assert_allclose(loaded.mapping.to_image(points), mapping.to_image(points), atol=1e-6)
    Calibration(20, 12, np.eye(3), ColourProfile.from_palette()).save(tmp_path)
    assert Calibration.load(tmp_path).lens is None


def test_broken_calibration_file_names_the_file(tmp_path):
    (tmp_path / Calibration.FILE_NAME).write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="calibration.json"):
        Calibration.load(tmp_path)


def test_config_loads_from_yaml_and_refuses_unknown_keys(tmp_path):
    good = tmp_path / "vision.yaml"
    good.write_text("colour:\n  min_cover: 0.2\nregistration:\n  min_markers: 3\n", encoding="utf-8")
    config = VisionConfig.load(good)
    assert config.colour.min_cover == 0.2 and config.registration.min_markers == 3
    bad = tmp_path / "bad.yaml"
    bad.write_text("colour:\n  min_covr: 0.2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="min_covr"):
        VisionConfig.load(bad)


def test_every_stage_is_set_from_the_vision_yaml_and_used_by_the_scan(tmp_path):
    """Issue 18: the grid finder, its chequer and lens stages and the token reader are sections of
    the vision YAML like the others (unknown keys named), and `scan` reads with them: with the
    chequer candidate off a real chessboard is found by its lines."""
    import cv2

    from vision import scan

    path = tmp_path / "vision.yaml"
    path.write_text("grid:\n  chequer_candidate: false\n  min_score: 0.65\nlens:\n  min_gain: 0.2\n"
                    "chequer:\n  min_square_px: 14\ntokens:\n  read_pictures: false\n", encoding="utf-8")
    config = VisionConfig.load(path)
    finder = config.grid_finder()
    assert (finder.chequer_candidate, finder.min_score, finder.lens.min_gain, finder.chequer.min_square_px,
            config.tokens.read_pictures) == (False, 0.65, 0.2, 14.0, False)
    photo = cv2.imread(str(Path(__file__).parent / "fixtures" / "real_photos_2" / "webcam-chess-10x7-c.jpg"))
    from calibration.grid_finder import find_grid

    assert find_grid(photo, (10, 7)).method == "chequer"
    without = find_grid(photo, (10, 7), config=finder)
    assert without is None or without.method == "lines"
    assert scan(photo, grid=(10, 7)).found
    strict = tmp_path / "strict.yaml"
    strict.write_text("grid:\n  min_score: 1.01\n", encoding="utf-8")
    assert not scan(photo, grid=(10, 7), config=VisionConfig.load(strict)).found
    bad = tmp_path / "bad.yaml"
    bad.write_text("lens:\n  min_gian: 0.2\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="min_gian"):
        VisionConfig.load(bad)


def test_truncated_variance_ratio_matches_a_sampled_gaussian():
    """The share of a 3-D Gaussian's variance kept within a Mahalanobis radius, checked
    against a large sample (not against the formula it implements)."""
    from calibration.colour import truncated_variance_ratio

    sample = np.random.default_rng(3).normal(size=(400_000, 3))
    radius = np.linalg.norm(sample, axis=1)
    for r in (1.0, 1.5, 2.5):
        assert truncated_variance_ratio(r) == pytest.approx(sample[radius < r].var(axis=0).mean(), rel=0.02)


def test_re_learning_a_colour_does_not_shrink_it_MT_2_02_d():
    """Learning a colour from the pixels the profile is sure of sees only the core of its
    spread; re-learnt again and again, the class must keep the colour's true spread and not
    shrink until ordinary pixels of it read as no colour (then as a hidden square)."""
    from calibration.config import ColourConfig

    rng = np.random.default_rng(2)
    colours = np.array([SQUARE_BGR[c] for c in CLASSES[:5]], np.float32)
    truth = rng.integers(0, len(colours), 20000)
    pixels = colours[truth] + rng.normal(0, 9, (20000, 3))
    adapted = ColourProfile.from_palette().adapt(bgr_bins(pixels), ColourConfig(adapt_iterations=4))
    assert (adapted.classify_bgr(pixels) == truth).mean() > 0.995


def test_illumination_field_need_not_extrapolate_beyond_its_samples():
    """Fitted on the left third only (a foreign board's white squares), a quadratic bends
    far away beyond them; without extrapolation the light stays within what was seen, so
    a far corner is not 'lit' to a glare (nor plunged into the dark)."""
    h, w = 40, 120
    u = np.linspace(0, 1, w, dtype=np.float32)
    light = 200 + 120 * u - 260 * u * u  # brightest a third of the way across
    sheet = np.repeat(light[None, :, None], h, axis=0).repeat(3, axis=2)
    samples = np.zeros((h, w), bool)
    samples[:, :40] = True
    free = illumination_field(sheet, samples, percentile=100)
    held = illumination_field(sheet, samples, percentile=100, extrapolate=False)
    seen = sheet[:, :40, 0]
    assert free[:, -1, 0].min() < seen.min() - 20  # the quadratic leaves the sampled range
    assert held.min() >= seen.min() - 1 and held.max() <= seen.max() + 1


def test_a_lookup_table_limited_to_the_bins_a_frame_uses_agrees_with_the_full_one():
    """MT 2.02.d: classifying only the bins present in a frame gives each of them the class the
    full table gives; bins the frame does not use stay unknown."""
    from calibration.colour import BIN_LAB, UNKNOWN

    colour = VisionConfig().colour
    profile = ColourProfile.from_palette(colour)
    present = np.random.default_rng(4).random(len(BIN_LAB)) < 0.1
    full = profile.lookup_table(colour)
    limited = profile.lookup_table(colour, present=present)
    assert (limited[present] == full[present]).all()
    assert (limited[~present] == UNKNOWN).all() and (full[~present] != UNKNOWN).any()
