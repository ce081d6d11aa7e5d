"""From the entries of the public card files to `Card` faces: MTGJSON's AtomicCards (English and
French) and Scryfall's oracle-cards bulk file (English).

Only what the table needs is kept. Keywords come from the data's keyword list, and each counts
for a face only where a line of that face's own text is the keyword ("Flying, vigilance",
"Level up {1}{W}"): a lord's "Other Merfolk have islandwalk" gives the lord no islandwalk.
"Can't be blocked" (no keyword in the data) counts only as a whole line about the card itself.
"""
from __future__ import annotations

import re

from companion.cards.model import Card, colour_string
from companion.cards.text import colours_of_cost, mana_value_of_cost

# Entries that are not cards a table puts on the battlefield from a deck.
SKIPPED_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series", "vanguard", "scheme",
                             "reversible_card", "augment", "host"})
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host", "Token"})
# On the battlefield a modal double-faced card has the mana value of the face that is up (CR 712.8);
# the back of a transforming card has its front's (which is what the data's card-level value is).
OWN_FACE_VALUE = frozenset({"modal_dfc"})


class EntryError(ValueError):
    """An entry of a card file that is not what the format says. `kind` names the problem in a word
    the app translates ("not_faces", "no_mana_value", "not_scryfall"); the message is the English detail."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        super().__init__(message)


_REMINDER = re.compile(r"\([^)]*\)")
_KEYWORD_TAIL = re.compile(r"^(?:\{|\d|—|-|from |over |x\b|\[)")


def own_keywords(keywords, text: str) -> tuple[str, ...]:
    """The keywords of `keywords` that stand as keyword lines of `text` (see module docstring)."""
    parts = []
    for line in (text or "").lower().splitlines():
        line = _REMINDER.sub("", line).strip().rstrip(".")
        parts += [p.strip() for p in re.split(r"[,;]", line) if p.strip()]
    own = []
    for keyword in keywords or ():
        k = keyword.lower()
        if any(p == k or p.startswith(k + " ") and _KEYWORD_TAIL.match(p[len(k) + 1:]) for p in parts):
            own.append(keyword)
    return tuple(own)


def says_unblockable(name: str, text: str) -> bool:
    """Whether a whole line of the text is "<this card> can't be blocked." — unconditional, about
    itself (not "except by …", "this turn", "as long as …", nor about other creatures)."""
    selves = {name.lower(), name.split(",")[0].lower(), "this creature", "this permanent", "~"}
    for line in (text or "").splitlines():
        line = _REMINDER.sub("", line).strip().lower().replace("’", "'")
        if line.endswith(" can't be blocked.") and line[:-len(" can't be blocked.")] in selves:
            return True
    return False


def _types(type_line: str) -> tuple[str, ...]:
    left = type_line.split("—")[0].split("//")[0]
    return tuple(w for w in left.split() if w not in SUPERTYPES)


def _number(value) -> str | None:
    return None if value is None else str(value)


def is_alchemy(name: str) -> bool:
    """Digital rebalanced cards ("A-Name"): no table holds them."""
    return name.startswith("A-")


def mtgjson_faces(key: str, entries) -> list[Card]:
    """The faces of one AtomicCards entry (`data[key]`: a list of faces), or [] to skip it."""
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise EntryError("not_faces",
                         "expected a list of card faces (is this AtomicCards? AllPrintings is sorted by set)")
    faces = []
    for face in entries:
        layout = face.get("layout", "normal")
        name = face.get("faceName") or face.get("name") or key
        if layout in SKIPPED_LAYOUTS or is_alchemy(key):
            continue
        if "manaValue" not in face and "convertedManaCost" not in face:
            raise EntryError("no_mana_value", f"card {name!r} has no manaValue: not MTGJSON card data")
        value = face.get("manaValue", face.get("convertedManaCost", 0))
        if layout in OWN_FACE_VALUE:
            value = face.get("faceManaValue", face.get("faceConvertedManaCost", value))
        types = tuple(face.get("types") or _types(face.get("type", "")))
        text = face.get("text", "") or ""
        side = face.get("side", "") or ""
        french = [f for f in face.get("foreignData") or () if isinstance(f, dict) and f.get("language") == "French"]
        names_fr = []
        for entry in french:
            fr = entry.get("faceName") or entry.get("name") or ""
            if " // " in fr and side:
                halves = fr.split(" // ")
                fr = halves[min(ord(side) - ord("a"), len(halves) - 1)]
            if fr and fr not in names_fr:
                names_fr.append(fr)
        plane = "Plane" in types or "Phenomenon" in types
        first_fr = french[0] if french else {}
        faces.append(Card(
            name=name, card_name=face.get("name") or key, names_fr=tuple(names_fr), layout=layout, side=side,
            mana_cost=face.get("manaCost", "") or "", mana_value=float(value or 0),
            colours=colour_string(face.get("colors") or ()), power=_number(face.get("power")),
            toughness=_number(face.get("toughness")), loyalty=_number(face.get("loyalty")),
            type_line=face.get("type", ""), type_line_fr=first_fr.get("type", "") or "", types=types,
            keywords=own_keywords(face.get("keywords"), text), unblockable=says_unblockable(name, text),
            text=text if plane else "", text_fr=(first_fr.get("text", "") or "") if plane else "",
            popularity=face.get("edhrecRank")))
    return faces


def scryfall_faces(card: dict) -> list[Card]:
    """The faces of one Scryfall card object, or [] to skip it (tokens, other languages …)."""
    if not isinstance(card, dict) or card.get("object") != "card":
        raise EntryError("not_scryfall", "expected a Scryfall card object (\"object\": \"card\")")
    layout = card.get("layout", "normal")
    if layout in SKIPPED_LAYOUTS or card.get("lang", "en") != "en" or is_alchemy(card.get("name", "")):
        return []
    parts = card.get("card_faces") if card.get("card_faces") else [card]
    faces = []
    for index, face in enumerate(parts):
        name = face.get("name") or card["name"]
        text = face.get("oracle_text", "") or ""
        value = card.get("cmc", 0)
        if layout in OWN_FACE_VALUE:
            value = face.get("cmc", mana_value_of_cost(face.get("mana_cost")))
        type_line = face.get("type_line") or card.get("type_line", "")
        types = _types(type_line)
        plane = "Plane" in types or "Phenomenon" in types
        faces.append(Card(
            name=name, card_name=card["name"], layout=layout, side=chr(ord("a") + index) if len(parts) > 1 else "",
            mana_cost=face.get("mana_cost", "") or "", mana_value=float(value or 0),
            colours=colour_string(face["colors"]) if "colors" in face else
            colours_of_cost(face.get("mana_cost")) if len(parts) > 1 else colour_string(card.get("colors") or ()),
            power=_number(face.get("power")), toughness=_number(face.get("toughness")),
            loyalty=_number(face.get("loyalty")), type_line=type_line, types=types,
            keywords=own_keywords(card.get("keywords"), text), unblockable=says_unblockable(name, text),
            text=text if plane else "", popularity=card.get("edhrec_rank")))
    return faces
