"""The shell's navigation on every device class (issue #27): which tabs a bar shows, where, and that a
phone reaches every screen — through its bottom bar or its "More" menu — with Undo and Redo on top."""
import json
import os
import subprocess
import sys

import pytest

from companion.app.device import DEVICE_CLASSES, DEVICE_POINTS, LARGE_TABLET, PHONE, SMALL_TABLET
from companion.app.navigation import BOTTOM, MAIN_SCREENS, RAIL, TOP, TOP_TWO_ROWS, NavPlan, nav_plan
from companion.app.screens import SCREENS
from companion.i18n import translate


@pytest.mark.parametrize("device", DEVICE_CLASSES)
@pytest.mark.parametrize("portrait", [True, False])
def test_every_screen_has_one_tab_in_the_bar_or_in_the_more_menu(device, portrait):
    """#27: whatever the layout, each screen is reachable, once, in the registry's order."""
    plan = nav_plan(device, portrait, SCREENS)
    assert sorted(plan.tabs + plan.more) == sorted(SCREENS)
    assert list(plan.tabs) == [name for name in SCREENS if name in plan.tabs]
    assert list(plan.more) == [name for name in SCREENS if name in plan.more]


def test_a_large_tablet_keeps_every_tab_on_top():
    """#27: the 1280×800 layout of the first versions, and every tab over Undo / Redo held upright."""
    assert nav_plan(LARGE_TABLET, False, SCREENS) == NavPlan(TOP, tuple(SCREENS))
    assert nav_plan(LARGE_TABLET, True, SCREENS) == NavPlan(TOP_TWO_ROWS, tuple(SCREENS))


@pytest.mark.parametrize("device, portrait, place", [(PHONE, True, BOTTOM), (SMALL_TABLET, True, BOTTOM),
                                                      (PHONE, False, RAIL), (SMALL_TABLET, False, TOP)])
def test_short_bars_show_the_main_screens_and_a_more_menu(device, portrait, place):
    """#27: a phone's bar (and a small tablet's) has the screens a game goes back to all the time —
    Board, Dice, Table, Camera — and "More" for New game, Tokens, History and Settings."""
    plan = nav_plan(device, portrait, SCREENS)
    assert plan.place == place
    assert plan.tabs == ("board", "dice", "table", "camera") == tuple(n for n in SCREENS if n in MAIN_SCREENS)
    assert plan.more == ("newgame", "pieces", "history", "settings")


def run_phone_script(tmp_path, steps, portrait=True) -> dict:
    point = DEVICE_POINTS[PHONE]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"data_dir": str(tmp_path / "data"), "demo": True, "lang": "fr", "screen": "board",
                                  "window": list(point.window(portrait)), "steps": steps}))
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=240,
                          env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": str(point.density)})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(report.read_text(encoding="utf-8"))


def test_a_phone_reaches_every_screen_from_its_bottom_bar_and_more_menu(tmp_path):
    """#27 at 360×780 dp (1080×2340 px, density 3): a tab of the bottom bar, a tab of the "More" menu by
    its id (the autopilot opens the menu first, as a person does) and by its words once the menu is open,
    and `show`; Undo stays on top, reachable, on every screen."""
    report = run_phone_script(tmp_path, [
        {"tap": "nav_table"}, {"report": "table"},
        {"tap": "nav_settings"}, {"report": "settings"}, {"inspect": "settings"},
        {"tap": "more"}, {"inspect": "menu"}, {"tap_text": translate("fr", "nav.history")}, {"report": "history"},
        {"show": "pieces"}, {"report": "pieces"},
        {"tap": "undo"}, {"report": "undone"},
    ])
    assert [report[label]["screen"] for label in ("table", "settings", "history", "pieces")] == \
        ["table", "settings", "history", "pieces"]
    assert report["undone"]["history"] != report["pieces"]["history"]   # the demo's last action taken back
    menu = report["inspected"]["menu"]
    assert menu["popups"] == ["DropDown"]
    assert {translate("fr", f"nav.{name}") for name in ("newgame", "pieces", "history", "settings")} <= \
        {target["text"] for target in menu["targets"]}
    # on Settings, reached through the menu: the bar's tabs and "More", Undo and Redo, all finger-sized
    seen = report["inspected"]["settings"]
    shell = {target["text"] for target in seen["targets"]}
    assert {translate("fr", f"nav.{name}") for name in ("board", "dice", "table", "camera", "more", "redo")} <= shell
    assert [t for t in seen["targets"] if min(t["w"], t["h"]) < 48] == [] and seen["cut"] == []


def test_a_large_tablet_at_start_shows_no_more_tab(tmp_path):
    """#27: the window a large tablet opens in already has the plan of its class (every tab, no "More"),
    so the first arrangement runs all the same: the kv's bar, which holds "More", is rearranged."""
    from test_app_drive import run_autopilot

    report = run_autopilot(tmp_path, [{"inspect": "start"}], lang="en")
    texts = [target["text"] for target in report["inspected"]["start"]["targets"]]
    assert translate("en", "nav.more") not in texts
    assert translate("en", "nav.board") in texts
