"""Issue #27, "the event deck cannot be played at 5 or more players", through the real app (offscreen,
driven like a player): five players and the prebuilt deck are refused saying how many cards are
missing (MT 7.02.a: 25 + 4 per extra player = 37; MT 9.03 has 26); the builder extends the deck with
the table's own event cards within MT 7.02.c, saves it; after a restart the saved deck is listed (a
damaged one beside it says where it is wrong), picked, and a 5-player game starts with it.

Expected values come from the rules' numbers and the steps taken, never from the app's code."""
from __future__ import annotations

import pytest

from companion.game import latest_game, load_game, load_event_deck
from test_app_drive import run_autopilot

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

FIVE = [{"tap": f"newgame.player-{seat}.enabled"} for seat in (3, 4, 5)]
BUNDLED_NAMES = 12  # MT 9.03: twelve cards; the table's own come after them in the builder
# (name, rarity, copies): 4 + 4 + 2 + 1 = 11 more than the 26 of MT 9.03, each at its MT 7.02.c limit
OWN = [("Storm", "common", 4), ("Flood", "common", 4), ("Eclipse", "uncommon", 2), ("Comet", "mythic", 1)]
DECK_NAME = "Table of five"


def build_steps() -> list[dict]:
    steps: list[dict] = []
    for row, (name, rarity, copies) in enumerate(OWN, start=BUNDLED_NAMES + 1):
        steps += [{"type": ["newgame.deck.own_name", name]}, {"tap": f"newgame.deck.rarity_{rarity}"},
                  {"tap": "newgame.deck.add_own"}]
        steps += [{"tap": f"newgame.deck-{row}.plus"}] * copies  # one tap more than allowed: + is disabled by then
    return steps


@pytest.fixture(scope="module")
def decks_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("decks")
    first = [
        {"show": "newgame"}, *FIVE, {"tap": "newgame.events"}, {"report": "short"},
        {"tap": "newgame.start"}, {"report": "refused"},
        {"tap": "newgame.build_deck_short"}, {"report": "builder"}, {"inspect": "builder"},
        *build_steps(), {"report": "built"},
        {"type": ["newgame.deck.name", DECK_NAME]}, {"tap": "newgame.deck.save"}, {"report": "saved"},
        {"tap": "newgame.deck.close"}, {"report": "closed"},
    ]
    report = run_autopilot(tmp_path, first, name="build", screen="newgame")
    decks = tmp_path / "save" / "event-decks"
    (decks / "broken.yaml").write_text("name: Broken\ncards:\n  - {name: Storm, rarity: common, count: 5}\n",
                                       encoding="utf-8")
    second = [
        {"show": "newgame"}, *FIVE, {"tap": "newgame.events"}, {"tap": "newgame.build_deck"}, {"report": "reopened"},
        {"pick": ["newgame.deck.start_from", "broken.yaml (cannot be read)"]}, {"report": "bad_pick"},
        {"pick": ["newgame.deck.start_from", DECK_NAME]}, {"report": "picked"},
        {"pick": ["newgame.deck.start_from", "Prebuilt deck (MT 9.03)"]}, {"report": "prebuilt_again"},
        {"pick": ["newgame.deck.start_from", DECK_NAME]},
        {"tap": "newgame.deck.use"}, {"report": "used"},
        {"tap": "newgame.start"}, {"tap_text": "Start the new game"}, {"report": "started"},
    ]
    report.update(run_autopilot(tmp_path, second, name="play", screen="newgame"))
    return report, tmp_path / "save"


def newgame(report: dict, label: str) -> dict:
    return report[label]["screens"]["newgame"]


def test_five_players_with_the_prebuilt_deck_are_refused_saying_how_many_cards_lack_MT_7_02_a(decks_run):
    report, _ = decks_run
    warning = newgame(report, "short")["deck_warning"]
    assert "26" in warning and "37" in warning and "11 cards missing" in warning
    assert report["refused"]["message"] == warning and len(report["refused"]["players"]) == 2
    builder = newgame(report, "builder")["deck_builder"]
    assert builder["cards"] == 26 and "11 missing" in builder["tally"]


def test_the_builder_reaches_37_cards_with_the_tables_own_events_within_MT_7_02_c(decks_run):
    report, save = decks_run
    built = newgame(report, "built")["deck_builder"]
    assert built["cards"] == 37 and "enough for 5 players" in built["tally"]
    assert f"{DECK_NAME} (37 cards)" in newgame(report, "saved")["deck_builder"]["status"]
    deck = load_event_deck(save / "event-decks" / "table-of-five.yaml")
    copies = {name: sum(card.name == name for card in deck.cards) for name, _, _ in OWN}
    assert copies == {name: count for name, _, count in OWN} and len(deck.cards) == 37
    assert newgame(report, "closed")["deck_builder"] is None


def test_the_builder_pop_up_has_finger_sized_targets_and_no_text_cut(decks_run):
    report, _ = decks_run
    inspected = report["inspected"]["builder"]
    assert "DeckBuilderPopup" in inspected["popups"]
    small = [t for t in inspected["targets"] if not t["disabled"] and min(t["w"], t["h"]) < 48]
    assert small == [] and inspected["cut"] == []


def test_after_a_restart_the_saved_deck_is_listed_and_a_damaged_one_says_where(decks_run):
    report, save = decks_run
    assert newgame(report, "reopened")["deck_builder"]["choices"][1:] == ["broken.yaml (cannot be read)", DECK_NAME]
    status = newgame(report, "bad_pick")["deck_builder"]["status"]
    assert f"{save / 'event-decks' / 'broken.yaml'}:3, entry 1, field 'count'" in status and "MT 7.02.c" in status
    picked = newgame(report, "picked")["deck_builder"]
    assert picked["cards"] == 37 and "enough for 5 players" in picked["tally"]
    assert [row.split(" · ")[0] for row in picked["rows"][BUNDLED_NAMES:]] == [name for name, _, _ in OWN]
    prebuilt = newgame(report, "prebuilt_again")["deck_builder"]
    assert prebuilt["cards"] == 26 and len(prebuilt["rows"]) == BUNDLED_NAMES, "no row of the other deck left"


def test_a_five_player_game_starts_with_the_saved_deck(decks_run):
    report, save = decks_run
    used = newgame(report, "used")
    assert used["deck_warning"] == "" and f"{DECK_NAME} (cards: 37)" in used["events_text"]
    assert len(report["started"]["players"]) == 5 and report["started"]["game"]["events"] == 37
    game = load_game(latest_game(save), read_only=True)
    names = sorted(card.name for card in game.state.events.deck)
    assert len(names) == 37 and names.count("Storm") == 4 and names.count("Comet") == 1
