"""Reading an action's data field by field, each type checked (issue 19: a journal row edited by hand
or damaged on disk is a clear `GameError` naming the action and the field, never a crash).

Every handler of the reducer reads its data through an `ActionData`: `d.integer("amount")`,
`d.token()`, `d.optional_square("at")` … A wrong type, a missing field, a value out of range
raises `GameError("game.error.bad_field", action=…, field=…, expected_key=…, got=…)`.
"""
from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Final, TypeVar

from companion.game.errors import GameError

_REPR_CHARS = 60  # a bad value is quoted, cut to this many characters (a huge row makes no huge message)
Choice = TypeVar("Choice", str, int)


class _Missing(Enum):
    """The default of a field that must be given (None is a value a field may have)."""

    MISSING = "missing"


_MISSING: Final = _Missing.MISSING


def short_repr(value: Any) -> str:
    """repr() of a value, cut short; deep structures are never walked past the cut."""
    if isinstance(value, (list, tuple, dict)):
        kind = type(value).__name__
        return f"<{kind} of {len(value)}>" if len(value) > 8 else _cut(_shallow(value))
    return _cut(repr(value))


def _shallow(value: list[Any] | tuple[Any, ...] | dict[Any, Any]) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_brief(v)}" for k, v in value.items()) + "}"
    inner = ", ".join(_brief(v) for v in value)
    return f"[{inner}]" if isinstance(value, list) else f"({inner})"


def _brief(value: Any) -> str:
    return f"<{type(value).__name__}>" if isinstance(value, (list, tuple, dict)) else _cut(repr(value))


def _cut(text: str) -> str:
    return text if len(text) <= _REPR_CHARS else text[:_REPR_CHARS - 1] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ActionData:
    """The data of one action (or a mapping nested in it, `prefix` naming where), read with checks.

    Each kind of value has a reader for a field that must be there (or has a `default`) and an
    `optional_…` one for a field that may be missing or null (None then)."""

    def __init__(self, action: str, data: Any, prefix: str = ""):
        self.action, self.prefix = action, prefix
        if not isinstance(data, dict):
            raise self.error("", "mapping", data)
        self.data: dict[str, Any] = data

    # -- errors ---------------------------------------------------------------------
    def error(self, name: str, expected: str, value: Any, **more: Any) -> GameError:
        where = f"{self.prefix}{name}" if name else self.prefix.rstrip(".") or "data"
        return GameError("game.error.bad_field", action=self.action, field=where,
                         expected_key=f"game.expected.{expected}", got=short_repr(value), **more)

    def _get(self, name: str, default: Any) -> tuple[Any, bool]:
        """(value, missing): the field's value, or the default when it is missing (an error without one)."""
        value = self.data.get(name, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise GameError("game.error.missing_field", action=self.action, field=f"{self.prefix}{name}")
            return default, True
        return value, False

    def _present(self, name: str) -> bool:
        """Whether an optional field holds a value (missing and null are both None)."""
        return self.data.get(name) is not None

    # -- plain values ---------------------------------------------------------------
    def integer(self, name: str, *, minimum: int | None = None, maximum: int | None = None,
                default: int | _Missing = _MISSING) -> int:
        value, missing = self._get(name, default)
        if missing:
            return int(value)
        if not _is_int(value):
            raise self.error(name, "int", value)
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise self.error(name, "int_between", value, low="−∞" if minimum is None else minimum,
                             high="∞" if maximum is None else maximum)
        return int(value)

    def optional_integer(self, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int | None:
        return self.integer(name, minimum=minimum, maximum=maximum) if self._present(name) else None

    def flag(self, name: str, *, default: bool | _Missing = _MISSING) -> bool:
        value, missing = self._get(name, default)
        if not missing and not isinstance(value, bool):
            raise self.error(name, "bool", value)
        return bool(value)

    def text(self, name: str, *, default: str | _Missing = _MISSING, limit: int = 2000) -> str:
        value, missing = self._get(name, default)
        if missing:
            return str(value)
        if not isinstance(value, str) or len(value) > limit:
            raise self.error(name, "text", value, limit=limit)
        return value

    def optional_text(self, name: str, *, limit: int = 2000) -> str | None:
        return self.text(name, limit=limit) if self._present(name) else None

    def choice(self, name: str, options: Iterable[Choice], *, default: Choice | _Missing = _MISSING) -> Choice:
        allowed = tuple(options)
        value, missing = self._get(name, default)
        if missing:
            return value  # type: ignore[no-any-return]  # the default, of the options' type
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value not in allowed:
            raise self.error(name, "one_of", value, options=", ".join(map(str, allowed)))
        return value

    # -- structures -----------------------------------------------------------------
    def sequence(self, name: str, *, default: list[Any] | _Missing = _MISSING, limit: int = 100_000) -> list[Any]:
        value, missing = self._get(name, default)
        if missing:
            return list(value)
        if not isinstance(value, list) or len(value) > limit:
            raise self.error(name, "list", value)
        return value

    def optional_sequence(self, name: str, *, limit: int = 100_000) -> list[Any] | None:
        return self.sequence(name, limit=limit) if self._present(name) else None

    def mapping(self, name: str, *, default: dict[str, Any] | _Missing = _MISSING) -> dict[str, Any]:
        value, missing = self._get(name, default)
        if missing:
            return dict(value)
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

    def square(self, name: str) -> tuple[int, int]:
        return self.pair(name)

    def optional_square(self, name: str) -> tuple[int, int] | None:
        return self.pair(name) if self._present(name) else None

    def texts(self, name: str, *, default: list[Any] | _Missing = _MISSING, limit: int = 2000) -> list[str]:
        """A list of strings (plane names …)."""
        values = self.sequence(name, default=default)
        for index, value in enumerate(values):
            if not isinstance(value, str) or len(value) > limit:
                raise self.error(f"{name}[{index + 1}]", "text", value, limit=limit)
        return values
