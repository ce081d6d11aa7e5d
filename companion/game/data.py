"""Reading an action's data field by field, each type checked (issue 19: a journal row edited by hand
or damaged on disk is a clear `GameError` naming the action and the field, never a crash).

Every handler of the reducer reads its data through an `ActionData`: `d.int("amount")`,
`d.token()`, `d.square("at", optional=True)` … A wrong type, a missing field, a value out of range
raises `GameError("game.error.bad_field", action=…, field=…, expected_key=…, got=…)`.
"""
from __future__ import annotations

from typing import Any, Iterable

from companion.game.errors import GameError

_MISSING = object()
_REPR_CHARS = 60  # a bad value is quoted, cut to this many characters (a huge row makes no huge message)


def short_repr(value: Any) -> str:
    """repr() of a value, cut short; deep structures are never walked past the cut."""
    if isinstance(value, (list, tuple, dict)):
        kind = type(value).__name__
        return f"<{kind} of {len(value)}>" if len(value) > 8 else _cut(_shallow(value))
    return _cut(repr(value))


def _shallow(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_brief(v)}" for k, v in value.items()) + "}"
    inner = ", ".join(_brief(v) for v in value)
    return f"[{inner}]" if isinstance(value, list) else f"({inner})"


def _brief(value) -> str:
    return f"<{type(value).__name__}>" if isinstance(value, (list, tuple, dict)) else _cut(repr(value))


def _cut(text: str) -> str:
    return text if len(text) <= _REPR_CHARS else text[:_REPR_CHARS - 1] + "…"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ActionData:
    """The data of one action (or a mapping nested in it, `prefix` naming where), read with checks."""

    def __init__(self, action: str, data: Any, prefix: str = ""):
        self.action, self.prefix = action, prefix
        if not isinstance(data, dict):
            raise self.error("", "mapping", data)
        self.data = data

    # -- errors ---------------------------------------------------------------------
    def error(self, name: str, expected: str, value: Any, **more) -> GameError:
        where = f"{self.prefix}{name}" if name else self.prefix.rstrip(".") or "data"
        return GameError("game.error.bad_field", action=self.action, field=where,
                         expected_key=f"game.expected.{expected}", got=short_repr(value), **more)

    def _get(self, name: str, default):
        value = self.data.get(name, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise GameError("game.error.missing_field", action=self.action, field=f"{self.prefix}{name}")
            return default, True
        return value, False

    # -- plain values ---------------------------------------------------------------
    def int(self, name: str, *, minimum: int | None = None, maximum: int | None = None, default=_MISSING,
            optional: bool = False) -> int | None:
        value, missing = self._get(name, None if optional and default is _MISSING else default)
        if missing or (optional and value is None):
            return value
        if not _is_int(value):
            raise self.error(name, "int", value)
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise self.error(name, "int_between", value, low="−∞" if minimum is None else minimum,
                             high="∞" if maximum is None else maximum)
        return value

    def bool(self, name: str, *, default=_MISSING) -> bool:
        value, missing = self._get(name, default)
        if missing:
            return value
        if not isinstance(value, bool):
            raise self.error(name, "bool", value)
        return value

    def str(self, name: str, *, default=_MISSING, optional: bool = False, limit: int = 2000) -> str | None:
        value, missing = self._get(name, None if optional and default is _MISSING else default)
        if missing or (optional and value is None):
            return value
        if not isinstance(value, str) or len(value) > limit:
            raise self.error(name, "text", value, limit=limit)
        return value

    def choice(self, name: str, options: Iterable, *, default=_MISSING):
        options = tuple(options)
        value, missing = self._get(name, default)
        if missing:
            return value
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value not in options:
            raise self.error(name, "one_of", value, options=", ".join(map(str, options)))
        return value

    # -- structures -----------------------------------------------------------------
    def list(self, name: str, *, default=_MISSING, optional: bool = False, limit: int = 100_000) -> list | None:
        value, missing = self._get(name, None if optional and default is _MISSING else default)
        if missing or (optional and value is None):
            return value
        if not isinstance(value, list) or len(value) > limit:
            raise self.error(name, "list", value)
        return value

    def mapping(self, name: str, *, default=_MISSING, optional: bool = False) -> dict | None:
        value, missing = self._get(name, None if optional and default is _MISSING else default)
        if missing or (optional and value is None):
            return value
        if not isinstance(value, dict):
            raise self.error(name, "mapping", value)
        return value

    def sub(self, value: Any, where: str) -> "ActionData":
        """A mapping nested in this data (an item of a list …), its fields named `where.field`."""
        return ActionData(self.action, value, f"{self.prefix}{where}.")

    def pair(self, name: str, value: Any = _MISSING, *, expected: str = "square") -> tuple[int, int]:
        """A [int, int] pair: a square [x, y] or a token [colour, number]."""
        if value is _MISSING:
            value, _ = self._get(name, _MISSING)
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_int(v) for v in value)):
            raise self.error(name, expected, value)
        return value[0], value[1]

    def token(self, name: str = "token") -> tuple[int, int]:
        return self.pair(name, expected="token")

    def square(self, name: str, *, optional: bool = False) -> tuple[int, int] | None:
        value, missing = self._get(name, None if optional else _MISSING)
        if optional and value is None:
            return None
        return self.pair(name, value)

    def texts(self, name: str, *, default=_MISSING, limit: int = 2000) -> list[str]:
        """A list of strings (plane names …)."""
        values = self.list(name, default=default)
        for index, value in enumerate(values):
            if not isinstance(value, str) or len(value) > limit:
                raise self.error(f"{name}[{index + 1}]", "text", value, limit=limit)
        return values
