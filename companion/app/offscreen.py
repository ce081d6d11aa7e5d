"""The app's widgets driven without a person, in an offscreen window: what the benchmarks
(`companion.bench.app`, `companion.bench.camera`) need from Kivy.

Only `companion.app` imports Kivy, and the app never imports the benchmarks; so the benchmarks
measure the app through these few calls: open the window, show a widget, draw one frame, make a
texture, and the naive way of drawing a highlighted square (one widget each) that the board view
is compared against.
"""
from __future__ import annotations

import time

from companion.app.env import prepare_kivy


def open_window():
    """The offscreen window, created once (Kivy has one window per process)."""
    prepare_kivy(headless=True)
    from kivy.base import EventLoop
    from kivy.core.window import Window

    EventLoop.ensure_window()
    return Window


def show(widget) -> None:
    """Put `widget` in the window."""
    open_window().add_widget(widget)


def next_frame() -> None:
    """One full frame: clock, layout, GPU draw, flip."""
    from kivy.base import EventLoop

    EventLoop.idle()


def unchanged_frame() -> None:
    """One frame with nothing changed: what the window itself costs on this machine."""
    open_window().canvas.ask_update()
    next_frame()


def close_window() -> None:
    open_window().close()


def bgr_texture(width: int, height: int):
    """A texture the camera picture is uploaded into, as the Camera screen does."""
    open_window()
    from kivy.graphics.texture import Texture

    return Texture.create(size=(width, height), colorfmt="bgr")


def widget_per_square(squares) -> None:
    """The naive way of highlighting squares: one widget with its own canvas per square."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    holder = Widget()
    for at in squares:
        square = Widget(pos=at, size=(1, 1))
        with square.canvas:
            Color(1, 1, 0, 0.3)
            Rectangle(pos=square.pos, size=square.size)
        holder.add_widget(square)


def print_demo_first_frame() -> None:
    """Start the demo in an offscreen window, print `FIRST_FRAME <epoch seconds>` when its first frame
    is on screen, and stop: the launch time the app benchmark measures from a fresh process."""
    prepare_kivy(headless=True)
    from kivy.core.window import Window

    import companion.app as app_package
    from companion.app.main import TacticalApp

    app = TacticalApp(demo=True, data_dir=app_package._fresh_demo_dir())
    Window.bind(on_flip=lambda *_: (print("FIRST_FRAME", time.time(), flush=True), app.stop()))
    app.run()
