"""What the rules and the game say, as an i18n key and its fields, worded only when shown.

A refusal, a move verdict, a history line or a warning is a `Message`: the key of a string in
`companion/i18n/<lang>/game.yaml`, plain JSON-ready fields, and the rule it cites. The screens word
it in the table's language; `str()` of an error stays readable English for logs and tests.

Fields follow three conventions so that they stay plain data: a field `x_key` holds the key of a word
that is itself translated and given to the string as `x` (a phase, a colour, a reason); a field
`x_keys` holds a list of such keys, given as `x` joined with commas; a field `x_words` holds a list
of nested messages `{"key", "fields"}`, each worded the same way and joined with " · " (a piece's
changes: "engagé · 4/4"). Other lists are joined with commas.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import format_text, translate


def word(lang: str, key: str, fields: dict[str, Any] | None = None) -> str:
    """The string of `key` in `lang` with its fields, `*_key`, `*_keys` and `*_words` fields worded first."""
    fields = fields or {}
    plain = {name: ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
             for name, value in fields.items() if not name.endswith(("_key", "_keys", "_words"))}
    values = dict(plain)
    try:
        for name, value in fields.items():  # translated words may use the plain fields too ("from {low} to {high}")
            if name.endswith("_keys") and isinstance(value, (list, tuple)):
                values[name[:-5]] = ", ".join(_format(lang, str(v), plain) for v in value)
            elif name.endswith("_key") and isinstance(value, str):
                values[name[:-4]] = _format(lang, value, plain)
            elif name.endswith("_words") and isinstance(value, (list, tuple)):
                values[name[:-6]] = " · ".join(word(lang, w["key"], w.get("fields")) for w in value
                                               if isinstance(w, dict) and "key" in w)
        return _format(lang, key, values)
    except (KeyError, IndexError, ValueError):  # a string asking for a field the message lacks: a bug, said plainly
        return f"[{key} {values}]"


def _format(lang: str, key: str, values: dict[str, Any]) -> str:
    """The string of `key` formatted with `values` (always formatted, so "{{T}}" reads "{T}")."""
    return format_text(lang, translate(lang, key), values)


@dataclass(frozen=True)
class Message:
    """One thing said: `key` (i18n, game.yaml), `fields` (plain data), `rule` ("MT 3.04.a" or None)."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def text(self, lang: str = "en") -> str:
        """The message worded in `lang` ("fr" or "en"), the rule in brackets after it."""
        text = word(lang, self.key, self.fields)
        return f"{text} ({self.rule})" if self.rule else text

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "fields": dict(self.fields), "rule": self.rule}
