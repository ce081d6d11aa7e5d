"""Token tracking over frames (vision.tracking): smoothing, hands, events worded in FR and EN
(companion.camera)."""
import numpy as np

from vision.tokens import TokenObservation
from companion.camera import event_text, too_small_advice
from vision.tracking import StillCameraReader, TokenTracker, TrackEvent
from vision.video import random_board, make_video

RED7 = (3, 7)      # player 3 is orange in the palette; names come from boards.tokens


def obs(token, square, confidence=0.9):
    return TokenObservation(square[0], square[1], token[0], token[1], confidence)


def run(tracker, frames):
    """frames: list of (observations, covered squares); returns all events."""
    events = []
    for observations, covered in frames:
        events += tracker.update(observations, covered)
    return events


def test_new_token_is_announced_once_it_is_seen_steadily():
    tracker = TokenTracker(confirm_frames=2)
    events = run(tracker, [([obs((4, 12), (10, 8))], ())] * 3)
    assert events == [TrackEvent("new", (4, 12), None, (10, 8))]
    assert event_text(events[0], "en") == "a new token cyan 12 on K9"
    assert event_text(events[0], "fr") == "nouveau jeton cyan 12 en K9"


def test_a_move_is_reported_with_both_squares_in_french_and_english():
    tracker = TokenTracker(confirm_frames=2)
    run(tracker, [([obs(RED7, (2, 2))], ())] * 2)
    events = run(tracker, [([obs(RED7, (5, 2))], ())] * 2)
    assert events == [TrackEvent("moved", RED7, (2, 2), (5, 2))]
    assert event_text(events[0], "en") == "orange 7 moved C3 → F3"
    assert event_text(events[0], "fr") == "orange 7 : C3 → F3"
    assert tracker.positions == {RED7: (5, 2)}


def test_a_single_frame_glimpse_elsewhere_is_not_a_move():
    """Smoothing: a token carried over other squares is seen there briefly."""
    tracker = TokenTracker(confirm_frames=2)
    run(tracker, [([obs(RED7, (2, 2))], ())] * 2)
    events = run(tracker, [([obs(RED7, (3, 2))], ()), ([obs(RED7, (2, 2))], ()), ([obs(RED7, (2, 2))], ())])
    assert events == [] and tracker.positions[RED7] == (2, 2)


def test_a_hand_over_the_square_keeps_the_token_where_it_was():
    tracker = TokenTracker(confirm_frames=2, vanish_frames=3)
    run(tracker, [([obs(RED7, (2, 2))], ())] * 2)
    events = run(tracker, [([], {(2, 2), (2, 3), (3, 3)})] * 40)   # long hand, token unseen
    assert events == [] and tracker.positions == {RED7: (2, 2)}


def test_a_token_unseen_on_a_visible_square_has_left_the_board():
    tracker = TokenTracker(confirm_frames=2, vanish_frames=3)
    run(tracker, [([obs((2, 2), (0, 0))], ())] * 2)
    events = run(tracker, [([], ())] * 2)
    assert events == [] and (2, 2) in tracker.positions     # a brief miss is not a departure
    events = run(tracker, [([], ())])
    assert events == [TrackEvent("left", (2, 2), (0, 0), None)]
    assert event_text(events[0], "en") == "pink 2 left the board"
    assert event_text(events[0], "fr") == "rose 2 a quitté le plateau"


def test_a_token_carried_across_the_board_by_a_hand_has_moved_not_left():
    """Lifted from its square, which the hand has already left, and carried for a second: while a
    hand is over the board the token may be in it, so it does not leave; put down, it has moved."""
    tracker = TokenTracker(confirm_frames=2, vanish_frames=3)
    run(tracker, [([obs(RED7, (2, 2))], ())] * 2)
    carried = [([], {(4 + k, 5), (4 + k, 6), (5 + k, 6), (5 + k, 5)}) for k in range(30)]
    events = run(tracker, carried + [([obs(RED7, (12, 4))], ())] * 2)
    assert events == [TrackEvent("moved", RED7, (2, 2), (12, 4))]


def test_two_tokens_on_one_square_are_reported_once():
    tracker = TokenTracker(confirm_frames=1)
    run(tracker, [([obs((1, 1), (4, 4)), obs((2, 5), (6, 4))], ())])
    events = run(tracker, [([obs((1, 1), (4, 4)), obs((2, 5), (4, 4))], ())] * 3)
    shared = [e for e in events if e.kind == "shared"]
    assert len(shared) == 1 and shared[0].to == (4, 4)
    assert event_text(shared[0], "en") == "two tokens on one square: yellow 1 and pink 5 on E5"
    assert event_text(shared[0], "fr").startswith("deux jetons sur une case")


def test_stream_reports_true_positions_soon_after_hands_leave():
    """End to end on a synthetic video: still camera, hands carrying tokens to new squares."""
    rng = np.random.default_rng(7)
    board = random_board(20, 12, rng)
    camera, frames = make_video(board, size=(1280, 720), frames=36, tokens=6, moves=2, seed=7, max_tilt_deg=25)
    reader = StillCameraReader(camera.homography, board.width, board.height)
    tracker = TokenTracker()
    last_hand, checked, right, moves = -100, 0, 0, 0
    for i, frame in enumerate(frames):
        reading = reader.read(frame.image)
        moves += sum(e.kind == "moved" for e in tracker.update(reading.observations, reading.covered))
        if frame.hands:
            last_hand = i
        if i >= 2 and i - last_hand >= 5:
            checked += 1
            right += tracker.positions == {(t.player, t.number): t.square for t in frame.tokens}
    assert checked >= 10 and right == checked
    assert moves == 2


def test_long_stream_reuses_still_frames_and_keeps_true_positions():
    """The bench's long streams (vision.video.make_long_video): hand episodes, then still stretches
    whose frames are cycled renders; the tracker is right from the 5th frame after each hand."""
    from vision.video import make_long_video

    rng = np.random.default_rng(8)
    board = random_board(20, 12, rng)
    camera, count, frames = make_long_video(board, size=(1280, 720), moves=2, still_frames=9, tokens=6, seed=8,
                                            max_tilt_deg=25)
    frames = list(frames)
    assert count == len(frames) == 2 * 6 + 3 * 9
    assert frames[-1].image is frames[-4].image             # a still stretch cycles 3 renders
    reader = StillCameraReader(camera.homography, board.width, board.height)
    tracker = TokenTracker()
    last_hand, checked, right = -100, 0, 0
    for i, frame in enumerate(frames):
        reading = reader.read(frame.image)
        tracker.update(reading.observations, reading.covered)
        last_hand = i if frame.hands else last_hand
        if i >= 2 and i - last_hand >= 5:
            checked += 1
            right += tracker.positions == {(t.player, t.number): t.square for t in frame.tokens}
    assert checked >= 15 and right == checked


def test_advice_names_how_many_squares_and_which_rows_are_too_small_for_tokens_MT_2_05():
    squares = [(0, 0), (1, 0), (5, 1), (2, 3)]
    assert too_small_advice(squares, "en").startswith("tokens on 4 squares (rows 1–2, 4) are too small")
    assert too_small_advice(squares, "fr").startswith("les jetons de 4 cases (rangées 1–2, 4) sont trop petits")
    assert "1 square (row 7)" in too_small_advice([(3, 6)], "en")
    assert too_small_advice([], "fr") == ""
