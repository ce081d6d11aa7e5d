"""The app's saved games: where they live, opening the last one, starting and closing one.

Every game is its own journal file in the data folder (`companion.game.store`): starting a new
game never touches the others, so a game in progress stays there to continue. No kivy here.
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from companion.game import Game, GameSetup, SaveError, latest_game, load_game

log = logging.getLogger(__name__)
APP_NAME = "tactical"


def desktop_data_dir(name: str = APP_NAME) -> Path:
    """Where a desktop keeps the games: Kivy's `user_data_dir` place (~/.config/<name> on Linux,
    %APPDATA% on Windows, ~/Library/Application Support on macOS), created with its parents —
    a fresh account may have no ~/.config at all, where Kivy's own single mkdir fails."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    path = base / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_latest(save_dir: Path) -> tuple[Game | None, SaveError | None]:
    """The most recently played game, to continue where it was (a killed app loses nothing).
    A save that cannot be read is reported, never raised: the app still starts."""
    path = latest_game(save_dir)
    if path is None:
        return None, None
    try:
        return load_game(path), None
    except SaveError as problem:
        log.error("cannot continue %s: %s", path, problem)
        return None, problem


def start(setup: GameSetup, save_dir: Path) -> Game:
    """A new game, saved in its own file from its first action."""
    return Game.new(setup, save_dir=save_dir)


def close(game: Game | None) -> None:
    """Release the game's save (its journal is complete after every action: nothing to write)."""
    if game is not None and game.store is not None:
        game.store.close()


def in_progress(game: Game | None) -> bool:
    """A game the table is playing: started and not over. Starting another asks first."""
    return game is not None and not game.state.over
