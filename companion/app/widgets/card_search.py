"""Card look-up in the app: a text field with suggestions under it as the table types, the Pieces
screen's card search (a choice makes a new token; it fills the selected piece only after *Edit this
token* and a question), the face-up plane's text, the settings' card import (a file chooser, a
worker thread, a progress bar).

The words and decisions are in `card_search_presenter` (pure); the card data is the app's
`card_library` (`companion.app.card_library.CardLibrary`), used from the UI thread only.
"""
from __future__ import annotations

import os
from pathlib import Path

from kivy.clock import Clock, mainthread
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.dropdown import DropDown
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.textinput import TextInput

from companion import cards
from companion.app.card_library import ImportJob
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.widgets import card_search_presenter as presenter
from companion.app.widgets import controls  # noqa: F401  (BigButton, Caption … used by the kv)
from companion.app.widgets.card_files import CARD_FILE_SUFFIXES, folder_entries, start_folder
from companion.app.widgets.controls import ConfirmPopup, NumberPad
from companion.app.words import token_text

load_kv_beside(__file__)

SUGGESTIONS_MIN_WIDTH = 640     # dp: a narrow field still shows its suggestions in full


class SuggestionButton(Button):
    """One suggestion: the name in the shown language (`text`) over what the card is (`detail`)."""

    detail = StringProperty("")
    row = ObjectProperty(None)


class SuggestionList(DropDown):
    """The suggestions under a field: opened, refilled and closed as the table types."""


class SuggestionField(TextInput):
    """A text field offering cards (or, with `source: "planes"`, planes and phenomena) as the table
    types. `listing`: the field holds a list typed with commas or lines (a planar deck); the
    suggestions are for its last entry, and a choice completes that entry. Choosing a row
    dispatches `on_choose(row)` (a `card_search_presenter.SuggestionRow`)."""

    source = OptionProperty("cards", options=("cards", "planes"))
    listing = BooleanProperty(False)
    rows = ListProperty([])
    __events__ = ("on_choose",)

    def __init__(self, **kwargs):
        self._list: SuggestionList | None = None
        self._refresh = Clock.create_trigger(self._suggest, 0)   # one search per frame, however fast the typing
        super().__init__(**kwargs)
        self.bind(text=lambda *_: self._refresh())

    def _suggest(self, *_):
        app = running_app()
        library = getattr(app, "card_library", None)
        db = library.db if library is not None else None
        try:
            if self.source == "planes":
                self.rows = presenter.plane_rows(db, presenter.entry_being_typed(self.text), app.lang) \
                    if self.listing else presenter.plane_rows(db, self.text, app.lang)
            else:
                self.rows = presenter.card_rows(db, self.text, app.lang)
        except cards.CardDataError as problem:  # the database was found damaged: its hint says so
            library.damaged(problem)
            app.cards_revision += 1   # the hints now say the cards are damaged
            self.rows = presenter.card_rows(None, self.text, app.lang) if self.source != "planes" else []
        self._show()

    def _show(self) -> None:
        window = self.get_root_window()
        if not self.rows or self.disabled or window is None:
            self.close_suggestions()
            return
        opening = self._list is None
        if opening:  # a fresh list each time: a closing one finishes closing on its own
            self._list = SuggestionList(width=min(max(self.width, dp(SUGGESTIONS_MIN_WIDTH)), window.width))
            self._list.bind(on_dismiss=self._closed)   # (returns None: a true value cancels the dismissal)
        self._list.clear_widgets()
        for row in self.rows:
            button = SuggestionButton(text=row.title, detail=row.detail, row=row)
            button.bind(on_release=lambda b: self.choose(b.row))
            self._list.add_widget(button)
        if opening:
            self._list.open(self)

    def _closed(self, shown: SuggestionList) -> None:
        if self._list is shown:  # closed by a tap elsewhere
            self._list = None

    def close_suggestions(self) -> None:
        shown, self._list = self._list, None
        if shown is not None:
            shown.dismiss()

    def choose(self, row: presenter.SuggestionRow) -> None:
        self.close_suggestions()
        if self.listing:
            self.text = presenter.complete_entry(self.text, row.title)
            self._refresh.cancel()
            self.rows = []
        self.dispatch("on_choose", row)

    def on_choose(self, row) -> None:
        """A row was chosen (bound by the screen hosting the field)."""

    def suggestion_titles(self) -> list[str]:
        return [row.title for row in self.rows]


class PieceCardSearch(BoxLayout):
    """The Pieces screen's card search: a card or a token chosen asks the screen for a new token
    standing for it (`on_new_piece(draft, answers)`), even while a token is selected; only after
    *Edit this token* (`editing`, cleared when the selection changes) does it fill the selected
    piece, after a question, in one undoable action (`card_search_presenter.choice_effect`). A
    printed "*" is asked for first, on the keypad. With no card data, its one line says how to
    import, and tokens typed in words ("Soldier 1/1 W") still work."""

    hint = StringProperty("")
    note = StringProperty("")
    editing = BooleanProperty(False)      # the table chose "Edit this token": the next choice rewrites it
    can_edit = BooleanProperty(False)     # a creature or planeswalker token is selected
    __events__ = ("on_new_piece",)

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(lang=lambda *_: self.refresh(), cards_revision=lambda *_: self.refresh(),
                 selected=lambda *_: self._selection_changed(), revision=lambda *_: self._update_can_edit())
        self.refresh()
        self._update_can_edit()

    def _selected_piece(self):
        app = running_app()
        state = app.game.state if app.game is not None else None
        return state.pieces.get(tuple(app.selected)) if state is not None and app.selected is not None else None

    def _selection_changed(self) -> None:
        self.note, self.editing = "", False
        self._update_can_edit()

    def _update_can_edit(self) -> None:
        piece = self._selected_piece()
        self.can_edit = piece is not None and piece.kind != "player"
        if not self.can_edit:
            self.editing = False

    def refresh(self) -> None:
        app = running_app()
        self.hint = app.card_library.hint(app.lang)

    def choose(self, row: presenter.SuggestionRow) -> None:
        app = running_app()
        self.ids.field.text = ""
        try:
            draft = presenter.draft_of(app.card_library.db, row, app.lang)
        except (ValueError, KeyError, cards.CardDataError):  # the data changed under the suggestion
            self.refresh()
            return
        self._ask(draft, list(draft.asks), {})

    def _ask(self, draft, fields: list[str], answers: dict[str, int]) -> None:
        """MT 3.04.d needs the current power: a printed "*" is asked on the keypad, one field after the
        other (cancel leaves it for the steppers), then the piece is filled."""
        if not fields:
            self._apply(draft, answers)
            return
        app = running_app()
        field = fields[0]
        title, hint = presenter.ask_words(draft, field, app.lang)
        pad = NumberPad(title=title, hint=hint, ok=app.t("table.ok"), cancel=app.t("table.cancel"),
                        erase=app.t("table.erase"))

        def enter(text: str) -> None:
            value = text.replace("−", "-").lstrip("+")
            if value.lstrip("-").isdigit():
                answers[field] = max(0, int(value))

        def closed(*_) -> None:  # returns None: a true value would cancel the dismissal
            # after the pad's own answer (its on_enter runs after the dismissal): the next field, or the piece
            Clock.schedule_once(lambda dt: self._ask(draft, fields[1:], answers), 0)

        pad.on_enter = enter
        pad.bind(on_dismiss=closed)
        pad.open()

    def _apply(self, draft, answers: dict[str, int]) -> None:
        app = running_app()
        piece = self._selected_piece()
        effect = presenter.choice_effect(piece.kind if piece is not None else None, self.editing)
        self.editing = False   # one edit per explicit choice
        if effect == "new":
            self.dispatch("on_new_piece", draft, answers)
            return
        if effect == "pawn":
            self.note = app.t("cards.app.pawn")
            return
        changes = presenter.piece_changes(draft, piece.kind, answers)
        if all(getattr(piece, field) == value for field, value in changes.items()):  # already that card: no action
            self.note = presenter.choice_notes(draft, app.lang, answers)
            return
        popup = ConfirmPopup(title=app.t("cards.app.edit_title"), yes=app.t("cards.app.edit_yes"),
                             no=app.t("table.cancel"), question=app.t(
                                 "cards.app.edit_question", token=token_text(app.game.state, piece.token, app.lang),
                                 name=draft.name))
        popup.on_agree = lambda: self._edit(piece.token, draft, changes, answers)
        popup.open()

    def _edit(self, token, draft, changes: dict, answers: dict[str, int]) -> None:
        app = running_app()
        if app.play(presenter.update_piece, token, **changes) is not None:
            self.note = presenter.choice_notes(draft, app.lang, answers)

    def on_new_piece(self, draft, answers) -> None:
        """No token selected: the screen adds one standing for `draft` (bound in its kv)."""

    def report(self) -> dict:
        field = self.ids.field
        return {"text": field.text, "suggestions": field.suggestion_titles(),
                "details": [row.detail for row in field.rows], "hint": self.hint, "note": self.note}


class PlaneCardText(Label):
    """The face-up plane's text from the card data, in the language the data has (said when it is
    English in the French app); nothing when there is no plane or no card data for it."""

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.refresh(), lang=lambda *_: self.refresh(),
                 cards_revision=lambda *_: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        app = running_app()
        planar = app.game.state.planar if app.game is not None else None
        plane = app.card_library.plane_text(planar.face_up, app.lang) if planar and planar.face_up else None
        self.text = presenter.plane_view(plane, app.lang)


class CardImportPanel(BoxLayout):
    """Settings → Import cards: a card file (typed, or chosen in the folder browser) imported into
    the app's data folder in a worker thread, with a progress bar and what it is doing; a bad file
    is said and the previous cards stay. `busy` while an import runs."""

    busy = BooleanProperty(False)
    summary = StringProperty("")
    status = StringProperty("")
    outcome = StringProperty("")
    failed = BooleanProperty(False)
    fraction = NumericProperty(0.0)

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(lang=lambda *_: self.refresh(), cards_revision=lambda *_: self.refresh())
        self._job: ImportJob | None = None
        self._seen: list[tuple[float, str]] = []     # every progress shown (for the tests)
        self._frames = (0, 0)                        # frames drawn at the start and the end of the import
        self._last = None                            # the last outcome (report or error), reworded on a language switch
        self.refresh()

    def refresh(self) -> None:
        app = running_app()
        library = app.card_library
        self.summary = "\n".join(filter(None, (library.summary(app.lang), app.t(
            "cards.app.folder", path=str(cards.database_path(library.folder))))))
        if self._last is not None:
            self._word(self._last)

    def browse(self) -> None:
        chooser = CardFileChooser(folder=str(start_folder(self.ids.path.text)))
        chooser.on_chosen = lambda path: setattr(self.ids.path, "text", path)
        chooser.open()

    def start(self) -> None:
        app = running_app()
        path = self.ids.path.text.strip()
        if self.busy:
            return
        if not path:
            self.failed, self.outcome = True, app.t("cards.app.no_path")
            return
        self.busy, self.failed, self.outcome, self.fraction, self._last = True, False, "", 0.0, None
        self.status = app.t("cards.app.starting")
        self._seen = []
        self._frames = (Clock.frames_displayed, Clock.frames_displayed)
        self._job = ImportJob(os.path.expanduser(path), app.card_library.folder,
                              on_progress=self._progress, on_done=self._done).start()

    def stop(self) -> None:
        if self._job is not None:
            self._job.cancel()

    @mainthread
    def _progress(self, progress: cards.Progress) -> None:
        app = running_app()
        self.fraction = progress.fraction
        self.status = cards.progress_text(progress, app.lang)
        self._seen.append((round(progress.fraction, 4), self.status))

    @mainthread
    def _done(self, report, error) -> None:
        app = running_app()
        self.busy, self._job = False, None
        self._frames = (self._frames[0], Clock.frames_displayed)
        self._last = report if report is not None else error
        if report is not None:
            app.card_library.reopen()
            app.cards_revision += 1   # every search, hint and plane text reads the new cards
        else:
            self.status, self.fraction = "", 0.0   # the progress row goes; the error says why
        self._word(self._last)
        self.refresh()

    def _word(self, outcome) -> None:
        app = running_app()
        if isinstance(outcome, cards.CardDataError):
            self.failed = True
            self.outcome = cards.error_text(outcome, app.lang) + (
                "" if isinstance(outcome, cards.ImportCancelled) else "\n" + app.t("cards.app.kept"))
        else:
            self.failed = False
            self.outcome = presenter.import_done_text(outcome.cards, outcome.seconds, app.lang)

    def report(self) -> dict:
        return {"busy": self.busy, "summary": self.summary, "status": self.status, "outcome": self.outcome,
                "failed": self.failed, "fraction": self.fraction, "progress_seen": self._seen,
                "frames_during_import": self._frames[1] - self._frames[0]}


class CardFileChooser(ModalView):
    """A folder browser for a card file, with finger-sized rows: folders to open, card files
    (.json, .json.gz, .json.xz, .json.bz2, .zip) to choose; `on_chosen(path)` gets the file."""

    folder = StringProperty("")
    entries = ListProperty([])

    def on_pre_open(self) -> None:
        self.show(self.folder)

    def show(self, folder: str) -> None:
        self.folder = folder
        self.entries = [{"text": entry.label, "path": entry.path, "is_dir": entry.is_dir,
                         "chooser": self} for entry in folder_entries(Path(folder), CARD_FILE_SUFFIXES)]

    def up(self) -> None:
        parent = Path(self.folder).parent
        if str(parent) != self.folder:
            self.show(str(parent))

    def pick(self, path: str, is_dir: bool) -> None:
        if is_dir:
            self.show(path)
            return
        self.dismiss(animation=False)
        self.on_chosen(path)

    def on_chosen(self, path: str) -> None:
        """Replaced by the caller."""
