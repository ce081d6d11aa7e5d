"""Issue #27: the Table laid out per device class — which rows of panels, which panels face which
way, where the life buttons go, the turn bar — and, through the real app at a phone's size held
upright (1080×2340 px at density 3 = 360×780 dp), taps on a panel turned 180°, Next phase through the
turn bar's sheet and −5 in the commander grid (every opponent's commander in one grid)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.app.device import LARGE_TABLET, PHONE, SMALL_TABLET
from companion.app.screens.table import presenter as table


@pytest.mark.parametrize("count, device, portrait, rows", [
    (2, PHONE, True, [1, 1]), (3, PHONE, True, [1, 1, 1]), (4, PHONE, True, [2, 2]), (5, PHONE, True, [1] * 5),
    (2, SMALL_TABLET, True, [1, 1]), (4, SMALL_TABLET, True, [2, 2]), (5, SMALL_TABLET, True, [2, 2, 1]),
    (5, LARGE_TABLET, True, [2, 2, 1]), (5, PHONE, False, [3, 2]), (5, LARGE_TABLET, False, [3, 2])])
def test_portrait_stacks_the_panels_in_rows_and_landscape_keeps_the_grid(count, device, portrait, rows):
    """#27: a phone held upright stacks the panels (two by two at 4 players, five strips at 5: two wide,
    each total was 40 dp wide and ±5 hidden); tablets two wide from 3 players; landscape as today."""
    assert table.seat_rows(count, device, portrait) == rows
    assert sum(rows) == count


def test_the_hordes_city_keeps_a_row_of_its_own_above_rows_of_two_players_in_portrait():
    """HO 300.3 (the City's life is the big number) on a phone: City, then the players two by two."""
    assert table.seat_rows(4, PHONE, True, city=True) == [1, 2, 2]
    assert table.seat_rows(4, LARGE_TABLET, False, city=True) == [1, 4]
    assert table.seat_rows(4, PHONE, False, city=True) == [1, 2, 2] and table.city_beside(PHONE, False)
    assert not table.city_beside(PHONE, True) and not table.city_beside(SMALL_TABLET, False)


@pytest.mark.parametrize("count, expected", [(2, [180, 0]), (4, [180, 180, 0, 0]), (5, [180, 180, 0, 0, 0])])
def test_a_phone_held_upright_turns_its_far_half_to_face_the_players_from_the_start(count, expected):
    """#27: as every life counter does, even with the panels set upright in the settings."""
    layout = table.seat_layout_for("upright", PHONE, True)
    rows = table.seat_rows(count, PHONE, True)
    assert [table.default_rotation(seat, count, layout, rows) for seat in range(count)] == expected


def test_tablets_keep_the_settings_choice_of_upright_panels():
    assert table.seat_layout_for("upright", SMALL_TABLET, True) == "upright"
    assert table.seat_layout_for("upright", PHONE, False) == "upright"
    assert table.seat_layout_for("ends", PHONE, True) == "ends"
    assert [table.default_rotation(s, 4, "upright", [2, 2]) for s in range(4)] == [0, 0, 0, 0]


def test_only_the_large_tablet_in_landscape_shows_full_panels_and_portrait_puts_the_turn_in_a_bar():
    assert not table.compact_panels(LARGE_TABLET, False)
    assert all(table.compact_panels(d, p) for d, p in ((PHONE, True), (PHONE, False), (SMALL_TABLET, False),
                                                        (LARGE_TABLET, True)))
    assert table.turn_in_bar(portrait=True) and not table.turn_in_bar(portrait=False)


@pytest.mark.parametrize("size, arrangement", [((344, 400), "columns"), ((344, 80), "row"), ((328, 49), "row"),
                                               ((156, 180), "under"), ((156, 60), "pair"), ((200, 106), "pair"),
                                               ((125, 106), "under"), ((156, 110), "under")])
def test_the_life_buttons_go_where_the_panel_has_room_for_finger_sized_buttons(size, arrangement):
    """#27: at 533×853 dp the −1/+1 buttons overlapped the totals; each arrangement keeps 48 dp buttons.
    A phone's strip at 5 players (328×49 dp) keeps −5 −1 total +1 +5 in a row; a box too narrow for a
    total of 48 dp between −1 and +1 (a turned phone at 5 players: 125 dp, its City: 156 dp; the total
    was 13 and 44 dp wide) puts them under the total."""
    assert table.life_arrangement(*size) == arrangement


def test_only_short_compact_panels_are_slim():
    """#27: five strips on a phone held upright (111 dp) and a turned phone's panels (168 dp) keep no gaps
    between a name's row and a row of 48 dp buttons; the tablets' panels keep theirs."""
    assert table.slim_panel(111) and table.slim_panel(168)
    assert not table.slim_panel(190) and not table.slim_panel(254)


def test_minus_and_plus_five_stay_under_the_total_only_where_four_buttons_of_48_dp_fit():
    assert table.life_fives_under(204) and not table.life_fives_under(160)


def test_the_players_of_the_horde_in_rows_get_what_they_need_and_the_city_keeps_its_least():
    heights = table.horde_rows(600, [180, 180], turned=False, player_rows=2, city_need=220)
    assert heights[1:] == [180, 180] and heights[0] == 240


@pytest.fixture(scope="module")
def phone_run(tmp_path_factory):
    """The demo game on a phone held upright: the far panel is turned 180°; taps through the app."""
    tmp = tmp_path_factory.mktemp("phone")
    steps = [{"show": "table"}, {"report": "start"},
             {"tap": "table.seat-1.life.minus_1"}, {"report": "life"},
             {"tap": "table.next_phase"}, {"report": "next_phase"},
             {"tap": "table.seat-2.commander-1.plus_5"}, {"tap": "table.seat-2.commander-1.plus_5"},
             {"tap": "table.seat-2.commander-1.minus_5"}, {"report": "commander"},
             {"tap": "table.seat-1.life.plus_1"}, {"report": "closed"}]
    data_dir = tmp / "save"
    script, report = tmp / "script.json", tmp / "report.json"
    script.write_text(json.dumps({"data_dir": str(data_dir), "demo": True, "lang": "fr", "screen": "table",
                                  "window": [1080, 2340], "steps": steps}))
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": "3"}
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=180, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(report.read_text())


@pytest.mark.slow
def test_a_tap_on_the_far_panel_turned_180_changes_its_players_life(phone_run):
    start = phone_run["start"]
    assert start["screens"]["table"]["rotations"] == {"1": 180, "2": 0}
    assert phone_run["life"]["life"]["1"] == start["life"]["1"] - 1
    assert phone_run["life"]["life"]["2"] == start["life"]["2"]


@pytest.mark.slow
def test_next_phase_is_reached_through_the_turn_bar(phone_run):
    before, after = phone_run["life"]["turn"], phone_run["next_phase"]["turn"]
    assert (after["number"], after["phase"]) != (before["number"], before["phase"])
    assert phone_run["next_phase"]["popups"] == ["TurnSheet"]


@pytest.mark.slow
def test_the_commander_grid_takes_minus_five_too(phone_run):
    """#27: ±1, ±5 and the keypad per opponent's commander in one grid: +5 +5 −5 from Anna's leaves 5
    (CR 903.10a counts it), the last tap on the panel closed the sheet first."""
    damage = phone_run["commander"]["players"]["2"]["commander_damage"]
    assert damage == {"1": 5}
    assert phone_run["commander"]["popups"] == ["PlayerSheet"]
    assert phone_run["closed"]["popups"] == []
    assert phone_run["closed"]["life"]["1"] == phone_run["start"]["life"]["1"]
