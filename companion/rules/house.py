"""House-rule options: every reading of the seeds a table could make differently (MT 8.04).

The defaults are the interpretations of rules-digest.md. A table writes only the
options it changes in a small YAML file, e.g.::

    metric: chebyshev
    die_sides: 12
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from boards.yamlfile import read_yaml

from companion.rules.geometry import METRICS

LANDWALK_READINGS = ("start_square", "start_or_end_square")
UNCERTAIN_READINGS = ("colour", "square")


class HouseRulesError(ValueError):
    """A house-rules file or value that cannot be used, naming the file and the field."""

    def __init__(self, message: str, *, path=None, field=None):
        self.message, self.path, self.field = message, path, field
        where = ", ".join(filter(None, [str(path) if path else None, f"field '{field}'" if field else None]))
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class HouseRules:
    """Options of one table; defaults = the project's reading of the seeds (rules-digest.md).

    metric: distance for zones, "manhattan" (MT 4.03 read with 3.07) or "chebyshev" (king moves).
    die_sides: movement dice, 10 or 12 (MT 1.04).
    extra_die_threshold: power AND toughness below this → one extra die (MT 3.04.d, 3).
    landwalk_reading: when landwalk doubles movement (MT 6.09): "start_square" = the move starts on
        the land's colour; "start_or_end_square" = also when the move ends on it.
    reach_zero_as_one: a 0-MV reach creature counts MV 1 before doubling → radius 2 (MT 6.07).
    spell_zero_as_one: a 0-MV spell has radius 3 instead of 0 (MT 4.09.a).
    planeswalker_move_loyalty: loyalty cost of "move to target square" (MT 3.09, symbol lost: +0).
    haste_moves_when_sick: haste (keyword or red square) lets a summoning-sick creature move (MT 3.02).
    uncertain_colours: a doubtful colour voids the whole "square" (MT 2.02.e: "ces cases ne sont pas
        comptabilisées"), or drops only that "colour".
    mana_burn: 1 life per unspent mana at the end of a phase (old base rule, off).
    """

    metric: str = "manhattan"
    die_sides: int = 10
    extra_die_threshold: int = 3
    landwalk_reading: str = "start_square"
    reach_zero_as_one: bool = True
    spell_zero_as_one: bool = True
    planeswalker_move_loyalty: int = 0
    haste_moves_when_sick: bool = True
    uncertain_colours: str = "square"
    mana_burn: bool = False

    def __post_init__(self):
        choices = {"metric": METRICS, "die_sides": (10, 12), "landwalk_reading": LANDWALK_READINGS,
                   "uncertain_colours": UNCERTAIN_READINGS}
        for f in fields(self):
            value = getattr(self, f.name)
            expected = {"bool": bool, "int": int, "str": str}[f.type]
            if type(value) is not expected:
                raise HouseRulesError(f"expected {f.type}, got {value!r}", field=f.name)
            if f.name in choices and value not in choices[f.name]:
                raise HouseRulesError(f"expected one of {list(choices[f.name])}, got {value!r}", field=f.name)
        if self.extra_die_threshold < 0:
            raise HouseRulesError(f"expected a number ≥ 0, got {self.extra_die_threshold}",
                                  field="extra_die_threshold")

    @classmethod
    def from_mapping(cls, data, *, path=None) -> "HouseRules":
        """Build from a parsed mapping; unknown keys and bad values name the file and field."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise HouseRulesError(f"expected a mapping of option: value, got {type(data).__name__}", path=path)
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise HouseRulesError(f"unknown option; known options: {', '.join(sorted(known))}",
                                      path=path, field=str(key))
        try:
            return cls(**data)
        except HouseRulesError as exc:
            raise HouseRulesError(exc.message, path=path, field=exc.field) from None

    @classmethod
    def load(cls, path: str | Path) -> "HouseRules":
        """Read a YAML house-rules file (yaml.safe_load only)."""
        data = read_yaml(path, lambda message: HouseRulesError(message, path=path))
        return cls.from_mapping(data, path=path)


DEFAULT_HOUSE_RULES = HouseRules()
