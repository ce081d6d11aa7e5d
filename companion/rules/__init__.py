"""Pure rules of Magic Tactical: zones, movement, colour bonuses, combat geometry.

No kivy, no cv2: everything here is a plain function of a Board and Pieces.
The three functions of architecture.md (action_zone, spell_zone, reachable) follow
the digest's defaults; the piece-level functions take a HouseRules.
"""
from boards.model import Token  # a token's identity, defined beside XY (vision reads tokens too); re-exported
from companion.rules.bonuses import BONUS_OF_COLOUR, ColourBonus, colour_bonus, counted_colours, landwalks_in_force
from companion.rules.combat import (Sides, attack_blocker, attack_squares, blockers, defending_controllers, may_attack, opponents,
                                    provoke_squares, side_of, trample_targets, why_cannot_block)
from companion.rules.entry import EntrySquares, creature_spell_entry, entry_squares, return_entry, token_entry
from companion.rules.geometry import (METRICS, action_radius, action_zone, adjacent, distance, nearest,
                                      spell_radius, spell_zone, whole_grid, zone_around)
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules, HouseRulesError
from companion.rules.judge import MoveVerdict, judge_move
from companion.rules.movement import path_length, reachable
from companion.rules.moves import (crosses_obstacles, end_doubling_colours, free_squares, has_haste, legal_moves,
                                   move_to_target_squares, movement_allowance, movement_blocker, movement_dice,
                                   roll_movement, spell_zone_of, why_cannot_move, zone_of)
from companion.rules.overlay import PieceOverlay, overlay, overlays
from companion.rules.pieces import KEYWORDS, KINDS, LANDWALKS, Piece, as_token
from companion.rules.wording import Message, word

__all__ = [
    "Piece", "Token", "as_token", "KEYWORDS", "KINDS", "LANDWALKS", "METRICS", "BONUS_OF_COLOUR",
    # one verdict on a move, shared by the engine, the camera and the app; what is said, as i18n keys
    "judge_move", "MoveVerdict", "Message", "word",
    # architecture.md's fixed interface
    "action_zone", "spell_zone", "reachable",
    # geometry
    "zone_around", "action_radius", "spell_radius", "whole_grid", "adjacent", "distance", "nearest",
    # house rules
    "HouseRules", "HouseRulesError", "DEFAULT_HOUSE_RULES",
    # pieces: zones, movement
    "zone_of", "spell_zone_of", "movement_blocker", "why_cannot_move", "movement_dice", "roll_movement",
    "movement_allowance", "legal_moves", "move_to_target_squares", "free_squares", "crosses_obstacles", "has_haste",
    "path_length", "end_doubling_colours",
    # colour bonuses
    "ColourBonus", "colour_bonus", "counted_colours", "landwalks_in_force",
    # combat
    "attack_squares", "attack_blocker", "may_attack", "why_cannot_block", "blockers", "trample_targets", "provoke_squares",
    "Sides", "side_of", "opponents", "defending_controllers",
    # entering the grid
    "EntrySquares", "entry_squares", "creature_spell_entry", "token_entry", "return_entry",
    # app overlays
    "PieceOverlay", "overlay", "overlays",
]
