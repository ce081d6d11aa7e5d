"""A damaged card database in the real app (offscreen, driven like a table; issue #29): a meta
value that is not JSON made `tactical app --demo --screen pieces` exit 1, and a search meeting
damage raised sqlite3's error. Now the Pieces screen says "the card data is damaged: import it
again" in the table's language, the app keeps running, a token typed in words still becomes a
piece, and the game is saved."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion import cards
from companion.game import load_game
from companion.i18n import translate
from test_app_drive import run_autopilot

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"
FIELD = "pieces.card_search.field"


def damaged_cards(folder: Path, edit: str) -> Path:
    cards.import_file(ATOMIC, folder)
    with sqlite3.connect(cards.database_path(folder)) as connection:
        connection.execute(edit)
    connection.close()
    return folder


@pytest.mark.parametrize("lang, edit, words", [
    ("fr", "UPDATE meta SET value = 'pas du json' WHERE key = 'gram_ids'",
     "les données de cartes sont abîmées : importez-les de nouveau"),
    ("en", "UPDATE faces SET name = X'00' WHERE name = 'Serra Angel'", "the card data is damaged: import it again"),
])
def test_the_pieces_screen_says_the_damage_and_the_table_goes_on(tmp_path, lang, edit, words):
    """The first is found when the database is opened; the second only by the search that reads the
    damaged row (SQLite's own check sees nothing wrong with a value of another type)."""
    folder = damaged_cards(tmp_path / "cards", edit)
    steps = [
        {"show": "pieces"}, {"type": [FIELD, "serra"]}, {"report": "searched"},
        {"type": [FIELD, "Soldat 1/1 blanc"]}, {"tap_text": translate(lang, "cards.token_name", name="Soldat")},
        {"tap_text": translate(lang, "pieces.add")}, {"report": "token"},   # a new token (#27), for its owner
    ]
    report = run_autopilot(tmp_path, steps, lang=lang, screen="pieces", options={"cards_dir": str(folder)})
    searched = report["searched"]["screens"]["pieces"]["search"]
    assert words in searched["hint"] and searched["suggestions"] == []
    assert words in report["token"]["screens"]["pieces"]["search"]["hint"]
    assert report["token"]["screens"]["pieces"]["form"]["power"] == 1
    game = load_game(tmp_path / "save" / report["token"]["game_file"], read_only=True)
    token = translate(lang, "cards.token_name", name="Soldat")
    assert [(p.power, p.toughness, p.colours) for p in game.state.pieces.values() if p.name == token] == \
           [(1, 1, frozenset("W"))]
