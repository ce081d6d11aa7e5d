"""Every screen renders in both languages (one app run), small enough for the docs, not blank.

Set UPDATE_SCREENSHOTS=1 to also write them to docs/screenshots/<screen>-<lang>.png.
Each test here runs the whole app (a minute or more in all): marked `slow`, they run in the second
step of `./run.sh test`.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.screens import SCREENS
from companion.app.screens.table import presenter
from companion.i18n import LANGUAGES

pytestmark = pytest.mark.slow

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
MAX_BYTES = 250_000


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("shots")
    plan = [(screen, lang, str(out / f"{screen}-{lang}.png")) for lang in LANGUAGES for screen in SCREENS]
    code = ("import sys; from companion.app import capture_screens; "
            f"sys.exit(capture_screens({plan!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    if os.environ.get("UPDATE_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        for png in out.glob("*.png"):
            shutil.copy(png, DOCS / png.name)
    return out


@pytest.mark.parametrize("screen", list(SCREENS))
def test_each_screen_renders_in_both_languages(shots, screen):
    images = {}
    for lang in LANGUAGES:
        path = shots / f"{screen}-{lang}.png"
        assert path.is_file(), f"{path.name} was not written"
        assert path.stat().st_size < MAX_BYTES, f"{path.name} is {path.stat().st_size} bytes"
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        assert image.shape[:2] == (800, 1280), "tablet landscape size"
        assert float(image.std()) > 12, f"{path.name} looks blank"
        images[lang] = image
    # the strings changed with the language: the two pictures differ (in the navigation bar at least)
    assert np.abs(images["fr"][:60].astype(int) - images["en"][:60].astype(int)).sum() > 0


def test_board_screenshot_shows_the_demo_overlays(shots):
    """The demo opens with a flyer selected: its action zone (yellow) and moves (green) are drawn (MT 4.03, 3.04)."""
    image = cv2.imread(str(shots / "board-en.png"), cv2.IMREAD_COLOR).astype(int)
    b, g, r = image[..., 0], image[..., 1], image[..., 2]
    bright_green = (g > 200) & (r < 170) & (b < 170)
    assert bright_green.sum() > 500


TABLE_SIZES = (2, 4, 6)
TABLE_NAMES = ("Alexandrine", "Bruno", "Cléo", "Dominique", "Emmanuelle", "Fabrice")
LAYOUT_FOR = {2: "seats_facing", 4: "seats_facing", 6: "seats_ends"}  # settings: how the panels turn


def _table_game(count: int, lang: str, out: Path, first: bool) -> list[dict]:
    """Steps: a new game of `count` players from the form, a few life changes, then the table."""
    steps = [{"show": "newgame"}]
    for seat in range(1, 7):
        enabled = seat <= count
        was = seat <= (2 if first else TABLE_SIZES[TABLE_SIZES.index(count) - 1])
        if enabled != was:
            steps.append({"tap": f"newgame.player-{seat}.enabled"})
        if enabled:
            steps.append({"type": [f"newgame.player-{seat}.name", TABLE_NAMES[seat - 1]]})
    board = "duel-20x12" if count == 2 else "quatuor-40x25"  # MT 1.02.a: the sizes advised
    steps += [{"pick": ["newgame.board", board]}, {"pick": ["newgame.starting_player", TABLE_NAMES[0]]},
              {"tap": "newgame.start"}]
    if not first:
        steps.append({"tap_text": {"fr": "Lancer la nouvelle partie", "en": "Start the new game"}[lang]})
    for seat in range(5, count + 1):  # four start squares: the table places the other pawns (MT 2.04.a)
        steps += [{"show": "pieces"}, {"tap": "pieces.new"}, {"tap_text": TABLE_NAMES[seat - 1]},
                  {"tap_text": {"fr": "pion du joueur", "en": "player's pawn"}[lang]},
                  {"tap_text": {"fr": "Ajouter et placer", "en": "Add and place"}[lang]}, {"tap_drawn": "entry"}]
    steps += [{"show": "settings"}, {"tap": f"settings.{LAYOUT_FOR[count]}"}, {"show": "table"},
              {"tap": "table.next_phase"}, {"tap": "table.seat-2.life.minus_5"}, {"tap": "table.seat-2.life.minus_1"},
              {"tap": "table.seat-1.poison.plus"}, {"tap": "table.seat-2.commander_hit"}]
    if count >= 4:
        steps += [{"tap": "table.seat-3.life.minus_5"} for _ in range(4)]  # Cléo at 0: proposed out
    return steps + [{"report": f"table-{count}"}, {"inspect": f"table-{count}"},
                    {"screenshot": str(out / f"table-{count}-{lang}.png")}]


@pytest.fixture(scope="module")
def table_shots(tmp_path_factory) -> Path:
    """The Table screen at 2, 4 and 6 players, both languages (one app run per language)."""
    from test_app_drive import run_autopilot

    out = tmp_path_factory.mktemp("table_shots")
    for lang in LANGUAGES:
        steps = [step for index, count in enumerate(TABLE_SIZES)
                 for step in _table_game(count, lang, out, first=index == 0)]
        (out / lang).mkdir()
        report = run_autopilot(out / lang, steps, name=f"tables-{lang}", lang=lang, demo=False, screen="newgame",
                               timeout=240)
        for count in TABLE_SIZES:  # every table is shown playing its first turn, not still setting up
            assert report[f"table-{count}"]["turn"]["number"] == 1, report[f"table-{count}"]["message"]
        (out / f"inspected-{lang}.json").write_text(json.dumps(report["inspected"]))
    if os.environ.get("UPDATE_SCREENSHOTS"):
        for png in out.glob("table-*.png"):
            shutil.copy(png, DOCS / png.name)
    return out


@pytest.mark.parametrize("count", TABLE_SIZES)
def test_the_table_screen_at_2_4_and_6_players_in_both_languages(table_shots, count):
    images = {}
    for lang in LANGUAGES:
        path = table_shots / f"table-{count}-{lang}.png"
        assert path.is_file() and path.stat().st_size < MAX_BYTES
        images[lang] = cv2.imread(str(path), cv2.IMREAD_COLOR)
        assert images[lang].shape[:2] == (800, 1280) and float(images[lang].std()) > 12
    assert np.abs(images["fr"].astype(int) - images["en"].astype(int)).sum() > 0


@pytest.mark.parametrize("count", TABLE_SIZES)
def test_the_table_screen_cuts_no_text_and_every_target_takes_a_finger(table_shots, count):
    """2 to 6 seats, both languages: no name, reason or label shortened or missing lines (measured
    from the widget tree), every touch target at least 48 dp."""
    for lang in LANGUAGES:
        seen = json.loads((table_shots / f"inspected-{lang}.json").read_text())[f"table-{count}"]
        assert seen["cut"] == [], lang
        assert [(t["text"], t["w"], t["h"]) for t in seen["targets"] if min(t["w"], t["h"]) < 48] == [], lang


def test_a_horde_of_four_keeps_every_name_readable(tmp_path):
    """Four players against the Horde share one row under the City: each name keeps at least 20 sp
    (its turn and leave buttons move to a row of their own), nothing is cut, every target ≥ 48 dp.
    HO 300.3: the City's life is the big number: upright panels (no life of their own) take only the
    height of their rows; one turned across its row gives the players their full share back."""
    from test_app_drive import run_autopilot

    names = ("Alexandrine", "Bérénice", "Dominique", "Emmanuelle")
    steps = [{"show": "newgame"}]
    for seat, name in enumerate(names, start=1):
        steps += [{"tap": f"newgame.player-{seat}.enabled"}] if seat > 2 else []
        steps.append({"type": [f"newgame.player-{seat}.name", name]})
    steps += [{"pick": ["newgame.board", "quatuor-40x25"]}, {"tap": "newgame.variant_horde"}, {"tap": "newgame.start"},
              {"show": "table"}, {"inspect": "table"}, {"screenshot": str(tmp_path / "horde-4.png")}, {"report": "table"}]
    turned = [{"tap": "table.seat-2.turn"}, {"inspect": "turned"}, {"report": "turned"}]
    report = run_autopilot(tmp_path, steps + turned, name="horde4", lang="fr", demo=False, screen="newgame")
    table = report["table"]["screens"]["table"]
    assert min(table["name_sp"].values()) >= 20 and all(table["name_alone"].values())
    for label in ("table", "turned"):
        seen = report["inspected"][label]
        assert seen["cut"] == [] and [t for t in seen["targets"] if min(t["w"], t["h"]) < 48] == [], label
    turned = report["turned"]["screens"]["table"]
    assert turned["rotations"]["2"] == 90
    assert table["city_share"] >= presenter.CITY_ROW and abs(turned["city_share"] - presenter.CITY_ROW) < 0.02
    (tmp_path / "two").mkdir()
    two = run_autopilot(tmp_path / "two", steps[:1] + steps[-7:], name="horde2", lang="fr", demo=False, screen="newgame")
    assert not any(two["table"]["screens"]["table"]["name_alone"].values())  # room enough beside the buttons
    assert two["table"]["screens"]["table"]["city_share"] > presenter.CITY_ROW + 0.05  # a row fewer per panel
