"""Press and hold repeats ±1 (#27): a held counter button steps once as the finger goes down, then again
after a short delay, every interval, until the finger lifts or the button is disabled. Driven with a clock
of the test's own (`RepeatBehavior.scheduler`), never by waiting."""
from __future__ import annotations

import pytest

from companion.app.widgets.repeat import REPEAT_DELAY_S, REPEAT_INTERVAL_S, RepeatButton


class StepClock:
    """Kivy's `schedule_once` / `schedule_interval`, moved by the test."""

    def __init__(self):
        self.now, self.pending = 0.0, []

    def _schedule(self, callback, delay, interval):
        event = {"at": self.now + delay, "callback": callback, "interval": interval, "cancelled": False}
        event["cancel"] = lambda: event.update(cancelled=True)
        self.pending.append(event)
        return type("Event", (), {"cancel": staticmethod(event["cancel"])})()

    def schedule_once(self, callback, delay):
        return self._schedule(callback, delay, None)

    def schedule_interval(self, callback, interval):
        return self._schedule(callback, interval, interval)

    def advance(self, seconds):
        end = self.now + seconds
        while True:
            due = [e for e in self.pending if not e["cancelled"] and e["at"] <= end + 1e-9]
            if not due:
                break
            event = min(due, key=lambda e: e["at"])
            self.now = event["at"]
            if event["callback"](event["at"]) is False or event["interval"] is None:
                event["cancelled"] = True
            else:
                event["at"] += event["interval"]
        self.now = end


@pytest.fixture
def held():
    clock = StepClock()
    button = RepeatButton()
    button.scheduler = clock
    steps = []
    button.bind(on_step=lambda _b: steps.append(clock.now))
    return button, clock, steps


def press(button):
    button.state = "down"
    button.dispatch("on_press")


def release(button):
    button.state = "normal"
    button.dispatch("on_release")


def test_a_tap_steps_once(held):
    button, clock, steps = held
    press(button)
    release(button)
    clock.advance(5)
    assert len(steps) == 1


def test_a_held_button_repeats_after_the_delay_until_released(held):
    button, clock, steps = held
    press(button)
    clock.advance(REPEAT_DELAY_S - 0.01)
    assert len(steps) == 1                       # not yet: a tap is not a hold
    clock.advance(0.01 + 10 * REPEAT_INTERVAL_S)
    assert len(steps) == 1 + 10
    release(button)
    clock.advance(5)
    assert len(steps) == 11


def test_a_held_button_stops_once_disabled(held):
    button, clock, steps = held
    press(button)
    clock.advance(REPEAT_DELAY_S + 3 * REPEAT_INTERVAL_S)
    button.disabled = True                     # the player left meanwhile
    clock.advance(5)
    assert len(steps) == 1 + 3


def test_a_held_life_button_is_one_change_one_history_line_and_one_undo_step(held):
    """The steps of a held −1 are taps that join (`join=True`, on the game's clock, here the test's): 21
    steps are one change of −21, as a table holding the button expects."""
    from datetime import UTC, datetime, timedelta

    from test_game_counter_taps import new_game

    button, clock, _ = held
    start = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
    game = new_game(lambda: start + timedelta(seconds=clock.now))
    lines, actions = len(game.history()), len(game.actions)
    button.bind(on_step=lambda _b: game.change_life(1, -1, join=True))
    press(button)
    clock.advance(REPEAT_DELAY_S + 20 * REPEAT_INTERVAL_S)
    release(button)
    assert game.state.player(1).life == 20 - 21
    assert len(game.actions) == actions + 1 and len(game.history()) == lines + 1
    game.undo()
    assert game.state.player(1).life == 20
