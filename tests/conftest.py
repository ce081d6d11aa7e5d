"""Test-session settings shared by every suite.

Kivy reads its environment at import time, so it is set here before any test
module imports it: no command-line parsing, and a throw-away KIVY_HOME so tests
never touch (or depend on) the user's Kivy configuration.
"""
import os
import tempfile

os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
