"""`tactical bench NAME --write FILE`: each benchmark writes its own dated section of docs/benchmarks.md."""
from pathlib import Path

import pytest

from companion.bench.report import take_write_option, write_section
from companion.cli.main import main


def test_write_option_is_taken_out_of_the_benchmarks_options():
    assert take_write_option(["--quick", "--write", "out.md", "--repeat", "3"]) == (Path("out.md"), ["--quick", "--repeat", "3"])
    assert take_write_option(["--write=out.md"]) == (Path("out.md"), [])
    with pytest.raises(SystemExit, match="--write needs a file name"):
        take_write_option(["--write"])


def test_a_benchmark_run_again_replaces_its_own_section_only(tmp_path):
    """Sections follow the order of `tactical bench all`, whatever order they were run in."""
    path = tmp_path / "benchmarks.md"
    order = ("rules", "game", "vision")
    write_section(path, "vision", "vision, first run", order)
    write_section(path, "rules", "rules, first run", order)
    write_section(path, "vision", "vision, second run", order)
    text = path.read_text()
    assert text.startswith("# Benchmarks")
    assert "vision, first run" not in text
    assert text.index("rules, first run") < text.index("vision, second run")
    assert text.count("<!-- bench:vision -->") == 1


def test_bench_write_puts_the_output_with_its_command_and_date_in_the_file(monkeypatch, tmp_path, capsys):
    """What the benchmark prints goes to the terminal and into its section, under the command that made it."""
    monkeypatch.setattr("companion.bench.rules.main", lambda argv: print(f"figures {argv}") or 0)
    path = tmp_path / "benchmarks.md"
    assert main(["bench", "rules", "--repeat", "1", "--write", str(path)]) == 0
    assert "figures ['--repeat', '1']" in capsys.readouterr().out
    text = path.read_text()
    assert "`tactical bench rules --repeat 1`" in text and "UTC" in text
    assert "figures ['--repeat', '1']" in text
