"""The device matrix of issue #27: every screen and pop-up of the real app, laid out for one device
class at its real pixel size and density, held upright and turned, for 2, 4 and 5 players and the
Horde, in French and in English; each point measured by `companion.app.layout_audit`.

One process per device class, since Kivy reads the density once, at import::

    python -m companion.app.layout_matrix phone REPORT.json [--shots DIR] [--only CASE] [--tables 2,horde]

REPORT.json maps each point ("phone-portrait/5/fr/table") to its problems (empty: clean). `--shots DIR`
writes one screenshot per orientation and case (4 players, French), the pictures of docs/screenshots.

The cases are the screens (registry order) and what each screen's `layout_cases()` opens (its pop-ups,
menus and sheets, each an opener that returns once it is shown), and the shell's own
(`TacticalApp.layout_cases`); each case of a screen starts from the screen's first state (its
`reset_for_layout()`). A screen's scrolling views are also measured scrolled to their end.
The app is driven frame by frame (`EventLoop.idle`), not by its own main loop: each point is a few
frames, and the whole matrix of a class takes a few minutes.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from companion.app.device import DEVICE_POINTS, DevicePoint

SETTLE_FRAMES = 4
# The longest frame the app's clock is shown: a slow device's. The runner's own frames last seconds
# (measuring, drawing 2340 px in software); Kivy's scroll effects integrate their spring and friction
# over a frame's time, and over seconds they diverge (a side panel's view thrown 10^6 dp away, the
# drop-downs opened from it placed there too).
MAX_FRAME_S = 0.1
SCREENSHOT_LONG_SIDE = 1280  # docs screenshots are scaled down to this (a phone at density 3 is 2340 px)

# The tables measured: how many players, and the Horde (its City is a sixth panel beside five players).
# At most five players: five token colours (MT 9.02.a).
TABLES = ("2", "4", "5", "horde")
# Long names, as real tables write them: the layouts must hold them.
PLAYER_NAMES = ("Alexandrine", "Bartholomé", "Jean-Baptiste", "Marie-Thérèse", "Maximilien")
PLANES = ("Naya", "Sokenzan", "Raven's Run", "The Great Forest", "Turri Island", "Agyrem", "Tazeem",
          "Goldmeadow", "Velis Vel", "The Dark Barony")


def table_setup(table: str):
    """The game set up for the table `table` (a TABLES entry): Planechase and the events with players
    only, the Horde with the City."""
    from boards import library_boards, load_board
    from companion.game import GameSetup, PlayerSetup
    from companion.game.events import minimum_deck_size

    count = 4 if table == "horde" else int(table)
    board = load_board(library_boards()["duel-20x12" if count == 2 else "quatuor-40x25"])
    if table == "horde":
        players = [PlayerSetup(name, colour) for colour, name in enumerate(PLAYER_NAMES[:count], start=1)]
        return GameSetup(players=players, board=board, format="horde", starting_player=1)
    players = [PlayerSetup(name, colour, planar_deck=list(PLANES[colour - 1::count][:5] or PLANES[:5]))
               for colour, name in enumerate(PLAYER_NAMES[:count], start=1)]
    return GameSetup(players=players, board=board, planechase=True, starting_player=1,
                     events=event_deck(minimum_deck_size(count)))


def event_deck(size: int):
    """The bundled event deck (MT 9.03), extended to `size` cards with the table's own common events,
    four copies each (MT 7.02.c), as a table does in the deck builder."""
    from companion.game import prebuilt_event_deck
    from companion.game.events import EventCard, EventDeckList

    bundled = prebuilt_event_deck()
    missing = max(size - len(bundled.cards), 0)
    own = [EventCard(f"Orage {index // 4 + 1}", "common") for index in range(missing)]
    return EventDeckList(bundled.name, (*bundled.cards, *own))


def into_play(game) -> None:
    """Turn 1 in full swing, so that every panel shows what a game in progress shows: hands kept, every
    pawn on the grid, the first player in the movement phase with a roll, life, poison, commander
    damage and counters changed, the monarch given; the Horde has drawn."""
    state = game.state
    for player in state.players:
        if not player.kept:
            game.keep_hand(player.id)
    for player in game.unplaced_pawns:
        game.place_pawn(player, min(game.pawn_squares(player)))
    game.next_phase()
    others = [player.id for player in game.state.players[1:]]
    for number, player in enumerate(others, start=1):
        game.change_life(player, -3 * number)
        game.change_poison(player, number)
        game.commander_damage(player, game.state.players[0].id, 7)
        game.change_counter(player, "energy", number)
    game.give_monarch(game.state.players[0].id)
    while game.state.turn.phase != "movement":
        game.next_phase()
    pawn = next(piece for piece in game.state.pieces_of(game.state.turn.active[0]) if piece.kind == "player")
    game.roll_movement(pawn.token)


class PacedClock:
    """The time the app's clock reads: the real time less what the runner spent between its frames
    beyond MAX_FRAME_S, so that the app sees each frame as a device's, however long the runner took."""

    def __init__(self, real_time: Callable[[], float]):
        self.real_time = real_time
        self.hidden = 0.0   # seconds of the runner's own work the app's clock does not see

    def __call__(self) -> float:
        return self.real_time() - self.hidden

    def next_frame(self, last_frame: float) -> None:
        """Before a frame: hide the time since the app's last frame (`last_frame`, its clock's time)
        beyond MAX_FRAME_S."""
        self.hidden += max(self() - last_frame - MAX_FRAME_S, 0.0)


def pace_clock() -> None:
    """The app's clock reads a PacedClock from now on (the frames of `settle` pace it)."""
    from kivy.clock import Clock

    if not isinstance(Clock.time, PacedClock):
        Clock.time = PacedClock(Clock.time)


def settle(frames: int = SETTLE_FRAMES) -> None:
    """Let layouts and texts settle: `frames` turns of the clock (triggers, layouts, label textures) and
    one drawn frame at the end; drawing every turn at 2340 px in software costs more than the rest.
    Each frame lasts at most MAX_FRAME_S for the app (see PacedClock)."""
    from kivy.base import EventLoop
    from kivy.clock import Clock

    for frame in range(frames):
        if isinstance(Clock.time, PacedClock):
            Clock.time.next_frame(Clock.get_time())
        if frame < frames - 1:
            EventLoop.dispatch_input()
            Clock.tick()
        else:
            EventLoop.idle()


def wait_while_busy(app, timeout_s: float = 20.0) -> None:
    """More frames while the screen shown still reads what it shows off the UI thread (its `busy`: the
    saved games), as the autopilot waits: measured before, the saved games' list was empty; or while
    a case still waits to open what it names (its `opening`: a list whose button is still moving)."""
    import time

    deadline = time.monotonic() + timeout_s
    screen = app.root.ids.manager.current_screen
    while (getattr(screen, "busy", False) or getattr(screen, "opening", False)) and time.monotonic() < deadline:
        time.sleep(0.05)
        settle(1)
    settle(2)


# A case whose name ends so opens a drop-down list (the New game's board list, the Table's monarch
# menu, the shell's "More" menu); measured with none open, the case would pass without being measured.
LIST_CASE_ENDINGS = ("_list", "_menu", ".decks", ".menu")


def missing_list(app, case: str) -> list[str]:
    """The problem of a list case whose list is not open when measured (none for any other case)."""
    from kivy.core.window import Window
    from kivy.uix.dropdown import DropDown

    if not case.endswith(LIST_CASE_ENDINGS) or any(isinstance(w, DropDown) for w in Window.children):
        return []
    return [f"{case}: no drop-down list is open; the case measured something other than what it names"]


def close_popups(app) -> None:
    """Dismiss every pop-up, menu and drop-down over the app."""
    from kivy.core.window import Window
    from kivy.uix.dropdown import DropDown
    from kivy.uix.modalview import ModalView

    for widget in [w for w in Window.children if w is not app.root]:
        if isinstance(widget, ModalView):
            widget.dismiss(animation=False)
        elif isinstance(widget, DropDown):
            widget.dismiss()
        else:
            Window.remove_widget(widget)
    settle(2)


def cases(app) -> Iterator[tuple[str, Callable[[], object]]]:
    """(name, opener) of every case: each screen, then what it opens; the shell's last. Every case of
    a screen starts from the screen's own first state (its `reset_for_layout()`, if it has one, and its
    views scrolled to their top), not from what the case before left (the New game screen measured as
    the saved games list; a list opened from a field while its view still scrolled to it)."""
    from companion.app.screens import SCREENS

    for name in SCREENS:
        screen = app.screen(name)

        def show(name=name, screen=screen):
            getattr(screen, "reset_for_layout", lambda: None)()
            scroll_to_top(screen)
            app.show(name)

        yield name, show
        for case, opener in getattr(screen, "layout_cases", dict)().items():
            yield f"{name}.{case}", lambda show=show, opener=opener: (show(), settle(2), opener())
    for case, opener in getattr(app, "layout_cases", dict)().items():
        yield f"shell.{case}", opener


def scroll_to_top(root) -> None:
    """Every scrolling view in `root` at its top, standing still."""
    from kivy.uix.scrollview import ScrollView

    from companion.app.widgets.controls import hold_still

    for widget in root.walk(restrict=True):
        if isinstance(widget, ScrollView):
            widget.scroll_x, widget.scroll_y = 0, 1
            hold_still(widget)


def _scroll_ends(app) -> list:
    """The scrolling views shown whose content is longer than they are."""
    from kivy.uix.scrollview import ScrollView

    from companion.app.layout_audit import audit_roots, shown

    views = []
    for root in audit_roots(app):
        for widget in root.walk(restrict=True):
            if isinstance(widget, ScrollView) and shown(widget) and widget.children and \
                    (widget.children[0].height > widget.height + 1 or widget.children[0].width > widget.width + 1):
                views.append(widget)
    return views


def measure(app, *, skip_shell: bool = False) -> list[str]:
    """The problems of the window now, and again with every scrolling view at its end (`skip_shell`:
    leave out the navigation's own, to work on one screen)."""
    from companion.app.layout_audit import audit as audit_all

    def audit(app):
        return [p for p in audit_all(app) if not (skip_shell and p.part == "shell")]

    problems = [str(problem) for problem in audit(app)]
    views = _scroll_ends(app)
    if views:
        for view in views:
            view.scroll_y, view.scroll_x = 0, 1
        settle(2)
        problems += [str(p) for p in audit(app) if str(p) not in problems]
        for view in views:
            view.scroll_y, view.scroll_x = 1, 0
        settle(1)
    return problems


def screenshot(path: Path) -> None:
    """The window as a person sees it, pop-ups included, scaled down for the docs."""
    import cv2

    from companion.app.autopilot import _export_window
    from companion.app.main import compact_png

    path.parent.mkdir(parents=True, exist_ok=True)
    _export_window(path)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    scale = SCREENSHOT_LONG_SIDE / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(path), image)
    compact_png(path)


def device_point(text: str) -> DevicePoint:
    """A screen given as 'WIDTHxHEIGHT@DENSITY' in pixels, held upright (e.g. '720x1280@2')."""
    try:
        size, density = text.split("@")
        width, height = (int(side) for side in size.lower().split("x"))
        point = DevicePoint(f"{width}×{height} px at density {density}", min(width, height), max(width, height),
                            float(density))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT@DENSITY, e.g. 720x1280@2") from None
    if not 1 <= point.density <= 4 or point.width_px < 200:
        raise argparse.ArgumentTypeError(f"{text!r}: density 1 to 4 and at least 200 px a side")
    return point


def run(device: str, report_path: Path, *, shots: Path | None = None, only: str | None = None,
        tables: tuple[str, ...] = TABLES, langs: tuple[str, ...] = ("fr", "en"), skip_shell: bool = False,
        orientations: tuple[bool, ...] = (True, False), point: DevicePoint | None = None) -> int:
    """Measure every case at every point of one device class (`point`: another screen of it than the
    class's own smallest, e.g. a larger phone); write the report; print how many points are clean."""
    point = point or DEVICE_POINTS[device]
    if point.device != device:
        raise SystemExit(f"{point.name} is {point.width_px / point.density:.0f}×{point.height_px / point.density:.0f}"
                         f" dp: a {point.device}'s screen, not a {device}'s")
    os.environ["KIVY_METRICS_DENSITY"] = str(point.density)
    from companion.app.env import log_to_file, prepare_kivy

    prepare_kivy(headless=True, size=point.window(portrait=True))
    log_to_file(report_path.with_suffix(".log"))  # Kivy's own lines (providers probed…) out of the report
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.app import games
    from companion.app.main import TacticalApp

    data_dir = Path(tempfile.mkdtemp(prefix="tactical-matrix-"))
    app = TacticalApp(demo=False, lang=langs[0], data_dir=data_dir, start_screen="newgame", demo_cards=True)
    app._run_prepare()
    pace_clock()
    EventLoop.start()
    settle()
    report: dict[str, list[str]] = {}
    for portrait in orientations:
        Window.size = point.window(portrait)
        settle()
        for table in tables:
            app._switch_to(games.start(table_setup(table), data_dir))
            # before turn 1 (mulligans: the Table's own layout), then in play (every screen)
            for stage, prefix in (("pregame", "table"), ("play", "")):
                if stage == "play":
                    into_play(app.game)
                    app.revision += 1
                for lang in langs:
                    app.lang = lang
                    for name, opener in cases(app):
                        if not name.startswith(prefix) or (only and not name.startswith(only)):
                            continue
                        close_popups(app)
                        opener()
                        settle()
                        wait_while_busy(app)
                        at = f"{device}-{'portrait' if portrait else 'landscape'}"
                        key = f"{at}/{table}/{lang}/{name}{'@pregame' if stage == 'pregame' else ''}"
                        report[key] = missing_list(app, name) + measure(app, skip_shell=skip_shell)
                        if shots is not None and table == "4" and lang == "fr" and stage == "play":
                            screenshot(shots / at / f"{name}.png")
                    close_popups(app)
    report_path.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    app.stop()
    bad = {key: problems for key, problems in report.items() if problems}
    print(f"{device}: {len(report) - len(bad)} of {len(report)} points clean")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("device", choices=sorted(DEVICE_POINTS))
    parser.add_argument("report", type=Path)
    parser.add_argument("--shots", type=Path, help="write one screenshot per orientation and case here")
    parser.add_argument("--only", help="only the cases whose name starts with this (e.g. table)")
    parser.add_argument("--tables", default=",".join(TABLES), help="comma-separated: 2,4,5,horde")
    parser.add_argument("--langs", default="fr,en")
    parser.add_argument("--orientation", choices=("portrait", "landscape", "both"), default="both")
    parser.add_argument("--skip-shell", action="store_true", help="leave out the navigation bar's problems")
    parser.add_argument("--print", action="store_true", help="print every problem found")
    parser.add_argument("--point", type=device_point,
                        help="another screen of the class than its smallest, WIDTHxHEIGHT@DENSITY in px (1080x2400@2.625)")
    args = parser.parse_args(argv)
    orientations = {"portrait": (True,), "landscape": (False,), "both": (True, False)}[args.orientation]
    code = run(args.device, args.report, shots=args.shots, only=args.only, tables=tuple(args.tables.split(",")),
               langs=tuple(args.langs.split(",")), skip_shell=args.skip_shell, orientations=orientations,
               point=args.point)
    if args.print:
        from boards.terminal import printable

        report = json.loads(args.report.read_text(encoding="utf-8"))
        for key, problems in report.items():
            for problem in problems:
                print(printable(f"{key}: {problem}"))
    return code


if __name__ == "__main__":
    sys.exit(main())
