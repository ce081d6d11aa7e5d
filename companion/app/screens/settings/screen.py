"""Settings: UI language (French by default on a French system) and seat orientation on the table screen."""
from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.i18n import LANGUAGES
from companion.app.kv import load_kv_beside
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)


class SettingsScreen(Screen):
    languages = LANGUAGES

    def set_language(self, lang: str) -> None:
        App.get_running_app().set_language(lang)
