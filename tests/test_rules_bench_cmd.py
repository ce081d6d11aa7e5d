"""`tactical bench`: the dispatcher runs benchmark modules lazily and tolerates missing ones."""
from __future__ import annotations

import types

from companion.cli import bench_cmd
from companion.cli.main import main


def test_missing_benchmark_module_prints_not_available(monkeypatch, capsys):
    """A benchmark module that does not exist is reported, not a traceback."""
    monkeypatch.setattr(bench_cmd, "BENCHES", ("nosuchbench",))
    assert bench_cmd.run(types.SimpleNamespace(which="all", extra=[])) == 0
    assert "bench nosuchbench: not available" in capsys.readouterr().out


def test_bench_dispatch_passes_options_to_the_module(monkeypatch, capsys):
    """`tactical bench rules --repeat 1` reaches companion.bench.rules:main with its options."""
    seen = []
    monkeypatch.setattr("companion.bench.rules.main", lambda argv: seen.append(argv) or 0)
    assert main(["bench", "rules", "--repeat", "1"]) == 0
    assert seen == [["--repeat", "1"]]


def test_rules_benchmark_runs_and_reports_machine_and_baseline(capsys):
    """The benchmark prints the machine, every figure with its goal, and the naive baseline (no timing asserted)."""
    from companion.bench.rules import main as bench_main

    assert bench_main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "machine:" in out and "cores" in out
    for line in ("action_zone, cold", "reachable(24), warm", "baseline: naive BFS reachable(24)",
                 "overlays of all 120 pieces, warm"):
        assert line in out


def test_game_benchmark_plays_its_game_past_the_first_turn():
    """`tactical bench game` plays 1000 actions of a 4-player game: its setup must satisfy the rules it measures
    (MT 2.04.a: every pawn on the grid before turn 1), or the benchmark stops at its first `next_phase`."""
    from companion.bench.game import bench_game

    game = bench_game()
    assert game.unplaced_pawns == []
    game.next_phase()
    assert game.state.turn.number == 1 and len(game.state.pieces) == 4 * 31
