"""The physical board: model, board files, bundled library, generator and printing."""
from pathlib import Path

from boards.io import BoardFileError, board_from_bytes, board_from_text, board_to_text, load_board, save_board
from boards.model import (COLOURS, XY, Board, GridSize, Square, SquareCodeError, Token, column_label, order_colours,
                          parse_grid_size, parse_square_label, square_label)

LIBRARY = Path(__file__).parent / "library"


def library_boards() -> dict[str, Path]:
    """The bundled boards by file stem ('duel-20x12' -> its path)."""
    return {p.stem: p for p in sorted(LIBRARY.glob("*.yaml"))}


__all__ = ["Board", "Square", "XY", "Token", "GridSize", "parse_grid_size", "BoardFileError",
           "SquareCodeError", "COLOURS", "LIBRARY",
           "load_board", "save_board", "board_from_bytes", "board_from_text", "board_to_text", "library_boards",
           "square_label", "parse_square_label", "column_label", "order_colours"]
