"""Camera screen parts without a window: the overlays drawn on the frame land on the squares of
the mapping, the worker loop reports a source that cannot be opened or drops, the presenter words
the status and finds the token under a tap, the demo's camera films the demo table.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from boards import library_boards, load_board
from calibration.mapping import GridMapping
from calibration.sources import SourceError
from companion.app.screens.camera import presenter
from companion.app.screens.camera.live import (CANNOT_OPEN, ENDED, LIVE, LOST, PHOTO_LAYERS, CameraLoop, LiveView,
                                               Scene, render)
from companion.i18n import translate
from vision.watch import KEPT, WatchFrame, WatchTimings

HOMOGRAPHY = np.array([[20.0, 0, 50], [0, 20.0, 40], [0, 0, 1]])   # 20 px per square, grid at (50, 40)


def watch_frame(homography=HOMOGRAPHY, positions=None, **fields) -> WatchFrame:
    values = dict(index=3, registration=KEPT, mapping=GridMapping(homography), observations=(), covered=frozenset(),
                  positions=positions or {}, events=(), doubtful=frozenset(), too_small=frozenset(),
                  timings=WatchTimings(), size=(400, 300), grid=(8, 6))
    values.update(fields)
    return WatchFrame(**values)


def centre_pixel(homography: np.ndarray, at: tuple[int, int]) -> tuple[int, int]:
    """Pixel of the centre of square `at` (grid point (x + 0.5, y + 0.5), architecture.md)."""
    point = homography @ np.array([at[0] + 0.5, at[1] + 0.5, 1.0])
    return int(round(point[0] / point[2])), int(round(point[1] / point[2]))


def test_an_overlay_fills_exactly_the_squares_given_through_the_mapping():
    frame = np.full((300, 400, 3), 128, np.uint8)
    picture, scale = render(frame, watch_frame(), Scene(layers={"zone": frozenset({(2, 3)})}))
    assert scale == 1.0
    picture = picture[::-1]                     # bottom row first, as a texture wants it
    colour, alpha, _ = PHOTO_LAYERS["zone"]
    x, y = centre_pixel(HOMOGRAPHY, (2, 3))
    expected = np.round(np.array(colour) * alpha + 128 * (1 - alpha))
    assert np.abs(picture[y, x].astype(int) - expected).max() <= 2
    nx, ny = centre_pixel(HOMOGRAPHY, (3, 3))
    assert picture[ny, nx].tolist() == [128, 128, 128], "the neighbour square is untouched"
    assert (frame == 128).all(), "the camera frame itself is not modified"


def test_a_large_frame_is_reduced_for_the_screen_and_the_overlays_follow():
    frame = np.full((2160, 3840, 3), 128, np.uint8)
    homography = np.diag([80.0, 80.0, 1.0])
    picture, scale = render(frame, watch_frame(homography), Scene(layers={"attack": frozenset({(10, 5)})}),
                            max_size=(1280, 720))
    assert picture.shape == (720, 1280, 3) and scale == pytest.approx(1 / 3)
    x, y = centre_pixel(homography, (10, 5))
    assert picture[::-1][round(y * scale), round(x * scale)].tolist() != [128, 128, 128]


def test_a_token_seen_elsewhere_than_the_game_has_it_gets_an_arrow_from_its_square():
    frame = np.full((300, 400, 3), 128, np.uint8)
    seen = watch_frame(positions={(1, 2): (5, 2)})
    picture, _ = render(frame, seen, Scene(recorded={(1, 2): (1, 2)}))
    picture = picture[::-1]
    midway = centre_pixel(HOMOGRAPHY, (3, 2))
    assert picture[midway[1], midway[0]].tolist() != [128, 128, 128], "the arrow crosses the squares between"
    plain, _ = render(frame, seen, Scene(recorded={(1, 2): (5, 2)}))
    assert plain[::-1][midway[1], midway[0]].tolist() == [128, 128, 128], "no arrow where the game agrees"


def test_the_token_under_a_tap_on_the_picture():
    view = LiveView(1, LIVE, "camera 0", None, 0.5, watch_frame(positions={(2, 7): (3, 1)}))
    x, y = centre_pixel(HOMOGRAPHY, (3, 1))
    assert presenter.token_at_pixel(view, (x * 0.5, y * 0.5), {}) == (2, 7)
    x, y = centre_pixel(HOMOGRAPHY, (4, 4))
    assert presenter.token_at_pixel(view, (x * 0.5, y * 0.5), {(1, 1): (4, 4)}) == (1, 1), "the game's, unseen"
    assert presenter.token_at_pixel(view, (1, 1), {}) is None, "off the board"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_status_line_says_what_the_camera_does(lang):
    t = lambda key, **fields: translate(lang, key, **fields)  # noqa: E731
    lost = presenter.status_line(LiveView(1, LOST, "rtsp://phone/live", None, 1.0, None), None, t, lang)
    assert "rtsp://phone/live" in lost and ("la partie continue" in lost or "the game goes on" in lost)
    cannot = presenter.status_line(LiveView(1, CANNOT_OPEN, "7", None, 1.0, None,
                                            error=SourceError("camera_not_found", number=7)), None, t, lang)
    assert ("caméra 7 introuvable" if lang == "fr" else "camera 7 not found") in cannot
    seen = watch_frame(positions={(1, 1): (0, 0)}, too_small=frozenset({(0, 0)}))
    live = presenter.status_line(LiveView(1, LIVE, "camera 0", None, 1.0, seen, fps=29.6), seen, t, lang)
    assert "30" in live and ("trop petits" in live or "too small" in live)
    first = presenter.status_line(LiveView(1, LIVE, "camera 0", None, 1.0, seen, work_ms=210.0), seen, t, lang)
    assert "/s" not in first and "210" in first, "no rate said before it is known"


def test_the_worker_reports_a_source_that_cannot_be_opened_without_raising():
    def opener():
        raise SourceError("camera_not_found", number=7)

    board = load_board(library_boards()["duel-20x12"])
    loop = CameraLoop(opener, board, name="7")
    loop.start()
    loop.stop()
    view = loop.latest()
    assert view.state == CANNOT_OPEN and str(view.error) == "camera 7 not found"


class FlakySource:
    """A live source: two blank frames, then nothing (unplugged) until `back` is set."""

    live, fps, finished, name = True, None, False, "flaky"

    def __init__(self):
        self.given = 0
        self.back = threading.Event()

    def read(self):
        if self.given < 2 or self.back.is_set():
            self.given += 1
            return np.full((120, 160, 3), 90, np.uint8)
        return None

    def close(self):
        pass


def test_the_worker_says_when_a_live_source_drops_and_when_it_is_back(monkeypatch):
    import companion.app.screens.camera.live as live

    monkeypatch.setattr(live, "LOST_AFTER_S", 0.2)
    board = load_board(library_boards()["duel-20x12"])
    source = FlakySource()
    loop = CameraLoop(lambda: source, board, name="flaky")
    loop.start()
    states = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (LOST in states and states[-1] == LIVE):
        view = loop.latest()
        if view is not None and (not states or states[-1] != view.state):
            states.append(view.state)
        if LOST in states:
            source.back.set()
        time.sleep(0.01)
    loop.stop()
    assert LIVE in states[:states.index(LOST)] and states[-1] == LIVE, states


class OneFrameFile(FlakySource):
    """A file source of one frame, finished after it."""

    live, finished = False, False

    def __init__(self, frame=None):
        super().__init__()
        self.frame = np.full((120, 160, 3), 90, np.uint8) if frame is None else frame

    def read(self):
        if self.given:
            self.finished = True
            return None
        self.given += 1
        return self.frame


def test_a_file_source_that_ends_is_said_once():
    board = load_board(library_boards()["duel-20x12"])
    loop = CameraLoop(OneFrameFile, board, name="clip.mp4")
    loop.start()
    deadline = time.monotonic() + 20
    while (view := loop.latest()) is None or view.state != ENDED:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    loop.stop()


def test_once_a_file_has_ended_the_last_picture_follows_the_selection():
    """The table selects a token after the video's last frame (or while the camera is unplugged):
    the last picture is drawn again with the new overlays, on the squares of the last mapping."""
    from companion.app.demo import DemoCamera, demo_board, demo_pieces

    board = demo_board()
    frame = DemoCamera(board, [(p.player, p.number, *p.at) for p in demo_pieces(board)], fps=None).read()

    loop = CameraLoop(lambda: OneFrameFile(frame), board, name="clip.mp4")
    loop.start()

    def next_view(state):
        deadline = time.monotonic() + 60
        while (view := loop.latest()) is None or view.state != state:
            assert time.monotonic() < deadline, "no view"
            time.sleep(0.01)
        return view

    try:
        ended = next_view(ENDED)
        assert ended.watch.found
        loop.scene = Scene(layers={"zone": frozenset({(3, 3)})})
        redrawn = next_view(ENDED)
    finally:
        loop.stop()
    x, y = np.round(ended.watch.to_image([(3.5, 3.5)])[0] * ended.scale).astype(int)
    row = ended.picture.shape[0] - 1 - y          # pictures are bottom row first
    assert np.abs(redrawn.picture[row, x].astype(int) - ended.picture[row, x].astype(int)).sum() > 40
    far = np.round(ended.watch.to_image([(15.5, 9.5)])[0] * ended.scale).astype(int)
    assert (redrawn.picture[ended.picture.shape[0] - 1 - far[1], far[0]] ==
            ended.picture[ended.picture.shape[0] - 1 - far[1], far[0]]).all(), "only the zone's square changed"


def test_the_demo_camera_films_the_demo_table_and_its_misprint():
    """Every demo token is read from the demo camera's first frames; the printed sheet differs
    from the board file at one square (MT 2.02.e), which the table is asked to confirm."""
    from companion.app.demo import DemoCamera, demo_board, demo_pieces, misprinted
    from vision.watch import CameraWatcher

    board = demo_board()
    tokens = [(p.player, p.number, *p.at) for p in demo_pieces(board)]
    camera = DemoCamera(board, tokens, fps=None)
    watcher = CameraWatcher(board)
    for _ in range(3):
        seen = watcher.update(camera.read())
    assert dict(seen.positions) == {(p, n): (x, y) for p, n, x, y in tokens}
    sheet = misprinted(board)
    differs = [at for at in board.positions() if board.square(*at) != sheet.square(*at)]
    assert len(differs) == 1 and set(differs) <= seen.doubtful


@pytest.mark.parametrize("name, label", [("/tmp/x/table.avi", "table.avi"), ("photos/", "photos"), ("camera 0", "caméra 0"),
                                         ("http://192.168.1.5:8080/video", "http://192.168.1.5:8080/video"),
                                         ("demo camera", "caméra de démo"), ("camera 12", "caméra 12")])
def test_the_status_line_names_a_file_by_its_name_and_a_stream_by_its_address(name, label):
    """A camera is named in the shown language (French here), a file by its name, a URL as it is."""
    from companion.i18n import translate

    assert presenter.source_label(name, lambda key, **fields: translate("fr", key, **fields)) == label


def test_now_and_then_a_hand_passes_over_the_demo_table_and_makes_no_event():
    """The demo's video is alive when nobody plays: a hand passes by itself every `pass_every`
    frames; the watcher keeps every token where it is and reports nothing."""
    from companion.app.demo import DemoCamera, demo_board, demo_pieces
    from vision.watch import CameraWatcher

    board = demo_board()
    tokens = [(p.player, p.number, *p.at) for p in demo_pieces(board)]
    camera = DemoCamera(board, tokens, fps=None, pass_every=12)
    watcher = CameraWatcher(board)
    with_hands, events = 0, []
    for index in range(40):
        seen = watcher.update(camera.read())
        with_hands += bool(camera.hands)
        if index:
            events += seen.events
    assert with_hands >= 8, "a hand passed by itself"
    assert events == [] and dict(seen.positions) == {(p, n): (x, y) for p, n, x, y in tokens}


def test_a_token_the_game_does_not_know_is_named_by_its_colour_and_number():
    from companion.camera import CameraView, token_name

    view = CameraView(moves=(), unknown=(((3, 7), (2, 4)),))
    t = lambda key, **fields: translate("fr", key, **fields)  # noqa: E731
    assert presenter.move_lines(view, t, "fr", token_name) == ["orange 7 vu en C5, inconnu de la partie"]


@pytest.mark.slow   # a run of the whole app
def test_the_app_camera_takes_the_vision_yaml_of_its_data_folder_and_says_a_bad_field(tmp_path):
    """Issue 18: the Camera screen's watcher is set by the same vision YAML as `tactical watch`
    (vision.yaml in the app's data folder); a value it cannot use is said in the status line with
    the file, the line and the field, and no camera is opened until it is right."""
    from test_app_drive import run_autopilot

    settings = tmp_path / "settings"
    settings.mkdir()
    (settings / "vision.yaml").write_text("tracking:\n  confirm_frames: 0\n", encoding="utf-8")
    steps = [{"show": "camera"}, {"wait_for": {"screen": "camera", "key": "status", "contains": "réglages",
                                               "timeout": 60}}, {"report": "bad"}]
    report = run_autopilot(tmp_path, steps, name="settings", lang="fr", options={"cards_dir": str(settings)})
    status = report["bad"]["screens"]["camera"]["status"]
    assert "les réglages de la caméra sont inutilisables" in status and "tracking.confirm_frames" in status, status
    assert f"{settings / 'vision.yaml'}:2" in status and report["bad"]["screens"]["camera"]["found"] is False
