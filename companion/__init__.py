"""The game: rules (pure), game state (pure), the Kivy app and the `tactical` command."""
