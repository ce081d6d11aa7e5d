"""Issue #27, done when: a 5-player Planechase game in French with an event deck of 37 cards built in the
app, and a 2-player Horde game in English, are played through the real app to a winner on a phone held
upright and on a small tablet turned to landscape, at their real pixel sizes and densities.

The scripts are the same on both devices (the autopilot names widgets by kv id and button text; a
layout that hides one behind a bar or a sheet opens it first): a script that runs on one class only
fails here. At every `inspect` step, the touch targets shown are at least 48 dp and no text is cut.
Set UPDATE_SCREENSHOTS=1 to copy the pictures taken on the way to docs/screenshots/games/.

Expected values come from the rules' numbers and the steps taken, never from the app's code."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.device import DEVICE_POINTS, MIN_TOUCH_DP, PHONE, SMALL_TABLET
from companion.game import latest_game, load_game
from test_app_drive import seat_steps

pytestmark = pytest.mark.slow  # whole games through the app: the second step of ./run.sh test

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "games"
DEVICES = {"phone-portrait": (PHONE, True), "small-landscape": (SMALL_TABLET, False)}
# On a phone held upright, five players' panels two per row were 40 dp wide and hid their ±5 (#27): five
# strips the phone's width now keep −5 −1 total +1 +5 each, and the 5-player game is played on both.
PLANECHASE_DEVICES = sorted(DEVICES)
FIVE = ("Anna", "Bruno", "Cléo", "Dominique", "Émile")
BUNDLED_NAMES = 12  # MT 9.03: twelve distinct cards (26 in all); the table's own come after them
# The table's own events, each at its MT 7.02.c limit: 26 + 4 + 4 + 2 + 1 = 37 = 25 + 4 × 3 (MT 7.02.a)
OWN = [("Orage", "common", 4), ("Crue", "common", 4), ("Éclipse", "uncommon", 2), ("Comète", "mythic", 1)]


def run_on(device: str, tmp: Path, steps: list[dict], *, name: str, lang: str, timeout: float = 600) -> dict:
    """Run `steps` in the real app at the device's real window and density; the report."""
    kind, portrait = DEVICES[device]
    point = DEVICE_POINTS[kind]
    script, report = tmp / f"{name}.json", tmp / f"{name}-report.json"
    script.write_text(json.dumps({"data_dir": str(tmp / "save"), "demo": False, "lang": lang, "screen": "newgame",
                                  "window": list(point.window(portrait)), "steps": steps}), encoding="utf-8")
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": str(point.density)}
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(report.read_text(encoding="utf-8"))


def shot(tmp: Path, device: str, name: str) -> dict:
    return {"screenshot": str(tmp / f"{device}-{name}.png")}


def keep_shots(tmp: Path) -> None:
    if os.environ.get("UPDATE_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        for png in tmp.glob("*.png"):
            shutil.copy(png, DOCS / png.name)


def deck_steps() -> list[dict]:
    """Extend the prebuilt deck in the builder with the table's own events, each to its limit."""
    steps: list[dict] = []
    for row, (name, rarity, copies) in enumerate(OWN, start=BUNDLED_NAMES + 1):
        steps += [{"type": ["newgame.deck.own_name", name]}, {"tap": f"newgame.deck.rarity_{rarity}"},
                  {"tap": "newgame.deck.add_own"}]
        steps += [{"tap": f"newgame.deck-{row}.plus"}] * (copies - 1)  # added with one copy
    return steps


def planechase_steps(device: str, tmp: Path) -> list[dict]:
    steps: list[dict] = [{"show": "newgame"}, *seat_steps(FIVE)]
    steps += [
        {"pick": ["newgame.board", "quatuor-40x25"]}, {"pick": ["newgame.starting_player", "Anna"]},
        {"tap": "newgame.planechase"}, {"tap": "newgame.events"}, {"inspect": "form"},
        {"tap": "newgame.build_deck_short"}, {"inspect": "builder"}, *deck_steps(), {"report": "built"},
        shot(tmp, device, "deck-builder-fr"), {"tap": "newgame.deck.use"}, {"report": "deck_used"},
        {"tap": "newgame.start"}, {"report": "started"}, shot(tmp, device, "board-fr"),
        # Émile's pawn: four start squares for five players; the table places it (MT 2.04.a)
        {"show": "table"}, {"inspect": "table-pregame"}, shot(tmp, device, "table-pregame-fr"),
        {"tap": "table.next_phase"}, {"report": "pawn_entering"}, {"tap_drawn": "entry"}, {"report": "pawn_placed"},
        {"show": "table"}, {"tap": "table.next_phase"}, {"report": "turn1"}, {"inspect": "table-turn1"},
        # untap, upkeep, draw: the movement phase, where Anna rolls for her pawn on the Board (MT 3.01.a)
        *[{"tap": "table.next_phase"}] * 3, {"report": "movement"},
        {"show": "board"}, {"tap_token": [1, 1]}, {"tap": "board.roll"}, {"report": "rolled"},
        {"inspect": "board-rolled"}, shot(tmp, device, "board-rolled-fr"),
        # the main phase: the planar die (PC), on the Dice screen
        {"show": "table"}, *[{"tap": "table.next_phase"}] * 3, {"report": "main"},
        {"show": "dice"}, {"tap": "dice.planar"}, {"report": "planar"}, {"inspect": "dice"},
        {"show": "table"},
        # four players go out: Bruno to 0 on the keypad, Cléo at 10 poison, Dominique and Émile at 0 life
        {"tap": "table.seat-2.life.total"}, {"inspect": "keypad"}, {"tap_text": "0"}, {"tap_text": "OK"},
        {"tap": "table.seat-2.confirm_out"},
        *[{"tap": "table.seat-3.poison.plus"} for _ in range(10)], {"tap": "table.seat-3.confirm_out"},
        *[{"tap": "table.seat-4.life.minus_5"} for _ in range(4)], {"tap": "table.seat-4.confirm_out"},
        *[{"tap": "table.seat-5.life.minus_5"} for _ in range(4)], {"tap": "table.seat-5.confirm_out"},
        {"report": "end"}, {"inspect": "winner"}, shot(tmp, device, "table-won-fr"),
        {"show": "history"}, {"inspect": "history"}, shot(tmp, device, "history-fr"),
    ]
    return steps


def horde_steps(device: str, tmp: Path) -> list[dict]:
    return [
        {"show": "newgame"}, {"type": ["newgame.player-1.name", "Anna"]}, {"type": ["newgame.player-2.name", "Bruno"]},
        {"tap": "newgame.variant_horde"}, {"inspect": "form"}, shot(tmp, device, "newgame-horde-en"),
        {"tap": "newgame.start"}, {"show": "table"}, {"report": "start"}, {"inspect": "table-pregame"},
        {"tap": "table.next_phase"}, {"tap": "table.city.life.minus_5"}, {"report": "city_hit"},
        {"tap": "table.end_turn"}, {"tap": "table.end_turn"}, {"report": "horde_turn"},
        {"tap": "table.next_phase"}, {"tap": "table.next_phase"}, {"tap": "table.city.horde_draw"},
        {"report": "horde_drew"}, {"inspect": "horde-revealed"}, shot(tmp, device, "table-horde-en"),
        *[{"tap": "table.city.horde_damage_5"} for _ in range(20)], {"report": "boss_out"},
        {"tap_text": "The wave's boss leaves"}, {"report": "end"}, {"inspect": "winner"},
        shot(tmp, device, "table-horde-won-en"),
    ]


def finger_and_eye_problems(report: dict) -> list[str]:
    """Every inspected point's touch targets under 48 dp and cut texts."""
    problems = []
    for label, seen in report.get("inspected", {}).items():
        problems += [f"{label}: {t['kind']} {t['text']!r} {t['w']}×{t['h']} dp" for t in seen["targets"]
                     if min(t["w"], t["h"]) < MIN_TOUCH_DP - 0.5]
        problems += [f"{label}: cut {text!r}" for text in seen["cut"]]
    return problems


def play(device: str, tmp_path_factory, game: str, steps, lang: str):
    """One whole game on `device`: (device, report, the saved game)."""
    tmp = tmp_path_factory.mktemp(f"{game}-{device}")
    report = run_on(device, tmp, steps(device, tmp), name=game, lang=lang)
    keep_shots(tmp)
    return device, report, load_game(latest_game(tmp / "save"))


@pytest.fixture(scope="module", params=PLANECHASE_DEVICES)
def planechase(request, tmp_path_factory):
    return play(request.param, tmp_path_factory, "planechase", planechase_steps, "fr")


@pytest.fixture(scope="module", params=sorted(DEVICES))
def horde(request, tmp_path_factory):
    return play(request.param, tmp_path_factory, "horde", horde_steps, "en")


def test_five_players_play_planechase_with_a_37_card_event_deck_built_in_the_app_MT_7_02_a(planechase):
    device, report, game = planechase
    assert report["built"]["screens"]["newgame"]["deck_builder"]["cards"] == 37
    assert [p.name for p in game.state.players] == list(FIVE)
    assert report["started"]["game"]["events"] == 37 and report["started"]["game"]["planar_decks"]
    assert report["turn1"]["turn"]["active"] == [1]
    assert report["rolled"]["rolls"], f"{device}: no movement roll recorded"
    assert report["main"]["turn"]["phase"] == "main1"
    assert [roll["die"] for roll in report["planar"]["rolls"]][-1] == "planar"  # PC: rolled in the main phase


def test_the_five_player_game_ends_with_the_last_player_standing(planechase):
    device, report, game = planechase
    assert game.state.winner == [1], device
    assert [p.left for p in game.state.players] == [False, True, True, True, True]
    assert "Anna" in report["end"]["screens"]["table"]["winner"]


def test_the_horde_game_is_won_when_the_wave_boss_leaves_HO(horde):
    device, report, game = horde
    assert report["city_hit"]["horde"]["city"] == 75, device  # HO 300.2: Beginner 100 − 10 × 2, then −5
    assert report["horde_turn"]["turn"]["horde"] is True
    assert game.state.horde.result == "horde_defeated" and game.state.over


def test_the_planechase_game_met_finger_sized_targets_and_no_cut_text(planechase):
    device, report, _ = planechase
    assert finger_and_eye_problems(report) == [], device


def test_the_horde_game_met_finger_sized_targets_and_no_cut_text(horde):
    device, report, _ = horde
    assert finger_and_eye_problems(report) == [], device
