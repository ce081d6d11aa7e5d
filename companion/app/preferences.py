"""The table's display choices, kept between runs: language and how each player's panel is turned.

Not game facts (those are all in the game's journal): how the tablet lies on this table. One
small JSON file in the data folder, written atomically; a missing or unreadable file gives the
defaults (nothing of a game depends on it). No kivy.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)
FILE_NAME = "preferences.json"


@dataclass
class Preferences:
    path: Path
    lang: str | None = None                   # None: the system's language
    seat_layout: str = "upright"
    rotations: dict[str, dict[str, int]] = field(default_factory=dict)  # game file name -> player -> degrees

    @classmethod
    def load(cls, folder: Path) -> "Preferences":
        path = Path(folder) / FILE_NAME
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path)
        except (OSError, ValueError) as exc:
            log.warning("preferences %s unreadable (%s): defaults used", path, exc)
            return cls(path)
        if not isinstance(data, dict):
            return cls(path)
        lang = data.get("lang") if data.get("lang") in ("fr", "en") else None
        layout = data.get("seat_layout") if isinstance(data.get("seat_layout"), str) else "upright"
        rotations = {str(game): {str(p): int(deg) % 360 for p, deg in seats.items() if isinstance(deg, int)}
                     for game, seats in (data.get("rotations") or {}).items() if isinstance(seats, dict)}
        return cls(path, lang, layout, rotations)

    def save(self) -> None:
        """Write atomically (temporary file, then rename); a failure is logged, never raised."""
        data = {"lang": self.lang, "seat_layout": self.seat_layout, "rotations": self.rotations}
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            os.replace(temp, self.path)
        except OSError as exc:
            log.warning("cannot save preferences %s: %s", self.path, exc)

    def rotation(self, game_key: str, player: int) -> int | None:
        return self.rotations.get(game_key, {}).get(str(player))

    def set_rotation(self, game_key: str, player: int, degrees: int) -> None:
        self.rotations.setdefault(game_key, {})[str(player)] = degrees % 360
        self.save()
