"""Fuzz of the save reader (companion.game.journal / store): whatever happens to a save's bytes or to its
journal rows (edited with a valid checksum), opening it either gives back the game the table saw or
raises / reports a SaveError saying what was lost — never another exception (issue 19's audit found
AttributeError, TypeError, JSONDecodeError and RecursionError there)."""
from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import zlib
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boards import Board
from companion.game import Dice, Game, GameSetup, PlayerSetup, SaveError, list_games, load_game
from companion.game.store import backup_path
from game_dice import with_corner_starts

BOARD = Board.from_rows(with_corner_starts([" ".join(["U"] * 20)] * 12), name="Test")  # pawns start on them
SEED = Path(tempfile.mkdtemp(prefix="fuzz-save-seed-"))


def _seed() -> tuple[Path, Game]:
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1)
    game = Game.new(setup, dice=Dice.seeded(4), save_dir=SEED)
    game.next_phase()
    for amount in (-3, -1, 2):
        game.change_life(1, amount)
    game.undo()
    game.roll_die("D6")
    game.store.close()
    return game.store.path, game


SEED_PATH, SEED_GAME = _seed()
ROWS = [(seq, op) for seq, op in sqlite3.connect(SEED_PATH).execute("SELECT seq, op FROM journal ORDER BY seq")]


def copy_seed() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-save-"))
    for file in SEED.iterdir():
        if not file.name.endswith(".lock"):
            shutil.copyfile(file, folder / file.name)
    return folder / SEED_PATH.name


def open_and_check(path: Path, backup_intact: bool) -> None:
    """The one property: SaveError or a game; with an intact backup, the whole game back — unless the
    edit left the save a valid history of its own, different from the backup's: then the save is kept,
    the backup set aside (never lost) and the table told."""
    listed = list_games(path.parent)  # never raises either
    assert all(g.status in ("ok", "damaged", "read-only", "locked") for g in listed)
    try:
        game = load_game(path)
    except SaveError as error:
        assert not backup_intact, error
        return
    try:
        if backup_intact and "holds a different history" not in str(game.recovered):
            assert game.state == SEED_GAME.state and len(game.actions) == len(SEED_GAME.actions)
        elif game.recovered is not None:
            assert game.recovered.kept is not None
    finally:
        game.store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 255)), min_size=1, max_size=8),
       st.booleans(), st.booleans())
@example(changes=[(4104, 0)], in_backup=False, truncate=False)   # a settings row emptied: NULL key and value
def test_fuzz_flipped_bytes_in_the_save_or_its_backup(changes, in_backup, truncate):
    path = copy_seed()
    target = backup_path(path) if in_backup else path
    data = bytearray(target.read_bytes())
    for at, value in changes:
        data[at % len(data)] = value
    if truncate:
        data = data[: changes[0][0] % len(data)]
    target.write_bytes(bytes(data))
    open_and_check(path, backup_intact=not in_backup)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 20, 10 ** 20) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["op", "action", "kind", "data", "time", "player", "amount", "players",
                                         "board_rows", "events", "x"]), inner, max_size=4), max_leaves=15)


@st.composite
def edited_row(draw) -> tuple[int, str]:
    """One journal row replaced: by random JSON, or by the original with one value replaced."""
    seq, text = draw(st.sampled_from(ROWS))
    if draw(st.booleans()):
        return seq, json.dumps(draw(JSON))
    op = json.loads(text)
    target = op
    while isinstance(target, dict) and target and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(target)))
        if not isinstance(target[key], dict):
            target[key] = draw(JSON)
            break
        target = target[key]
    else:
        if isinstance(target, dict):
            target[draw(st.sampled_from(["data", "kind", "x", "op"]))] = draw(JSON)
    return seq, json.dumps(op)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edited_row(), min_size=1, max_size=3), st.booleans())
def test_fuzz_rows_edited_with_a_valid_checksum(edits, also_backup):
    """Audit: `players: [1, 2]` → AttributeError, `board_rows: 5` → TypeError, not JSON → JSONDecodeError."""
    path = copy_seed()
    for file in (path, backup_path(path)) if also_backup else (path,):
        conn = sqlite3.connect(file)
        with conn:
            for seq, text in edits:
                conn.execute("UPDATE journal SET op = ?, crc = ? WHERE seq = ?", (text, zlib.crc32(text.encode()), seq))
        conn.close()
    open_and_check(path, backup_intact=not also_backup)


def test_a_damaged_schema_whose_error_message_is_not_utf8_is_a_save_error():
    """Found by the fuzz: one byte 0x80 in the schema made SQLite's own error message undecodable
    (UnicodeDecodeError): the save is reported damaged and restored from its backup."""
    path = copy_seed()
    data = bytearray(path.read_bytes())
    data[454518 % len(data)] = 128
    path.write_bytes(bytes(data))
    open_and_check(path, backup_intact=True)
