"""Device classes (#27): the layout a window gets comes from its size in dp, so every density gives the
same layout at the same dp; the matrix's devices fall in the class they stand for."""
from __future__ import annotations

import pytest

from companion.app.device import (DEVICE_POINTS, LARGE_TABLET, PHONE, SMALL_TABLET, DeviceLayout,
                                  layout_for)


@pytest.mark.parametrize("size, device", [
    ((360, 780), PHONE), ((412, 915), PHONE), ((915, 412), PHONE),
    ((533, 853), SMALL_TABLET), ((600, 960), SMALL_TABLET), ((960, 600), SMALL_TABLET),
    ((800, 1280), LARGE_TABLET), ((1280, 800), LARGE_TABLET), ((1920, 1080), LARGE_TABLET),
])
def test_the_class_comes_from_the_shorter_side_in_dp(size, device):
    assert layout_for(*size).device == device


def test_orientation_is_portrait_when_taller_than_wide():
    assert layout_for(360, 780) == DeviceLayout(PHONE, portrait=True)
    assert layout_for(780, 360) == DeviceLayout(PHONE, portrait=False)
    assert layout_for(780, 360).name == "phone-landscape"


@pytest.mark.parametrize("density", [1.0, 1.5, 2.0, 2.625, 3.0])
def test_the_same_dp_gives_the_same_layout_at_every_density(density):
    width_px, height_px = 533 * density, 853 * density
    assert layout_for(width_px / density, height_px / density) == layout_for(533, 853)


@pytest.mark.parametrize("device", sorted(DEVICE_POINTS))
def test_each_measured_device_is_in_its_class_in_both_orientations(device):
    point = DEVICE_POINTS[device]
    assert point.device == device
    for portrait in (True, False):
        width, height = point.window(portrait)
        assert layout_for(width / point.density, height / point.density) == DeviceLayout(device, portrait)


def test_a_window_without_size_is_refused():
    with pytest.raises(ValueError, match="no size"):
        layout_for(0, 800)
