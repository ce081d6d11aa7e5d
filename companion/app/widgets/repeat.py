"""Press and hold repeats (#27), as every life counter does: a ±1 held down steps once at once, then
again and again after a short delay, until the finger lifts. The steps go to the game as taps that
join (`join=True`), so a held button is one change, one history line and one undo step.

One behaviour for every counter's buttons (life, poison, commander damage, energy …): a button binds
`on_step`, not `on_release`. The Kivy clock it schedules on is a class attribute (`scheduler`), so a
test drives the repeats step by step with a clock of its own, never by waiting.
"""
from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import NumericProperty
from kivy.uix.button import Button

REPEAT_DELAY_S = 0.45    # how long a finger stays down before a held button starts repeating
REPEAT_INTERVAL_S = 0.1  # then one step this often (10 a second: 20 life in about two and a half seconds)


class RepeatBehavior:
    """Mixed into a button: `on_step` fires as the finger goes down, then, while it stays down, after
    `repeat_delay` seconds and every `repeat_interval` seconds; it stops on release or once the button
    is disabled (a player who leaves meanwhile)."""

    __events__ = ("on_step",)
    scheduler = Clock   # what schedules the repeats (a test's own clock replaces it)
    repeat_delay = NumericProperty(REPEAT_DELAY_S)
    repeat_interval = NumericProperty(REPEAT_INTERVAL_S)
    _repeating = None   # the scheduled delay or repeat, while the finger is down

    def on_press(self) -> None:
        self._stop_repeating()
        self.dispatch("on_step")
        self._repeating = self.scheduler.schedule_once(self._start_repeating, self.repeat_delay)

    def on_release(self) -> None:
        self._stop_repeating()

    def on_step(self) -> None:
        """A step: what the button does (bound in kv)."""

    def _start_repeating(self, _dt: float) -> None:
        self._repeating = self.scheduler.schedule_interval(self._repeat, self.repeat_interval)

    def _repeat(self, _dt: float) -> bool:
        if self.disabled or self.state != "down":
            self._stop_repeating()
            return False
        self.dispatch("on_step")
        return True

    def _stop_repeating(self) -> None:
        if self._repeating is not None:
            self._repeating.cancel()
            self._repeating = None


class RepeatButton(RepeatBehavior, Button):
    """A button that repeats its `on_step` while held (the counters' ±1)."""
