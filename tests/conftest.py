"""Test-session settings shared by every suite.

Kivy reads its environment at import time, so it is set here before any test
module imports it: no command-line parsing, and a throw-away KIVY_HOME so tests
never touch (or depend on) the user's Kivy configuration.

Every process gets its own KIVY_HOME, each pytest-xdist worker included (this file runs again in
each; they would otherwise inherit the controller's): importing Kivy creates its folders there by
checking, then creating, so two workers importing it at once in one fresh folder can race.
"""
import os
import tempfile

os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
