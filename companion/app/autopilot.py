"""Drive the real app from a script of steps, as a person would, and report what it shows.

Used by the tests (each in its own process, since Kivy owns one window and one
event loop per process) and handy to reproduce a bug report. Run as::

    python -m companion.app.autopilot SCRIPT.json REPORT.json

SCRIPT is {"data_dir": str, "demo": bool, "lang": "fr"|"en", "steps": [...]} (optional: "cards_dir",
the card database's folder, "demo_cards": false for a demo without the fixture's cards, and
"window": [width, height] in pixels, 1280×800 unless said); steps are
{"tap_token": [player, number]}, {"tap_square": [x, y]}, {"tap_drawn": layer} (the first
square drawn in that overlay layer, the selected token's own square excepted), {"tap": id}
('undo'/'redo' of the top bar, 'nav_<screen>' a screen's tab — in a phone's "More" menu, opened
first —, '<screen>.<kv id>' — a layout that hides it behind a bar, sheet or menu opens it first,
through the screen's `reveal(widget)` —, '<screen>.<kv id>.<kv id inside that widget>',
or '<screen>.<part>.<kv id>' for a part the screen's `find_widget` knows, e.g. 'table.seat-2.leave'), {"tap_text": text} (the visible button
showing that text, pop-ups first), {"type": [id, text]} (into a text field), {"pick": [id, value]}
(a spinner's value), {"show": screen}, {"report": label}, {"screenshot": path} and
{"inspect": label} (every touch target with its size in dp and every text shown, for the
touch-size and language checks), {"hold": true} (stay open until killed: crash tests),
{"wait_for": {"screen": name, "key": k, "equals": v | "at_least": n | "contains": text, "timeout": s}}
(until the screen's report says so: the camera's worker thread runs at its own pace),
{"tap_camera_square": [x, y]} (a tap on the camera image where it shows that square),
{"pause": seconds} (the table waits that long on its clock, the machine not at all) and
{"lang": "fr"|"en"}. Every step waits for the frame to settle first. The report maps each label
to what the app shows then. The table's clock is the script's (`ScriptClock`): each step takes
STEP_SECONDS of it, however long the machine takes.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path

SETTLE_FRAMES = 3
TEXT_WAIT_FRAMES = 60  # a tap_text whose button is not shown yet is tried again on each step, this many times
# Inside a ScrollView (a DropDown too) Kivy passes a tap on to the button only once the finger is up, and
# releases it 0.2 s later: the next tap waits that long, or it lands while the list is still open (and
# an open DropDown takes a tap outside it to close itself, nothing else).
SCROLL_CLICK_S = 0.3
STEP_SECONDS = 0.5  # the table's time one step of a script takes: taps in a row are quick taps (ScriptClock)


class ScriptClock:
    """The table's time while a script runs (`TacticalApp(clock=…)`): it starts at the whole second the
    run starts and moves STEP_SECONDS for each step done. Quick taps joined into one change (the game's
    JOIN_SECONDS) and the Table's recent change then follow the script, never the speed of a loaded
    machine; a step tried again (a button not shown yet) takes no time, a {"pause": s} step s seconds."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = STEP_SECONDS) -> None:
        self.now += timedelta(seconds=seconds)


def _state_summary(app) -> dict:
    """What a person sees of the game, in plain JSON."""
    board_screen = app.screen("board")
    summary = {
        "screen": app.root.ids.manager.current,
        "selected": list(app.selected) if app.selected else None,
        "message": app.message,
        "undo": app.undo_text,
        "info": board_screen.info,
        "movement": board_screen.movement,
        "drawn": {k: sorted(map(list, v)) for k, v in board_screen.board_view.surface.drawn.items()},
        "square_dp": board_screen.board_view.square_dp,
        "board_view_pos": list(board_screen.board_view.to_window(*board_screen.board_view.pos)),
        "dice_result": app.screen("dice").result,
        "screens": {name: screen.autopilot_report() for name, screen in
                    ((s.name, s) for s in app.root.ids.manager.screens) if hasattr(screen, "autopilot_report")},
        "popups": [type(w).__name__ for w in _popups(app)],
    }
    if app.game is None:
        return summary
    state = app.game.state
    summary.update({
        "game_file": app.game_key,
        "pieces": {f"{p}-{n}": list(piece.at) if piece.at else None for (p, n), piece in state.pieces.items()},
        "life": {str(p.id): p.life for p in state.players},
        "rolls": [{"results": list(r.results), "die": r.die} for r in state.rolls],
        "turn": {"number": state.turn.number, "phase": state.turn.phase, "step": state.turn.step,
                 "active": list(state.turn.active), "horde": state.turn.horde},
        "history": app.game.history(app.lang),
        "players": {str(p.id): {"life": p.life, "poison": p.poison, "left": p.left, "mulligans": p.mulligans,
                                "kept": p.kept, "commander_damage": {str(k): v for k, v in p.commander_damage.items()}}
                    for p in state.players},
        "board_rows": state.board.to_rows(),
        "winner": state.winner,
        "horde": {"city": state.horde.city_life, "result": state.horde.result, "wave": state.horde.wave}
        if state.horde else None,
        "game": {"format": state.format, "planar_decks": {str(k): v for k, v in state.planar.decks.items()}
                 if state.planar else None, "events": len(state.events.deck) if state.events else None,
                 "house": asdict(state.house_rules), "starting_player": state.starting_player,
                 "doubtful_squares": [list(at) for at in state.doubtful_squares]},
    })
    return summary


def _inspect(app) -> dict:
    """What a finger and an eye meet now: every touch target (Button, toggle, spinner, check box, text
    field) with its size in dp, and every text shown (labels, buttons, hints, spinner choices), on the
    current screen, the navigation bar and any pop-up."""
    import re

    from kivy.metrics import dp
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.spinner import Spinner
    from kivy.uix.textinput import TextInput

    from companion.app.layout_audit import hint_cut, shown, text_cut

    roots = [app.root, *_popups(app)]  # the shell (tabs, Undo, Redo, messages), the current screen, pop-ups
    targets, texts, cut = [], [], []
    for root in roots:
        for widget in root.walk(restrict=True):
            if not shown(widget):
                continue
            if isinstance(widget, (ButtonBehavior, TextInput)):
                label = getattr(widget, "text", "") or getattr(widget, "hint_text", "") or getattr(widget, "id", "")
                targets.append({"kind": type(widget).__name__, "text": label[:60],
                                "w": round(widget.width / dp(1), 1), "h": round(widget.height / dp(1), 1),
                                "disabled": widget.disabled})
            if isinstance(widget, Label) and widget.text.strip():
                texts.append(re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", widget.text))
                if text_cut(widget):
                    cut.append(texts[-1][:80])
            if isinstance(widget, TextInput):
                texts.append(widget.text or widget.hint_text)
                if hint_cut(widget):
                    cut.append(widget.hint_text[:80])
            if isinstance(widget, Spinner):
                texts.extend(widget.values)
    return {"screen": app.root.ids.manager.current, "targets": targets, "texts": [t for t in texts if t.strip()],
            "cut": cut, "popups": [type(w).__name__ for w in _popups(app)]}


def _popups(app) -> list:
    from kivy.core.window import Window

    return [w for w in Window.children if w is not app.root]


def _tap_window_point(x: float, y: float) -> bool:
    """A finger's tap; True when a ScrollView took it (its button is released later: SCROLL_CLICK_S)."""
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.scrollview import ScrollView

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    delayed = any(isinstance(grabbed(), ScrollView) for grabbed in touch.grab_list)
    touch.touch_up()
    return delayed


def _reveal(app, target: str, widget) -> bool:
    """Open what hides `widget` in this layout (a phone's collapsed turn bar, a sheet, a menu), as a
    person opens it before tapping: the screen's `reveal(widget)` says whether it had to (True: tap on
    the next step, once shown). Scripts name the same widgets on every device class."""
    if "." not in target:  # the shell's: a tab in a phone's "More" menu
        return app.reveal(widget)
    reveal = getattr(app.screen(target.split(".", 1)[0]), "reveal", None)
    return bool(reveal(widget)) if reveal is not None else False


def _scroll_into_view(widget) -> bool:
    """Scroll the ScrollView holding `widget` so that it is fully shown; True when it had to move."""
    from kivy.uix.scrollview import ScrollView

    view, parent = None, widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            view = parent
            break
        parent = parent.parent
    if view is None:
        return False
    _, bottom = view.parent.to_window(view.x, view.y)   # window coordinates, both
    _, y = widget.to_window(widget.x, widget.y)
    if bottom - 1 <= y and y + widget.height <= bottom + view.height + 1:
        return False
    view.scroll_to(widget, padding=10, animate=False)
    return True


def _tap_square(app, at) -> bool:
    """Tap a square of the board as a finger does: a square out of the view is brought back with the
    whole board; where squares are too small, the first tap zooms in around it (the board view's
    rule), then the square is tapped where it now is."""
    view = app.screen("board").board_view
    if not view.collide_point(*view.to_widget(*view.window_point_of(at))):
        view.fit()  # off the view: "Whole board" first
    zoomed = view.square_dp < view.finger_dp and _tap_window_point(*view.window_point_of(at))
    return _tap_window_point(*view.window_point_of(at)) or zoomed


def _export_window(path: Path) -> None:
    """The window as a person sees it, pop-ups included, rendered through an Fbo (reading the
    offscreen window's own buffer gives black)."""
    from kivy.core.window import Window
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    fbo = Fbo(size=Window.size, with_stencilbuffer=True)
    with fbo:
        ClearColor(0, 0, 0, 1)
        ClearBuffers()
    layers = list(reversed(Window.children))  # bottom first: the app's root, then pop-ups
    for widget in layers:
        Window.canvas.remove(widget.canvas)
        fbo.add(widget.canvas)
    fbo.draw()
    fbo.texture.save(str(path), flipped=True)
    for widget in layers:
        fbo.remove(widget.canvas)
        Window.canvas.add(widget.canvas)


def _find_target(app, target: str):
    """A widget by kv id: 'undo'/'redo' in the top bar, '<screen>.<id>', or '<screen>.<part>.<id>'."""
    if "." in target:
        name, wid = target.split(".", 1)
        screen = app.screen(name)
        part, _, inner = wid.partition(".")
        if wid in screen.ids:
            return screen.ids[wid]
        if inner in getattr(screen.ids.get(part), "ids", {}):  # '<screen>.<widget id>.<its own kv id>'
            return screen.ids[part].ids[inner]
        return screen.find_widget(wid)
    return app.root.ids[target]


def _visible_buttons(root):
    """Buttons a person could tap under `root`, topmost first (shown: some size and opacity)."""
    from kivy.uix.button import Button

    found = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Button) and not widget.disabled and widget.opacity > 0 and widget.height > 0 \
                and widget.width > 1 and widget.get_root_window() is not None:
            found.append(widget)
    return found


def _find_text(app, text: str, said: list[str]):
    """The button showing `text`: in an open pop-up first, else on the current screen. `said`: what
    the app said so far, for the error (a refusal line fades after a few seconds)."""
    from kivy.core.window import Window

    popups = [w for w in Window.children if w is not app.root]
    manager = app.root.ids.manager
    for root in [*popups, manager.current_screen]:
        for button in _visible_buttons(root):
            if button.text == text:
                return button
    raise LookupError(f"no visible button shows {text!r} on {manager.current!r}; "
                      f"the app last said {said[-3:]!r}; pop-ups open: {len(popups)}")


def _wait_for(app, condition: dict, then) -> None:
    """Call `then` once the named screen's report meets the condition; fail the run on time-out."""
    import time

    from kivy.clock import Clock

    deadline = time.monotonic() + float(condition.get("timeout", 60))

    def met() -> bool:
        value = app.screen(condition["screen"]).autopilot_report().get(condition["key"])
        if "equals" in condition:
            return value == condition["equals"]
        if "at_least" in condition:
            return value is not None and value >= condition["at_least"]
        return value is not None and condition["contains"] in str(value)

    def check(dt):
        if met():
            then()
            return False
        if time.monotonic() > deadline:
            raise TimeoutError(f"wait_for {condition}: not met in time; last report "
                               f"{app.screen(condition['screen']).autopilot_report()}")
        return True

    Clock.schedule_interval(check, 0.05)


def run_script(script: dict, report_path: Path) -> int:
    from companion.app.env import TABLET_SIZE, prepare_kivy

    prepare_kivy(headless=True, size=tuple(script.get("window", TABLET_SIZE)))
    from kivy.clock import Clock

    from companion.app.main import TacticalApp
    from companion.game.game import local_now

    report: dict = {}
    steps = list(script.get("steps", []))
    waited: dict[int, int] = {}  # tap_text steps tried again while their button is not shown yet
    clock = ScriptClock(local_now().replace(microsecond=0))
    retrying = False  # the step about to run is one tried again: its time was taken already
    app = TacticalApp(demo=script.get("demo", True), lang=script.get("lang", "en"),
                      data_dir=Path(script["data_dir"]), start_screen=script.get("screen", "board"),
                      cards_dir=script.get("cards_dir"), demo_cards=script.get("demo_cards"), clock=clock)

    said: list[str] = []
    app.bind(message=lambda _, text: text and said.append(text))

    def write_report():
        """Atomically (temp file + rename): a test may read it while the app is being killed."""
        temp = report_path.with_suffix(".tmp")
        temp.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(temp, report_path)

    def run_next(*_):
        nonlocal retrying
        if getattr(app.root.ids.manager.current_screen, "busy", False):  # a screen still reading (off the UI
            app._wait_then(run_next, frames=1, seconds=0.05)              # thread): wait as a person would
            return
        if not steps:
            write_report()
            app.stop()
            return
        step = steps.pop(0)
        (kind, value), = step.items()
        if not retrying:
            clock.advance()
        retrying = False
        delayed = False  # a tap a ScrollView holds back: the next step waits for its release
        if kind == "tap_token":
            delayed = _tap_square(app, app.game.state.pieces[tuple(value)].at)
        elif kind == "tap_square":
            delayed = _tap_square(app, tuple(value))
        elif kind == "tap_drawn":  # the first drawn square of a layer other than the selected token's own
            view = app.screen("board").board_view
            own = app.game.state.pieces[tuple(app.selected)].at
            delayed = _tap_square(app, min(at for at in view.surface.drawn[value] if at != own))
        elif kind == "tap":
            widget = _find_target(app, value)
            if _reveal(app, value, widget) or _scroll_into_view(widget):  # as a person scrolls to a button first; tap once it has moved
                steps.insert(0, step)
                retrying = True
            else:
                delayed = _tap_window_point(*widget.to_window(*widget.center))
        elif kind == "tap_text":
            try:
                widget = _find_text(app, value, said)
            except LookupError:  # a pop-up still opening on a loaded machine: look again, as a person waits
                waited[id(step)] = waited.get(id(step), 0) + 1
                if waited[id(step)] > TEXT_WAIT_FRAMES:
                    raise
                steps.insert(0, step)
                retrying = True
            else:
                delayed = _tap_window_point(*widget.to_window(*widget.center))
        elif kind == "type":
            _find_target(app, value[0]).text = value[1]
        elif kind == "pick":
            _find_target(app, value[0]).text = value[1]
        elif kind == "show":
            app.show(value)
        elif kind == "report":
            report[value] = _state_summary(app)
            write_report()  # written at once: a crash test kills the app right after
        elif kind == "inspect":
            report.setdefault("inspected", {})[value] = _inspect(app)
        elif kind == "screenshot":
            from companion.app.main import compact_png

            _export_window(Path(value))
            compact_png(Path(value))
        elif kind == "hold":
            return  # stay open; the test kills the process
        elif kind == "lang":
            app.lang = value
        elif kind == "pause":
            clock.advance(float(value))
        elif kind == "tap_camera_square":
            delayed = _tap_window_point(*app.screen("camera").pixel_of_square(tuple(value)))
        elif kind == "wait_for":
            _wait_for(app, value, lambda: app._wait_then(run_next, frames=SETTLE_FRAMES, seconds=0.0))
            return
        app._wait_then(run_next, frames=SETTLE_FRAMES, seconds=SCROLL_CLICK_S if delayed else 0.0)

    Clock.schedule_once(lambda dt: app._wait_then(run_next), 0)
    app.run()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python -m companion.app.autopilot SCRIPT.json REPORT.json", file=sys.stderr)
        return 2
    script = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    return run_script(script, Path(argv[1]))


if __name__ == "__main__":
    sys.exit(main())
