"""Drive the real app (Kivy, offscreen) like a player: tap a token, roll, move, undo.

The app runs in a subprocess (`companion.app.autopilot`): Kivy owns one window
and one event loop per process. What it drew is checked against
`companion.rules`' fixed interface (action_zone, reachable) and against the
rules re-derived here, read from the game the app autosaved.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.game import latest_game, load_game
from companion.rules import action_zone, reachable

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

TOKEN = (1, 3)  # Anna's Savannah Lions (2/1, MV 1) in the demo: the active player's creature


def run_autopilot(tmp_path: Path, steps: list[dict], *, name: str = "run", timeout: float = 120,
                  lang: str = "en", demo: bool = True, screen: str = "board", options: dict | None = None) -> dict:
    """`options`: more keys of the script (see companion.app.autopilot), e.g. "cards_dir"."""
    data_dir = tmp_path / "save"
    script = tmp_path / f"{name}.json"
    report = tmp_path / f"{name}-report.json"
    script.write_text(json.dumps({"data_dir": str(data_dir), "demo": demo, "lang": lang, "screen": screen,
                                  "steps": steps, **(options or {})}))
    env = {**os.environ, "KIVY_NO_ARGS": "1"}
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(report.read_text())


def seat_steps(names) -> list[dict]:
    """The New game form's steps that seat `names` in order: seats past the two shown are switched on first."""
    steps: list[dict] = []
    for seat, name in enumerate(names, start=1):
        if seat > 2:
            steps.append({"tap": f"newgame.player-{seat}.enabled"})
        steps.append({"type": [f"newgame.player-{seat}.name", name]})
    return steps


def squares(report_layer) -> set[tuple[int, int]]:
    return {tuple(s) for s in report_layer}


@pytest.fixture(scope="module")
def session_run(tmp_path_factory):
    """One app run for the whole module: start, tap, roll, undo, redo, move, roll D6."""
    tmp_path = tmp_path_factory.mktemp("drive")
    steps = [
        {"report": "start"},
        {"tap_token": list(TOKEN)}, {"report": "tapped"},
        {"tap": "board.roll"}, {"report": "rolled"},
        {"tap": "undo"}, {"report": "undone"},
        {"tap": "redo"}, {"report": "redone"},
        {"tap_square": [0, 0]}, {"report": "tapped_far"},  # the far corner: out of reach of 2 D10 here
        {"tap_token": list(TOKEN)}, {"tap_drawn": "moves"}, {"report": "moved"},
        {"show": "dice"}, {"tap": "dice.d6"}, {"report": "d6"},
        {"show": "board"}, {"report": "before_refusal"}, {"tap": "board.roll"}, {"report": "refused"},
    ]
    report = run_autopilot(tmp_path, steps)
    game = load_game(latest_game(tmp_path / "save"))
    return report, game


def test_tapping_a_token_selects_it_and_draws_its_action_zone(session_run):
    """MT 4.03.a–c: the zone drawn is exactly action_zone(board, at, MV)."""
    report, game = session_run
    state = game.state
    piece = state.pieces[TOKEN]
    tapped = report["tapped"]
    at = tuple(tapped["pieces"]["1-3"])
    assert tapped["selected"] == list(TOKEN)
    expected = action_zone(state.board, at, piece.mana_value)
    assert squares(tapped["drawn"]["zone"]) == set(expected)
    assert squares(tapped["drawn"]["selected"]) == {at}
    assert tapped["drawn"].get("moves", []) == []  # no roll yet: no move drawn (MT 3.04)


def test_attack_squares_are_the_free_squares_around_opposing_players_and_planeswalkers(session_run):
    """MT 5.03.a: adjacent to the target, diagonals included; not an obstacle, not taken."""
    report, game = session_run
    state = game.state
    board = state.board
    piece = state.pieces[TOKEN]
    where = {tuple(map(int, k.split("-"))): tuple(v) for k, v in report["tapped"]["pieces"].items() if v}
    occupied = {at for token, at in where.items() if token != TOKEN}
    expected = set()
    for target in state.pieces.values():
        if target.player == piece.player or target.kind not in ("player", "planeswalker") or target.token not in where:
            continue
        x, y = where[target.token]
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (x + dx, y + dy)
                if q != target.at and board.in_bounds(q) and board.walkable(q) and q not in occupied:
                    expected.add(q)
    assert expected, "the demo should put opposing targets on the board"
    assert squares(report["tapped"]["drawn"]["attack"]) == expected


def test_rolling_draws_the_legal_moves_for_the_roll(session_run):
    """MT 3.03–3.07: 2/1 rolls two dice (3.04.d), summed; moves = reachable(board, at, total, occupied)."""
    report, game = session_run
    state = game.state
    rolled = report["rolled"]
    roll = rolled["rolls"][-1]
    assert len(roll["results"]) == 2 and roll["die"] == "D10"
    at = tuple(rolled["pieces"]["1-3"])
    occupied = frozenset(tuple(v) for k, v in rolled["pieces"].items() if v and k != "1-3")
    expected = reachable(state.board, at, sum(roll["results"]), occupied=occupied)
    assert squares(rolled["drawn"]["moves"]) == set(expected)
    dice = " + ".join(map(str, roll["results"]))  # MT 3.04.a: all of it is left before the first step
    assert rolled["movement"] == f"{sum(roll['results'])} squares left of {sum(roll['results'])} (roll {dice})"
    assert any("Savannah Lions" in line and "rolled" in line for line in rolled["history"])


def test_undo_takes_the_roll_back_and_redo_restores_it(session_run):
    report, _ = session_run
    assert report["undone"]["rolls"] == report["rolled"]["rolls"][:-1]
    assert report["undone"]["drawn"].get("moves", []) == []
    assert report["redone"]["rolls"] == report["rolled"]["rolls"]
    assert report["redone"]["drawn"]["moves"] == report["rolled"]["drawn"]["moves"]


def test_tapping_a_square_out_of_reach_does_not_move_the_token(session_run):
    """MT 3.04.b: the roll is the maximum; a square out of reach is not a legal move."""
    report, game = session_run
    rolled = report["rolled"]
    assert [0, 0] not in rolled["drawn"]["moves"]
    assert report["tapped_far"]["pieces"] == rolled["pieces"]
    assert report["tapped_far"]["selected"] is None


def test_d6_is_rolled_shown_big_and_logged(session_run):
    report, game = session_run
    d6 = report["d6"]
    roll = d6["rolls"][-1]
    assert roll["die"] == "D6" and 1 <= roll["results"][0] <= 6
    assert d6["dice_result"] == str(roll["results"][0])
    assert len(d6["history"]) == len(report["moved"]["history"]) + 1
    assert list(game.state.rolls[-1].results) == roll["results"]  # autosaved


def test_tapping_a_legal_move_square_moves_the_token_there(session_run):
    """MT 3.04.b, 3.06: the token ends on a drawn move square; the game records it (autosaved)."""
    report, game = session_run
    moved = report["moved"]
    before = tuple(report["redone"]["pieces"]["1-3"])
    after = tuple(moved["pieces"]["1-3"])
    assert after != before
    assert list(after) in report["redone"]["drawn"]["moves"]
    assert game.state.pieces[TOKEN].at == after


def test_a_refusal_is_said_without_moving_the_board(session_run):
    """MT 3.03: a second roll for the same object in a turn is refused; the message floats over the
    screen, so the board (and the next tap on it) stays where it was."""
    report, _ = session_run
    assert report["before_refusal"]["message"] == "" and report["refused"]["message"]
    assert report["refused"]["rolls"] == report["before_refusal"]["rolls"]
    assert report["refused"]["board_view_pos"] == report["before_refusal"]["board_view_pos"]
