"""Pure rules of Magic Tactical: zones, movement, colour bonuses, combat geometry."""
from companion.rules.pieces import KEYWORDS, KINDS, LANDWALKS, Piece
