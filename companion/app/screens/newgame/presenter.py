"""The New game form turned into a `companion.game.GameSetup`, the form's words (boards offered,
the event deck's name), and the event deck builder (cards, copies within MT 7.02.c, the count against
MT 7.02.a). Pure (no kivy)."""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field, replace

from boards import Board, library_boards, load_board
from companion.app.device import PHONE
from companion.game import (RARITY_LIMITS, EventCard, EventDeckList, GameError, GameSetup, PlayerSetup, board_warnings,
                            minimum_deck_size, prebuilt_event_deck)
from companion.i18n import translate
from companion.rules import HouseRules

PLANES_PER_DECK = 10  # planar cards the table did not name are numbered in deck order
BOARD_CHOICES_EXTRA = ("generated", "scanned")
# Issue #27, the form's layout: two columns (seats and board | options) from this width on a tablet,
# each then wide enough for its rows' texts; one scrolling column on a phone, or on a narrower tablet.
TWO_COLUMNS_FROM_DP = 760.0
WIDE_SEATS_FROM_DP = 1100.0   # from this width the options column gets the larger share (today's 1280 dp layout)


@dataclass
class NewGameChoices:
    """What the form collects; seats are the order of `players` (name, token colour 1..6)."""

    players: list[tuple[str, int]]
    board: str                      # a library board name, "generated" or "scanned"
    variant: str = "free_for_all"
    planechase: bool = False
    events: bool = False
    horde_difficulty: str = "beginner"
    house_rules: HouseRules = field(default_factory=HouseRules)
    planes: list[str] = field(default_factory=list)  # per player: plane names typed (comma/line separated)
    event_deck: EventDeckList | None = None          # the deck used when `events` is on
    scanned_board: Board | None = None               # the board read from a photo (board == "scanned")
    doubtful_squares: tuple[tuple[int, int], ...] = ()  # its squares to confirm (MT 2.02.e)
    starting_life: int = 20                          # the table's choice (Two-Headed Giant: the team's)
    starting_player: int | None = None               # a token colour; None = drawn at random


def form_columns(device: str, width_dp: float) -> int:
    """How many columns the New game form has on a `device` class window `width_dp` dp wide (#27):
    one on a phone, held either way (its landscape is too short for two scrolling halves), else two
    when both fit."""
    return 1 if device == PHONE or width_dp < TWO_COLUMNS_FROM_DP else 2


def seats_column_weight(width_dp: float) -> float:
    """The seats column's width against the options column's (1) in two columns: 0.52 on a wide
    window (a seat's line and the options' three choices a row both fit), halves on a narrower one
    (800 dp upright: a seat's name field would get 70 dp of a third)."""
    return 0.52 if width_dp >= WIDE_SEATS_FROM_DP else 1.0


def plane_names(text: str) -> list[str]:
    """A planar deck typed at the table: names separated by commas or lines, blanks dropped."""
    return [name.strip() for name in re.split(r"[,\n;]", text) if name.strip()]


def board_choices() -> list[str]:
    return [*library_boards(), *BOARD_CHOICES_EXTRA]


def board_label(choice: str, lang: str) -> str:
    """A bundled board by its name; a generated or scanned one in words."""
    return translate(lang, f"newgame.{choice}") if choice in BOARD_CHOICES_EXTRA else choice


def board_from_choice(choice: str, players: int) -> Board:
    """A bundled board by name, or a freshly generated fair one of the recommended size (MT 1.02.a)."""
    boards = library_boards()
    if choice in boards:
        return load_board(boards[choice])
    if choice == "generated":
        from boards.generator import generate_board

        width, height = (20, 12) if players <= 2 else (40, 25)
        return generate_board(width, height, max(players, 2), seed=secrets.randbits(32))
    raise GameError("game.error.unknown_board", board=str(choice)[:60], boards=[*boards, "generated"])


def game_setup(choices: NewGameChoices) -> GameSetup:
    """The setup of the game the form describes (planar decks: the names typed per player, numbered
    cards only when left empty; Two-Headed Giant: seats 1–2 are a team, 3–4 the other)."""
    scanned = choices.board == "scanned" and choices.scanned_board is not None
    board = choices.scanned_board if scanned else board_from_choice(choices.board, len(choices.players))
    planes = list(choices.planes) + [""] * (len(choices.players) - len(choices.planes))
    players = [PlayerSetup(name, colour, team=(seat // 2 + 1) if choices.variant == "two_headed_giant" else None,
                           planar_deck=(plane_names(planes[seat])
                                        or [f"{name} {n}" for n in range(1, PLANES_PER_DECK + 1)])
                           if choices.planechase else [])
               for seat, (name, colour) in enumerate(choices.players)]
    life = {"team_life": choices.starting_life} if choices.variant == "two_headed_giant" else \
        {"starting_life": choices.starting_life}
    return GameSetup(players=players, board=board, format=choices.variant, planechase=choices.planechase,
                     events=choices.event_deck if choices.events else None,
                     horde_difficulty=choices.horde_difficulty, house_rules=choices.house_rules,
                     starting_player=choices.starting_player,
                     doubtful_squares=tuple(choices.doubtful_squares) if scanned else (), **life)


def setup_warnings(choice: str, scanned: Board | None, names: list[str], lang: str) -> str:
    """What the table should know about the chosen board for these players before starting (from the
    engine: a board under 20×12, MT 2.01; fewer start squares than players, MT 2.04.a — the table
    then places the extra pawns). A generated board is made for the players: nothing to say."""
    if choice == "generated" or (choice == "scanned" and scanned is None) or len(names) < 1:
        return ""
    board = scanned if choice == "scanned" else board_from_choice(choice, len(names))
    return "\n".join(message.text(lang) for message in board_warnings(board, names))


def deck_name(deck: EventDeckList, lang: str) -> str:
    """The prebuilt deck (MT 9.03) is named in the UI language; a loaded deck by its file's name."""
    return translate(lang, "newgame.prebuilt_deck") if deck.name == prebuilt_event_deck().name else deck.name


def deck_shortfall(cards: int, players: int, lang: str) -> str:
    """MT 7.02.a said with what is missing ("… 11 cards missing"); empty when the deck is big enough."""
    needed = minimum_deck_size(players)
    return translate(lang, "newgame.deck_too_small", count=cards, players=players, needed=needed,
                     missing=needed - cards) if cards < needed else ""


# -- the event deck builder ------------------------------------------------------------------------
@dataclass(frozen=True)
class DeckDraft:
    """A deck being built: the cards offered (the bundled list's, then the deck's own others, then the
    table's own added here) and the copies of each, always within MT 7.02.c."""

    name: str
    cards: tuple[EventCard, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, deck: EventDeckList, name: str) -> DeckDraft:
        """Start from a deck (the bundled one, a saved one, a loaded file): its cards and copies, and
        every bundled card not in it at 0 copies, so that it can be extended."""
        copies: dict[str, int] = {}
        offered: dict[str, EventCard] = {}
        for card in deck.cards:
            key = card.name.casefold()
            offered.setdefault(key, card)
            copies[key] = copies.get(key, 0) + 1
        for card in prebuilt_event_deck().cards:
            offered.setdefault(card.name.casefold(), card)
        return cls(name, tuple(offered.values()), tuple(copies.get(key, 0) for key in offered))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def changed(self, index: int, delta: int) -> DeckDraft:
        """One card's copies moved by `delta`, kept between 0 and its rarity's limit (MT 7.02.c)."""
        count = min(max(self.counts[index] + delta, 0), copy_limit(self.cards[index]))
        return replace(self, counts=self.counts[:index] + (count,) + self.counts[index + 1:])

    def with_card(self, name: str, rarity: str) -> DeckDraft:
        """One more card of the table's own (a printed event the bundled list does not have), one copy;
        refused (GameError) without a name, or with a name already offered."""
        name = name.strip()
        if not name:
            raise GameError("decks.name_missing")
        if any(card.name.casefold() == name.casefold() for card in self.cards):
            raise GameError("decks.name_taken", name=name[:60])
        return replace(self, cards=self.cards + (EventCard(name[:200], rarity),), counts=self.counts + (1,))

    def deck(self) -> EventDeckList:
        return EventDeckList(self.name.strip() or "Events",
                             tuple(card for card, count in zip(self.cards, self.counts) for _ in range(count)))


def copy_limit(card: EventCard) -> int:
    """MT 7.02.c: mythic 1, uncommon 2, common 4 copies."""
    return RARITY_LIMITS[card.rarity]


@dataclass(frozen=True)
class DeckRow:
    """One card of the builder as the screen shows it: its words, copies, limit and which of −/+ work."""

    text: str
    count: int
    limit: int
    can_remove: bool
    can_add: bool


def deck_rows(draft: DeckDraft, lang: str) -> list[DeckRow]:
    return [DeckRow(translate(lang, "decks.card", name=card.name, rarity=translate(lang, f"game.rarity.{card.rarity}"),
                              limit=copy_limit(card)),
                    count, copy_limit(card), count > 0, count < copy_limit(card))
            for card, count in zip(draft.cards, draft.counts)]


def deck_tally(draft: DeckDraft, players: int, lang: str) -> tuple[str, bool]:
    """The live count against MT 7.02.a for the players of the form, and whether it is enough."""
    needed, have = minimum_deck_size(players), draft.total
    key = "decks.tally_ok" if have >= needed else "decks.tally_short"
    return translate(lang, key, count=have, players=players, needed=needed, missing=needed - have), have >= needed
