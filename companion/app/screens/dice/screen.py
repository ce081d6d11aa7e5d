"""Dice screen: movement roll for the selected piece, D6, planar die with its cost; big, animated, logged.

The dice are rolled by `companion.game` (recorded in the game's log, so undo and replay never
re-roll); this screen shows the result (`presenter`) and animates it briefly. While a planeswalk or
chaos trigger waits, the planar die is not offered and the screen says what waits.
"""
from __future__ import annotations

from kivy.animation import Animation
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.dice import presenter
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)

ROLL_ANIMATION_S = 0.35


class DiceScreen(Screen):
    result = StringProperty("–")
    detail = StringProperty("")
    selected_text = StringProperty("")
    planar_shown = BooleanProperty(False)
    planar_may_roll = BooleanProperty(False)
    planar_label = StringProperty("")
    planar_waiting = StringProperty("")
    result_font = NumericProperty(sp(120))  # the last roll's size for this layout and result (screen.kv)

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.refresh(), selected=lambda *_: self.refresh())
        self.refresh()

    def on_pre_enter(self, *_):
        self.refresh()

    def refresh(self) -> None:
        app = running_app()
        self.selected_text = presenter.selected_dice_text(app.game, app.selected, app.lang)
        planar = presenter.planar_die(app.game, app.lang)
        self.planar_shown, self.planar_may_roll, self.planar_waiting = planar.shown, planar.may_roll, planar.waiting
        self.planar_label = app.t("dice.planar", cost=planar.cost)
        if app.game is not None:
            self.result, self.detail = presenter.last_roll_text(app.game, app.lang)

    def roll(self, kind: str) -> None:
        """kind: 'movement' (selected piece), 'd6' or 'planar'."""
        app = running_app()
        if kind == "movement":
            if app.selected is None:
                app.say(app.t("dice.select_first"))
                return
            rolled = app.play(presenter.roll_movement, tuple(app.selected)) is not None
        elif kind == "d6":
            rolled = app.play(presenter.roll_die, "D6") is not None
        else:
            rolled = app.play(presenter.roll_planar_die) is not None
        if rolled:
            self._animate()

    def _animate(self) -> None:
        label = self.ids.result
        Animation.cancel_all(label)
        label.font_size = sp(40)
        Animation(font_size=self.result_font, duration=ROLL_ANIMATION_S, t="out_back").start(label)
