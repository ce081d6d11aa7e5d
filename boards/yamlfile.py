"""Reading small YAML files (house rules, event decks) with one clear error each.

Only yaml.safe_load: nothing read from a file is ever executed. Board files have
their own, stricter reader (boards.io) that also locates rows and columns.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import yaml


def read_yaml(path: str | Path, error: Callable[[str], Exception]) -> object:
    """The parsed content of a YAML file; on failure raise `error(message)`, message saying why
    (unreadable file, not UTF-8, invalid YAML with its line)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 text (byte {exc.start})") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise error(f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
