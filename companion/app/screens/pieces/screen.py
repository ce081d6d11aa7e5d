"""Pieces screen: what each token number stands for, filled in fast at the table.

Steppers instead of typing for numbers, toggles for colours and for the keywords that change
geometry (companion.rules.KEYWORDS, in the shown language's alphabetical order), one Save that
sends the whole piece to `companion.game` as one undoable action. A new token gets its owner and
kind first (a pop-up), then is placed on the board. Above the token list, the card search
(`widgets.card_search.PieceCardSearch`): a card chosen there becomes a new token, or, after *Edit
this token* and a question, fills the selected piece; the hand controls stay for what the table changes.
"""
from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from boards import COLOURS
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.pieces import presenter
from companion.app.widgets import card_search, controls  # noqa: F401  (kv classes)
from companion.app.widgets.card_search_presenter import piece_changes
from companion.app.widgets.controls import BigToggle
from companion.app.device import PHONE
from companion.app.words import player_rgba, token_text
from companion.game import PAWN_NUMBER
from companion.rules import Piece

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
    one_column = BooleanProperty(False)   # upright or on a phone: one column that scrolls (issue #27)

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.load(), selected=lambda *_: self.load(),
                 lang=lambda *_: self._build_keywords(), device=lambda *_: self._follow_device(),
                 portrait=lambda *_: self._follow_device())
        self._follow_device()
        self._tokens: list = []
        self._build_keywords()
        self.load()

    def _build_keywords(self) -> None:
        """One toggle per keyword, sorted as the shown language spells them."""
        app = running_app()
        grid = self.ids.keywords
        grid.clear_widgets()
        for keyword, label in presenter.keyword_order(app.lang):
            toggle = Factory.PiecesWrapToggle(text=label, font_size="16sp",
                                              state="down" if keyword in self.keywords else "normal")
            toggle.keyword = keyword
            toggle.bind(on_release=lambda t, k=keyword: self.toggle_keyword(k, t.state == "down"))
            grid.add_widget(toggle)

    def _follow_device(self) -> None:
        app = running_app()
        self.one_column = app.portrait or app.device == PHONE

    def on_pre_enter(self, *_):
        self.load()

    def layout_cases(self) -> dict:
        """The pop-ups of the Pieces screen, for the device matrix: the new token's (owners and kinds,
        then with a card's name), the card search's suggestions, the card file chooser, and the form
        of a selected token."""
        return {"selected": self._select_for_matrix, "new_token": lambda: self.new_token(),
                "new_token_card": self._new_token_for_card, "suggestions": self._suggest_for_matrix,
                "file_chooser": self._file_chooser_for_matrix, "ask_power": self._ask_for_matrix,
                "edit_question": self._edit_question_for_matrix}

    def _select_for_matrix(self) -> None:
        app = running_app()
        creatures = [p.token for p in app.game.state.pieces.values() if p.kind != "player"]
        app.selected = creatures[0] if creatures else next(iter(app.game.state.pieces), None)

    @staticmethod
    def _draft_for_matrix(**fields):
        """A long-named card, as a table's own cards have, for the pop-ups of the device matrix."""
        from companion.cards import PieceDraft

        return PieceDraft(**{"name": "Marie-Thérèse, Archange de la Table", "kind": "creature", "mana_value": 5,
                             "colours": frozenset("W"), "keywords": frozenset({"flying"}), "power": 4,
                             "toughness": 4, **fields})

    def _new_token_for_card(self) -> None:
        self.new_token(self._draft_for_matrix())

    def _ask_for_matrix(self) -> None:
        """The keypad asking a printed "*" (MT 3.04.d)."""
        draft = self._draft_for_matrix(power=None, printed_power="*", variable=("power",))
        self.ids.card_search._ask(draft, ["power"], {})

    def _edit_question_for_matrix(self) -> None:
        """"Edit this token?" once a card is chosen after *Edit this token*."""
        self._select_for_matrix()
        search = self.ids.card_search
        search.editing = True
        search._apply(self._draft_for_matrix(), {})

    def _suggest_for_matrix(self) -> None:
        field = self.ids.card_search.ids.field
        field.text = ""
        field.text = "an"
        field._suggest()

    def _file_chooser_for_matrix(self) -> None:
        from companion.app.widgets.card_search import CardFileChooser
        from companion.app.widgets.card_files import start_folder

        self.ids.card_search.ids.field.text = ""   # the suggestions case typed there
        CardFileChooser(folder=str(start_folder(""))).open()

    def load(self) -> None:
        """Fill the form from the game's piece for the selected token."""
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        listed = presenter.token_list(state, app.lang)
        self._tokens = [token for token, _ in listed]
        self.token_choices = [label for _, label in listed]
        piece = state.pieces.get(tuple(app.selected)) if app.selected is not None else None
        self.ids.form.disabled = piece is None
        if piece is None:
            self.token_text = app.t("pieces.none")
            return
        self.token_text = token_text(state, piece.token, app.lang)
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

    def autopilot_report(self) -> dict:
        """The card search and the form as shown (for the tests)."""
        return {"search": self.ids.card_search.report(),
                "form": {"name": self.ids.name.text, "mana_value": self.mana_value, "power": self.power,
                         "toughness": self.toughness, "colours": list(self.colours), "keywords": list(self.keywords)}}

    def choose(self, index: int) -> None:
        running_app().selected = self._tokens[index]

    def new_token(self, card=None, answers=None) -> None:
        """Ask whose token it is and what it stands for, then add it off the grid, to place on the board.
        `card`: the PieceDraft of a card chosen in the search with no token selected (its kind first)."""
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        default = app.selected[0] if app.selected is not None and tuple(app.selected) in state.pieces else \
            (state.turn.active[0] if state.turn.active else state.alive[0].id)
        popup = NewTokenPopup(owners=[(p.id, p.name, player_rgba(p.id)) for p in state.alive], owner=default,
                              kind=card.kind if card is not None and card.kind else "creature",
                              card_name=card.name if card is not None else "")
        popup.on_add = lambda owner, kind: self.add_token(
            owner, kind, piece_changes(card, kind, answers or {}) if card is not None else {})
        popup.open()

    def add_token(self, owner: int, kind: str, fields: dict | None = None) -> None:
        """A creature or planeswalker: a new token off the grid, to place on the board (`fields`: what a
        card chosen in the search says of it). A pawn: each player has one (token 1, MT 2.05): it is
        chosen, to place where it has no square yet."""
        app = running_app()
        state = app.game.state
        if kind == "player":
            pawn = state.pawn(owner)
            if pawn is None and app.play(presenter.add_piece, Piece(owner, PAWN_NUMBER, kind="player")) is None:
                return
            app.selected = (owner, PAWN_NUMBER)
            app.show("board")
            return
        token = (owner, presenter.next_number(state, owner))
        fields = {key: value for key, value in (fields or {}).items() if key != "kind"}
        if app.play(presenter.add_piece, Piece(*token, kind=kind, **fields)) is not None:
            app.selected = token
            app.show("board")

    def remove_token(self) -> None:
        app = running_app()
        if app.selected is not None and app.play(presenter.remove_piece, tuple(app.selected)) is not None:
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
        app = running_app()
        if app.selected is None:
            return
        app.play(presenter.update_piece, tuple(app.selected), name=self.ids.name.text.strip(),
                 mana_value=int(self.mana_value), power=int(self.power), toughness=int(self.toughness),
                 colours=frozenset(self.colours), keywords=frozenset(self.keywords),
                 tapped=self.tapped, summoning_sick=self.summoning_sick)


class OwnerToggle(BigToggle):
    """A player to own the new token: the name readable in white, `swatch` the player's colour."""

    swatch = ListProperty([1, 1, 1, 1])


class NewTokenPopup(ModalView):
    """A new token: its owner (one big button per player still in) and its kind; `card_name`: the
    card chosen in the search it stands for, named in the title."""

    owners = ListProperty([])       # (player id, name, rgba)
    owner = NumericProperty(0)
    kind = StringProperty("creature")
    card_name = StringProperty("")

    def on_kv_post(self, *_):
        row = self.ids.owners
        row.clear_widgets()
        for player, name, rgba in self.owners:
            button = OwnerToggle(text=name, state="down" if player == self.owner else "normal", swatch=rgba)
            button.bind(on_release=lambda _b, p=player: setattr(self, "owner", p))
            row.add_widget(button)

    def on_add(self, owner: int, kind: str) -> None:
        """Replaced by the caller."""

    def answer(self, agreed: bool) -> None:
        self.dismiss(animation=False)
        if agreed:
            self.on_add(self.owner, self.kind)
