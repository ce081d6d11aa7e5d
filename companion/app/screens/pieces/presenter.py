"""What the Pieces screen shows: the tokens in play, the keyword buttons in the shown language's
alphabetical order, the number a new token gets; and what it may do to the game. Pure (no kivy)."""
from __future__ import annotations

import unicodedata

from companion.app.words import token_text
from companion.game import PAWN_NUMBER, Game, GameState
from companion.i18n import translate
from companion.rules import KEYWORDS, Token

# What the Pieces screen may do to the game, through `app.play` (which says a refusal): `Game`
# methods, so a checker and an editor follow every call.
add_piece = Game.add_piece            # off the grid, placed on the Board screen
update_piece = Game.update_piece
remove_piece = Game.remove_piece


def _sort_key(text: str) -> str:
    """Alphabetical as people read it: accents and case ignored ('équitation' among the e's)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def keyword_order(lang: str) -> list[tuple[str, str]]:
    """(keyword, label) for every keyword with a grid erratum, sorted by its label in `lang`."""
    labels = [(keyword, translate(lang, f"keywords.{keyword}")) for keyword in KEYWORDS]
    return sorted(labels, key=lambda item: _sort_key(item[1]))


def token_list(state: GameState, lang: str) -> list[tuple[Token, str]]:
    """Every token in play with its label, by player then number."""
    return [(token, token_text(state, token, lang)) for token in sorted(state.pieces)]


def next_number(state: GameState, player: int) -> int:
    """The smallest token number of `player` for a permanent not in play: 1 is the player's pawn
    (MT 2.05), and a number left by a piece is free again (MT 5.02.d)."""
    used = {number for owner, number in state.pieces if owner == player} | {PAWN_NUMBER}
    return next(n for n in range(PAWN_NUMBER + 1, len(used) + 2) if n not in used)
