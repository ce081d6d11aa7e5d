"""New-game screen driven like a player (real app, offscreen, one subprocess): house-rules and
event-deck files with their error messages, more house-rule options, the event deck too small
for three players (MT 7.02.a), plane names per player, a board scanned from a photo, then the
pregame mulligan / keep on the table screen.

Expected values come from the files the test writes, the truth board the photo was taken of,
and the seeds' rules, never from the app's own code.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import cv2
import pytest

from boards import library_boards, load_board
from companion.game import latest_game, load_game
from companion.i18n import translate
from companion.rules import HouseRules
from test_app_drive import run_autopilot

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

PLANES = "Naya, Sokenzan\nTazeem"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SHOTS = ("newgame-deck-en.png", "newgame-scanned-en.png", "table-pregame-en.png")


@pytest.fixture(scope="module")
def newgame_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("newgame")
    bad_house = tmp_path / "bad-house.yaml"
    bad_house.write_text("metric: chebyshev\nmana_burns: true\n", encoding="utf-8")
    good_house = tmp_path / "house.yaml"
    good_house.write_text("extra_die_threshold: 4\nmana_burn: true\nhaste_moves_when_sick: false\n", encoding="utf-8")
    bad_deck = tmp_path / "events.yaml"
    bad_deck.write_text("name: Mine\ncards:\n  - name: Storm\n    rarity: common\n    count: 0\n", encoding="utf-8")
    truth = load_board(library_boards()["duel-20x12"])
    from vision.synth import photograph

    photo = photograph(truth, seed=7, frame=(1920, 1080), max_tilt_deg=15, hand=0.0, fill=(0.85, 0.95))
    photo_path = tmp_path / "board.png"
    cv2.imwrite(str(photo_path), photo.image)
    steps = [
        {"show": "newgame"},
        {"type": ["newgame.house_file", str(bad_house)]}, {"tap": "newgame.load_house"}, {"report": "bad_house"},
        {"type": ["newgame.events_file", str(bad_deck)]}, {"tap": "newgame.load_events"}, {"report": "bad_deck"},
        {"type": ["newgame.house_file", str(good_house)]}, {"tap": "newgame.load_house"}, {"report": "house"},
        {"tap": "newgame.landwalk_either"},
        {"type": ["newgame.player-1.name", "Anna"]}, {"type": ["newgame.player-2.name", "Bruno"]},
        {"tap": "newgame.player-3.enabled"}, {"type": ["newgame.player-3.name", "Cleo"]},
        {"tap": "newgame.events"}, {"report": "three_with_events"}, {"screenshot": str(tmp_path / SHOTS[0])},
        {"tap": "newgame.start"}, {"report": "refused"},
        {"tap": "newgame.without_events"}, {"report": "without_events"},
        {"tap": "newgame.planechase"}, {"inspect": "planes-empty"}, {"type": ["newgame.player-1.planes", PLANES]},
        {"pick": ["newgame.board", "scanned (camera)"]},
        {"type": ["newgame.photo", str(tmp_path / "missing.png")]}, {"tap": "newgame.scan"}, {"report": "scan_missing"},
        {"type": ["newgame.photo", str(photo_path)]}, {"tap": "newgame.scan"}, {"report": "scanned"},
        {"screenshot": str(tmp_path / SHOTS[1])},
        {"tap": "newgame.start"}, {"tap_text": "Cancel"}, {"report": "cancelled"},
        {"tap": "newgame.start"}, {"report": "asked"}, {"tap_text": "Start the new game"}, {"report": "started"},
        {"show": "newgame"}, {"tap": "newgame.mode_saved"}, {"report": "listed"}, {"tap": "newgame.mode_form"},
        {"show": "table"}, {"tap": "table.seat-1.mulligan"}, {"report": "mulligan"},
        {"tap": "table.seat-1.keep"}, {"tap": "table.seat-1.mulligan"}, {"report": "kept"},
        {"screenshot": str(tmp_path / SHOTS[2])},
        # two start squares for three players: the table places Cleo's pawn before turn 1 (MT 2.04.a)
        {"show": "pieces"}, {"tap": "pieces.new"}, {"tap_text": "Cleo"}, {"tap_text": "player's pawn"},
        {"tap_text": "Add and place"}, {"tap_drawn": "entry"}, {"show": "table"},
        {"tap": "table.next_phase"},
        {"pick": ["table.seat-1.source", "Commander\nCleo · 0"]}, {"tap": "table.seat-1.commander_hit"},
        {"pick": ["table.seat-3.source", "Commander\nBruno · 0"]}, {"tap": "table.seat-3.commander_hit"},
        {"tap": "table.seat-3.commander_hit"}, {"report": "commander"},
    ]
    report = run_autopilot(tmp_path, steps, name="newgame")
    report["save_dir"] = str(tmp_path / "save")
    # the app is closed and started again on the same save: the scanned board's doubts are still listed
    report.update(run_autopilot(tmp_path, [{"show": "camera"}, {"report": "restarted"}], name="restart"))
    if os.environ.get("UPDATE_SCREENSHOTS"):
        for name in SHOTS:
            shutil.copy(tmp_path / name, DOCS / name)
    return report, truth, load_game(latest_game(tmp_path / "save"))


def test_the_planes_fields_show_their_whole_hint(newgame_run):
    """#27: the hint of an empty Planes field was cut (wrapped onto more lines than the field shows)."""
    report, _, _ = newgame_run
    seen = report["inspected"]["planes-empty"]
    assert translate("en", "newgame.planes_hint") in seen["texts"]
    assert seen["cut"] == []


def test_a_bad_house_rules_file_is_refused_naming_the_file_and_the_field(newgame_run):
    """MT 8.04: a misspelt option is named with its file, nothing crashes."""
    report, _, _ = newgame_run
    text = report["bad_house"]["screens"]["newgame"]["house_text"]
    assert "bad-house.yaml" in text and "mana_burns" in text and "unknown option" in text


def test_a_bad_event_deck_file_is_refused_naming_the_entry_and_field(newgame_run):
    """MT 7.02: the deck list error says the file, the entry and the field."""
    report, _, _ = newgame_run
    text = report["bad_deck"]["screens"]["newgame"]["events_text"]
    assert "events.yaml" in text and "entry 1" in text and "'count'" in text


def test_a_house_rules_file_fills_the_form(newgame_run):
    """MT 8.04, MT 3.04.d: the file's extra-die threshold and mana burn show on the form."""
    report, _, _ = newgame_run
    house = report["house"]["screens"]["newgame"]["house"]
    assert house["extra_die_threshold"] == 4 and house["mana_burn"] is True
    assert "house.yaml" in report["house"]["screens"]["newgame"]["house_text"]


def test_the_prebuilt_event_deck_is_said_too_small_for_three_players(newgame_run):
    """MT 7.02.a: 25 cards + 4 per extra player = 29 for three; the prebuilt deck (MT 9.03) has 26."""
    report, _, _ = newgame_run
    warning = report["three_with_events"]["screens"]["newgame"]["deck_warning"]
    assert "26" in warning and "29" in warning
    refused = report["refused"]
    assert refused["message"] == warning
    assert len(refused["players"]) == 2, "no game was started with a deck too small"
    after = report["without_events"]["screens"]["newgame"]
    assert after["events"] is False and after["deck_warning"] == ""


def test_a_missing_photo_is_said_plainly(newgame_run):
    report, _, _ = newgame_run
    scan = report["scan_missing"]["screens"]["newgame"]["scan"]
    assert "missing.png" in scan and "no such image file" in scan


def test_a_new_game_over_the_demo_in_progress_asks_first_and_keeps_it(newgame_run):
    """The demo was being played: "New game" asks before starting, and the demo stays saved, listed."""
    report, _, _ = newgame_run
    asked = report["asked"]
    assert asked["popups"] == ["ConfirmPopup"] and len(asked["players"]) == 2  # nothing started yet
    started = report["started"]
    assert started["game_file"] != asked["game_file"]
    listed = report["listed"]["screens"]["newgame"]["saved"]
    assert len(listed) == 2 and "Anna, Bruno" in listed[1]  # the demo, still there to continue
    cancelled = report["cancelled"]
    assert cancelled["popups"] == [] and cancelled["game_file"] == asked["game_file"]
    assert cancelled["history"] == asked["history"] and cancelled["pieces"] == asked["pieces"]
    demo = load_game(Path(report["save_dir"]) / asked["game_file"])  # lost nothing: as it was when asked
    try:
        assert demo.history("en") == asked["history"] and {str(p.id): p.life for p in demo.state.players} == asked["life"]
        assert {f"{p}-{n}": list(piece.at) if piece.at else None
                for (p, n), piece in demo.state.pieces.items()} == asked["pieces"]
    finally:
        demo.store.close()


def test_the_game_starts_with_every_choice_of_the_form(newgame_run):
    """Planes typed for player 1 (PC), numbered ones only for the others; no events; house rules
    from the file (its movement die too, MT 1.04: the file's default) plus the form's landwalk reading (MT 6.09)."""
    report, _, game = newgame_run
    started = report["started"]
    # MT 2.04.a: three players on a board with two start squares: said on the form, then when it starts
    assert "Cleo" in report["scanned"]["screens"]["newgame"]["setup_warning"]
    assert "Cleo" in started["message"] and "MT 2.04.a" in started["message"]
    assert [p.name for p in game.state.players] == ["Anna", "Bruno", "Cleo"]
    decks = started["game"]["planar_decks"]
    assert sorted(decks["1"]) == ["Naya", "Sokenzan", "Tazeem"]  # shuffled at the start (PC)
    assert sorted(decks["2"]) == sorted(f"Bruno {n}" for n in range(1, 11))
    assert started["game"]["events"] is None
    house = started["game"]["house"]
    assert house["extra_die_threshold"] == 4 and house["mana_burn"] is True
    assert house["haste_moves_when_sick"] is False  # kept from the file although not on the form
    assert house["landwalk_reading"] == "start_or_end_square"
    assert house["die_sides"] == HouseRules().die_sides  # the file names no die: the seeds' default


def test_the_scanned_board_is_the_photographed_board_except_doubtful_squares(newgame_run):
    """MT 2.02.e: squares read with confidence equal the truth; doubtful ones are listed to confirm."""
    report, truth, game = newgame_run
    scanned = report["scanned"]["screens"]["newgame"]
    assert scanned["board"] == "scanned" and scanned["doubtful"] is not None
    board = game.state.board
    assert (board.width, board.height) == (truth.width, truth.height)
    doubtful = {tuple(at) for at in scanned["doubtful"]}
    wrong = [(x, y) for (x, y) in truth.positions()
             if (x, y) not in doubtful and board.square(x, y).code != truth.square(x, y).code]
    assert wrong == []
    assert len(doubtful) < truth.width * truth.height // 4  # a few, or none on a clean photo


def test_mulligan_then_keep_before_the_first_turn(newgame_run):
    """Multiplayer mulligan (PC/HO 103.4): the first one is free (7 cards again); after keeping, no more."""
    report, _, _ = newgame_run
    assert report["mulligan"]["players"]["1"]["mulligans"] == 1
    kept = report["kept"]["players"]["1"]
    assert kept["kept"] is True and kept["mulligans"] == 1


def test_commander_damage_comes_from_the_opponent_picked(newgame_run):
    """Commander damage is tracked per source commander (CR 903.10a) and lost as life."""
    report, _, _ = newgame_run
    players = report["commander"]["players"]
    assert players["1"]["commander_damage"] == {"3": 1} and players["1"]["life"] == 19
    assert players["3"]["commander_damage"] == {"2": 2} and players["3"]["life"] == 18


def test_a_restarted_app_still_lists_the_scanned_board_doubtful_squares(newgame_run):
    """MT 2.02.e: the squares to confirm survive a restart, on the Camera screen."""
    report, _, _ = newgame_run
    scanned = {tuple(at) for at in report["scanned"]["screens"]["newgame"]["doubtful"]}
    listed = {tuple(at) for at in report["restarted"]["screens"]["camera"]["doubtful"]}
    assert report["restarted"]["players"] == report["commander"]["players"]
    assert scanned <= listed
