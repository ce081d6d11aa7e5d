"""`tactical watch SOURCE --board FILE [--game DIR] [--config FILE.yaml]`: follow the tokens and print what happens, live.

SOURCE is anything `calibration.sources.open_source` opens: a camera number (0, 1 ...), a stream
URL (rtsp://, http:// ...), a video file, a folder of images (read in name order) or one image.
Frames go through `vision.watch.CameraWatcher`, the same pipeline as the app's Camera screen, and
events are printed as they happen: "[image 12] orange 7 : C3 → F3". With `--game DIR` (the app's
save folder, or one save file) each move is checked against the game's real rolls and what the
piece already moved this turn: "[image 12] orange 7 : C3 → F3, 5 cases, jet 4 : trop loin …".
The save is only read (never written), and read again when the app records something. The
watcher's settings are the app's camera's (`companion.camera.camera_settings`: vision.yaml in the
app's data folder) unless `--config` names another vision YAML.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from companion.cli.output import say

REGISTER_TRIES = 30     # frames of a file tried before giving up on finding the board
LIVE_WAIT_S = 0.02      # a live source with no frame right now: wait this long before asking again
GAME_CHECK_S = 1.0      # the save is looked at (changed?) this often


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="camera number, stream URL, video file, folder of images or one image")
    parser.add_argument("--board", help="board file (YAML) of the board being watched (default with --game: "
                                        "the game's board)")
    parser.add_argument("--game", metavar="DIR", help="the app's save folder (or a save file): check each move "
                                                      "against the game's rolls; read only")
    parser.add_argument("--max-frames", type=int, default=None, metavar="N", help="stop after N frames")
    parser.add_argument("--lang", choices=("fr", "en"), default="fr", help="language of the events")
    parser.add_argument("--config", type=Path, metavar="FILE.yaml",
                        help="vision settings (VisionConfig YAML, its tracking section for the watcher; default: "
                             "the app's, vision.yaml in its data folder, when there is one)")


class SavedGame:
    """The game of a save, read only and read again when the save changes (the app records moves
    and rolls while the camera watches)."""

    def __init__(self, where: str):
        from companion.game import latest_game

        path = Path(where)
        self.path = latest_game(path) if path.is_dir() else path
        if self.path is None:
            raise ValueError(f"no saved game in {where}")
        self._stamp = None
        self._checked = 0.0
        self.game = None
        self.refresh(force=True)

    def _files_stamp(self) -> tuple:
        return tuple((p.stat().st_mtime_ns, p.stat().st_size) if p.exists() else None
                     for p in (self.path, self.path.with_name(self.path.name + "-wal")))

    def refresh(self, *, force: bool = False) -> bool:
        """Read the save again if it changed; True when it did."""
        from companion.game import load_game

        now = time.monotonic()
        if not force and now - self._checked < GAME_CHECK_S:
            return False
        self._checked = now
        stamp = self._files_stamp()
        if stamp == self._stamp:
            return False
        game = load_game(self.path, read_only=True)    # looked at only: the app may be playing it
        game.store.close()
        self.game = game
        self._stamp = stamp
        return True


def run(args: argparse.Namespace) -> int:
    from boards import load_board
    from boards.io import BoardFileError
    from calibration.config import ConfigError, VisionConfig
    from calibration.sources import SourceError, open_source
    from companion.camera import camera_settings
    from companion.cli.cards_cmd import app_data_dir
    from companion.game import SaveError
    from companion.i18n import translate

    words = lambda key, **fields: translate(args.lang, f"camera.watch.{key}", **fields)  # noqa: E731
    if args.max_frames is not None and args.max_frames < 1:
        say("tactical watch: --max-frames must be at least 1", file=sys.stderr)
        return 2
    if not args.board and not args.game:
        say("tactical watch: give the board (--board FILE) or the game (--game DIR)", file=sys.stderr)
        return 2
    try:
        saved = SavedGame(args.game) if args.game else None
        board = load_board(args.board) if args.board else saved.game.state.board
        config = VisionConfig.load(args.config) if args.config else camera_settings(app_data_dir())
    except (BoardFileError, ConfigError) as exc:
        say(f"tactical watch: {exc}", file=sys.stderr)
        return 2
    except (SaveError, ValueError, OSError) as exc:
        say(f"tactical watch: {words('bad_game', path=args.game, error=exc)}", file=sys.stderr)
        return 2
    try:
        source = open_source(args.source)
    except SourceError as exc:
        say(f"tactical watch: {exc}", file=sys.stderr)
        return 2
    if saved is not None:
        say(words("game", path=saved.path, turn=saved.game.state.turn.number), flush=True)
    try:
        return _watch(source, board, config, saved, args.max_frames, args.lang)
    except SourceError as exc:          # an image of a folder that cannot be read
        say(f"tactical watch: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    finally:
        source.close()


def _watch(source, board, config, saved: SavedGame | None, max_frames: int | None, lang: str) -> int:
    from companion.camera import event_text, seen_moves, too_small_advice
    from companion.i18n import translate
    from vision.watch import REGISTERED, SEARCHING, CameraWatcher

    words = lambda key, **fields: translate(lang, f"camera.watch.{key}", **fields)  # noqa: E731
    watcher = CameraWatcher(board, config)
    found_once, searching, lost = False, 0, False
    index = -1
    while max_frames is None or index + 1 < max_frames:
        frame = source.read()
        if frame is None:
            if source.finished:
                break
            if not lost:
                say(words("lost", source=source.name), flush=True)
                lost = True
            time.sleep(LIVE_WAIT_S)
            continue
        if lost:
            say(words("back", source=source.name), flush=True)
            lost = False
        index += 1
        seen = watcher.update(frame)
        stamp = words("frame", index=index)
        if seen.registration == REGISTERED:
            say(words("moved" if found_once else "found", index=index), flush=True)
            advice = too_small_advice(seen.too_small, lang)
            if advice and not found_once:
                say(advice, flush=True)
            found_once = True
        if seen.registration == SEARCHING and not found_once:
            searching += 1
            if searching == REGISTER_TRIES:
                say(words("not_found", frames=REGISTER_TRIES), file=sys.stderr, flush=True)
                if not source.live:
                    return 1
        view = seen_moves(saved.game, seen.positions) if saved is not None and seen.events else None
        judged = {move.token: move for move in view.moves} if view else {}
        for event in seen.events:
            move = judged.get(event.token) if event.kind == "moved" else None
            say(f"{stamp} {move.text(lang) if move else event_text(event, lang)}", flush=True)
        if saved is not None:
            saved.refresh()
    if not found_once:
        say(words("not_found", frames=min(REGISTER_TRIES, max(searching, 1))), file=sys.stderr)
        return 1
    return 0
