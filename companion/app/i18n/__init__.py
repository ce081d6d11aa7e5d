"""UI strings in French and English, from `fr.yaml` / `en.yaml` beside this file.

Keys are dotted paths into the YAML ('board.roll'); values may hold
`str.format` fields ('{name}'). A missing key is a bug, so it shows as the key
itself in brackets instead of crashing a game in progress; a test checks both
files have the same keys and that every key used by the app exists.
"""
from __future__ import annotations

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
    path = I18N_DIR / f"{lang}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of UI strings")
    return _flatten(data)


def translate(lang: str, key: str, **fields) -> str:
    """The string for `key` in `lang`, formatted with `fields`."""
    text = strings(lang).get(key)
    if text is None:
        return f"[{key}]"
    return text.format(**fields) if fields else text
