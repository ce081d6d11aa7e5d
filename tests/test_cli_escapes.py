"""No text read from a file or named by one reaches the terminal raw (issue #29, security): a card
called `Evil\x1b]0;pwned\x07\x1b[2J\x1b[31mRed` set the terminal's title and cleared the screen
when `tactical cards search` or `show` printed it, and file paths did the same in error messages.
Every command that prints such text is run here with hostile names and paths; what it prints
holds no control character but its line breaks."""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from companion.cards.database import database_path, write_database
from companion.cards.importer import read_faces
from companion.cli.main import main

EVIL = "Evil\x1b]0;pwned\x07\x1b[2J\x1b[31mRed"
HOSTILE_DIR = "dir\x1b]0;pwned\x07\x1b[2J"
ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"


def controls(text: str) -> list[str]:
    return [repr(ch) for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")]


@pytest.fixture
def hostile(tmp_path):
    """A folder whose name holds escape sequences, a card file in it with one card of a hostile
    name, and a board file of a hostile name."""
    folder = tmp_path / HOSTILE_DIR
    folder.mkdir()
    document = json.loads(ATOMIC.read_text(encoding="utf-8"))
    faces = document["data"].pop("Serra Angel")
    faces[0]["name"] = EVIL
    document["data"][EVIL] = faces
    card_file = folder / f"{EVIL}.json"
    card_file.write_text(json.dumps(document), encoding="utf-8")
    board = folder / "board.yaml"
    board.write_text(f'name: "{EVIL.encode("unicode_escape").decode()}"\nplayers: 2\nrows:\n'
                     + "".join("  - " + " ".join(["W"] * 20) + "\n" for _ in range(12)), encoding="utf-8")
    return folder, card_file, board


def run(capsys, args: list[str]) -> tuple[int, str]:
    try:
        code = main(args)
    except SystemExit as stop:      # argparse's own refusals
        code = stop.code
    out = capsys.readouterr()
    said = out.out + out.err
    assert controls(said) == [], (args, said)
    return code, said


def hostile_card_database(data: Path) -> None:
    """A card database holding a card of a hostile name. Our import refuses such a name (control
    characters, issue #29), so it is written the way another tool or a hand edit would: the
    escaping must hold whatever the database holds."""
    faces = [replace(face, name=EVIL, card_name=EVIL) if face.name == "Serra Angel" else face
             for face in read_faces(ATOMIC)]
    data.mkdir(parents=True, exist_ok=True)   # the refused import may have made it
    write_database(database_path(data), faces, {"file": "hand-made.json", "source": "mtgjson", "skipped": 0})


def test_card_commands_print_hostile_names_and_paths_escaped(hostile, capsys):
    folder, card_file, _ = hostile
    data = ["cards", "--data-dir", str(folder / "data")]
    code, said = run(capsys, [*data, "import", str(card_file)])
    assert code == 1 and r"\x1b]0;pwned\x07" in said            # the path and the refused name, shown escaped
    hostile_card_database(folder / "data")
    code, said = run(capsys, [*data, "search", "evil"])
    assert code == 0 and r"Evil\x1b]0;pwned\x07\x1b[2J\x1b[31mRed" in said
    assert run(capsys, [*data, "show", EVIL])[0] == 0
    assert run(capsys, [*data, "info"])[0] == 0
    assert run(capsys, [*data, "show", f"nothing {EVIL}"])[0] == 1
    broken = folder / f"{EVIL}-broken.json"
    broken.write_text('{"data": {"x": [{"manaValue": 5', encoding="utf-8")
    code, said = run(capsys, [*data, "import", str(broken)])
    assert code == 1 and "broken.json" in said
    assert run(capsys, [*data, "update", "--url", f"http://127.0.0.1:1/{EVIL}"])[0] == 1


def test_board_scan_watch_calibrate_print_and_app_print_hostile_paths_escaped(hostile, tmp_path, capsys):
    folder, _, board = hostile
    missing = str(folder / f"{EVIL}.jpg")
    assert run(capsys, ["board", "check", str(board)])[0] in (0, 1)
    assert run(capsys, ["board", "show", "--plain", str(board)])[0] == 0
    assert run(capsys, ["board", "check", str(folder / f"{EVIL}.yaml")])[0] == 2
    assert run(capsys, ["scan", missing])[0] == 2
    config = folder / f"{EVIL}.yaml"
    config.write_text("colour:\n  min_cover: 5\n", encoding="utf-8")
    assert run(capsys, ["scan", missing, "--config", str(config)])[0] == 2
    assert run(capsys, ["watch", missing, "--board", str(board)])[0] == 2
    assert run(capsys, ["watch", "0", "--board", str(board), "--config", str(config)])[0] == 2
    assert run(capsys, ["watch", missing, "--game", str(folder)])[0] == 2
    assert run(capsys, ["calibrate", "--camera", missing])[0] == 2
    assert run(capsys, ["print", "board", str(folder / f"{EVIL}.yaml"), "--out", str(tmp_path / "b.pdf")])[0] == 2
    assert run(capsys, ["print", "board", str(board), "--out", str(folder / "no" / f"{EVIL}.pdf")])[0] == 2
    assert run(capsys, ["app", "--screenshot", str(folder / f"{EVIL}.jpg")])[0] == 2


def test_the_one_escaping_function_is_the_boards_printable():
    """One function escapes for the terminal: the command line's `say` is `printable`, line by line."""
    from boards.terminal import printable
    from companion.cli.output import shown

    assert shown(f"{EVIL}\n{EVIL}") == f"{printable(EVIL)}\n{printable(EVIL)}"
    assert not re.search(r"[\x00-\x1f\x7f]", printable(EVIL))
