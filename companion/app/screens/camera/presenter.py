"""What the Camera screen and the Board screen's "seen by the camera" layer show: pure functions
from the camera's latest view and the game to texts, lists and squares (no Kivy, no thread); and
what the Camera screen may do to the game.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from boards import XY, square_label
from calibration.problems import say
from companion.app.demo import DEMO_SOURCE
from companion.app.words import printed, token_text
from companion.camera import CameraView, event_text, too_small_advice
from companion.app.screens.camera.live import CANNOT_OPEN, ENDED, LOST, OPENING, LiveView, Scene
from companion.game import Game
from companion.rules import Token
from vision.watch import HIDDEN, MOVING, SEARCHING, WatchFrame

Translate = Callable[..., str]     # translate(key, **fields) in the screen's language
ARROW_FONT = "DejaVuSans"          # Kivy's bundled font with the arrow (Roboto has none)

# What the Camera screen may do to the game, through `app.play` (which says a refusal): a `Game`
# method, so a checker and an editor follow the call. The moves seen are recorded by
# `companion.camera.record_seen`, through `app.play` too.
set_square = Game.set_square          # a doubtful square as the table confirms it (MT 2.02.e)


def markup(lines: list[str]) -> str:
    """Lines for a Kivy label with markup: '[', ']' and '&' escaped, the arrow in a font that has it."""
    text = "\n".join(lines).replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
    return text.replace("→", f"[font={ARROW_FONT}]→[/font]")


def status_line(view: LiveView | None, watch: WatchFrame | None, t: Translate, lang: str) -> str:
    """The status line: opening, cannot open, lost (retrying), end of a file, searching for the
    board, markers hidden, board moving, or live with its figures — with the too-small advice
    (from `watch`, the newest frame watched)."""
    if view is None or view.state == OPENING:
        return t("camera.status.opening", source=source_label(view.source, t) if view else "")
    if view.state == CANNOT_OPEN:
        return t("camera.status.cannot_open", error=say(view.error.problem, t))
    source = source_label(view.source, t)
    if view.state == LOST:
        return t("camera.status.lost", source=source)
    if view.state == ENDED:
        line = t("camera.status.ended", source=source, tokens=len(watch.positions) if watch else 0)
        return _with_advice(line, watch, lang)
    watch = view.watch
    if watch.registration == SEARCHING:
        return t("camera.status.searching", source=source, error=say(watch.error, t))
    if watch.registration == HIDDEN:
        return t("camera.status.hidden")
    if watch.registration == MOVING:
        return t("camera.status.moving")
    line = t("camera.status.live" if view.fps else "camera.status.starting", source=source,
             tokens=len(watch.positions), fps=round(view.fps), ms=round(view.work_ms))
    return _with_advice(line, watch, lang)


CAMERA_NUMBER = re.compile(r"camera (\d+)")     # a desktop or tablet camera by its number


def source_label(name: str, t: Translate) -> str:
    """A source as the status line names it: the demo's camera and a numbered camera in the shown
    language, a file or a folder by its own name (its full path is in the source field), a stream
    URL as it is."""
    if name == DEMO_SOURCE:
        return t("camera.source.demo")
    if number := CAMERA_NUMBER.fullmatch(name):
        return t("camera.source.device", number=number.group(1))
    if "://" in name or "/" not in name:
        return name
    return PurePath(name).name or name


def _with_advice(line: str, watch: WatchFrame | None, lang: str) -> str:
    advice = too_small_advice(watch.too_small, lang) if watch is not None else ""
    return f"{line} {advice[0].upper()}{advice[1:]}." if advice else line


def move_lines(view: CameraView, t: Translate, lang: str, name: Callable[[Token, str], str]) -> list[str]:
    """One line per move seen and not recorded, with its verdict; then the tokens the table moved by
    hand that the camera still sees where they were (nothing to record); then tokens the game does
    not know."""
    lines = [move.text(lang, name) for move in view.moves]
    lines += [catching.text(lang, name) for catching in view.catching_up]
    lines += [t("camera.unknown_token", token=name(token, lang), dst=square_label(at))
              for token, at in view.unknown]
    return lines


def photo_tokens(state) -> list[tuple[int, int, int, int]]:
    """The tokens a camera can see, (player, number, x, y): those on the grid in a printed colour."""
    return [(p.player, p.number, *p.at) for p in state.pieces.values() if p.at is not None and printed(p.player)]


def recorded(state) -> dict[Token, XY]:
    """Where the game has each token on the grid."""
    return {p.token: p.at for p in state.pieces.values() if p.at is not None}


def namer(state) -> Callable[[Token, str], str]:
    """Words a token as the app does: 'jaune 2 · Serra Angel'."""
    return lambda token, lang: token_text(state, token, lang)


def doubtful_squares(game, seen=()) -> list[XY]:
    """Squares still to confirm: the camera's doubts and a scanned board's (kept in the game's log,
    `state.doubtful_squares`), minus those the table confirmed (`set_square` actions in effect)."""
    confirmed = {tuple(entry.action.data["at"]) for entry in game.history_entries()
                 if entry.action.kind == "set_square"}
    return sorted((set(map(tuple, seen)) | set(game.state.doubtful_squares)) - confirmed)


def event_lines(events, recorded: dict[Token, XY], lang: str, name: Callable[[Token, str], str],
                count: int) -> list[str]:
    """The camera's last `count` events worth telling, newest first: a token first seen where the
    game has it is no news."""
    told = [e for _, e in events if not (e.kind == "new" and recorded.get(e.token) == e.to)]
    return [event_text(e, lang, name) for e in reversed(told[-count:])]


def scene(layers: dict[str, frozenset[XY]], doubtful: frozenset[XY], recorded: dict[Token, XY]) -> Scene:
    """What the camera image shows: the selected token's layers, the squares to confirm, and the
    game's positions (a token seen elsewhere gets an arrow from its recorded square)."""
    return Scene(layers={**layers, "doubtful": frozenset(doubtful)}, recorded=dict(recorded))


def token_at_pixel(view: LiveView | None, picture_xy: tuple[float, float], recorded: dict[Token, XY]
                   ) -> Token | None:
    """The token under a point of the camera picture (x right, y down): the one the camera sees on
    that square, else the one the game has there; None off the board or on an empty square."""
    if view is None or view.watch is None or not view.watch.found:
        return None
    square = view.watch.square_at(view.frame_pixel(picture_xy))
    if square is None:
        return None
    seen = [token for token, at in view.watch.positions.items() if at == square]
    if seen:
        return min(seen)
    return next((token for token, at in sorted(recorded.items()) if at == square), None)


@dataclass(frozen=True)
class SeenLayer:
    """The Board screen's "seen by the camera, to confirm": where each token is seen, legal or not,
    and from which recorded square (never the game's own positions)."""

    ghosts: tuple[tuple[Token, XY, bool], ...]     # (token, square seen, legal)
    arrows: tuple[tuple[XY, XY], ...]              # (recorded square, square seen)


def seen_layer(view: CameraView | None) -> SeenLayer:
    if view is None:
        return SeenLayer((), ())
    return SeenLayer(tuple((m.token, m.to, m.legal) for m in view.moves),
                     tuple((m.frm, m.to) for m in view.moves if m.frm is not None))
