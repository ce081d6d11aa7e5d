"""The camera watcher (vision.watch): one frame in, registration, tokens, events out — checked on
synthetic videos whose truth is known (where every token is, where the board is, where hands are).
"""
from __future__ import annotations

import numpy as np
import pytest

from vision.video import Look, Photographer, PlacedToken, hand_over, nudged, random_board, random_camera
from vision.watch import HIDDEN, KEPT, MOVING, REGISTERED, SEARCHING, CameraWatcher

SIZE = (1280, 720)


@pytest.fixture(scope="module")
def table():
    """A 20×12 board, a still camera, six tokens spaced out, and the photographer."""
    rng = np.random.default_rng(17)
    board = random_board(20, 12, rng, obstacles=0.0)
    camera = random_camera(board, SIZE, rng, max_tilt_deg=25)
    look = Look(gains=(0.95, 1.0, 1.04), light_low=0.85, blur_sigma=0.5, noise_sigma=2.0)
    tokens = [PlacedToken(1 + i % 5, 3 + i, 2.5 + 3 * i, 2.5 + 2 * (i % 3), 30.0 * i) for i in range(6)]
    return board, camera, look, tokens, Photographer(board, camera, look, seed=17)


def truth(tokens) -> dict:
    return {(t.player, t.number): t.square for t in tokens}


def carry(camera, token: PlacedToken, to: tuple[float, float], rng, frames: int = 6):
    """Hands carrying `token` to `to` (grid units): the list of (token on the board or None, hand)."""
    steps = []
    for k in range(frames):
        share = k / (frames - 1)
        at = (token.x + (to[0] - token.x) * share, token.y + (to[1] - token.y) * share)
        steps.append((k >= frames // 2, hand_over(camera, at, rng)))
    return steps


def test_a_moved_token_is_an_event_within_five_frames_of_the_hand_leaving(table):
    """The still-camera loop: registration once, then tokens re-read only where something changed."""
    board, camera, _, tokens, photographer = table
    rng = np.random.default_rng(1)
    watcher = CameraWatcher(board)
    frames = [photographer.shoot(tokens) for _ in range(3)]
    mover = tokens[2]
    moved = PlacedToken(mover.player, mover.number, 15.5, 9.5, 10.0)
    after = [moved if t is mover else t for t in tokens]
    for put_down, hand in carry(camera, mover, (moved.x, moved.y), rng):
        frames.append(photographer.shoot(after if put_down else [t for t in tokens if t is not mover], [hand]))
    hand_left = len(frames)
    frames += [photographer.shoot(after) for _ in range(6)]
    seen = [watcher.update(f.image) for f in frames]
    assert seen[0].registration == REGISTERED and all(s.registration == KEPT for s in seen[1:])
    assert seen[1].positions == truth(tokens), "every token read from the second frame"
    moves = [(s.index, e) for s in seen for e in s.events if e.kind == "moved"]
    assert [(e.token, e.frm, e.to) for _, e in moves] == [(mover_id := (mover.player, mover.number),
                                                           mover.square, (15, 9))]
    assert moves[0][0] - hand_left < 5, f"seen at frame {moves[0][0]}, the hand left at {hand_left}"
    assert seen[-1].positions == truth(after) and seen[-1].positions[mover_id] == (15, 9)
    assert [e for s in seen for e in s.events if e.kind in ("left", "shared")] == []
    assert all(s.timings.total > 0 for s in seen)


def test_a_hand_passing_over_the_board_is_no_event_and_loses_no_token(table):
    board, camera, _, tokens, photographer = table
    rng = np.random.default_rng(2)
    watcher = CameraWatcher(board)
    frames = [photographer.shoot(tokens) for _ in range(3)]
    for k in range(10):   # across the board, over the tokens of the middle row
        frames.append(photographer.shoot(tokens, [hand_over(camera, (1 + 1.9 * k, 4.5), rng)]))
    frames += [photographer.shoot(tokens) for _ in range(4)]
    seen = [watcher.update(f.image) for f in frames]
    assert [e for s in seen[3:] for e in s.events] == []
    assert any(s.covered for s in seen[3:13]), "the hand's squares are reported as covered"
    assert all(s.positions == truth(tokens) for s in seen[1:])


def test_a_hand_resting_at_registration_hides_no_token_for_good(table):
    """The first full read sees a hand over two tokens: they are not read, not lost; once the hand
    has gone they are read where they are."""
    board, camera, _, tokens, photographer = table
    rng = np.random.default_rng(3)
    watcher = CameraWatcher(board)
    hand = hand_over(camera, (tokens[1].x, tokens[1].y), rng, radius_squares=2.2)
    frames = [photographer.shoot(tokens, [hand]) for _ in range(4)] + [photographer.shoot(tokens) for _ in range(20)]
    seen = [watcher.update(f.image) for f in frames]
    assert [e for s in seen for e in s.events if e.kind == "left"] == []
    assert seen[-1].positions == truth(tokens)


def test_a_bumped_board_is_followed_then_registered_again_on_the_right_squares(table):
    """The board slides 3 cm and turns 2°: the overlays follow it while it moves (MOVING), it is
    read again once still (REGISTERED), and the new mapping puts every square where the photographer
    did (≤ 2 px); the tokens slid with the board: no event."""
    board, camera, look, tokens, photographer = table
    rng = np.random.default_rng(4)
    watcher = CameraWatcher(board)
    frames = [photographer.shoot(tokens) for _ in range(3)]
    for k in range(1, 5):   # a hand pushes the board from its left edge
        pushed = nudged(camera, board, 0.375 * k, 0.1 * k, 0.5 * k)
        frames.append(Photographer(board, pushed, look, seed=17).shoot(tokens, [hand_over(pushed, (-0.5, 6), rng)]))
    last = Photographer(board, pushed, look, seed=17)
    frames += [last.shoot(tokens) for _ in range(4)]
    seen = [watcher.update(f.image) for f in frames]
    states = [s.registration for s in seen]
    assert states[:3] == [REGISTERED, KEPT, KEPT] and MOVING in states[3:8]
    assert states[-4:].count(REGISTERED) == 1 and states[-1] == KEPT
    centres = np.array([(x + 0.5, y + 0.5) for y in range(board.height) for x in range(board.width)])
    import cv2
    expected = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), pushed.homography).reshape(-1, 2)
    assert np.abs(seen[-1].to_image(centres) - expected).max() <= 2.0
    assert seen[-1].square_at(tuple(expected[board.width * 3 + 7])) == (7, 3)
    assert [e for s in seen for e in s.events if e.kind != "new"] == []
    assert seen[-1].positions == truth(tokens)


def test_markers_hidden_by_a_hand_pause_the_reading_and_keep_the_pose(table):
    board, camera, _, tokens, photographer = table
    watcher = CameraWatcher(board)
    watcher.update(photographer.shoot(tokens).image)
    blank = np.full((SIZE[1], SIZE[0], 3), 90, np.uint8)       # a hand over the whole camera
    hidden = watcher.update(blank)
    assert hidden.registration == HIDDEN and hidden.found and not hidden.read
    assert hidden.error and hidden.events == ()
    back = watcher.update(photographer.shoot(tokens).image)
    assert back.registration == KEPT and back.positions == watcher.tracker.positions


def test_no_board_in_view_is_searching_with_the_reason():
    board = random_board(8, 6, np.random.default_rng(5))
    seen = CameraWatcher(board).update(np.full((240, 320, 3), 90, np.uint8))
    assert seen.registration == SEARCHING and not seen.found and seen.error
    assert seen.positions == {} and seen.square_at((10, 10)) is None


def test_a_hand_over_the_tracked_markers_keeps_the_pose_without_reading_again(table):
    """The fast re-check watches one marker per quarter of the board; with the markers of three
    quarters hidden it fails, the last quarter's markers register the board at the same pose:
    nothing is read again."""
    import cv2

    from boards.markers import board_markers

    board, camera, _, tokens, photographer = table
    watcher = CameraWatcher(board)
    for _ in range(2):
        watcher.update(photographer.shoot(tokens).image)
    reader = watcher._reader
    frame = photographer.shoot(tokens).image.copy()
    centre = np.array([board.width, board.height]) / 2
    for marker in board_markers(board.width, board.height):
        right, below = marker.corners.mean(axis=0) >= centre
        if right and below:
            continue
        quad = cv2.perspectiveTransform(marker.corners.reshape(-1, 1, 2).astype(np.float64), camera.homography)
        cv2.fillConvexPoly(frame, np.round(quad.reshape(-1, 2)).astype(np.int32), (120, 140, 190))
    from calibration.registration import RegistrationTracker, register_board

    check = RegistrationTracker(register_board(photographer.shoot(tokens).image, board.width, board.height))
    assert not check.still_valid(frame), "the fast re-check must fail on this frame"
    seen = watcher.update(frame)
    assert seen.registration == KEPT, "registered again at the same pose"
    assert watcher._reader is reader and seen.events == () and seen.positions == truth(tokens)


def test_a_board_without_markers_that_was_moved_is_found_again_on_the_right_squares():
    """Another maker's board (no markers: found by its grid lines, nothing to re-check quickly):
    when it slides 2 cm and turns 3°, most of its squares change at once, and the watcher finds
    it again: the overlays go where the photographer put the squares (≤ 2 px), not where they were."""
    import cv2

    from vision.synth import camera_warp, render_foreign

    rng = np.random.default_rng(11)
    board = random_board(12, 8, rng, obstacles=0.0)
    px = 60
    flat, margin = render_foreign(board, px, rng)
    camera = random_camera(board, SIZE, rng, max_tilt_deg=20, fill=0.8)
    moved = nudged(camera, board, 1.0, 0.5, 3.0)

    def shoot(seen_by):
        image = np.full((SIZE[1], SIZE[0], 3), 80, np.uint8)
        camera_warp(flat, seen_by.homography @ np.array([[1 / px, 0, -margin / px], [0, 1 / px, -margin / px],
                                                         [0, 0, 1]]), image)
        return np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)

    watcher = CameraWatcher(board)
    seen = [watcher.update(frame) for frame in [shoot(camera)] * 2 + [shoot(moved)] * 3]
    assert [s.registration for s in seen] == [REGISTERED, KEPT, REGISTERED, KEPT, KEPT]
    centres = np.array([(x + 0.5, y + 0.5) for y in range(board.height) for x in range(board.width)])
    expected = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), moved.homography).reshape(-1, 2)
    assert np.abs(seen[-1].to_image(centres) - expected).max() <= 2.0
    assert [e for s in seen for e in s.events] == []


def test_a_real_webcam_moving_over_a_real_chessboard_is_followed_frame_after_frame():
    """Four real frames of a 640×480 webcam with strong barrel distortion over a 7×10 chessboard
    (tests/fixtures/real_photos_2, labelled), each shown twice as a still camera would: each new
    pose is registered again and placed right (every outer corner within half a square of the
    labelled one), the second frame of a pose only re-checked; nothing is an event."""
    import json
    from pathlib import Path

    from boards import Board
    from calibration.sources import read_image

    folder = Path(__file__).parent / "fixtures" / "real_photos_2"
    labels = {entry["file"]: entry for entry in json.loads((folder / "labels.json").read_text())}
    width, height = labels["webcam-chess-10x7-a.jpg"]["grid"]
    board = Board.from_rows([" ".join("WB"[(x + y) % 2] for x in range(width)) for y in range(height)])
    watcher = CameraWatcher(board)
    for name in [f"webcam-chess-10x7-{pose}.jpg" for pose in "abcd" for _ in range(2)]:
        seen = watcher.update(read_image(folder / name))
        ours = seen.to_image([(0, 0), (width, 0), (width, height), (0, height)])
        theirs = np.array(labels[name]["outer_corners_px"])
        off = np.linalg.norm(ours[:, None] - theirs[None], axis=2).min(axis=1)
        assert off.max() < np.min(labels[name]["square_size_px"]) / 2, (name, off)
        assert seen.events == ()
        first = seen.index % 2 == 0
        assert seen.registration == (REGISTERED if first else KEPT), (name, seen.registration)


def test_the_vision_yamls_tracking_section_sets_when_the_watcher_calls_a_token_moved(table, tmp_path):
    """Issue 18: the watcher's settings are the vision YAML's `tracking` section. The carried token
    of the first test, with `confirm_frames` raised past the frames it is seen on its new square:
    no move yet (the default makes one within five frames of the hand leaving); and a section read
    from `vision.yaml` in the app's data folder (`companion.camera.camera_settings`) is the one the
    watcher uses."""
    from calibration.config import DEFAULT_CONFIG
    from companion.camera import camera_settings

    board, camera, _, tokens, photographer = table
    (tmp_path / "vision.yaml").write_text("tracking:\n  confirm_frames: 40\n  same_pose_px: 2.5\n", encoding="utf-8")
    config = camera_settings(tmp_path)
    assert (config.tracking.confirm_frames, config.tracking.same_pose_px) == (40, 2.5)
    assert camera_settings(tmp_path / "elsewhere") is DEFAULT_CONFIG
    watcher = CameraWatcher(board, config)
    assert watcher.tracker.confirm_frames == 40
    rng = np.random.default_rng(1)
    mover = tokens[2]
    moved = PlacedToken(mover.player, mover.number, 15.5, 9.5, 10.0)
    after = [moved if t is mover else t for t in tokens]
    frames = [photographer.shoot(tokens) for _ in range(2)]
    for put_down, hand in carry(camera, mover, (moved.x, moved.y), rng):
        frames.append(photographer.shoot(after if put_down else [t for t in tokens if t is not mover], [hand]))
    frames += [photographer.shoot(after) for _ in range(6)]
    seen = [watcher.update(f.image) for f in frames]
    assert seen[1].positions == truth(tokens)
    assert [e for s in seen for e in s.events if e.kind == "moved"] == []
    assert seen[-1].positions == truth(tokens), "the token stays where it was until seen 40 frames"


@pytest.mark.parametrize("text, field, says", [
    ("tracking:\n  confirm_frames: 0\n", "tracking.confirm_frames", "from 1 to 1000"),
    ("tracking:\n  global_change: 1.5\n", "tracking.global_change", "from 0 to 1"),
    ("tracking:\n  change_level: fourteen\n", "tracking.change_level", "a number"),
    ("tracking:\n  hand_square: 4\n", "tracking", "hand_square"),
])
def test_a_bad_tracking_value_is_refused_naming_the_file_the_line_and_the_field(tmp_path, text, field, says):
    from calibration.config import ConfigError
    from companion.camera import camera_settings

    (tmp_path / "vision.yaml").write_text("colour:\n  min_cover: 0.09\n" + text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        camera_settings(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'vision.yaml'}:4") and field in message and says in message, message
