"""The layout audit (#27) finds each defect it is meant to find, and passes a clean window: a touch
target under 48 dp, two overlapping targets, a text cut or spilling over its box, a widget outside the
window; a widget scrolled out of sight is not judged. Run in a process of its own (Kivy's one window)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

SCRIPT = r'''
import json, sys
from companion.app.env import prepare_kivy
prepare_kivy(headless=True, size=(400, 400))
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from companion.app import layout_audit

class App:  # what the audit needs of the app: its root in the window
    root = None

def run(build):
    for child in list(Window.children):
        Window.remove_widget(child)
    app = App()
    app.root = FloatLayout(size=Window.size)
    build(app.root)
    Window.add_widget(app.root)
    for _ in range(3):
        EventLoop.idle()
    return sorted(p.kind for p in layout_audit.audit(app))

def clean(root):
    root.add_widget(Button(text="OK", size_hint=(None, None), size=(100, 60), pos=(10, 10)))
    root.add_widget(Button(text="Non", size_hint=(None, None), size=(100, 60), pos=(200, 10)))

def small(root):
    root.add_widget(Button(text="+", size_hint=(None, None), size=(30, 60), pos=(10, 10)))

def overlap(root):
    root.add_widget(Button(text="a", size_hint=(None, None), size=(100, 60), pos=(10, 10)))
    root.add_widget(Button(text="b", size_hint=(None, None), size=(100, 60), pos=(60, 10)))

def cut(root):
    root.add_widget(Label(text="un texte bien trop long pour sa boite", size_hint=(None, None),
                          size=(60, 30), pos=(10, 300)))

def shortened(root):
    root.add_widget(Label(text="un texte bien trop long pour sa boite", size_hint=(None, None),
                          size=(60, 30), pos=(10, 300), shorten=True, text_size=(60, 30)))

def outside(root):
    root.add_widget(Button(text="loin", size_hint=(None, None), size=(100, 60), pos=(350, 10)))

def scrolled_away(root):
    view = ScrollView(size_hint=(None, None), size=(200, 100), pos=(0, 0))
    inner = FloatLayout(size_hint=(None, None), size=(200, 400))
    inner.add_widget(Button(text="+", size_hint=(None, None), size=(20, 20), pos=(0, 350)))
    view.add_widget(inner)
    view.scroll_y = 0
    root.add_widget(view)

print(json.dumps({name: run(build) for name, build in
                  [("clean", clean), ("small", small), ("overlap", overlap), ("cut", cut),
                   ("shortened", shortened), ("outside", outside), ("scrolled_away", scrolled_away)]}))
'''


def test_the_audit_finds_each_defect_and_passes_a_clean_window():
    """MT issue #27's measures: 48 dp targets, no overlap, no cut text, nothing outside the window."""
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_METRICS_DENSITY": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["clean"] == []
    assert found["small"] == ["small"]
    assert found["overlap"] == ["overlap"]
    assert found["cut"] == ["cut"]
    assert found["shortened"] == ["cut"]
    assert found["outside"] == ["outside"]
    assert found["scrolled_away"] == []
