"""Whole games through the real app (offscreen window, driven like a table): a 5-player game in
French and a Horde game in English, from the New game form to a winner. On the way, every screen
is inspected: every touch target must measure at least 48 dp (read from the widget tree), and no
text of the other language may show (the French run shows no English, the English run no French).

Expected values come from the rules (BR: 0 life loses; CR 704.5c: 10 poison; CR 903.10a: 21
commander damage; HO 300.2, 202.2–202.4), never from the app's own code.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from companion.game import PREGAME, latest_game, load_game, prebuilt_event_deck
from companion.i18n import strings
from test_app_drive import run_autopilot, seat_steps

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SHOTS = ("saved-games-fr.png", "table-horde-won-en.png")
FINGER_DP = 48
FIVE = ("Anna", "Bruno", "Cléo", "Dominique", "Émile")
SCREENS = ("newgame", "board", "pieces", "dice", "table", "history", "settings")


def visit_every_screen(tag: str) -> list[dict]:
    return [step for name in SCREENS for step in ({"show": name}, {"inspect": f"{tag}-{name}"})]


@pytest.fixture(scope="module")
def five_players(tmp_path_factory):
    """Five players in French on the bundled 40×25 board; four of them go out one way each."""
    tmp = tmp_path_factory.mktemp("five")
    steps = [{"show": "newgame"}, *seat_steps(FIVE)]
    steps += [
        {"pick": ["newgame.board", "quatuor-40x25"]}, {"pick": ["newgame.starting_player", "Anna"]},
        {"inspect": "form"}, {"tap": "newgame.start"}, {"report": "started"}, {"inspect": "board-fitted"},
        # a new token: owner and kind, then placed on the board by a tap (zoomed in under the finger)
        {"show": "pieces"}, {"tap": "pieces.new"}, {"inspect": "new-token"}, {"tap_text": "Ajouter et placer"},
        {"report": "entering"}, {"tap_drawn": "entry"}, {"report": "placed"}, {"inspect": "board-zoomed"},
        {"show": "table"}, {"inspect": "table-pregame"}, {"tap": "table.seat-1.mulligan"},
        # Émile's pawn: four start squares for five players; Next phase is refused until the table
        # places it, and leads there (MT 2.04.a)
        {"tap": "table.next_phase"}, {"report": "pawn_entering"}, {"inspect": "pawn-entering"},
        {"tap_drawn": "entry"}, {"report": "pawn_placed"},
        {"show": "table"}, {"tap": "table.next_phase"}, {"report": "turn1"}, {"inspect": "table"},
        {"show": "dice"}, {"tap": "dice.d6"}, {"show": "table"},
        {"tap": "table.seat-5.leave"}, {"inspect": "leave"}, {"tap_text": "Retour"}, {"report": "kept_in"},
        # Bruno: life typed on the keypad → 0 (BR: out at 0 life)
        {"tap": "table.seat-2.life.total"}, {"inspect": "keypad"}, {"tap_text": "0"}, {"tap_text": "OK"},
        {"report": "bruno_zero"}, {"inspect": "proposed"}, {"tap": "table.seat-2.confirm_out"},
        # Cléo: ten poison counters (CR 704.5c)
        *[{"tap": "table.seat-3.poison.plus"} for _ in range(10)], {"report": "cleo_poisoned"},
        {"tap": "table.seat-3.confirm_out"},
        # Dominique (25 life): 21 damage from Anna's commander, the source offered first on Anna's turn
        # (CR 903.10a) in quick taps of +1 and +5, one too many taken back
        {"tap": "table.seat-4.life.plus_5"},
        *[{"tap": "table.seat-4.commander_hit"} for _ in range(2)], *[{"tap": "table.seat-4.commander_plus_5"}] * 4,
        {"tap": "table.seat-4.commander_minus"},
        {"report": "dominique_hit"}, {"tap": "table.seat-4.confirm_out"},
        # Émile: −5 twice, a pause longer than a tap's, −5 twice: two changes, the last one beside the total
        *[{"tap": "table.seat-5.life.minus_5"} for _ in range(2)], {"pause": 10},
        *[{"tap": "table.seat-5.life.minus_5"} for _ in range(2)], {"report": "emile_zero"},
        {"tap": "table.seat-5.confirm_out"}, {"report": "end"}, {"inspect": "winner"},
        *visit_every_screen("fr"),
        {"show": "newgame"}, {"tap": "newgame.mode_saved"}, {"inspect": "fr-saved"},
        {"screenshot": str(tmp / SHOTS[0])},
    ]
    report = run_autopilot(tmp, steps, name="five", lang="fr", demo=False, screen="newgame", timeout=300)
    if os.environ.get("UPDATE_SCREENSHOTS"):
        shutil.copy(tmp / SHOTS[0], DOCS / SHOTS[0])
    return report, load_game(latest_game(tmp / "save"))


@pytest.fixture(scope="module")
def horde(tmp_path_factory):
    """Two players against the Horde (Beginner) in English, until the Horde is defeated."""
    tmp = tmp_path_factory.mktemp("horde")
    steps = [
        {"show": "newgame"}, {"type": ["newgame.player-1.name", "Anna"]}, {"type": ["newgame.player-2.name", "Bruno"]},
        {"tap": "newgame.variant_horde"}, {"inspect": "form"}, {"tap": "newgame.start"},
        {"show": "table"}, {"report": "start"}, {"inspect": "table-pregame"},
        {"tap": "table.next_phase"}, {"tap": "table.city.life.minus_5"}, {"report": "city_hit"},
        {"tap": "table.end_turn"}, {"tap": "table.end_turn"}, {"report": "horde_turn"},
        {"tap": "table.next_phase"}, {"tap": "table.next_phase"}, {"report": "horde_draw_step"},
        {"inspect": "table-horde-turn"}, {"tap": "table.city.horde_draw"}, {"report": "horde_drew"},
        {"inspect": "horde-revealed"},
        *[{"tap": "table.city.horde_damage_5"} for _ in range(20)], {"report": "boss_out"},
        {"inspect": "boss"}, {"tap_text": "The wave's boss leaves"}, {"report": "end"}, {"inspect": "winner"},
        {"screenshot": str(tmp / SHOTS[1])},
        *visit_every_screen("en"),
    ]
    report = run_autopilot(tmp, steps, name="horde", lang="en", demo=False, screen="newgame", timeout=300)
    if os.environ.get("UPDATE_SCREENSHOTS"):
        shutil.copy(tmp / SHOTS[1], DOCS / SHOTS[1])
    return report, load_game(latest_game(tmp / "save"))


# -- the games -------------------------------------------------------------------------------------

def test_five_players_start_from_the_form_with_the_chosen_starting_player(five_players):
    report, game = five_players
    assert [p.name for p in game.state.players] == list(FIVE)
    assert report["started"]["game"]["starting_player"] == 1
    assert report["turn1"]["turn"]["active"] == [1]
    assert game.state.board_name and game.state.board.width == 40


def test_every_pawn_stands_on_a_start_square_and_the_fifth_is_placed_by_the_table(five_players):
    """MT 2.04.a: four start squares for five players: the form says so, and the table places the last pawn."""
    report, game = five_players
    started = report["started"]
    board = game.state.board
    assert {tuple(started["pieces"][f"{p}-1"]) for p in range(1, 5)} == set(board.starts)
    assert started["pieces"]["5-1"] is None
    assert "Émile" in report["inspected"]["form"]["texts"][-1] or any(
        "Émile" in t and "4" in t for t in report["inspected"]["form"]["texts"])
    entering = report["pawn_entering"]
    assert entering["turn"]["phase"] == PREGAME and entering["screen"] == "board" and entering["selected"] == [5, 1]
    assert "Émile" in entering["message"]  # the refusal names whose pawn is off the grid
    occupied = {tuple(at) for at in entering["pieces"].values() if at}
    free = {at for at in board.positions() if board.walkable(at) and at not in occupied}
    assert {tuple(at) for at in entering["drawn"]["entry"]} == free  # no start square left: any free square
    assert tuple(report["pawn_placed"]["pieces"]["5-1"]) in free


def test_a_new_token_gets_its_owner_and_enters_on_a_legal_square_under_a_finger_sized_square(five_players):
    """MT 4.09.c / 4.10.b: the squares drawn while placing are the engine's entry squares; one is tapped."""
    report, game = five_players
    entering = {tuple(at) for at in report["entering"]["drawn"]["entry"]}
    assert entering and report["entering"]["selected"] == [1, 2]
    assert tuple(report["placed"]["pieces"]["1-2"]) in entering
    assert report["started"]["square_dp"] < FINGER_DP <= report["placed"]["square_dp"]  # 40×25 fitted, then zoomed


def test_life_typed_on_the_keypad_proposes_the_player_out_and_one_tap_confirms(five_players):
    """BR: a player at 0 life loses; the game proposes it, the table confirms in one tap."""
    report, _ = five_players
    bruno = report["bruno_zero"]
    assert bruno["players"]["2"]["life"] == 0 and not bruno["players"]["2"]["left"]
    assert bruno["screens"]["table"]["elimination"]["2"]
    assert report["cleo_poisoned"]["players"]["2"]["left"] is True


def test_ten_poison_and_21_commander_damage_from_the_active_player_are_proposed(five_players):
    """CR 704.5c (10 poison) and CR 903.10a (21 damage from one commander); −1 took one back."""
    report, _ = five_players
    cleo = report["cleo_poisoned"]
    assert cleo["players"]["3"]["poison"] == 10 and cleo["screens"]["table"]["elimination"]["3"]
    dominique = report["dominique_hit"]["players"]["4"]
    assert dominique["commander_damage"] == {"1": 21} and dominique["life"] == 4
    assert report["dominique_hit"]["screens"]["table"]["elimination"]["4"]


def test_quick_taps_on_a_counter_are_one_change_and_one_history_line(five_players):
    """#27: 21 commander damage took 21 taps and 21 history lines; now +1 +1, +5 four times and −1
    are one change of 21, as Cléo's ten poison taps are one change. Émile's −5 twice, a pause, −5
    twice are two changes: the script's pause decides, on the table's clock (the autopilot's), never
    how long a loaded machine took between the taps."""
    _, game = five_players
    changes = [(a.kind, a.data["player"], a.data["amount"]) for a in game.actions
               if a.kind in ("commander_damage", "change_poison") or (a.kind == "change_life" and a.data["player"] == 5)]
    assert changes == [("change_poison", 3, 10), ("commander_damage", 4, 21), ("change_life", 5, -10), ("change_life", 5, -10)]
    lines = [line for line in game.history("fr") if "Dominique" in line and "commandant" in line]
    assert len(lines) == 1 and ": 21" in lines[0]


def test_the_recent_change_shows_beside_the_total(five_players):
    """The change since the pause (longer than RECENT_CHANGE_S on the table's clock) is shown."""
    report, _ = five_players
    assert report["emile_zero"]["screens"]["table"]["recent"]["5"] == "−10"
    assert report["emile_zero"]["screens"]["table"]["life_shown"]["5"] == "0"


def test_leaving_asks_first_and_cancelling_changes_nothing(five_players):
    report, _ = five_players
    assert report["inspected"]["leave"]["popups"] == ["ConfirmPopup"]
    assert report["kept_in"]["players"]["5"]["left"] is False and report["kept_in"]["popups"] == []


def test_the_last_player_standing_wins(five_players):
    report, game = five_players
    assert game.state.winner == [1]
    assert "Anna" in report["end"]["screens"]["table"]["winner"]
    assert [p.left for p in game.state.players] == [False, True, True, True, True]


def test_the_horde_game_shows_the_city_as_the_big_number_and_no_player_life(horde):
    """HO 300.2: Beginner's City starts at 100 − 10 per player; HO 300.3: the players' life is the City's."""
    report, _ = horde
    table = report["start"]["screens"]["table"]
    assert table["city"] == "80" and table["life_shown"] == {"1": "", "2": ""}
    assert report["city_hit"]["horde"]["city"] == 75


def test_the_hordes_turn_prompts_its_draw(horde):
    """HO 104.2: the Horde plays after the players' second turn; HO 201.2: its draw step reveals."""
    report, _ = horde
    assert report["horde_turn"]["turn"]["horde"] is True
    step = report["horde_draw_step"]
    assert step["turn"]["phase"] == "draw" and step["screens"]["table"]["horde_draw_due"] is True
    assert report["horde_drew"]["screens"]["table"]["horde_draw_due"] is False
    revealed = [text for text in report["inspected"]["horde-revealed"]["texts"] if text.startswith("Revealed: ")]
    assert len(revealed) == 1   # #27: on the Table, not only in the Undo label and the history


def test_milling_the_horde_to_its_boss_and_the_boss_leaving_defeats_the_horde(horde):
    """HO 301.3: damage mills; HO 202.1: the boss is cast; HO 202.2–202.4: it leaves, no wave left: won."""
    report, game = horde
    assert report["boss_out"]["horde"]["result"] is None
    assert "boss" in " ".join(report["inspected"]["boss"]["texts"]).lower()
    assert game.state.horde.result == "horde_defeated"
    assert report["end"]["screens"]["table"]["winner"] == strings("en")["horde.result_horde_defeated"]


# -- touch targets and words ---------------------------------------------------------------------------

def small_targets(report: dict) -> list[tuple]:
    """Every inspected touch target narrower or lower than a finger (48 dp), where it was seen."""
    return [(label, t["kind"], t["text"], t["w"], t["h"]) for label, seen in report["inspected"].items()
            for t in seen["targets"] if min(t["w"], t["h"]) < FINGER_DP]


@pytest.mark.parametrize("run", ["five_players", "horde"])
def test_every_touch_target_measures_at_least_48_dp(run, request):
    report, _ = request.getfixturevalue(run)
    assert len(report["inspected"]) >= len(SCREENS) + 4
    assert small_targets(report) == []


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{3,}", text)}


def _only_in(lang: str, other: str) -> set[str]:
    """Words the `lang` strings use and the `other` strings never do: a sign of the wrong language."""
    mine = set().union(*(_words(v) for v in strings(lang).values()))
    theirs = set().union(*(_words(v) for v in strings(other).values()))
    return mine - theirs


# Names the table gives or the cards carry are not words of a language; each language's own name is
# written in that language on the language buttons.
PROPER = {"Temple du Deus", "Planechase", *FIVE, "Bruno", "Français", "English"}


def _leaks(report: dict, lang: str, other: str) -> list[tuple[str, str, set[str]]]:
    names = PROPER | {c.name for c in prebuilt_event_deck().cards}
    foreign = _only_in(other, lang)
    found = []
    for label, seen in report["inspected"].items():
        for text in seen["texts"]:
            text = " ".join(word for word in text.split() if "/" not in word)  # file paths are no words
            for name in names:
                text = text.replace(name, " ")
            bad = _words(text) & foreign
            if bad:
                found.append((label, text[:80], bad))
    return found


def test_no_english_in_the_french_run(five_players):
    report, _ = five_players
    assert {label.split("-")[0] for label in report["inspected"]} >= {"fr"}
    assert _leaks(report, "fr", "en") == []


def test_no_french_in_the_english_run(horde):
    report, _ = horde
    assert _leaks(report, "en", "fr") == []


def test_the_finished_game_is_listed_among_the_saved_games(five_players):
    report, _ = five_players
    saved = report["inspected"]["fr-saved"]
    assert any("Reprendre" in t or "En cours" in t for t in saved["texts"])


@pytest.mark.parametrize("run", ["five_players", "horde"])
def test_no_plural_after_zero_or_one(run, request):
    """'1 blessures', '0 cases': a count of 0 or 1 is never followed by a plural noun."""
    report, _ = request.getfixturevalue(run)
    wrong = {match for seen in report["inspected"].values() for text in seen["texts"]
             for match in re.findall(r"(?<![\d,.])[01] [^\W\d_]+s\b", text)}
    assert wrong == set()


@pytest.mark.parametrize("run", ["five_players", "horde"])
def test_no_text_is_cut_on_any_screen(run, request):
    """Names, reasons, buttons: no label of any screen visited is shortened or loses lines (measured
    from the widget tree: the words Kivy laid out against the label's text)."""
    report, _ = request.getfixturevalue(run)
    assert {label: seen["cut"] for label, seen in report["inspected"].items() if seen["cut"]} == {}


@pytest.fixture(scope="module")
def counters(tmp_path_factory):
    """Two players in English use the counters beside life (#27): energy in three quick taps, the monarch
    given from the turn panel then passed on from its badge, day; then undo twice."""
    tmp = tmp_path_factory.mktemp("counters")
    steps = [
        {"show": "newgame"}, {"type": ["newgame.player-1.name", "Anna"]}, {"type": ["newgame.player-2.name", "Bruno"]},
        {"pick": ["newgame.starting_player", "Anna"]}, {"tap": "newgame.start"}, {"show": "table"},
        {"tap": "table.next_phase"},
        {"pick": ["table.seat-1.poison.counter", "Energy 0"]}, *[{"tap": "table.seat-1.poison.plus"}] * 3,
        {"tap": "table.seat-1.poison.minus"}, {"report": "energy"},
        {"pick": ["table.monarch", "Bruno becomes the monarch"]}, {"report": "bruno_monarch"},
        {"pick": ["table.seat-2.badge_monarch", "Anna becomes the monarch"]}, {"tap": "table.day_night"},
        {"report": "anna_monarch"}, {"inspect": "counters"},
        {"tap": "undo"}, {"tap": "undo"}, {"report": "undone"},
    ]
    report = run_autopilot(tmp, steps, name="counters", lang="en", demo=False, screen="newgame", timeout=300)
    return report, load_game(latest_game(tmp / "save"))


def test_counter_taps_are_one_change_in_the_history_and_the_monarch_is_passed_by_its_badge(counters):
    """#27: +1 three times and −1 on energy are one change of +2, one history line; the monarch is one
    player at a time (CR 724.2): given to Bruno, its badge on his panel gives it to Anna."""
    report, game = counters
    energy = report["energy"]["screens"]["table"]
    assert energy["counter"]["1"] == ["energy", 2] and energy["in_use"]["1"] == ""
    assert [(a.kind, a.data) for a in game.actions if a.kind == "change_counter"] == [
        ("change_counter", {"player": 1, "counter": "energy", "amount": 2})]
    assert report["bruno_monarch"]["screens"]["table"]["badges"] == {"1": [], "2": ["monarch"]}
    after = report["anna_monarch"]["screens"]["table"]
    assert after["badges"] == {"1": ["monarch"], "2": []} and after["monarch"] == "Monarch: Anna"
    assert after["day_night"] == "Day"
    lines = report["anna_monarch"]["history"]
    assert sum("energy" in line for line in lines) == 1 and lines[-4].endswith("Anna: +2 energy (2)")
    assert [line[6:] for line in lines[-3:]] == ["Bruno becomes the monarch", "Anna becomes the monarch",
                                                 "It becomes day"]
    seen = report["inspected"]["counters"]
    assert seen["cut"] == [] and [t for t in seen["targets"] if min(t["w"], t["h"]) < FINGER_DP] == []


def test_undo_takes_back_day_then_the_monarch_passed_on(counters):
    report, game = counters
    undone = report["undone"]["screens"]["table"]
    assert undone["day_night"] == "Day / night: not yet" and undone["monarch"] == "Monarch: Bruno"
    assert game.state.day_night is None and game.state.monarch == 2 and game.state.player(1).energy == 2
    assert game.history("en")[-1].endswith("Bruno becomes the monarch")   # the save holds the undo too
