"""The running app, typed, for the screens and widgets that reach it.

Kivy has no type hints: `App.get_running_app()` is `Any` to a type checker, which then checks none
of the calls made on it. Through `running_app()` every `app.play(action, …)` is checked against the
action's `Game` method (its arguments, its result), and an editor follows it there.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.app import App

if TYPE_CHECKING:  # main imports the screens' presenters: only the checker needs the class here
    from companion.app.main import TacticalApp


def running_app() -> TacticalApp:
    """The `TacticalApp` running (there is one per process)."""
    return App.get_running_app()
