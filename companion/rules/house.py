"""House-rule options: every reading of the seeds a table could make differently (MT 8.04).

The defaults are the interpretations of rules-digest.md. A table writes only the
options it changes in a small YAML file, e.g.::

    metric: chebyshev
    die_sides: 12
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from safeio.yamlfile import (FileError, Flag, Limits, OneOf, Record, Whole, YamlDocument, file_error,
                             plain_document, read_yaml_file)

from companion.rules.geometry import METRICS

LANDWALK_READINGS = ("start_square", "start_or_end_square")
UNCERTAIN_READINGS = ("colour", "square")
BONUS_CHOOSERS = ("owner", "controller")


class HouseRulesError(FileError):
    """A house-rules file or value that cannot be used, naming the file, its line and the field."""


_error = file_error(HouseRulesError)
# Every option, its type and its range: the one check of files, of the app's form and of code.
OPTIONS = Record({
    "metric": OneOf(METRICS),
    "die_sides": OneOf((10, 12)),
    "extra_die_threshold": Whole(0, 100),
    "landwalk_reading": OneOf(LANDWALK_READINGS),
    "reach_zero_as_one": Flag(),
    "spell_zero_as_one": Flag(),
    "planeswalker_move_loyalty": Whole(-100, 100),
    "haste_moves_when_sick": Flag(),
    "uncertain_colours": OneOf(UNCERTAIN_READINGS),
    "mana_burn": Flag(),
    "bonus_chooser": OneOf(BONUS_CHOOSERS),
}, noun="option")


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
    bonus_chooser: who picks a multicoloured creature's bonus, at the start of their own upkeep (MT 2.02.c):
        "owner", the seed's word (« au début de l'entretien de son propriétaire, ce joueur choisit »), or
        "controller" (whoever fights with the creature, a stolen one included).
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
    bonus_chooser: str = "owner"

    def __post_init__(self) -> None:
        OPTIONS.check(asdict(self), plain_document(None, error=_error))

    @classmethod
    def from_mapping(cls, data: object, *, path: str | Path | None = None) -> "HouseRules":
        """Build from a parsed mapping (or a read document); unknown keys and bad values name the file and field."""
        document = data if isinstance(data, YamlDocument) else plain_document(data, path=path, error=_error)
        if document.data is None:
            return cls()
        if not isinstance(document.data, dict):
            raise document.fail(f"expected a mapping of option: value, got {type(document.data).__name__}")
        return cls(**OPTIONS.check(document.data, document))

    @classmethod
    def load(cls, path: str | Path) -> "HouseRules":
        """Read a YAML house-rules file (bounded reader, safe constructor only)."""
        return cls.from_mapping(read_yaml_file(path, limits=Limits(max_bytes=64 << 10, max_depth=4), error=_error))


DEFAULT_HOUSE_RULES = HouseRules()
