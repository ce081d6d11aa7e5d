"""Issue #27, the New game form on every device class: how many columns it gets (pure), and a whole
game set up on a phone held upright (1080×2340 px at density 3 = 360×780 dp) through the real app,
driven like a player by the same kv ids and texts as on a tablet: three players named, coloured and
given planes, the saved games' tab hiding the form (the screen's `reveal` shows it again before a
tap), the event deck too small for three (MT 7.02.a) completed in the deck builder, the game started.

Expected values come from the steps taken and the rules' numbers, never from the app's code."""
from __future__ import annotations

import os

import pytest

from companion.app.device import DEVICE_POINTS, layout_for
from companion.app.screens.newgame.presenter import form_columns, seats_column_weight
from companion.game import latest_game, load_game
from companion.i18n import translate
from test_app_drive import run_autopilot

PHONE = DEVICE_POINTS["phone"]
NAMES = ("Marie-Thérèse", "Jean-Baptiste", "Alexandrine")
BUNDLED_NAMES = 12   # MT 9.03: twelve cards in the builder before the table's own
MIN_TOUCH_DP = 48
# the navigation around the screens is another part's (measured by the device matrix): left out here
NAVIGATION = {translate("en", f"nav.{key}") for key in
              ("newgame", "board", "pieces", "dice", "table", "camera", "history", "settings", "undo", "redo")}


def columns_at(width_dp: float, height_dp: float) -> int:
    return form_columns(layout_for(width_dp, height_dp).device, width_dp)


@pytest.mark.parametrize("size", [(360, 780), (780, 360), (412, 915), (915, 412)])
def test_a_phone_form_is_one_column_held_either_way_issue_27(size):
    assert columns_at(*size) == 1


def test_a_small_tablet_upright_is_one_column_and_turned_two_issue_27():
    assert columns_at(533, 853) == 1
    assert columns_at(853, 533) == 2


def test_a_large_tablet_has_two_columns_either_way_issue_27():
    assert columns_at(800, 1280) == 2
    assert columns_at(1280, 800) == 2


def test_the_seats_column_is_narrower_only_where_the_window_is_wide_issue_27():
    """At 1280 dp the options get the larger share (today's layout); upright at 800 dp the halves
    are even, or a seat's name field would get a third of 400 dp."""
    assert seats_column_weight(1280) < 1 == seats_column_weight(800)


@pytest.fixture(scope="module")
def phone_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("newgame-phone")
    steps = [
        {"show": "newgame"},
        # the saved games hide the form: each tap below first shows the form again (reveal)
        {"tap": "newgame.mode_saved"}, {"report": "saved_mode"},
        {"tap": "newgame.player-3.enabled"}, {"report": "revealed"},
        *[{"type": [f"newgame.player-{seat}.name", name]} for seat, name in enumerate(NAMES, start=1)],
        {"pick": ["newgame.player-3.colour", "purple"]},
        {"tap": "newgame.planechase"}, {"type": ["newgame.player-1.planes", "Naya, Tazeem"]},
        {"tap": "newgame.events"}, {"report": "short"}, {"inspect": "form"},
        {"tap": "newgame.build_deck_short"}, {"inspect": "builder"},
        {"type": ["newgame.deck.own_name", "Storm"]}, {"tap": "newgame.deck.add_own"},
        *[{"tap": f"newgame.deck-{BUNDLED_NAMES + 1}.plus"}] * 3, {"report": "built"},
        {"tap": "newgame.deck.use"}, {"report": "used"},
        {"tap": "newgame.start"}, {"report": "started"},
    ]
    saved_density = os.environ.get("KIVY_METRICS_DENSITY")
    os.environ["KIVY_METRICS_DENSITY"] = str(PHONE.density)
    try:
        report = run_autopilot(tmp_path, steps, name="phone", screen="newgame", demo=False, timeout=240,
                               options={"window": list(PHONE.window(portrait=True))})
    finally:
        if saved_density is None:
            os.environ.pop("KIVY_METRICS_DENSITY")
        else:
            os.environ["KIVY_METRICS_DENSITY"] = saved_density
    return report, tmp_path / "save"


def newgame(report: dict, label: str) -> dict:
    return report[label]["screens"]["newgame"]


@pytest.mark.slow
def test_on_a_phone_a_tap_on_the_hidden_form_shows_it_first_issue_27(phone_run):
    report, _ = phone_run
    assert newgame(report, "saved_mode")["mode"] == "saved"
    assert newgame(report, "revealed")["mode"] == "form"


@pytest.mark.slow
def test_on_a_phone_three_players_complete_the_deck_and_start_MT_7_02_a(phone_run):
    """26 cards (MT 9.03) are short of 29 for three players (MT 7.02.a: 25 + 4); one own common event
    at its four copies (MT 7.02.c) makes 30, and the game starts with the three players as typed."""
    report, save = phone_run
    assert "29" in newgame(report, "short")["deck_warning"]
    assert newgame(report, "built")["deck_builder"]["cards"] == 26 + 4
    assert newgame(report, "used")["deck_warning"] == ""
    assert report["started"]["screen"] == "board"
    state = load_game(latest_game(save)).state
    assert [p.name for p in state.players] == list(NAMES)
    assert state.planechase and len(state.events.deck) + (state.events.revealed is not None) == 30


@pytest.mark.slow
@pytest.mark.parametrize("label", ["form", "builder"])
def test_on_a_phone_every_target_is_finger_sized_and_no_text_is_cut_issue_27(phone_run, label):
    report, _ = phone_run
    seen = report["inspected"][label]
    small = [t for t in seen["targets"] if min(t["w"], t["h"]) < MIN_TOUCH_DP and t["text"] not in NAVIGATION]
    assert small == []
    assert [text for text in seen["cut"] if text not in NAVIGATION] == []
