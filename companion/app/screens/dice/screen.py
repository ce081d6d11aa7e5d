"""Dice screen: movement roll for the selected piece, D6, planar die with its cost; big, animated, logged.

The dice are rolled by `companion.game` (recorded in the game's log, so undo
and replay never re-roll); this screen shows the result and animates it briefly.
"""
from __future__ import annotations

from kivy.animation import Animation
from kivy.app import App
from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.kv import load_kv_beside
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)

ROLL_ANIMATION_S = 0.35


class DiceScreen(Screen):
    result = StringProperty("–")
    detail = StringProperty("")

    def on_kv_post(self, *_):
        App.get_running_app().bind(revision=lambda *_: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if not app.session.has_game:
            return
        self.result, self.detail = app.session.last_roll_text(app.lang)

    def roll(self, kind: str) -> None:
        """kind: 'movement' (selected piece), 'd6' or 'planar'."""
        app = App.get_running_app()
        if kind == "movement":
            if app.selected is None:
                app.message = app.t("dice.select_first")
                return
            done = app.perform("roll_movement", app.selected)
        else:
            done = app.perform("roll_" + kind)
        if done is not None:
            self._animate()

    def _animate(self) -> None:
        label = self.ids.result
        Animation.cancel_all(label)
        label.font_size = sp(40)
        Animation(font_size=sp(120), duration=ROLL_ANIMATION_S, t="out_back").start(label)
