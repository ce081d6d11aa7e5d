"""Pieces screen: what each token number stands for, filled in fast at the table.

Steppers instead of typing for numbers, toggles for colours and for the
keywords that change geometry (companion.rules.KEYWORDS), one Save that sends
the whole piece to `companion.game` as one undoable action.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from boards import COLOURS
from companion.app.kv import load_kv_beside
from companion.app.widgets import controls  # noqa: F401
from companion.app.widgets.controls import BigToggle
from companion.rules import KEYWORDS

load_kv_beside(__file__)


class PiecesScreen(Screen):
    """Edits the selected token; the list on the left selects one."""

    token_text = StringProperty("")
    mana_value = NumericProperty(0)
    power = NumericProperty(0)
    toughness = NumericProperty(0)
    tapped = BooleanProperty(False)
    summoning_sick = BooleanProperty(False)
    colours = ListProperty([])
    keywords = ListProperty([])
    token_choices = ListProperty([])

    def on_kv_post(self, *_):
        app = App.get_running_app()
        app.bind(revision=lambda *_: self.load(), selected=lambda *_: self.load())
        grid = self.ids.keywords
        for keyword in sorted(KEYWORDS):
            toggle = BigToggle(font_size="15sp", height="48dp")
            toggle.keyword = keyword
            toggle.bind(on_release=lambda t, k=keyword: self.toggle_keyword(k, t.state == "down"))
            grid.add_widget(toggle)
        self.load()

    def on_pre_enter(self, *_):
        self.load()

    def load(self) -> None:
        """Fill the form from the game's piece for the selected token."""
        app = App.get_running_app()
        session = app.session
        if not session.has_game:
            return
        self.token_choices = [session.token_text(t, app.lang) for t in session.tokens()]
        for toggle in self.ids.keywords.children:
            toggle.text = app.t(f"keywords.{toggle.keyword}")
        piece = session.piece(app.selected) if app.selected in session.tokens() else None
        self.ids.form.disabled = piece is None
        if piece is None:
            self.token_text = app.t("pieces.none")
            return
        self.token_text = session.token_text(piece.token, app.lang)
        self.ids.name.text = piece.name
        self.mana_value = piece.mana_value
        self.power = piece.power or 0
        self.toughness = piece.toughness or 0
        self.tapped, self.summoning_sick = piece.tapped, piece.summoning_sick
        self.colours = [c for c in COLOURS if c in piece.colours]
        self.keywords = sorted(piece.keywords)
        for toggle in self.ids.colour_row.children:
            toggle.state = "down" if toggle.colour in piece.colours else "normal"
        for toggle in self.ids.keywords.children:
            toggle.state = "down" if toggle.keyword in piece.keywords else "normal"

    def choose(self, index: int) -> None:
        app = App.get_running_app()
        app.selected = app.session.tokens()[index]

    def new_token(self) -> None:
        """A new token for the selected token's player (else the active player), to place on the board."""
        app = App.get_running_app()
        session = app.session
        player = app.selected[0] if app.selected in session.tokens() else session.active_player
        if player is None:
            return
        token = app.perform("add_piece", player)
        if token is not None:
            app.selected = token

    def remove_token(self) -> None:
        app = App.get_running_app()
        if app.selected in app.session.tokens() and app.perform("remove_piece", app.selected) is not None:
            app.selected = None

    def step(self, field: str, delta: int) -> None:
        setattr(self, field, max(0, getattr(self, field) + delta))

    def toggle_colour(self, colour: str, on: bool) -> None:
        chosen = set(self.colours) | {colour} if on else set(self.colours) - {colour}
        self.colours = [c for c in COLOURS if c in chosen]

    def toggle_keyword(self, keyword: str, on: bool) -> None:
        chosen = set(self.keywords) | {keyword} if on else set(self.keywords) - {keyword}
        self.keywords = sorted(chosen)

    def save(self) -> None:
        app = App.get_running_app()
        if app.selected is None:
            return
        app.perform("update_piece", app.selected, name=self.ids.name.text.strip(),
                    mana_value=int(self.mana_value), power=int(self.power), toughness=int(self.toughness),
                    colours=frozenset(self.colours), keywords=frozenset(self.keywords),
                    tapped=self.tapped, summoning_sick=self.summoning_sick)
