"""Words in French and English for every package: the app's screens, the game's refusals and history,
the command line. Pure (yaml only), so `companion.game` and `companion.rules` may use it.

Each language is a folder (`fr/`, `en/`) of YAML files, one per area (`app.yaml`, …); their keys
form one space of dotted paths ('board.roll'), and a key may stand in one file only. Values may
hold `str.format` fields ('{name}'). A missing key is a bug, so it shows as the key itself in
brackets instead of crashing a game in progress; a test checks both languages have the same keys
and that every key used in the code exists.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

LANGUAGES = ("fr", "en")
I18N_DIR = Path(__file__).parent


def _flatten(node: dict, prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, path + "."))
        else:
            flat[path] = str(value)
    return flat


@lru_cache(maxsize=None)
def strings(lang: str) -> dict[str, str]:
    """All strings of one language, flattened to dotted keys."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    flat: dict[str, str] = {}
    for path in sorted((I18N_DIR / lang).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of strings")
        strings_here = _flatten(data)
        twice = sorted(set(strings_here) & set(flat))
        if twice:
            raise ValueError(f"{path}: keys already defined in another file of '{lang}': {twice[:5]}")
        flat.update(strings_here)
    return flat


# "de {name}", "le {token}", "que {name}": a French word that loses its vowel before a vowel
_ELIDING_WORD_BEFORE_FIELD = re.compile(r"(?<![\w'’])([Dd]e|[Ll]e|[Ll]a|[Qq]ue) \{(\w+)\}")
# a word (not a square such as "A5" or "AE12", not a number) whose first letter is a vowel; an "h"
# is left alone: its spelling does not tell a mute h ("d'Hélène") from an aspirated one ("de la Horde")
_VOWEL_WORD = re.compile(r"[AEIOUÀÂÉÈÊËÎÏÔÛÙaeiouàâéèêëîïôûù][^\W\d_][^\s\d]*(\s|$)")


def elide_french(template: str, fields: dict) -> str:
    """`template` with "de {name}" written "d'{name}" (and "le"/"la" → "l'", "que" → "qu'") wherever
    the value given to that field begins with a vowel: "le pion d'Émile", "le paquet d'Anna" — a
    French reader stumbles on "de Anna", and names come from the table, not from the template."""
    def elide(match: re.Match) -> str:
        word, field = match.groups()
        if not _VOWEL_WORD.match(str(fields.get(field, ""))):
            return match.group(0)
        return f"{word[:-1]}'{{{field}}}"
    return _ELIDING_WORD_BEFORE_FIELD.sub(elide, template)


def format_text(lang: str, template: str, fields: dict) -> str:
    """`template` formatted with `fields` as the language writes it (French elisions)."""
    if lang == "fr":
        template = elide_french(template, fields)
    return template.format(**fields)


def translate(lang: str, key: str, **fields) -> str:
    """The string for `key` in `lang`, formatted with `fields`."""
    text = strings(lang).get(key)
    if text is None:
        return f"[{key}]"
    return format_text(lang, text, fields) if fields else text


def decimal(value: float, lang: str, digits: int = 1) -> str:
    """A number with `digits` decimals, with the comma a French reader expects ("0,5 s")."""
    shown = f"{value:.{digits}f}"
    return shown.replace(".", ",") if lang == "fr" else shown
