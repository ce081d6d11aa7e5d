"""Camera screen: the camera live, with the selected token's overlays on the real board (AR), a
ring on every token the camera follows, the moves it saw with their verdict (one tap records them),
the squares to confirm one by one, and the camera source.

The frames are read, watched and drawn by a `CameraLoop` worker thread (`live.py`); the UI thread
only uploads the newest picture into one texture and rewords what changed. Once opened, the camera
keeps watching while other screens are shown (the Board screen shows what it sees, to confirm),
without drawing pictures nobody looks at.
"""
from __future__ import annotations

from functools import partial

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from boards import COLOURS, square_label
from companion.app.kv import load_kv_beside
from companion.app.platform_services import ON_ANDROID
from companion.app.running import running_app
from companion.app.screens.camera import presenter
from companion.app.screens.board.presenter import confirmed_code, piece_overlay
from companion.app.screens.camera.live import LIVE, OPENING, CameraLoop
from calibration.config import DEFAULT_CONFIG, ConfigError
from companion.camera import camera_settings, record_seen, seen_moves
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)

SHOWN_HZ = 30          # the UI looks for a new picture this often while the screen is shown
HIDDEN_HZ = 4          # ... and for what the camera sees while another screen is shown
DEFAULT_SOURCE = "0"   # desktop: the first webcam
EVENTS_SHOWN = 4       # the camera's last events listed under the moves
STOP_WAIT_S = 10.0     # the app stops: the worker may be in the middle of a full read


def _median(values: list[float]) -> float | None:
    return sorted(values)[len(values) // 2] if values else None


def _p90(values: list[float]) -> float | None:
    return sorted(values)[int(len(values) * 0.9)] if values else None


def _refuse(key: str, **fields):
    """An opener that cannot open: the camera loop says this `SourceError` in the status line."""
    from calibration.sources import SourceError

    raise SourceError(key, **fields)


class CameraScreen(Screen):
    status = StringProperty("")
    moves_text = StringProperty("")
    events_text = StringProperty("")
    doubtful = ListProperty([])          # squares still to confirm (camera's and a scanned board's)
    has_moves = BooleanProperty(False)
    busy = BooleanProperty(False)        # the camera is opening, no picture yet (screenshots and the autopilot wait)
    confirming = ObjectProperty(None, allownone=True)  # the doubtful square being confirmed
    confirm_colours = StringProperty("")
    confirm_obstacle = BooleanProperty(False)

    def on_kv_post(self, *_):
        app = running_app()
        self.loop: CameraLoop | None = None   # opened on first visit: the camera stays off until wanted
        self.view = None                      # the newest LiveView with a picture of the camera
        self.last = None                      # the newest LiveView of any kind
        self.watch = None                     # the newest WatchFrame (kept when the source ends or drops)
        self.camera_view = None               # companion.camera.CameraView: moves to confirm
        self.pictures = 0                     # pictures shown since the app started
        self.ui_ms: list[float] = []          # UI-thread time per picture, wall clock (the bench reads it)
        self.ui_cpu_ms: list[float] = []      # ... and the UI thread's own CPU time (no wait for the other)
        self.work_ms: list[float] = []        # the worker's time per frame (watcher and drawing)
        self._texture: Texture | None = None  # the one shown, of two uploaded in turn
        self._textures: list[Texture] = []
        self._poll = None
        self._positions = None
        self._device = None                   # Android: the Kivy camera feeding a PushSource
        self.ids.source.text = app.camera_source
        self.ids.photo.bind(on_touch_up=lambda _w, touch: self._on_photo_tap(touch))
        app.bind(revision=lambda *_: self.refresh(), selected=lambda *_: self._update_scene(),
                 lang=lambda *_: self.refresh(), on_stop=lambda *_: self.stop_camera(timeout=STOP_WAIT_S))

    # -- the autopilot's view -------------------------------------------------------------------
    def autopilot_report(self) -> dict:
        app = running_app()
        watch = self.watch
        return {"status": self.status, "doubtful": [list(at) for at in self.doubtful],
                "tokens_read": sorted([p, n, *at] for (p, n), at in (watch.positions.items() if watch else ())),
                "found": bool(watch is not None and watch.found), "source": running_app().camera_source,
                "registration": watch.registration if watch else None,
                "homography": watch.homography.tolist() if watch is not None and watch.found else None,
                "frame_index": watch.index if watch else None,
                "moves": [move.text(app.lang, presenter.namer(app.game.state)) for move in self.camera_view.moves]
                if self.camera_view and app.game is not None else [],
                "catching_up": [c.text(app.lang, presenter.namer(app.game.state)) for c in self.camera_view.catching_up]
                if self.camera_view and app.game is not None else [],
                "events": [[index, event.kind, list(event.token), list(event.frm) if event.frm else None,
                            list(event.to) if event.to else None] for index, event in
                           (self.loop.events if self.loop else [])],
                "picture_size": list(self._texture.size) if self._texture else None,
                "picture_scale": self.view.scale if self.view else None,
                "photo_box": self._photo_box(),
                "layers": {name: sorted(map(list, squares)) for name, squares in self.loop.scene.layers.items()}
                if self.loop else {},
                "pictures": self.pictures, "ui_ms_median": _median(self.ui_ms), "ui_ms_p90": _p90(self.ui_ms),
                "ui_cpu_ms_median": _median(self.ui_cpu_ms), "ui_cpu_ms_p90": _p90(self.ui_cpu_ms),
                "work_ms_median": _median(self.work_ms),
                "picture_current": bool(self.view is not None and self.loop is not None
                                        and self.view.scene is self.loop.scene),
                "board_ghosts": self._board_ghosts(),
                "confirming": list(self.confirming) if self.confirming is not None else None}

    def _photo_box(self) -> list | None:
        """Where the picture is shown, in window coordinates: [left, bottom, width, height]."""
        if self._texture is None:
            return None
        photo = self.ids.photo
        width, height = photo.norm_image_size
        left, bottom = photo.to_window(photo.center_x - width / 2, photo.center_y - height / 2)
        return [left, bottom, width, height]

    def _board_ghosts(self) -> list:
        """What the Board screen draws as "seen by the camera" (token, square, legal)."""
        manager = self.manager
        if manager is None or not manager.has_screen("board"):
            return []
        layer = getattr(manager.get_screen("board").ids.get("camera_seen"), "layer", None)
        return [[list(token), list(at), legal] for token, at, legal in (layer.drawn if layer else ())]

    def layout_cases(self) -> dict:
        """What the Camera screen opens in place, for the device matrix: a square being confirmed
        (its colours, obstacle and Confirm). Its other parts are always shown (in its scrolling column)."""
        return {"confirming": lambda: self.pick_doubtful((0, 0))}

    def find_widget(self, path: str):
        """'doubt-0': the first listed doubtful square's button (driven by the autopilot like a tap)."""
        return list(reversed(self.ids.doubtful_list.children))[int(path.split("-")[1])]

    # -- source ---------------------------------------------------------------------------------
    def _opener(self):
        """How the worker opens the camera: the source typed by the table; else the demo's camera,
        Android's camera (frames pushed from Kivy's camera), or webcam 0."""
        app = running_app()
        spec = app.camera_source.strip()
        if spec or not (app.demo or ON_ANDROID):
            from calibration.sources import open_source

            spec = spec or DEFAULT_SOURCE
            return spec, lambda: open_source(spec)
        if app.demo:
            from companion.app.demo import DemoCamera

            camera = DemoCamera(app.game.state.board, presenter.photo_tokens(app.game.state))
            self._device = camera
            return camera.name, lambda: camera
        from companion.app.screens.camera.device import KivyCamera

        try:
            self._device = KivyCamera(0)
        except Exception as exc:  # each platform's provider raises its own error type without a camera
            return "camera 0", partial(_refuse, "camera_failed", number=0, problem=exc)
        return self._device.source.name, lambda: self._device.source

    def start_camera(self) -> None:
        """Open the camera (in the worker: a source that hangs cannot freeze the screen)."""
        app = running_app()
        if app.game is None:
            return
        self.stop_camera()
        try:
            config = camera_settings(app.settings_dir)    # the same file as `tactical watch` reads
        except ConfigError as exc:                    # said in the status line: no camera until it is right
            config, name, opener = DEFAULT_CONFIG, "", partial(_refuse, "bad_settings", problem=exc)
        else:
            name, opener = self._opener()
        self.loop = CameraLoop(opener, app.game.state.board, name=name, config=config)
        self.loop.drawing = self._shown
        self._update_scene()
        self.busy = True
        self.loop.start()
        self._schedule()
        self._describe()

    def stop_camera(self, timeout: float = 0.5) -> None:
        """Stop the worker: it ends after the frame it is on (when switching source, without waiting
        long; when the app stops, letting OpenCV finish its work before the process exits)."""
        if self.loop is not None:
            self.loop.stop(timeout=timeout)   # a worker stuck in a read dies with the app (daemon thread)
            self.loop = None
        if self._device is not None and hasattr(self._device, "close"):
            self._device.close()
        self._device = None
        self.view = self.last = self.watch = self.camera_view = None
        self.busy = False
        self._positions = None

    def open_source(self) -> None:
        """Switch to the source in the text field ("0", a URL, a file, a folder; empty = default).
        A source that cannot be opened is said in the status line; the game is untouched."""
        running_app().camera_source = self.ids.source.text.strip()
        self.start_camera()

    def recalibrate(self) -> None:
        """Register the board and read every square and token again on the next frame."""
        if self.loop is not None:
            self.loop.recalibrate()

    @property
    def _shown(self) -> bool:
        return self.manager is not None and self.manager.current == self.name

    def _schedule(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
        self._poll = Clock.schedule_interval(lambda dt: self.poll(), 1 / (SHOWN_HZ if self._shown else HIDDEN_HZ))

    def on_pre_enter(self, *_):
        if self.loop is None:
            self.start_camera()
        elif self.loop is not None:
            self.loop.drawing = True
            self._schedule()

    def on_leave(self, *_):
        if self.loop is not None:
            self.loop.drawing = False
            self._schedule()

    # -- every UI tick ----------------------------------------------------------------------------
    def poll(self) -> None:
        """Take the worker's newest view: upload its picture, reword what changed."""
        import time

        if self.loop is None:
            return
        view = self.loop.latest()
        if view is None:
            return
        t0, c0 = time.perf_counter(), time.thread_time()
        self.last = view
        self.busy = view.state == OPENING
        if view.watch is not None:
            self.watch = view.watch
        if view.picture is not None and self._shown:
            self._show_picture(view)
            self.view = view
        if view.state == LIVE and view.watch is not None and view.watch.positions != self._positions:
            self._positions = view.watch.positions
            self._judge()
        self._describe()
        if view.picture is not None:
            self.ui_ms = (self.ui_ms + [(time.perf_counter() - t0) * 1000])[-300:]
            self.ui_cpu_ms = (self.ui_cpu_ms + [(time.thread_time() - c0) * 1000])[-300:]
            self.work_ms = (self.work_ms + [view.work_ms])[-300:]
            self.pictures += 1

    def _show_picture(self, view) -> None:
        """Upload the picture into the texture the screen did not draw last, then show that one:
        uploading into the texture being drawn waits for the GPU to finish with it (with Mesa's
        software GL, 60–70 ms per picture under load instead of 1–2 ms)."""
        height, width = view.picture.shape[:2]
        if self._texture is None or self._texture.size != (width, height):
            self._textures = [Texture.create(size=(width, height), colorfmt="bgr") for _ in range(2)]
            self._texture = self._textures[1]
        self._texture = self._textures[0] if self._texture is self._textures[1] else self._textures[1]
        self._texture.blit_buffer(view.picture.reshape(-1), colorfmt="bgr", bufferfmt="ubyte")
        self.ids.photo.texture = self._texture
        self.ids.photo.canvas.ask_update()

    def refresh(self) -> None:
        """The game or the language changed: the scene, the verdicts and the texts follow."""
        self._update_scene()
        if self._device is not None and hasattr(self._device, "show"):
            self._device.show(presenter.photo_tokens(running_app().game.state))  # the demo table follows
        self._judge()
        self._describe()

    def _update_scene(self) -> None:
        app = running_app()
        if self.loop is None or app.game is None:
            return
        state = app.game.state
        self.loop.scene = presenter.scene(dict(piece_overlay(state, app.selected).layers), frozenset(self._doubtful()),
                                          presenter.recorded(state))

    def _doubtful(self) -> list:
        game = running_app().game
        return presenter.doubtful_squares(game, self.watch.doubtful if self.watch is not None else ()) if game else []

    def _judge(self) -> None:
        app = running_app()
        if app.game is None:
            return
        self.camera_view = seen_moves(app.game, self._positions or {})
        app.camera_view = self.camera_view
        lines = presenter.move_lines(self.camera_view, app.t, app.lang, presenter.namer(app.game.state))
        self.has_moves = bool(self.camera_view.moves)
        self.moves_text = presenter.markup(lines) if lines else app.t("camera.no_moves")

    def _describe(self) -> None:
        app = running_app()
        if app.game is None:
            return
        self.status = presenter.status_line(self.last, self.watch, app.t, app.lang)
        state = app.game.state
        self.events_text = presenter.markup(presenter.event_lines(
            self.loop.events if self.loop else [], presenter.recorded(state), app.lang, presenter.namer(state),
            EVENTS_SHOWN))
        doubtful = self._doubtful()
        if doubtful != list(self.doubtful):
            self.doubtful = doubtful
            if self.confirming is not None and tuple(self.confirming) not in self.doubtful:
                self.confirming = None
            self._list_doubtful()
            self._update_scene()

    def _list_doubtful(self) -> None:
        box = self.ids.doubtful_list
        box.clear_widgets()
        for at in self.doubtful:
            button = Button(text=square_label(at), font_size="18sp", size_hint=(None, None), size=("72dp", "52dp"))
            button.bind(on_release=lambda _, at=at: self.pick_doubtful(at))
            box.add_widget(button)

    # -- tapping a token on the camera image -------------------------------------------------------
    def _on_photo_tap(self, touch) -> bool:
        photo = self.ids.photo
        if not photo.collide_point(*touch.pos) or self.view is None or touch.is_mouse_scrolling:
            return False
        width, height = photo.norm_image_size
        left, bottom = photo.center_x - width / 2, photo.center_y - height / 2
        if not (0 <= touch.x - left <= width and 0 <= touch.y - bottom <= height):
            return False
        picture_w, picture_h = self._texture.size
        picture_xy = ((touch.x - left) * picture_w / width, (bottom + height - touch.y) * picture_h / height)
        app = running_app()
        if app.game is None:
            return False
        token = presenter.token_at_pixel(self.view, picture_xy, presenter.recorded(app.game.state))
        if token is not None and token in app.game.state.pieces:
            app.selected = None if app.selected == token else token
            return True
        return False

    def pixel_of_square(self, at) -> tuple[float, float] | None:
        """Window coordinates of the centre of square `at` on the camera image (tests tap there)."""
        if self.view is None or self.view.watch is None or not self.view.watch.found:
            return None
        frame_x, frame_y = self.view.watch.to_image([(at[0] + 0.5, at[1] + 0.5)])[0]
        photo = self.ids.photo
        width, height = photo.norm_image_size
        picture_w, picture_h = self._texture.size
        x = photo.center_x - width / 2 + frame_x * self.view.scale * width / picture_w
        y = photo.center_y + height / 2 - frame_y * self.view.scale * height / picture_h
        return photo.to_window(x, y)

    # -- confirming a doubtful square (MT 2.02.e) ---------------------------------------------------
    def pick_doubtful(self, at) -> None:
        """Start confirming one square: the choice starts from what the board says now."""
        square = running_app().game.state.board.square(*at)
        self.confirming = tuple(at)
        self.confirm_colours = "".join(c for c in COLOURS if c in square.colours)
        self.confirm_obstacle = square.obstacle and bool(square.colours)

    def toggle_colour(self, colour: str) -> None:
        chosen = set(self.confirm_colours) ^ {colour}
        self.confirm_colours = "".join(c for c in COLOURS if c in chosen)

    def confirm(self) -> None:
        """Record the square as the table says it is (one undoable game action)."""
        if self.confirming is None:
            return
        at, self.confirming = self.confirming, None
        app = running_app()
        app.play(presenter.set_square, at, confirmed_code(app.game.state.board, at, self.confirm_colours, self.confirm_obstacle))

    def confirm_label(self, lang: str) -> str:
        if self.confirming is None:
            return running_app().t("camera.pick_doubtful", lang)
        return running_app().t("camera.confirm_square", lang, label=square_label(self.confirming))

    # -- moves ------------------------------------------------------------------------------------
    def accept_moves(self) -> None:
        """The table agrees with what the camera saw: record the moves through the game's judged
        move, legal or not (cards may allow them), one undo step each."""
        if self.camera_view is not None and self.camera_view.moves:
            app = running_app()
            record_seen(app.game, self.camera_view.positions, app.play)
