"""A card — or a token described in a few words — as the data of a piece on the grid.

`card_to_piece` keeps what the rules engine reads (`companion.rules.Piece`): mana value (X is 0
and MT 4.03.c then gives the zone its radius of 1), colours (MT 2.02.b), power and toughness
(MT 3.04.d), kind (MT 5.01) and the keywords with a grid erratum (MT 6.xx) or a colour bonus.
What the data cannot say (a "*" power, a level, a keyword granted by another card) is left
for the table, which can change every field by hand.
"""
from __future__ import annotations

import re
from functools import lru_cache

from companion.cards.model import COLOUR_ORDER, Card, PieceDraft
from companion.cards.text import fold, has_x
from companion.i18n import LANGUAGES, translate
from companion.rules import KEYWORDS

_INTEGER = re.compile(r"[+-]?\d+")


@lru_cache(maxsize=1)
def _keyword_names() -> dict[str, str]:
    """Folded keyword name, English or French ("forestwalk", "traversee des forets") → engine key.

    The names are the i18n words of the keywords, which are Magic's own names in both languages."""
    return {fold(translate(lang, f"keywords.{key}")): key for lang in LANGUAGES for key in KEYWORDS}


def keyword_key(name: str) -> str | None:
    """The engine's key for a keyword named in English or French ("Flying", "Traversée des forêts"),
    or None for a keyword the grid does not care about ("First strike")."""
    return _keyword_names().get(fold(name))


def kind_of(card: Card) -> str | None:
    """"creature", "planeswalker", or None when the permanent is not on the grid (MT 5.01.b).

    A card that is both (rare) is a creature: it fights like one."""
    if "Creature" in card.types:
        return "creature"
    if "Planeswalker" in card.types:
        return "planeswalker"
    return None


def _printed_integer(value: str | None) -> int | None:
    return int(value) if value is not None and _INTEGER.fullmatch(value.strip()) else None


def card_to_piece(card: Card, lang: str = "fr", *, token: bool = False) -> PieceDraft:
    """The piece a card becomes (see module docstring). `token=True` for a token copy of it."""
    mapped, unmapped = set(), []
    for keyword in card.keywords:
        key = keyword_key(keyword)
        if key:
            mapped.add(key)
        else:
            unmapped.append(keyword)
    if card.unblockable:
        mapped.add("unblockable")
    kind = kind_of(card)
    power, toughness = _printed_integer(card.power), _printed_integer(card.toughness)
    variable = tuple(field for field, printed, value in (("power", card.power, power),
                                                          ("toughness", card.toughness, toughness))
                     if kind == "creature" and printed is not None and value is None)
    return PieceDraft(
        name=card.display_name(lang), kind=kind, mana_value=max(0, int(card.mana_value)),
        colours=frozenset(card.colours), keywords=frozenset(mapped), power=power, toughness=toughness,
        loyalty=_printed_integer(card.loyalty), printed_power=card.power, printed_toughness=card.toughness,
        variable=variable, x_in_cost=has_x(card.mana_cost), token=token, card_id=card.id or None,
        unmapped_keywords=tuple(unmapped))


_POWER_TOUGHNESS = re.compile(r"(?<![\w*])(\d+|\*)\s*/\s*(\d+|\*)(?![\w*])")
_TOKEN_WORDS = frozenset({"token", "tokens", "jeton", "jetons", "creature", "creatures", "de", "d"})


def _colour_letters(word: str) -> bool:
    """"W", "WU", "RUG" written in capitals, or one or two letters in any case ("g", "bg")."""
    return (0 < len(word) <= (5 if word.isupper() else 2) and set(word.upper()) <= set(COLOUR_ORDER)
            and len(set(word.upper())) == len(word))


@lru_cache(maxsize=1)
def _colour_words() -> list[tuple[str, str]]:
    """(folded colour word, letter), longest first: "white", "blanc" (which begins "blanche") …"""
    words = {(fold(translate(lang, f"colours.{c}")), c) for lang in LANGUAGES for c in COLOUR_ORDER}
    return sorted(words, key=lambda w: -len(w[0]))


def parse_token(text: str, lang: str = "fr") -> PieceDraft | None:
    """A token described as the table says it — "Soldier token 1/1 W", "jeton Esprit 1/1 blanc vol",
    "2/2 G wolf" — or None when `text` holds no power/toughness.

    Colours by letter (W U B R G, also "WU") or word in either language, keywords by their
    English or French names, and the remaining words name the token. A token has no mana cost:
    mana value 0 (MT 4.03.c)."""
    match = _POWER_TOUGHNESS.search(text)
    if not match:
        return None
    printed_power, printed_toughness = match.groups()
    rest = text[:match.start()] + " " + text[match.end():]
    colours, kept = set(), []
    for word in rest.split():
        if _colour_letters(word.strip(",.;:()")):
            colours |= set(word.strip(",.;:()").upper())
        else:
            kept.append(word)
    rest = fold(" ".join(kept))
    keywords = set()
    for name, key in sorted(_keyword_names().items(), key=lambda item: -len(item[0])):
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        if pattern.search(rest):
            keywords.add(key)
            rest = pattern.sub(" ", rest)
    words = []
    for word in rest.split():
        colour = next((c for name, c in _colour_words() if word.startswith(name)), None)
        if colour:
            colours.add(colour)
        elif word not in _TOKEN_WORDS:
            words.append(word)
    original = {fold(w): w for w in re.findall(r"[^\W\d_]+", text)}
    name = " ".join(original.get(w, w).capitalize() for w in words)
    power, toughness = _printed_integer(printed_power), _printed_integer(printed_toughness)
    return PieceDraft(
        name=translate(lang, "cards.token_name", name=name) if name else translate(lang, "cards.token"),
        kind="creature", mana_value=0, colours=frozenset(colours), keywords=frozenset(keywords),
        power=power, toughness=toughness, printed_power=printed_power, printed_toughness=printed_toughness,
        variable=tuple(f for f, v in (("power", power), ("toughness", toughness)) if v is None), token=True)
