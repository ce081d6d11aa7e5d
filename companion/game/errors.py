"""Errors of the game layer: each says what is wrong, and where or which rule."""
from __future__ import annotations


class GameError(ValueError):
    """An action the rules (or the game's state) do not allow; `rule` names the rule when one applies."""

    def __init__(self, message: str, rule: str | None = None):
        self.message, self.rule = message, rule
        super().__init__(f"{message} ({rule})" if rule else message)


class EventDeckError(ValueError):
    """An event deck list that cannot be used, with the file, the entry (1-based) and the field."""

    def __init__(self, message: str, *, path=None, entry: int | None = None, field: str | None = None):
        self.message, self.path, self.entry, self.field = message, path, entry, field
        where = [str(path)] if path is not None else []
        if entry is not None:
            where.append(f"entry {entry}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__((", ".join(where) + ": " if where else "") + message)


class SaveError(RuntimeError):
    """A save file that cannot be read; `path` is the file, `restored_from` the backup used, if any."""

    def __init__(self, message: str, *, path=None, restored_from=None):
        self.message, self.path, self.restored_from = message, path, restored_from
        super().__init__(f"{path}: {message}" if path is not None else message)
