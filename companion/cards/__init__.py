"""Card look-up, offline: a card's French or English name → its mana value, colours, P/T, type and
keywords, as a piece for the grid. Pure Python (standard library + companion.i18n/rules).

    from companion import cards

    db = cards.open_database(app.user_data_dir)        # None: nothing imported yet
    if db is None:
        hint = cards.no_data_line(app.lang)              # the one line that says how to import
    for s in db.suggest("serr"):                         # as the table types; typos and accents too
        print(s.title("fr"), "/", s.subtitle("fr"))     # Ange de Serra / Serra Angel
    draft = cards.card_to_piece(db.card(s.card_id), "fr")   # fills the Pieces form
    token = cards.parse_token("Soldier token 1/1 W", "en")  # no card needed
    cards.import_file(path, app.user_data_dir, progress=callback)   # the settings button, in a thread

The contract for the app is in docs/cards.md ("For the app").
"""
from __future__ import annotations

from companion.cards.database import DATABASE_NAME, CardDatabase, database_path, open_database
from companion.cards.importer import import_file
from companion.cards.model import (Card, CardDataError, ImportCancelled, ImportReport, PieceDraft, PlaneText,
                                   Progress, Suggestion)
from companion.cards.pieces import card_to_piece, keyword_key, kind_of, parse_token
from companion.cards.text import fold
from companion.i18n import translate

__all__ = ["DATABASE_NAME", "Card", "CardDataError", "CardDatabase", "ImportCancelled", "ImportReport",
           "PieceDraft", "PlaneText", "Progress", "Suggestion", "card_to_piece", "database_path",
           "error_text", "fold", "import_file", "keyword_key", "kind_of", "no_data_line", "open_database",
           "parse_token", "progress_text"]


def no_data_line(lang: str) -> str:
    """The one line shown where cards would be searched, when nothing was imported yet."""
    return translate(lang, "cards.no_data")


def error_text(error: CardDataError, lang: str) -> str:
    """A card error worded for the table, in `lang`: its `detail_key` (what is wrong in the file)
    is worded too, never the English detail of `str(error)`."""
    fields = dict(error.fields)
    if "detail_key" in fields:
        fields["detail"] = translate(lang, str(fields.pop("detail_key")), **fields)
    return translate(lang, error.key, **fields)


def progress_text(progress: Progress, lang: str) -> str:
    """What an import or a download is doing, worded for the table, in `lang`."""
    return translate(lang, progress.step, **progress.fields)
