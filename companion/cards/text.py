"""Text helpers shared by the importers and the search: name folding and mana costs.

`fold` is the one definition of "the same name" for the whole package: the index is
built with it and every query goes through it, so accents, case, ligatures and
punctuation never decide a match ("Élémental de l'air" = "elemental de l air").
"""
from __future__ import annotations

import re
import unicodedata

# Letters NFKD does not decompose, as a French or English reader would type them.
_LIGATURES = str.maketrans({"æ": "ae", "œ": "oe", "ß": "ss", "ø": "o", "đ": "d", "ł": "l", "þ": "th",
                            "ð": "d", "ı": "i"})
_NOT_WORD = re.compile(r"[^0-9a-z]+")


def fold(text: str) -> str:
    """Lower case, no accents or ligatures, words separated by single spaces.

    Apostrophes and hyphens separate words, so the French elision "d'éther" gives the
    word "ether" (typed as such) and "Crinière-Dorée" gives "criniere doree".
    """
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(_LIGATURES))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_LIGATURES)
    return _NOT_WORD.sub(" ", bare).strip()


def word_starts(folded: str, max_chars: int | None = None) -> list[str]:
    """Every suffix of a folded name that begins a word: what a prefix search may match, each cut
    to `max_chars` when given (the index keeps that much: linear in the name, not quadratic).

    "ange de serra" → ["ange de serra", "de serra", "serra"].
    """
    end = None if max_chars is None else max_chars
    return [folded[i:None if end is None else i + end] for i in range(len(folded)) if i == 0 or folded[i - 1] == " "]


_SYMBOL = re.compile(r"\{([^}]*)\}")


def mana_value_of_cost(cost: str | None) -> float:
    """Mana value of a printed cost such as "{X}{2}{W/U}{G/P}" (CR 202.3): X counts as 0
    (MT 4.03.c), a hybrid or Phyrexian symbol as one, {2/W} as two, a half symbol as ½.

    Used where the data gives a face's cost but not its mana value (Scryfall's modal
    double-faced backs).
    """
    total = 0.0
    for symbol in _SYMBOL.findall(cost or ""):
        symbol = symbol.upper()
        if symbol.isdigit():
            total += int(symbol)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif symbol.startswith("H"):  # {HW}: half a white mana (Un-sets)
            total += 0.5
        elif "/" in symbol and symbol.split("/")[0].isdigit():
            total += int(symbol.split("/")[0])
        elif symbol == "½":
            total += 0.5
        else:
            total += 1
    return total


def colours_of_cost(cost: str | None) -> str:
    """The colour letters a cost holds ("{1}{R/G}" → "RG"), in WUBRG order."""
    letters = set("".join(_SYMBOL.findall(cost or "")).upper())
    return "".join(c for c in "WUBRG" if c in letters)


def has_x(cost: str | None) -> bool:
    """Whether a cost holds an X (shown to the table: the mana value then counts X as 0)."""
    return any(s.upper() == "X" for s in _SYMBOL.findall(cost or ""))
