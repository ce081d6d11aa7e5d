"""Where the shell puts its navigation for a device class and orientation (issue #27). Pure: no Kivy.

The 10–12" tablet held sideways keeps the app's first layout, one bar over the screens: a tab per screen,
then Undo and Redo. Every other layout lacks the width for eight tabs whose words stay whole (78 dp for
"Historique" at 17 sp, 8 × 90 dp with margins) beside Undo and Redo:
- the large tablet upright (800 dp) keeps every tab on top, over a second row for Undo and Redo;
- the 7–8" tablet sideways (853 dp) keeps one bar on top, with the main screens and a "More" tab
  that opens a menu of the others;
- upright phones and 7–8" tablets (360–600 dp) put the main screens' tabs and "More" in a bar at the
  bottom, under the thumb, as phone apps do, and Undo / Redo in a bar on top;
- the phone turned (360 dp high) puts everything in a rail on the left: the screens keep the whole
  height, which they lack most.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.device import LARGE_TABLET, PHONE

TOP, TOP_TWO_ROWS, BOTTOM, RAIL = "top", "top2", "bottom", "rail"
PLACES = (TOP, TOP_TWO_ROWS, BOTTOM, RAIL)
# The screens a game goes back to all the time: a tab of their own wherever the bar is short.
MAIN_SCREENS = ("board", "dice", "table", "camera")


@dataclass(frozen=True)
class NavPlan:
    """The navigation of one layout: where the bar is (`place`, one of PLACES), the screens with a tab
    in it (`tabs`), and those in the "More" menu (`more`; empty: no "More" tab), each in the
    registry's order."""

    place: str
    tabs: tuple[str, ...]
    more: tuple[str, ...] = ()


def nav_plan(device: str, portrait: bool, screens: Sequence[str]) -> NavPlan:
    """The navigation for a `device` class (companion.app.device) held upright (`portrait`) or not,
    over the registered `screens` (the order of the tabs)."""
    screens = tuple(screens)
    if device == LARGE_TABLET:
        return NavPlan(TOP_TWO_ROWS if portrait else TOP, screens)
    tabs = tuple(name for name in screens if name in MAIN_SCREENS)
    more = tuple(name for name in screens if name not in MAIN_SCREENS)
    if portrait:
        return NavPlan(BOTTOM, tabs, more)
    return NavPlan(RAIL if device == PHONE else TOP, tabs, more)
