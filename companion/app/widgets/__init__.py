"""Widgets shared by several screens (board view, big buttons, trackers)."""
