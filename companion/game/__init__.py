"""Game state and trackers: turns and phases, dice, events (MT 7), Planechase, Horde,
undo/redo, history and autosave. Pure Python (no kivy, no cv2).

The app codes against this module only::

    from companion.game import Game, GameSetup, PlayerSetup, latest_game, load_game

    setup = GameSetup(players=[PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], board=board,
                      events=prebuilt_event_deck())
    game = Game.new(setup, save_dir=app.user_data_dir)   # autosaves every action
    game.next_phase()                                     # pregame → turn 1 (first event revealed)
    game.roll_movement((1, 3))                            # Roll(die="D10", results=(7,), total=7, ...)
    game.undo(); game.redo()
    game.history("fr")                                    # ["14:02 Anna a lancé D10 : 7 pour ...", ...]
    game.state                                            # GameState: players, pieces, turn, events, planar, horde

    path = latest_game(app.user_data_dir)                 # offer to continue
    game = load_game(path)                                # game.recovered: what a repair kept and lost
    list_games(app.user_data_dir)                         # every game: status (ok / damaged / read-only /
                                                          # locked), problem, summary (see docs/game.md)

Every change is a `Game` method that records one serialisable `Action` (dice results included);
`game.state` is the fold of the actions up to the undo cursor. Rule errors raise `GameError`
(`.key`, `.fields`, `.rule`, worded by `.text(lang)`), bad event lists `EventDeckError` (file, entry,
field), bad saves `SaveError`. docs/game.md is the whole API the screens use.
"""
from companion.game.dice import MOVEMENT_DICE, PLANAR_FACES, Dice
from companion.game.errors import EventDeckError, GameError, SaveError
from companion.game.events import (RARITY_LIMITS, EventCard, EventDeckList, SavedDeck, load_event_deck,
                                   minimum_deck_size, parse_event_deck, prebuilt_event_deck, save_event_deck,
                                   saved_event_decks)
from companion.game.game import Game
from companion.game.journal import SAVE_VERSION
from companion.game.history import HistoryEntry, describe
from companion.game.actions.horde import bosses_out
from companion.game.actions.life import Elimination, commander_key, eliminations
from companion.game.reducer import Action
from companion.game.setup import board_warnings, seat_starts
from companion.game.state import (DAY_NIGHT, ENTRY_KINDS, FORMATS, HORDE_DIFFICULTIES, MOVEMENT_STEPS, PAWN_NUMBER,
                                  PHASES, PLAYER_COUNTERS, PREGAME, STEP_OF_KIND, Entry, EventState, GameSetup, GameState, HordeCard,
                                  HordeState, HordeWave, Movement, PlanarState, PlanarTrigger, Player, PlayerSetup,
                                  Roll, Turn)
from companion.game.store import GameStore, GameSummary, SavedGame, inspect_game, latest_game, list_games, load_game
from companion.rules.wording import Message

__all__ = [
    "Game", "GameSetup", "PlayerSetup", "HordeWave", "HordeCard", "PlanarTrigger", "Roll", "GameState", "Player", "Turn", "EventState", "PlanarState",
    "HordeState", "Action", "Dice", "GameStore", "SavedGame", "GameSummary", "inspect_game", "latest_game",
    "list_games", "load_game",
    "EventCard", "EventDeckList", "load_event_deck", "parse_event_deck", "prebuilt_event_deck", "minimum_deck_size",
    "RARITY_LIMITS", "SavedDeck", "save_event_deck", "saved_event_decks",
    "HistoryEntry", "describe", "GameError", "EventDeckError", "SaveError", "Message",
    "Entry", "ENTRY_KINDS", "Elimination", "eliminations", "bosses_out", "Movement", "commander_key", "board_warnings", "seat_starts",
    "FORMATS", "PHASES", "MOVEMENT_STEPS", "STEP_OF_KIND", "PAWN_NUMBER", "PREGAME", "HORDE_DIFFICULTIES",
    "MOVEMENT_DICE", "PLANAR_FACES", "PLAYER_COUNTERS", "DAY_NIGHT",
    "SAVE_VERSION",
]
