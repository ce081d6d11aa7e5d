"""The saved games of the data folder as the Game screen lists them: when, who, where, which turn,
and whether it can be continued. Pure (no kivy)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.game import list_games
from companion.game.store import delete_game as store_delete_game
from companion.i18n import translate


@dataclass(frozen=True)
class SavedRow:
    path: Path
    text: str
    open_label: str
    openable: bool
    current: bool


def saved_games(folder: Path, current: Path | None, lang: str) -> list[SavedRow]:
    """One row per saved game, most recently played first."""
    rows = []
    for game in list_games(folder):
        is_current = current is not None and Path(game.path) == Path(current)
        when = game.updated.strftime("%d/%m/%Y %H:%M") if lang == "fr" else game.updated.strftime("%Y-%m-%d %H:%M")
        text = translate(lang, "saves.row", when=when, name=Path(game.path).stem)
        label = translate(lang, "saves.playing") if is_current else translate(lang, "saves.continue")
        rows.append(SavedRow(Path(game.path), text, label, True, is_current))
    return rows


def delete_game(path: Path) -> None:
    """Remove a saved game and every file of it (companion.game.store.delete_game: refused, with a
    SaveError, while an app plays it)."""
    store_delete_game(path)
