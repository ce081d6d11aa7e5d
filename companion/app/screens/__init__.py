"""Screen registry: name -> (module, class). Each screen's module loads the `.kv` beside it.

The order is the order of the navigation bar.
"""
from __future__ import annotations

import importlib

SCREENS: dict[str, tuple[str, str]] = {
    "newgame": ("companion.app.screens.newgame.screen", "NewGameScreen"),
    "board": ("companion.app.screens.board.screen", "BoardScreen"),
    "pieces": ("companion.app.screens.pieces.screen", "PiecesScreen"),
    "dice": ("companion.app.screens.dice.screen", "DiceScreen"),
    "table": ("companion.app.screens.table.screen", "TableScreen"),
    "camera": ("companion.app.screens.camera.screen", "CameraScreen"),
    "history": ("companion.app.screens.history.screen", "HistoryScreen"),
    "settings": ("companion.app.screens.settings.screen", "SettingsScreen"),
}


def screen_class(name: str):
    """The Screen subclass registered under `name` (imports its module, which loads its kv)."""
    if name not in SCREENS:
        raise KeyError(f"unknown screen {name!r}; screens: {', '.join(SCREENS)}")
    module_name, class_name = SCREENS[name]
    return getattr(importlib.import_module(module_name), class_name)
