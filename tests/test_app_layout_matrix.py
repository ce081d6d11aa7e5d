"""Issue #27, the device matrix's runner: its frames last seconds (measuring, drawing), and Kivy's scroll
effects, which integrate their spring and friction over a frame's time, threw the Table's side panel
and the monarch's and initiative's menus opened from it up to 10^6 dp out of the window. The app's
clock now sees each of the runner's frames as at most a slow device's (`PacedClock`); through the real
app, a finger scrolls the side panel past its end, the frames come slowly, and the menus a finger then
opens lie in the window, under or over their button."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.app.layout_matrix import MAX_FRAME_S, PacedClock


class FakeTime:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_frame_after_seconds_of_measuring_lasts_a_slow_devices_frame_for_the_app():
    """#27: the app's clock moves at most MAX_FRAME_S from one of the runner's frames to the next."""
    real = FakeTime()
    paced = PacedClock(real)
    last_frame = paced()
    real.now += 3.0                      # the runner measured for three seconds
    paced.next_frame(last_frame)
    assert abs(paced() - last_frame - MAX_FRAME_S) < 1e-9
    last_frame = paced()
    real.now += MAX_FRAME_S / 2          # a quick frame keeps its own time
    paced.next_frame(last_frame)
    assert abs(paced() - last_frame - MAX_FRAME_S / 2) < 1e-9
    real.now += 1.0                      # between frames, the time runs as the real time
    assert abs(paced() - last_frame - MAX_FRAME_S / 2 - 1.0) < 1e-9


SCRIPT = r'''
import json, sys, tempfile, time
from pathlib import Path
from companion.app import layout_matrix as matrix
from companion.app.env import prepare_kivy
prepare_kivy(headless=True, size=(1280, 800))
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.dropdown import DropDown
from kivy.uix.scrollview import ScrollView
from companion.app import games
from companion.app.main import TacticalApp

SLOW_FRAME_S = 0.6   # a frame of the matrix on a loaded machine (a spring integrated over it diverged)

data = Path(tempfile.mkdtemp())
app = TacticalApp(demo=False, lang="fr", data_dir=data, start_screen="newgame", demo_cards=True)
app._run_prepare()
matrix.pace_clock()
EventLoop.start()
matrix.settle()
app._switch_to(games.start(matrix.table_setup("5"), data))
matrix.into_play(app.game)
app.revision += 1
app.show("table")
matrix.settle(6)
screen = app.screen("table")


def slow_frames(count):
    for _ in range(count):
        time.sleep(SLOW_FRAME_S)
        matrix.settle(1)


def rect(widget):
    (x1, y1), (x2, y2) = widget.to_window(widget.x, widget.y), widget.to_window(widget.right, widget.top)
    return [x1, y1, x2, y2]


found = {"nothing_open": {case: matrix.missing_list(app, case) for case in ("table.monarch_menu", "table.life_keypad")}}
for which in ("monarch", "initiative"):
    spinner = screen.ids[which]
    view = spinner.parent
    while not isinstance(view, ScrollView):
        view = view.parent
    # a finger drags the side panel up, past its end, and lets go (the panel springs back)
    x, y = view.to_window(view.center_x, view.y + 20)
    finger = UnitTestTouch(x, y)
    finger.touch_down()
    slow_frames(1)
    for step in range(1, 5):   # (Kivy measures a finger's speed on the real clock: slow frames, one pace)
        finger.touch_move(x, y + step * 60)
        slow_frames(1)
    finger.touch_up()
    slow_frames(6)
    # then taps the menu where it now is
    x, y = spinner.to_window(spinner.center_x, spinner.center_y)
    tap = UnitTestTouch(x, y)
    tap.touch_down()
    matrix.settle(1)
    tap.touch_up()
    slow_frames(3)
    menus = [rect(widget) for widget in Window.children if isinstance(widget, DropDown)]
    found[which] = {"menus": menus, "button": rect(spinner), "scroll_y": view.scroll_y,
                    "window": list(Window.size), "missing": matrix.missing_list(app, f"table.{which}_menu")}
    matrix.close_popups(app)
print(json.dumps(found))
app.stop()
'''


@pytest.fixture(scope="module")
def found() -> dict:
    """The script's findings, run once (one app process for both tests)."""
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_side_panels_menus_open_in_the_window_after_a_finger_scrolls_the_panel(found):
    """#27: on a large tablet turned (1280×800 at density 1), five players in play, the monarch's and
    the initiative's menus open inside the window, against their button, after a finger has thrown the
    side panel past its end and the frames came slowly."""
    for which in ("monarch", "initiative"):
        seen = found[which]
        assert seen["missing"] == [], (which, seen)
        width, height = seen["window"]
        assert len(seen["menus"]) == 1, (which, seen)
        left, bottom, right, top = seen["menus"][0]
        assert 0 <= left and right <= width and 0 <= bottom and top <= height, (which, seen)
        button = seen["button"]
        assert min(abs(top - button[1]), abs(bottom - button[3])) <= 2, (which, seen)  # under or over it


def test_a_list_case_measured_with_no_list_open_is_a_defect_not_a_silent_pass(found):
    """#27: the matrix checks that a case opened what it names. With nothing open, the monarch's menu
    case is reported (its name ends in `_menu`); a keypad case is no list case and is not."""
    nothing_open = found["nothing_open"]
    assert len(nothing_open["table.monarch_menu"]) == 1 and "no drop-down" in nothing_open["table.monarch_menu"][0]
    assert nothing_open["table.life_keypad"] == []


def test_another_screen_of_a_class_is_read_from_its_pixels_and_density():
    """#27: `--point 1080x2400@2.625` measures a larger phone (411×914 dp); a malformed or impossible
    screen is refused with what was expected."""
    import argparse

    from companion.app.layout_matrix import device_point

    point = device_point("2400x1080@2.625")
    assert (point.width_px, point.height_px, point.density, point.device) == (1080, 2400, 2.625, "phone")
    assert device_point("1200x1920@2").device == "small"
    for bad in ("1080x2400", "1080*2400@3", "1080x2400@0.5", "100x2400@1"):
        with pytest.raises(argparse.ArgumentTypeError, match="WIDTHxHEIGHT@DENSITY|density 1 to 4"):
            device_point(bad)
