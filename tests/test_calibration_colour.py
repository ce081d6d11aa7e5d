"""White balance from the paper, colour profiles and the configuration (issue 5, MT 2.02.d)."""
from __future__ import annotations

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


def test_calibration_round_trip(tmp_path):
    profile = ColourProfile.from_palette()
    Calibration(20, 12, np.eye(3), profile, "camera 0").save(tmp_path)
    loaded = Calibration.load(tmp_path)
    assert (loaded.width, loaded.height, loaded.source) == (20, 12, "camera 0")
    assert np.allclose(loaded.profile.means, profile.means, atol=1e-3)


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
