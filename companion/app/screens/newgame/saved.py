"""The saved games of the data folder as the Game screen lists them: when, who, where, which turn,
and whether it can be continued (`companion.game.list_games`: status and summary). Pure (no kivy)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.game import SavedGame, list_games
from companion.game.store import delete_game as store_delete_game
from companion.i18n import translate


@dataclass(frozen=True)
class SavedRow:
    path: Path
    text: str
    open_label: str
    openable: bool
    current: bool


def _when(moment: datetime, lang: str) -> str:
    return moment.strftime("%d/%m/%Y %H:%M") if lang == "fr" else moment.strftime("%Y-%m-%d %H:%M")


def _state_words(game: SavedGame, lang: str) -> str:
    """What the table should know before opening it (`list_games`' status and `restorable`): damaged —
    and whether restoring takes back what can still be read, how many actions —, read-only, or open in
    another app. (`problem` is the store's English sentence for the log; the table reads these words.)"""
    if game.status == "damaged":
        if game.restorable and game.summary is not None:
            return translate(lang, "saves.damaged_restorable", actions=game.summary.actions)
        return translate(lang, "saves.damaged")
    if game.status in ("read-only", "locked"):
        return translate(lang, f"saves.{game.status.replace('-', '_')}")
    return ""


def _variant(summary, lang: str) -> str:
    """"Horde · Planechase · event deck": the variant and what was played with it, so the table
    finds its Planechase evening or its game with events among the others."""
    words = [translate(lang, f"variants.{summary.format}")]
    words += [translate(lang, "newgame.planechase")] if summary.planechase else []
    words += [translate(lang, "newgame.events")] if summary.events else []
    return " · ".join(words)


def _open_label(game: SavedGame, current: bool, lang: str) -> str:
    """The row's button: playing now, look (read-only), restore (a damaged game whose history can be
    read back: opening it restores it and says what was recovered), else continue."""
    key = ("playing" if current else "look" if game.status == "read-only" else
           "restore" if game.status == "damaged" else "continue")
    return translate(lang, f"saves.{key}")


def row(game: SavedGame, current: Path | None, lang: str) -> SavedRow:
    """One line of the list: '[b]when[/b] · Anna, Bruno · duel-20x12 (20×12) · turn 5', then its state."""
    summary = game.summary
    is_current = game.open_here or (current is not None and Path(game.path) == Path(current))
    when = _when(summary.updated or game.updated if summary else game.updated, lang)
    if summary is None:
        text = translate(lang, "saves.row_unreadable", when=when)
    else:
        turn = (translate(lang, "saves.over") if summary.over else
                translate(lang, "saves.turn", turn=summary.turn) if summary.turn else translate(lang, "saves.pregame"))
        width, height = summary.board_size
        text = translate(lang, "saves.row", when=when, players=", ".join(name for name, _ in summary.players),
                         board=summary.board, size=f"{width}×{height}", turn=turn, variant=_variant(summary, lang))
    state = _state_words(game, lang)
    openable = not is_current and (game.status in ("ok", "read-only") or game.status == "damaged" and game.restorable)
    return SavedRow(Path(game.path), f"{text}\n[color=ffb040]{state}[/color]" if state else text,
                    _open_label(game, is_current, lang), openable, is_current)


def saved_games(folder: Path, current: Path | None, lang: str) -> list[SavedRow]:
    """One row per saved game, most recently played first (replays each game: call off the UI thread)."""
    return [row(game, current, lang) for game in list_games(folder)]


def delete_game(path: Path) -> None:
    """Remove a saved game and every file of it (companion.game.store.delete_game: refused, with a
    SaveError, while an app plays it)."""
    store_delete_game(path)
