"""What the History screen and the Undo button show: the game's log in the UI language, newest
first, and the action an Undo would take back. Pure (no kivy)."""
from __future__ import annotations

import re

from companion.game import Game
from companion.i18n import translate

_TIME = re.compile(r"^\d\d:\d\d ")
UNDO_LABEL_CHARS = 60  # the Undo button names the action in two short lines


def history_lines(game: Game | None, lang: str) -> list[str]:
    """The log, newest first."""
    return list(reversed(game.history(lang))) if game is not None else []


def last_action(game: Game | None, lang: str) -> str:
    """The action Undo takes back, as the history words it (without its time); "" when none."""
    if game is None or not game.can_undo:
        return ""
    return _TIME.sub("", game.history(lang)[-1])


def undo_label(game: Game | None, lang: str) -> str:
    """'Undo' and, on a second line, what it will undo (shortened to fit the button)."""
    what = last_action(game, lang)
    if not what:
        return translate(lang, "nav.undo")
    short = what if len(what) <= UNDO_LABEL_CHARS else what[:UNDO_LABEL_CHARS - 1].rstrip() + "…"
    return translate(lang, "nav.undo_what", what=short)
