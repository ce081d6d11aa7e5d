"""Errors of the game layer: each says what is wrong, and where or which rule."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from safeio.yamlfile import FileError
from companion.rules.wording import Message


class GameError(ValueError):
    """An action the rules (or the game's state) do not allow.

    `key` is the i18n key of the reason (`companion/i18n/<lang>/game.yaml`), `fields` its values,
    `rule` the rule it cites ("MT 3.04.a") or None; `text(lang)` words it for the table and
    `str(error)` is the English text, for logs and tests.
    """

    def __init__(self, key: str, rule: str | None = None, /, **fields: Any):
        self.key, self.rule, self.fields = key, rule, fields
        super().__init__(self.text("en"))

    @property
    def message(self) -> Message:
        return Message(self.key, self.fields, self.rule)

    def text(self, lang: str = "en") -> str:
        return self.message.text(lang)


class EventDeckError(FileError):
    """An event deck list that cannot be used, with the file, its line, the entry (1-based) and the field."""

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None,
                 entry: int | None = None, field: str | None = None):
        self.entry = entry
        super().__init__(message, path=path, line=line, field=field)

    def __str__(self) -> str:
        where = [f"{self.path}" + (f":{self.line}" if self.line else "")] if self.path is not None else []
        if self.entry is not None:
            where.append(f"entry {self.entry}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        return (", ".join(where) + ": " if where else "") + self.message


def _when(path: object) -> str:
    """'game-20260501-2014…' → '2026-05-01 20:14': the date a save is named after, as people read it."""
    match = re.match(r"game-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})", getattr(path, "name", str(path or "")))
    return f"{match[1]}-{match[2]}-{match[3]} {match[4]}:{match[5]}" if match else str(getattr(path, "name", path))


class SaveError(RuntimeError):
    """A save that cannot be read or written, or a report of what was repaired (`Game.recovered`).

    `path` is the file; `restored_from` the backup used, if any; `entry` the journal entry (from 1)
    where a replay failed; `kept` / `lost` the entries a repair kept and lost (lost None: unknown).
    `key` + `fields` word it for the table through companion.i18n (area `store`)."""

    def __init__(self, message: str, *, path: str | Path | None = None, restored_from: str | Path | None = None,
                 entry: int | None = None, key: str = "store.error", kept: int | None = None, lost: int | None = None,
                 **fields: Any):
        self.message, self.path, self.restored_from, self.entry = message, path, restored_from, entry
        self.key, self.kept, self.lost = key, kept, lost
        self.fields = {"name": getattr(path, "name", path), "when": _when(path), "problem": message,
                       "reason": message, "kept": kept, "lost": lost, **fields}
        super().__init__(f"{path}: {message}" if path is not None else message)
