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


def open_latest(save_dir: Path, notices: list[SaveError] | None = None) -> tuple[Game | None, SaveError | None]:
    """The most recently played game that opens, to continue where it was (a killed app loses nothing).
    A save that cannot be read is reported, never raised: the app still starts. `notices` receives
    what the table must read (newer games that cannot be opened, a repair, a read-only game)."""
    skipped: list = []
    path = latest_game(save_dir, skipped)
    if notices is not None:
        notices += [SaveError(g.problem or "", path=g.path, key="store.skipped") for g in skipped]
    if path is None:
        return None, None
    try:
        game = load_game(path)
    except SaveError as problem:
        log.error("cannot continue %s: %s", path, problem)
        return None, problem
    if notices is not None:
        notices += opening_notices(game)
    return game, None


def opening_notices(game: Game) -> list[SaveError]:
    """What opening this game must tell the table: what a repair kept and lost, or that it is read-only."""
    notices = [game.recovered] if game.recovered is not None else []
    if game.store is not None and game.store.read_only:
        notices.append(SaveError(game.store.read_only, path=game.store.path, key="store.read_only"))
    return notices


def reopened_if_broken(game: Game | None) -> Game | None:
    """After a refused action whose save could not be checked (GameStore.broken), the game as it is on
    disk, so that the screens show what is saved; None when the store is fine."""
    if game is None or game.store is None or not game.store.broken:
        return None
    game.store.close()
    return load_game(game.store.path)


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
