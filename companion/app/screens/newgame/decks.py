"""The event deck builder of the New game form: start from the bundled deck (MT 9.03), a saved deck or
the deck of the form; set each card's copies with −/+ within MT 7.02.c, add the table's own event
cards, watch the count against MT 7.02.a for the form's players; save the deck under a name in the
app's data folder (listed here next time), and use it for the game.

What the pop-up shows comes from `presenter` (DeckDraft, deck_rows, deck_tally); files are read and
written by `companion.game.events` (the checked reader, an atomic writer)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup

from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.newgame import flow  # noqa: F401  (kv classes)
from companion.app.screens.newgame.presenter import DeckDraft, deck_name, deck_rows, deck_tally
from companion.app.words import refusal
from companion.game import (EventDeckError, EventDeckList, GameError, SavedDeck, prebuilt_event_deck, save_event_deck,
                            saved_event_decks)

load_kv_beside(__file__)

DECKS_FOLDER = "event-decks"  # in the app's data folder


class DeckCardRow(BoxLayout):
    """One card: its name, rarity and limit; −, the copies, +."""

    index = NumericProperty(0)
    text = StringProperty("")
    count = NumericProperty(0)
    can_add = BooleanProperty(True)
    can_remove = BooleanProperty(False)
    popup = ObjectProperty(None)


class DeckBuilderPopup(ModalView):
    """Build, extend, save and pick event decks; `on_use(deck)` gets the deck the table chose."""

    draft = ObjectProperty(None)
    tally = StringProperty("")
    enough = BooleanProperty(False)
    status = StringProperty("")
    choices = ListProperty([])
    choice = StringProperty("")
    rarity = StringProperty("common")
    compact = BooleanProperty(False)   # a phone or a small tablet: the name and own card rows scroll with the cards

    def __init__(self, deck: EventDeckList, players: int, folder: Path, on_use: Callable[[EventDeckList], None],
                 **kwargs):
        self.players, self.folder, self.on_use = players, folder, on_use
        self._saved: dict[str, SavedDeck] = {}
        super().__init__(**kwargs)
        lang = running_app().lang
        self._list_saved()
        self.draft = DeckDraft.of(deck, "" if deck.name == prebuilt_event_deck().name else deck.name)
        self.choice = deck_name(deck, lang)
        self._arrange()

    def on_compact(self, *_) -> None:
        if self.parent is not None:   # open (a dismissed one may be half collected: its kv ids dead)
            self._arrange()

    def _arrange(self) -> None:
        """On a large tablet, the title and the deck's name, and the own card row stay put above and
        under the scrolling cards; on a phone or a 7–8" tablet (#27) they scroll with the cards,
        leaving the cards most of the height, the count and the buttons in view."""
        frame, body = self.ids.frame, self.ids.scroll_body
        head, own, scroll = self.ids.head.__self__, self.ids.own.__self__, self.ids.scroll.__self__
        for part in (head, own):
            if part.parent is not None:
                part.parent.remove_widget(part)
        if self.compact:
            body.add_widget(head, index=len(body.children))
            body.add_widget(own)
        else:
            at = frame.children.index(scroll)
            frame.add_widget(own, index=at)
            frame.add_widget(head, index=len(frame.children))   # at the top

    @staticmethod
    def _problem(text: str) -> str:
        """A refusal in red; what a file or the table typed is never read as markup."""
        return "[color=ff7060]" + escape_markup(text) + "[/color]"

    def _list_saved(self) -> None:
        """The bundled deck, then every deck saved in the data folder (a damaged one too: picking it says why)."""
        app = running_app()
        self._saved = {}
        for saved in saved_event_decks(self.folder):
            label = saved.deck.name if saved.deck else app.t("decks.unreadable", file=saved.path.name)
            self._saved.setdefault(label, saved)
        self.choices = [app.t("newgame.prebuilt_deck"), *self._saved]

    def pick(self, label: str) -> None:
        """Start again from the bundled deck or a saved one; a saved deck that cannot be read is said
        with its file, line, entry and field, and the draft stays as it was."""
        app = running_app()
        if label == app.t("newgame.prebuilt_deck"):
            self.draft, self.status = DeckDraft.of(prebuilt_event_deck(), ""), ""
        elif label in self._saved:
            saved = self._saved[label]
            if saved.deck is None:
                self.status = self._problem(app.t("decks.load_failed", error=str(saved.problem)))
                return
            self.draft, self.status = DeckDraft.of(saved.deck, saved.deck.name), ""
        self.choice = label
        self.ids.name.text = self.draft.name

    def on_draft(self, *_) -> None:
        app = running_app()
        rows = deck_rows(self.draft, app.lang)
        box = self.ids.cards
        shown = list(reversed(box.children))
        for widget in shown[len(rows):]:  # a deck picked with fewer cards than the draft had
            box.remove_widget(widget)
        for index in range(len(shown), len(rows)):
            box.add_widget(DeckCardRow(index=index, popup=self))
        for widget, row in zip(reversed(box.children), rows):
            widget.text, widget.count, widget.can_add, widget.can_remove = row.text, row.count, row.can_add, \
                row.can_remove
        self.tally, self.enough = deck_tally(self.draft, self.players, app.lang)

    def change(self, index: int, delta: int) -> None:
        self.draft = self.draft.changed(index, delta)

    def add_own_card(self) -> None:
        """An event card the table owns that the bundled list does not have (name and rarity)."""
        app = running_app()
        try:
            self.draft = self.draft.with_card(self.ids.own_name.text, self.rarity)
        except GameError as exc:
            self.status = self._problem(refusal(exc, app.lang))
            return
        self.ids.own_name.text, self.status = "", ""

    def _named_draft(self) -> DeckDraft:
        return DeckDraft(self.ids.name.text.strip(), self.draft.cards, self.draft.counts)

    def save(self) -> None:
        """Save under the typed name (a deck of that name is replaced); said, or why not."""
        app = running_app()
        draft = self._named_draft()
        if not draft.name:
            self.status = self._problem(app.t("decks.name_first"))
            return
        try:
            save_event_deck(draft.deck(), self.folder)
        except (EventDeckError, OSError) as exc:  # no card, a link in the folder, a read-only or full disk
            self.status = self._problem(app.t("decks.save_failed", error=str(exc)))
            return
        self.draft = draft
        self._list_saved()
        self.choice = draft.name
        self.status = escape_markup(app.t("decks.saved", name=draft.name, count=draft.total))

    def use(self) -> None:
        app = running_app()
        draft = self._named_draft()
        draft = DeckDraft(draft.name or app.t("decks.unnamed"), draft.cards, draft.counts)
        if draft.total == 0:
            self.status = self._problem(app.t("decks.empty"))
            return
        self.dismiss(animation=False)
        self.on_use(draft.deck())
