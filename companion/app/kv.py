"""Load the `.kv` file that sits beside a screen or widget module, once."""
from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

_loaded: set[Path] = set()


def load_kv_beside(module_file: str) -> None:
    """Builder.load_file on `<module>.kv`; loading twice would duplicate rules, so it is remembered."""
    path = Path(module_file).with_suffix(".kv")
    if path not in _loaded:
        Builder.load_file(str(path))
        _loaded.add(path)
