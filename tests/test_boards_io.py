"""Board files (architecture.md "Board files"): round trips, every error names where, and a
fuzz proof that the loader only ever returns a whole board or raises BoardFileError."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards import (Board, BoardFileError, board_from_bytes, board_from_text, board_to_text,
                    library_boards, load_board, save_board)

FIXTURES = Path(__file__).parent / "fixtures" / "boards"
BAD = FIXTURES / "bad"
HAND_WRITTEN = FIXTURES / "good" / "hand-written.yaml"

# file -> (expected BoardFileError attributes, words the message must contain)
BAD_FILES = {
    "bad-square-code.yaml": (dict(line=5, row=2, column=3, field="rows"), ["'WX'", "W U B R G"]),
    "repeated-colour.yaml": (dict(line=4, row=1, column=2, field="rows"), ["colour W given more than once"]),
    "start-on-obstacle.yaml": (dict(line=6, row=3, column=1, field="rows"), ["cannot be an obstacle"]),
    "temple-on-colourless.yaml": (dict(line=4, row=1, column=3, field="rows"), ["cannot be an obstacle"]),
    "ragged-rows.yaml": (dict(line=6, row=3, column=4, field="rows"), ["3 squares, expected 4"]),
    "unquoted-comment.yaml": (dict(line=5, row=2, column=3, field="rows"), ["comment", "double quotes"]),
    "unquoted-comment-only.yaml": (dict(line=5, row=2, column=1, field="rows"), ["comment", "double quotes"]),
    "row-not-text.yaml": (dict(line=5, row=2, column=None, field="rows"), ["expected a string", "int"]),
    "unknown-key.yaml": (dict(line=3, field="colour"), ["unknown key(s) colour", "allowed"]),
    "missing-key.yaml": (dict(field="players"), ["missing required key"]),
    "players-text.yaml": (dict(line=2, field="players"), ["whole number", "'deux'"]),
    "players-one.yaml": (dict(line=2, field="players"), ["≥ 2", "MT 1.01"]),
    "bad-dice.yaml": (dict(line=3, field="dice"), ["D10 or D12", "'D6'"]),
    "not-a-mapping.yaml": (dict(field=None, row=None), ["expected a mapping", "list"]),
    "invalid-yaml.yaml": (dict(line=5, field=None), ["not valid YAML", "mapping values"]),
    "duplicate-key.yaml": (dict(line=5, field="name"), ["given twice", "line 1"]),
    "empty.yaml": (dict(field=None), ["empty"]),
    "no-rows.yaml": (dict(field="rows", row=None), ["non-empty list"]),
    "bad-date-name.yaml": (dict(field=None), ["not valid YAML"]),
    "not-utf8.yaml": (dict(line=1, field=None, row=None), ["not UTF-8", "0xE8 at byte 13"]),
}


def test_every_bad_fixture_has_an_expectation():
    assert {p.name for p in BAD.glob("*.yaml")} == set(BAD_FILES)


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_error_names_file_row_column_and_field(name):
    """Every error names the file, the row, the column (1-based + letter) and the field."""
    expected, words = BAD_FILES[name]
    with pytest.raises(BoardFileError) as caught:
        load_board(BAD / name)
    error = caught.value
    for attribute, value in expected.items():
        assert getattr(error, attribute) == value, (attribute, str(error))
    text = str(error)
    assert str(BAD / name) in text
    for word in words:
        assert word in text
    if error.row is not None:
        assert f"row {error.row}" in text
    if error.column is not None:
        letter = "ABCDEFGHIJ"[error.column - 1]
        assert f"column {error.column} ({letter})" in text
    if error.field is not None:
        assert f"field '{error.field}'" in text
    assert "\n" not in text  # one line for the command line


def test_missing_file_is_a_board_file_error(tmp_path):
    missing = tmp_path / "absent.yaml"
    with pytest.raises(BoardFileError, match="cannot read the file") as caught:
        load_board(missing)
    assert caught.value.path == missing


def test_hand_written_file_with_bom_comments_and_lowercase_dice_loads():
    """MT 2.02.a multicoloured 'UBRG', MT 2.03.a '.', MT 2.03.c 'R#', MT 2.04.a '@', MT 2.04.b '*'."""
    board = load_board(HAND_WRITTEN)
    assert (board.name, board.players, board.dice) == ("Petit essai", 2, "D12")
    assert (board.width, board.height) == (4, 3)
    assert board.square(3, 1).colours == frozenset("UBRG")
    assert board.square(3, 0).obstacle and not board.square(3, 0).colours
    assert board.square(1, 1).obstacle and board.square(1, 1).colours == {"R"}
    assert board.starts == [(0, 0), (3, 2)]
    assert board.temples == [(2, 1)]


def _all_good_files() -> list[Path]:
    return [HAND_WRITTEN, *library_boards().values()]


@pytest.mark.parametrize("path", _all_good_files(), ids=lambda p: p.name)
def test_load_save_load_round_trip(path, tmp_path):
    board = load_board(path)
    copy = tmp_path / "copy.yaml"
    save_board(board, copy)
    assert load_board(copy) == board
    assert list(tmp_path.iterdir()) == [copy]  # the atomic write left no temporary file


@pytest.mark.parametrize("path", _all_good_files(), ids=lambda p: p.name)
def test_rows_round_trip_through_from_rows(path):
    board = load_board(path)
    meta = dict(name=board.name, players=board.players, dice=board.dice, description=board.description)
    assert Board.from_rows(board.to_rows(), **meta) == board


def test_saved_file_has_ordinary_permissions(tmp_path):
    """The atomic write goes through a private temporary file; the result must not stay private."""
    reference = tmp_path / "reference.txt"
    reference.write_text("x", encoding="utf-8")
    save_board(load_board(HAND_WRITTEN), tmp_path / "b.yaml")
    assert (tmp_path / "b.yaml").stat().st_mode == reference.stat().st_mode


def test_saved_rows_are_aligned_for_people(tmp_path):
    board = load_board(HAND_WRITTEN)
    save_board(board, tmp_path / "b.yaml")
    rows = [line for line in (tmp_path / "b.yaml").read_text(encoding="utf-8").splitlines()
            if line.startswith("  - ")]
    starts_of_columns = [{i for i, ch in enumerate(r) if ch != " " and r[i - 1] == " "} for r in rows]
    assert all(s == starts_of_columns[0] for s in starts_of_columns)


def test_from_rows_errors_count_rows_and_columns_from_one():
    with pytest.raises(BoardFileError) as caught:
        Board.from_rows(["W U", "W Q"])
    assert (caught.value.row, caught.value.column) == (2, 2)


# -- fuzzing: only BoardFileError, never another exception, never a half board ----------

def _check_whole_or_error(raw: bytes) -> None:
    try:
        board = board_from_bytes(raw, "fuzz.yaml")
    except BoardFileError as error:
        assert str(error).startswith("fuzz.yaml")
        return
    assert board.width >= 1 and board.height >= 1
    assert all(len(row) == board.width for row in board.squares)
    assert board_from_text(board_to_text(board)) == board


# the bundled duel plus a four-colour square, the hand-written file and every bad fixture
SEED_TEXTS = [board_to_text(load_board(library_boards()["duel-20x12"]).replace_square(
                  (0, 0), load_board(HAND_WRITTEN).square(3, 1))).encode(),
              HAND_WRITTEN.read_bytes(), *(p.read_bytes() for p in sorted(BAD.glob("*.yaml")))]
# bytes that mean something to YAML or to the square notation, plus broken UTF-8
YAML_BYTES = st.sampled_from(list(b"#:-\"'[]{}@*.,&!|>%WUBRG 0123456789\n\t\r\x00\xc3\xa9\xef\xff"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_random_bytes_only_raise_board_file_error(raw):
    _check_whole_or_error(raw)


@st.composite
def mutated_board_files(draw):
    raw = bytearray(draw(st.sampled_from(SEED_TEXTS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "delete", "insert", "replace"]))
        at = draw(st.integers(0, max(0, len(raw) - 1)))
        if kind == "truncate":
            del raw[at:]
        elif kind == "delete":
            del raw[at:at + draw(st.integers(1, 20))]
        elif kind == "insert":
            raw[at:at] = bytes(draw(st.lists(YAML_BYTES, min_size=1, max_size=4)))
        elif raw:
            raw[at] = draw(YAML_BYTES)
    return bytes(raw)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_board_files())
def test_fuzz_mutated_board_files_only_raise_board_file_error(raw):
    _check_whole_or_error(raw)
