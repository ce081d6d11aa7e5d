"""Issue #27 on the Board, Pieces and Camera screens: the Board's defects (labels lost when zoomed in,
the action zone hiding the square colours, a pawn lighting the whole board with no word of why), the
rulers' marks, and a run of the real app at a phone's size (1080×2340 px at density 3, held upright):
a tap on a token opens its sheet under the board, it is read, rolled and moved; a turn button hidden
by the sheet is still tapped by its id (the screen's `reveal`)."""
from __future__ import annotations

import pytest

from boards.palette import OBSTACLE_BGR, SQUARE_BGR
from companion.app.screens.board import presenter as board
from companion.i18n import translate
from test_app_drive import TOKEN, run_autopilot
from test_app_presenters import new_game


def _rgb(bgr) -> tuple[float, float, float]:
    return tuple(channel / 255 for channel in reversed(bgr))


def test_the_action_zone_leaves_each_square_colour_readable():
    """#27: a yellow tint over the whole square made blue read grey and green olive. What covers the
    middle of a zone square, blended over each printed colour, must still be nearest that colour."""
    from companion.app.widgets.board_view import OVERLAY_STYLES

    style = OVERLAY_STYLES["zone"]
    printed = {**{name: _rgb(bgr) for name, bgr in SQUARE_BGR.items()}, "obstacle": _rgb(OBSTACLE_BGR)}
    covers_middle = not getattr(style, "outline", 0) and style.inset < 0.5
    alpha = style.rgba[3] if covers_middle else 0.0
    for name, rgb in printed.items():
        seen = tuple(alpha * tint + (1 - alpha) * own for tint, own in zip(style.rgba[:3], rgb))
        nearest = min(printed, key=lambda other: sum((a - b) ** 2 for a, b in zip(seen, printed[other])))
        assert nearest == name, f"a {name} square in the action zone reads {nearest}"


def test_a_pawn_with_no_start_square_left_says_why_it_may_go_anywhere():
    """#27, MT 2.04.a: three players on the duel board's two start squares: the third pawn lights
    every free square, and its panel says why."""
    game = new_game(place_pawns=False)
    state = game.state
    for player in (1, 2):
        game.place_pawn(player, min(game.pawn_squares(player)))
    assert not set(state.board.starts) - {p.at for p in game.state.pieces.values()}
    for lang in ("fr", "en"):
        assert translate(lang, "board.no_start_left") in board.describe_piece(game, (3, 1), lang)
    assert "2.04.a" in translate("en", "board.no_start_left")


def test_a_pawn_offered_its_start_square_is_told_nothing_more():
    game = new_game(place_pawns=False)
    assert board.pawn_anywhere_reason(game, (1, 1), "en") == []     # a start square is still free for it
    assert translate("en", "board.no_start_left") not in board.describe_piece(game, (1, 1), "en")


def test_rulers_label_only_the_squares_shown_and_thin_out_small_ones():
    """#27: zoomed in, the rulers name the columns and rows in the view; small squares get every
    second (fourth…) label, never two labels on top of each other."""
    from companion.app.widgets.board_view import ruler_marks

    marks = ruler_marks(first=-100, side=50, count=40, low=0, high=300, gap=26)
    assert [index for index, _ in marks] == [2, 3, 4, 5, 6, 7]
    assert all(0 <= centre <= 300 for _, centre in marks)
    small = ruler_marks(first=0, side=10, count=40, low=0, high=400, gap=26)
    assert [index for index, _ in small][:3] == [0, 4, 8]


PHONE_WINDOW = [1080, 2340]   # a 6.1" phone held upright, density 3: 360×780 dp


@pytest.mark.slow
def test_a_phone_opens_the_tapped_tokens_sheet_moves_it_and_keeps_the_labels(tmp_path, monkeypatch):
    """#27 at a phone's size: the board fills the width; a tap on a token (zooming in first, its squares
    being too small for a finger) opens its sheet, the zoomed board keeps its row and column labels;
    Roll and a move from the sheet; Next phase, hidden under the sheet, is tapped by its id all the same."""
    monkeypatch.setenv("KIVY_METRICS_DENSITY", "3")
    steps = [{"report": "start"},
             {"tap_token": list(TOKEN)}, {"report": "tapped"},
             {"tap": "board.roll"}, {"report": "rolled"},
             {"tap_drawn": "moves"}, {"report": "moved"},
             {"tap": "board.next_phase"}, {"report": "next"}]
    report = run_autopilot(tmp_path, steps, options={"window": PHONE_WINDOW}, timeout=240)
    start, tapped, rolled, moved, after = (report[k] for k in ("start", "tapped", "rolled", "moved", "next"))
    layout = start["screens"]["board"]
    assert layout["sheet_layout"] and layout["sheet_open"] == (start["selected"] is not None)   # the demo's choice
    assert start["square_dp"] < 48 and start["board_view_pos"][0] < 20 * 3   # the whole width, squares too small
    sheet = tapped["screens"]["board"]
    assert tapped["selected"] == list(TOKEN) and sheet["sheet_open"] and not sheet["next_phase_shown"]
    assert not sheet["fitted"] and sheet["rulers"]["columns"] and sheet["rulers"]["rows"]   # zoomed: labels kept
    assert "Savannah Lions" in tapped["info"]
    assert rolled["rolls"] != start["rolls"] and rolled["movement"]
    token = f"{TOKEN[0]}-{TOKEN[1]}"
    assert moved["pieces"][token] != start["pieces"][token] and moved["pieces"][token] in moved["drawn"].get("selected", [])
    assert after["turn"]["phase"] != moved["turn"]["phase"] or after["turn"]["step"] != moved["turn"]["step"]
    assert not after["screens"]["board"]["sheet_open"]   # the sheet closed to reach Next phase
