"""What a finger and an eye meet on the window now, measured on the widget tree: the layout checks of
issue #27, run at every point of the device matrix (`companion.app.layout_matrix`).

A window passes when, among the widgets a person can see (the topmost pop-up if one is open, else the
navigation and the current screen):
- every touch target (buttons, toggles, spinners, check boxes, text fields, sliders) is at least
  `MIN_TOUCH_DP` dp on either side;
- no two touch targets overlap;
- no text is cut or overflows its box, unless its widget says its whole text is one tap away
  (`whole_text_on_tap`, e.g. a name shortened in a tight panel that opens in full on a tap);
- nothing lies outside the window.

A widget inside a scrolling view is judged only where the view shows it: scrolled out of sight, it is
not on the screen; scrolled half in, it is reachable by scrolling, so only its size and text count.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kivy.metrics import dp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput

from companion.app.device import MIN_TOUCH_DP

MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")
SLACK_PX = 1.0  # rounding of layouts: a pixel of overlap or overflow is not a defect


@dataclass(frozen=True)
class Problem:
    """One defect: `kind` is small / overlap / cut / outside; `what` names the widget(s); `part` is
    "shell" for the navigation and top bar around the screens, else "screen" (a screen or pop-up)."""

    kind: str
    what: str
    detail: str
    part: str = "screen"

    def __str__(self) -> str:
        return f"{'[shell] ' if self.part == 'shell' else ''}{self.kind}: {self.what} ({self.detail})"


def shown(widget) -> bool:
    """On screen for a person: in the window, with some size, and neither it nor a parent transparent
    or collapsed to nothing."""
    if widget.get_root_window() is None or widget.width <= 1 or widget.height <= 1:
        return False
    node = widget
    while node is not None and node is not node.parent:
        if node.opacity <= 0 or node.width <= 0 or node.height <= 0:
            return False
        node = node.parent
    return True


def text_cut(label) -> bool:
    """Whether a label shows less than its text: shortened ("Alex…rine"), or fewer lines than its text
    needs (Kivy drops the lines below a fixed `text_size` height without a sign): the words of the
    lines it laid out are compared with its text."""
    if label.is_shortened:
        return True
    if label._label is None:
        return False
    label.texture_update()
    drawn = "".join(word.text for line in label._label._cached_lines for word in line.words)
    text = MARKUP.sub("", label.text) if label.markup else label.text
    return len("".join(drawn.split())) < len("".join(text.split()))


def text_overflows(label) -> bool:
    """Whether a label's drawn text is larger than its box (a label without `text_size` draws its
    text centred on its box, whatever the box's size: the text then spills over its neighbours)."""
    label.texture_update()
    width, height = label.texture_size
    return width > label.width + SLACK_PX or height > label.height + SLACK_PX


def hint_cut(field) -> bool:
    """Whether an empty text field shows less than its hint: wider than a one-line field, or wrapped
    onto more lines than a multiline field's height shows (Kivy draws the first ones only)."""
    if field.text or not field.hint_text.strip():
        return False
    left, top, right, bottom = field.padding
    if not field.multiline:
        return field._get_text_width(field.hint_text, field.tab_width, None) > field.width - left - right
    field._refresh_hint_text()   # wrapped at the field's present width
    lines = len(field._hint_text_lines)
    return lines * field.line_height + (lines - 1) * field.line_spacing > field.height - top - bottom + 1


def is_touch_target(widget) -> bool:
    return isinstance(widget, (ButtonBehavior, TextInput, Slider))


def _window_rect(widget) -> tuple[float, float, float, float]:
    """Where the widget lies in the window, from two opposite corners: a widget in a turned Scatter
    (a Table panel facing its player, 90° or 180°) has its own bottom-left corner anywhere."""
    (x1, y1), (x2, y2) = widget.to_window(widget.x, widget.y), widget.to_window(widget.right, widget.top)
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def _intersection(a, b) -> tuple[float, float, float, float] | None:
    left, bottom, right, top = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (left, bottom, right, top) if right - left > SLACK_PX and top - bottom > SLACK_PX else None


def _clip(widget):
    """The window rectangle `widget` can be seen in: the intersection of the scrolling or stencil views
    around it (None: not clipped)."""
    clip = None
    node = widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, (ScrollView, StencilView)):
            rect = _window_rect(node)
            clip = rect if clip is None else (_intersection(clip, rect) or (0, 0, 0, 0))
        node = node.parent
    return clip


def describe(widget) -> str:
    """A widget as a person would name it: its kind and its words (or hint)."""
    words = getattr(widget, "text", "") or getattr(widget, "hint_text", "") or ""
    words = " ".join(MARKUP.sub("", words).split())
    return f"{type(widget).__name__} {words[:40]!r}" if words else type(widget).__name__


def audit_roots(app) -> list:
    """The widgets a person sees now: the topmost pop-up alone when one is open (it covers the rest),
    else the app's window (navigation, current screen and messages)."""
    from kivy.core.window import Window

    popups = [w for w in Window.children if w is not app.root]
    return [popups[0]] if popups else [app.root]


def audit(app) -> list[Problem]:
    """Every defect of the window as it is now (see the module's docstring)."""
    from kivy.core.window import Window

    problems: list[Problem] = []
    window = (0.0, 0.0, float(Window.width), float(Window.height))
    targets: list[tuple[object, tuple[float, float, float, float], str]] = []
    for root in audit_roots(app):
        for widget in root.walk(restrict=True):
            if not shown(widget):
                continue
            part = _part(app, widget)
            rect = _window_rect(widget)
            clip = _clip(widget)
            seen = rect if clip is None else _intersection(rect, clip)
            if seen is None:
                continue  # scrolled out of sight
            if clip is None and (rect[0] < -SLACK_PX or rect[1] < -SLACK_PX or rect[2] > window[2] + SLACK_PX
                                 or rect[3] > window[3] + SLACK_PX):
                problems.append(Problem("outside", describe(widget),
                                        f"{_dp_rect(rect)} in a window of {_dp_rect(window)}", part=part))
            if is_touch_target(widget):
                width, height = widget.width / dp(1), widget.height / dp(1)
                if min(width, height) < MIN_TOUCH_DP - 0.5:
                    problems.append(Problem("small", describe(widget), f"{width:.1f}×{height:.1f} dp", part=part))
                targets.append((widget, seen, part))
            if getattr(widget, "whole_text_on_tap", False):
                continue
            if isinstance(widget, Label) and widget.text.strip():
                if text_cut(widget):
                    problems.append(Problem("cut", describe(widget), "text cut", part=part))
                elif widget.text_size == [None, None] and text_overflows(widget):
                    problems.append(Problem("cut", describe(widget),
                                            f"text {widget.texture_size[0] / dp(1):.0f}×"
                                            f"{widget.texture_size[1] / dp(1):.0f} dp in a box of "
                                            f"{widget.width / dp(1):.0f}×{widget.height / dp(1):.0f} dp", part=part))
            if isinstance(widget, TextInput) and hint_cut(widget):
                problems.append(Problem("cut", describe(widget), "hint cut", part=part))
    problems.extend(_overlaps(targets))
    return problems


def _overlaps(targets) -> list[Problem]:
    found = []
    for index, (first, first_rect, first_part) in enumerate(targets):
        for second, second_rect, second_part in targets[index + 1:]:
            part = "shell" if first_part == second_part == "shell" else "screen"
            if _related(first, second):
                continue
            common = _intersection(first_rect, second_rect)
            if common is not None:
                found.append(Problem("overlap", f"{describe(first)} × {describe(second)}",
                                     f"{(common[2] - common[0]) / dp(1):.1f}×{(common[3] - common[1]) / dp(1):.1f} dp",
                                     part=part))
    return found


def _part(app, widget) -> str:
    """'screen' for a widget of the screens or a pop-up, 'shell' for the navigation around them (kv ids
    are weak proxies, never `is` the widget: the screen manager is known by its class)."""
    from kivy.uix.screenmanager import ScreenManager

    node = widget
    while node is not None and node is not node.parent:
        if isinstance(node, ScreenManager):
            return "screen"
        if node is app.root:
            return "shell"
        node = node.parent
    return "screen"  # in a pop-up


def _related(first, second) -> bool:
    """One inside the other (a button inside a touchable row is one target)."""
    for inner, outer in ((first, second), (second, first)):
        node = inner.parent
        while node is not None and node is not node.parent:
            if node is outer:
                return True
            node = node.parent
    return False


def _dp_rect(rect) -> str:
    left, bottom, right, top = (value / dp(1) for value in rect)
    return f"({left:.0f},{bottom:.0f})–({right:.0f},{top:.0f}) dp"
