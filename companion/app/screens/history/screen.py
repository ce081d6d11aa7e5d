"""History screen: the game's readable log (from companion.game, in the UI language), undo and redo."""
from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.history.presenter import history_lines
from companion.game import Game
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)


class HistoryScreen(Screen):
    log_text = StringProperty("")

    def on_kv_post(self, *_):
        running_app().bind(revision=lambda *_: self.refresh())
        self.refresh()

    def on_pre_enter(self, *_):
        self.refresh()

    def layout_cases(self) -> dict:
        """Issue #27's layout matrix: the Undo buttons (here and the shell's) naming an action, the
        longest player's name losing life — the words they must hold in every layout."""

        def named_undo():
            app = running_app()
            longest = max(app.game.state.players, key=lambda player: len(player.name))
            app.play(Game.change_life, longest.id, -3)

        return {"undo": named_undo}

    def refresh(self) -> None:
        app = running_app()
        self.log_text = "\n".join(history_lines(app.game, app.lang)) or app.t("history.empty")
