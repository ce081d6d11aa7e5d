"""What the History screen and the Undo button show: the game's log in the UI language, newest
first, and the action an Undo would take back. Pure (no kivy)."""
from __future__ import annotations

import re

from companion.game import Game
from companion.i18n import translate

_TIME = re.compile(r"^\d\d:\d\d ")
UNDO_LABEL_CHARS = 32  # the Undo button names the action on one line under "Undo"

# What this screen and the shell's Undo / Redo buttons may do to the game, through `app.play`
# (which says a refusal): `Game` methods, so a checker and an editor follow every call.
undo = Game.undo
redo = Game.redo


def history_lines(game: Game | None, lang: str) -> list[str]:
    """The log, newest first."""
    return list(reversed(game.history(lang))) if game is not None else []


def last_action(game: Game | None, lang: str) -> str:
    """The action Undo takes back, as the history words it (without its time); "" when none."""
    if game is None or not game.can_undo:
        return ""
    return _TIME.sub("", game.history(lang)[-1])


def undo_label(game: Game | None, lang: str, fits=None) -> str:
    """'Undo' and, below, the action it will undo — what the table did, not what followed from it
    ("Cléo : -5 PV (0)", not "; Cléo est à 0 PV …") —, shortened at a word until `fits(line)` (the app
    measures the button's line; without a window: UNDO_LABEL_CHARS characters)."""
    what = last_action(game, lang)
    if not what:
        return translate(lang, "nav.undo")
    fits = fits or (lambda line: len(line) <= UNDO_LABEL_CHARS)
    what = what.split(translate(lang, "game.history.separator"))[0]
    if not fits(what):
        words = what.split(" ")
        while len(words) > 1 and not fits(" ".join(words) + "…"):
            words.pop()
        what = " ".join(words).rstrip(" ,;:") + "…"
    return translate(lang, "nav.undo_what", what=what)
