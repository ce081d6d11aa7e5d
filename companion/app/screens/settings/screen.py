"""Settings: UI language (French by default on a French system), seat orientation on the table screen,
the card data (import a card file)."""
from __future__ import annotations

from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from companion.i18n import LANGUAGES
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.widgets import card_search, controls  # noqa: F401  (kv classes)

load_kv_beside(__file__)


class SettingsScreen(Screen):
    languages = LANGUAGES
    busy = BooleanProperty(False)   # a card import is running (the autopilot waits, as a person would)

    def layout_cases(self) -> dict:
        """The folder browser of the card import (issue #27's layout matrix)."""
        return {"chooser": self.ids.cards_import.browse}

    def autopilot_report(self) -> dict:
        return {"cards": self.ids.cards_import.report()}

    def set_language(self, lang: str) -> None:
        running_app().set_language(lang)
