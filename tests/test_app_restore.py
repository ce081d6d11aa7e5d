"""A killed app continues where it was: the game is saved after every action (through companion.game).

The app is driven in a subprocess, killed with SIGKILL right after its last
action (no chance to save on exit), then restarted on the same data directory.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

COMPARED = ("pieces", "life", "rolls", "turn", "history")


def start_autopilot(tmp_path: Path, name: str, steps: list[dict]) -> tuple[subprocess.Popen, Path]:
    script = tmp_path / f"{name}.json"
    report = tmp_path / f"{name}-report.json"
    script.write_text(json.dumps({"data_dir": str(tmp_path / "save"), "demo": True, "lang": "fr", "steps": steps}))
    process = subprocess.Popen([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "KIVY_NO_ARGS": "1"})
    return process, report


def wait_for_report(process: subprocess.Popen, report: Path, label: str, timeout: float = 90) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if report.exists():
            try:
                data = json.loads(report.read_text())
            except json.JSONDecodeError:
                data = {}  # being written
            if label in data:
                return data[label]
        if process.poll() is not None:
            raise AssertionError(f"the app exited early:\n{process.stderr.read()[-3000:]}")
        time.sleep(0.1)
    raise AssertionError(f"no report {label!r} after {timeout} s")


def test_a_killed_app_restarts_exactly_where_it_was(tmp_path):
    steps = [{"report": "start"}, {"tap_token": [1, 3]}, {"tap": "board.roll"}, {"tap_drawn": "moves"},
             {"tap": "board.next_phase"}, {"show": "dice"}, {"tap": "dice.d6"},
             {"report": "before"}, {"hold": True}]
    first, first_report = start_autopilot(tmp_path, "first", steps)
    try:
        start = wait_for_report(first, first_report, "start")
        before = wait_for_report(first, first_report, "before")
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL

    second, second_report = start_autopilot(tmp_path, "second", [{"report": "after"}])
    after = wait_for_report(second, second_report, "after")
    second.wait(timeout=60)

    assert {k: after[k] for k in COMPARED} == {k: before[k] for k in COMPARED}
    # the actions really happened before the kill: a roll, a move, a phase change, a D6
    assert len(before["rolls"]) == len(start["rolls"]) + 2 and before["rolls"][-1]["die"] == "D6"
    assert before["pieces"]["1-3"] != start["pieces"]["1-3"]
    assert before["turn"] != start["turn"]
