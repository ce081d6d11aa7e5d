"""Camera screen: the live feed with the selected piece's overlays drawn on the real board (AR),
the camera source, a calibrate button, the recognition status, the doubtful squares to confirm
one by one, and the detected moves."""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from boards import COLOURS, square_label
from companion.i18n import translate
from companion.app.kv import load_kv_beside
from companion.app.platform_services import ON_ANDROID
from companion.app.screens.camera.feed import FeedUnavailable, KivyCameraFeed, Reading, SourceFeed, SyntheticFeed, \
    draw_on_photo, read_board
from companion.app.screens.board.presenter import confirmed_code, piece_overlay
from companion.app.widgets import controls  # noqa: F401
from companion.app.widgets.board_view import bgr_texture
from companion.app.words import printed, token_text
from companion.game import Game, GameState
from vision.tracking import too_small_advice

load_kv_beside(__file__)

LIVE_FPS = 10  # a real camera is polled this often while the screen is shown
DEFAULT_SOURCE = "0"  # desktop: the first webcam


def photo_tokens(state: GameState) -> list[tuple[int, int, int, int]]:
    """Tokens as the synthetic photographer takes them, (player, number, x, y): printed colours only."""
    return [(p.player, p.number, *p.at) for p in state.pieces.values() if p.at is not None and printed(p.player)]


def doubtful_squares(game: Game, seen=()) -> list:
    """Squares still to confirm: the camera's doubts and a scanned board's (kept in the game's log,
    `state.doubtful_squares`), minus those the table confirmed (`set_square` actions in effect)."""
    confirmed = {tuple(entry.action.data["at"]) for entry in game.history_entries()
                 if entry.action.kind == "set_square"}
    return sorted((set(map(tuple, seen)) | set(game.state.doubtful_squares)) - confirmed)


def seen_moves(state: GameState, seen: list[dict]) -> list:
    """Tokens of the game the camera sees on another square than the one recorded: (token, square)."""
    pieces = state.pieces
    return [((t["player"], t["number"]), (t["x"], t["y"])) for t in seen
            if (t["player"], t["number"]) in pieces and pieces[(t["player"], t["number"])].at != (t["x"], t["y"])]


def detected_moves_text(game: Game, seen: list[dict], lang: str) -> str:
    """Each move the camera saw with its verdict from the game (`Game.judge_move`: `companion.rules.judge_move`
    with what the piece has left this turn, MT 3.02–3.07, 2.03.b); tokens the game does not know are listed too."""
    state = game.state
    lines = [translate(lang, "camera.unknown_token", token=f"{tok['player']}-{tok['number']}",
                   dst=square_label((tok["x"], tok["y"])))
             for tok in seen if (tok["player"], tok["number"]) not in state.pieces]
    for token, dst in seen_moves(state, seen):
        piece = state.pieces[token]
        verdict = game.judge_move(token, dst)
        src = square_label(piece.at) if piece.at else "–"
        lines.append(translate(lang, "camera.move", token=token_text(state, token, lang), src=src, dst=square_label(dst),
                           verdict=verdict.text(lang)))
    return "\n".join(lines) or translate(lang, "camera.no_moves")


class CameraScreen(Screen):
    status = StringProperty("")
    moves_text = StringProperty("")
    doubtful = ListProperty([])          # squares still to confirm (camera's and a scanned board's)
    has_moves = BooleanProperty(False)
    confirming = ObjectProperty(None, allownone=True)  # the doubtful square being confirmed
    confirm_colours = StringProperty("")
    confirm_obstacle = BooleanProperty(False)

    def on_kv_post(self, *_):
        app = App.get_running_app()
        self.feed = None  # opened on first visit: the camera stays off until someone wants it
        self.reading = Reading()
        self._poll = None
        self.ids.source.text = app.camera_source
        app.bind(revision=lambda *_: (self.describe(), self.show_frame()), selected=lambda *_: self.show_frame(),
                 lang=lambda *_: self.describe())

    def autopilot_report(self) -> dict:
        return {"status": self.status, "doubtful": [list(at) for at in self.doubtful],
                "tokens_read": sorted([t["player"], t["number"], t["x"], t["y"]] for t in self.reading.tokens),
                "found": self.reading.found, "source": App.get_running_app().camera_source,
                "confirming": list(self.confirming) if self.confirming is not None else None}

    def find_widget(self, path: str):
        """'doubt-0': the first listed doubtful square's button (driven by the autopilot like a tap)."""
        return list(reversed(self.ids.doubtful_list.children))[int(path.split("-")[1])]

    # -- source --------------------------------------------------------
    def _open_feed(self):
        """The source typed by the table; else the demo's photographer, Android's camera, or webcam 0."""
        app = App.get_running_app()
        if app.camera_source.strip():
            return SourceFeed(app.camera_source)
        if app.demo:
            return SyntheticFeed()
        if ON_ANDROID:
            return KivyCameraFeed(0)
        return SourceFeed(DEFAULT_SOURCE)

    def open_source(self) -> None:
        """Switch to the source in the text field ("0", a URL, a file; empty = default). A source that
        cannot be opened is said in the status line; the game is untouched."""
        app = App.get_running_app()
        app.camera_source = self.ids.source.text.strip()
        if self.feed is not None:
            self.feed.close()
        self.feed, self.reading = None, Reading()
        self._start_feed()

    def _start_feed(self) -> bool:
        app = App.get_running_app()
        if self.feed is None:
            try:
                self.feed = self._open_feed()
            except FeedUnavailable as exc:
                self.status = app.t(f"camera.{exc.key}", **exc.fields)
                return False
        if not self.reading.found:
            self.calibrate()
        return True

    def on_pre_enter(self, *_):
        if not self._start_feed():
            return
        self.show_frame()
        if not isinstance(self.feed, SyntheticFeed):
            self._poll = Clock.schedule_interval(lambda dt: self.show_frame(), 1 / LIVE_FPS)

    def on_leave(self, *_):
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def _frame(self):
        """The current frame, or None with the reason shown in the status line."""
        game = App.get_running_app().game
        if game is None or self.feed is None:
            return None
        try:
            return self.feed.frame(game.state.board, photo_tokens(game.state))
        except FeedUnavailable as exc:
            self.status = App.get_running_app().t(f"camera.{exc.key}", **exc.fields)
            return None

    # -- reading -------------------------------------------------------
    def calibrate(self) -> None:
        """Read the board in the current frame: homography, doubtful squares, tokens and their moves."""
        image = self._frame()
        if image is None:
            return
        self.reading = read_board(image, App.get_running_app().game.state.board)
        self.describe()
        self.show_frame()

    def describe(self) -> None:
        app = App.get_running_app()
        reading = self.reading
        if app.game is None:
            return
        if reading.found:
            self.status = app.t("camera.found", app.lang, tokens=len(reading.tokens), ms=round(reading.timing_ms))
            advice = too_small_advice(reading.too_small, app.lang)
            if advice:
                self.status += f" {advice[0].upper()}{advice[1:]}."
        elif reading.error:
            self.status = app.t("camera.not_found", app.lang, error=reading.error)
        self.doubtful = doubtful_squares(app.game, reading.doubtful)
        if self.confirming is not None and tuple(self.confirming) not in self.doubtful:
            self.confirming = None
        self._list_doubtful()
        self.moves_text = detected_moves_text(app.game, reading.tokens, app.lang) if reading.found else ""
        self.has_moves = reading.found and bool(seen_moves(app.game.state, reading.tokens))

    def _list_doubtful(self) -> None:
        box = self.ids.doubtful_list
        box.clear_widgets()
        for at in self.doubtful:
            button = Button(text=square_label(at), font_size="18sp", size_hint=(None, None), size=("72dp", "52dp"))
            button.bind(on_release=lambda _, at=at: self.pick_doubtful(at))
            box.add_widget(button)

    # -- confirming a doubtful square (MT 2.02.e) ------------------------
    def pick_doubtful(self, at) -> None:
        """Start confirming one square: the choice starts from what the board says now."""
        square = App.get_running_app().game.state.board.square(*at)
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
        app = App.get_running_app()
        app.play("set_square", at, confirmed_code(app.game.state.board, at, self.confirm_colours, self.confirm_obstacle))

    def confirm_label(self, lang: str) -> str:
        if self.confirming is None:
            return App.get_running_app().t("camera.pick_doubtful", lang)
        return App.get_running_app().t("camera.confirm_square", lang, label=square_label(self.confirming))

    # -- moves ---------------------------------------------------------
    def accept_moves(self) -> None:
        """The table agrees with what the camera saw: record the moves (legal or not: cards may allow them)."""
        app = App.get_running_app()
        moves = seen_moves(app.game.state, self.reading.tokens)
        if moves:
            app.play("set_positions", dict(moves), source="camera")
        self.describe()

    def show_frame(self) -> None:
        if self.manager is None or self.manager.current != self.name:
            return
        image = self._frame()
        if image is None:
            return
        if self.reading.found:
            app = App.get_running_app()
            layers = dict(piece_overlay(app.game.state, app.selected).layers)
            layers["doubtful"] = set(self.doubtful)
            layers["too_small"] = set(self.reading.too_small)
            image = draw_on_photo(image, self.reading.homography, layers)
        self.ids.photo.texture = bgr_texture(image)
