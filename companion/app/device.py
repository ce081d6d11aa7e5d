"""Device classes: which layout a window gets, from its size in dp (never pixels).

A table props up whatever it owns: a phone, a 7–8" tablet or a 10–12" tablet, in portrait or in
landscape, at any density from 1 to 3. The screens keep one layout per class and orientation, chosen
from the window's shorter side in dp, so the same dp gives the same layout at every density, and
changed when the device turns (`TacticalApp.device`, `TacticalApp.portrait`).

The classes (issue #27), by the shorter side of the window:
- phone: up to 480 dp (360×780 to 412×915 dp phones);
- small tablet (7–8"): 480 to 720 dp (533×853 to 600×960 dp);
- large tablet (10–12"): 720 dp and more (800×1280 dp and up).

Pure: no Kivy, so the choice is tested on its own.
"""
from __future__ import annotations

from dataclasses import dataclass

PHONE, SMALL_TABLET, LARGE_TABLET = "phone", "small", "large"
DEVICE_CLASSES = (PHONE, SMALL_TABLET, LARGE_TABLET)
PHONE_MAX_DP = 480.0         # a shorter side under this is a phone's
SMALL_TABLET_MAX_DP = 720.0  # under this, a 7–8" tablet's; from it on, a 10–12" tablet's
MIN_TOUCH_DP = 48.0          # the smallest touch target on either side (Material, Apple: 44–48)


@dataclass(frozen=True)
class DeviceLayout:
    """The layout a window gets: its device class and orientation."""

    device: str     # PHONE, SMALL_TABLET or LARGE_TABLET
    portrait: bool  # taller than wide

    @property
    def name(self) -> str:
        """'phone-portrait', 'small-landscape'…: the layout's name in reports and screenshot files."""
        return f"{self.device}-{'portrait' if self.portrait else 'landscape'}"


def layout_for(width_dp: float, height_dp: float) -> DeviceLayout:
    """The device class and orientation of a window `width_dp` × `height_dp` dp."""
    if width_dp <= 0 or height_dp <= 0:
        raise ValueError(f"a window of {width_dp}×{height_dp} dp has no size")
    short = min(width_dp, height_dp)
    device = PHONE if short < PHONE_MAX_DP else SMALL_TABLET if short < SMALL_TABLET_MAX_DP else LARGE_TABLET
    return DeviceLayout(device, portrait=height_dp > width_dp)


@dataclass(frozen=True)
class DevicePoint:
    """A real device the layouts are measured on: its screen in pixels (portrait) and its density."""

    name: str
    width_px: int
    height_px: int
    density: float

    def window(self, portrait: bool) -> tuple[int, int]:
        """The window in pixels, held in portrait or turned to landscape."""
        return (self.width_px, self.height_px) if portrait else (self.height_px, self.width_px)

    @property
    def device(self) -> str:
        return layout_for(self.width_px / self.density, self.height_px / self.density).device


# The smallest screen of each class (the hardest to fit), at a density real devices of that class have:
# a 6.1" phone (1080×2340 px, density 3 = 360×780 dp), an 8" tablet (800×1280 px, density 1.5 = 533×853 dp)
# and a 10–12" tablet (1600×2560 px, density 2 = 800×1280 dp).
DEVICE_POINTS: dict[str, DevicePoint] = {
    PHONE: DevicePoint("phone 6.1\"", 1080, 2340, 3.0),
    SMALL_TABLET: DevicePoint("tablet 8\"", 800, 1280, 1.5),
    LARGE_TABLET: DevicePoint("tablet 10-12\"", 1600, 2560, 2.0),
}
