"""From the entries of the public card files to `Card` faces: MTGJSON's AtomicCards (English and
French) and Scryfall's bulk files (English, and French from the French printings of all-cards).

Every field read is checked against what the format says it holds (`Fields`): text of a bounded
length without control characters, finite numbers in range, lists of text. A field that is not
raises EntryError naming it, and the import refuses the file (see docs/cards.md, "Bad files
lose nothing").

Only what the table needs is kept. Keywords come from the data's keyword list, and each counts
for a face only where a line of that face's own text is the keyword ("Flying, vigilance",
"Level up {1}{W}"): a lord's "Other Merfolk have islandwalk" gives the lord no islandwalk.
"Can't be blocked" (no keyword in the data) counts only as a whole line about the card itself.
"""
from __future__ import annotations

import math
import re
from typing import Iterable

from companion.cards.model import Card, colour_string
from companion.cards.text import colours_of_cost, mana_value_of_cost

# Entries that are not cards a table puts on the battlefield from a deck.
SKIPPED_LAYOUTS = frozenset({"token", "double_faced_token", "emblem", "art_series", "vanguard", "scheme",
                             "reversible_card", "augment", "host"})
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host", "Token"})
# On the battlefield a modal double-faced card has the mana value of the face that is up (CR 712.8);
# the back of a transforming card has its front's (which is what the data's card-level value is).
OWN_FACE_VALUE = frozenset({"modal_dfc"})


# Longest real values, with room to spare. The longest card name is 141 characters ("Our Market Research
# Shows That Players Like Really Long Card Names So We Made this Card to Have the Absolute Longest Card
# Name Ever Elemental"); rules texts stay under about 1 500 characters (planes, dungeons and sagas are the
# longest); type lines and costs under 100. The caps also bound the name index: a name of at most
# NAME_CHARS characters gives at most NAME_CHARS / 2 word starts (see search.PREFIX_KEY_CHARS).
NAME_CHARS = 200
TEXT_CHARS = 10_000
LINE_CHARS = 200          # type lines and mana costs
SHORT_CHARS = 40          # layout, language, side, power, toughness, loyalty, keyword and colour names
MAX_MANA_VALUE = 1_000_000   # Gleemax, {1000000}: the largest printed
MAX_RANK = 100_000_000       # EDHREC ranks count the cards (about 30 000)
# What no card text holds: control characters (escape sequences, NUL) and lone surrogates (which cannot
# be written as UTF-8). Rules texts keep their line breaks and tabs.
_NOT_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_NOT_IN_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_SIDE = re.compile(r"[a-z]")


class EntryError(ValueError):
    """An entry of a card file that is not what the format says. `kind` names the problem in a word
    the app translates ("not_faces", "no_mana_value", "not_text" …, `cards.errors.entry.*`), worded
    with `fields` (a limit, a range); `field` is where in the entry ("colors", "[1].side",
    "foreignData[2].name"), or "" for the entry as a whole; the message is the English detail."""

    def __init__(self, kind: str, message: str, field: str = "", **fields: object):
        self.kind, self.field, self.fields = kind, field, fields
        super().__init__(message)


def _shown(value: object) -> str:
    """What a wrong value is, said briefly (never the value whole: it may be huge or hold escapes)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return f"the number {text if len(text) <= 24 else text[:20] + '…'}"
    if isinstance(value, str):
        return f"text of {len(value):,} characters"
    return "a list" if isinstance(value, list) else "an object"


class Fields:
    """The fields of one JSON object of a card file, each read as the format's schema says it is and
    refused otherwise (EntryError names the field): text (of a bounded length, without control
    characters), finite numbers in a range, lists of text, objects. A missing field or null gives
    the default. `where` prefixes the field names in errors ("foreignData[2].")."""

    def __init__(self, data: object, where: str = ""):
        if not isinstance(data, dict):
            raise EntryError("not_object", f"expected an object, found {_shown(data)}", where.rstrip("."))
        self.data: dict[str, object] = data
        self.where = where

    def __contains__(self, key: str) -> bool:
        return self.data.get(key) is not None

    def _wrong(self, key: str, kind: str, expected: str, value: object, **fields: object) -> EntryError:
        return EntryError(kind, f"expected {expected}, found {_shown(value)}", self.where + key, **fields)

    def text(self, key: str, default: str = "", limit: int = SHORT_CHARS, *, lines: bool = False) -> str:
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, str) and len(value) <= limit and value.isprintable():  # the usual case, fast
            return value
        return checked_text(value, self.where + key, limit, lines=lines)

    def optional_text(self, key: str, limit: int = SHORT_CHARS) -> str | None:
        return self.text(key, limit=limit) if key in self else None

    def texts(self, key: str, limit: int = SHORT_CHARS) -> tuple[str, ...]:
        value = self.data.get(key)
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self._wrong(key, "not_text_list", "a list of text", value)
        return tuple(checked_text(item, f"{self.where}{key}[{i}]", limit) for i, item in enumerate(value))

    def number(self, key: str, default: float | None = None, high: float = MAX_MANA_VALUE) -> float | None:
        """A finite number from 0 to `high` (NaN, infinities and 1e999 refused)."""
        value = self.data.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._wrong(key, "not_number", "a number", value)
        if isinstance(value, float) and not math.isfinite(value):
            raise self._wrong(key, "not_finite", "a finite number", value)
        if not 0 <= value <= high:
            raise self._wrong(key, "out_of_range", f"a number from 0 to {high:,}", value, high=high)
        return float(value)

    def rank(self, key: str) -> int | None:
        """A rank: a whole number from 1 to MAX_RANK, or None."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._wrong(key, "not_whole_number", "a whole number", value)
        if not 1 <= value <= MAX_RANK:
            raise self._wrong(key, "out_of_range", f"a number from 1 to {MAX_RANK:,}", value, high=MAX_RANK)
        return value

    def objects(self, key: str) -> list[Fields]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self._wrong(key, "not_object_list", "a list of objects", value)
        return [Fields(item, f"{self.where}{key}[{i}].") for i, item in enumerate(value)]


def checked_text(value: object, field: str, limit: int, *, lines: bool = False) -> str:
    """`value` if it is text of at most `limit` characters without control characters (line breaks
    and tabs allowed when `lines`) or lone surrogates; EntryError naming `field` otherwise."""
    if not isinstance(value, str):
        raise EntryError("not_text", f"expected text, found {_shown(value)}", field)
    if len(value) > limit:
        raise EntryError("too_long", f"expected at most {limit:,} characters, found {len(value):,}", field,
                         limit=limit)
    bad = (_NOT_IN_TEXT if lines else _NOT_IN_LINE).search(value)
    if bad:
        raise EntryError("bad_character", f"expected text without control characters or lone surrogates, "
                         f"found U+{ord(bad.group()):04X} at character {bad.start() + 1}", field)
    return value


_REMINDER = re.compile(r"\([^)]*\)")
_KEYWORD_TAIL = re.compile(r"^(?:\{|\d|—|-|from |over |x\b|\[)")


def own_keywords(keywords: Iterable[str], text: str) -> tuple[str, ...]:
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


def is_alchemy(name: str) -> bool:
    """Digital rebalanced cards ("A-Name"): no table holds them."""
    return name.startswith("A-")


def mtgjson_faces(key: str, entries: object) -> list[Card]:
    """The faces of one AtomicCards entry (`data[key]`: a list of faces), or [] to skip it."""
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise EntryError("not_faces",
                         "expected a list of card faces (is this AtomicCards? AllPrintings is sorted by set)")
    if is_alchemy(key):
        return []
    checked_text(key, "(the entry's name)", NAME_CHARS)
    faces = []
    for index, entry in enumerate(entries):
        face = Fields(entry, f"[{index}]." if len(entries) > 1 else "")
        layout = face.text("layout", "normal")
        if layout in SKIPPED_LAYOUTS:
            continue
        card_name = face.text("name", limit=NAME_CHARS) or key
        name = face.text("faceName", limit=NAME_CHARS) or card_name
        if "manaValue" not in face and "convertedManaCost" not in face:
            raise EntryError("no_mana_value", f"card {name!r} has no manaValue: not MTGJSON card data")
        value = face.number("manaValue", face.number("convertedManaCost"))
        if layout in OWN_FACE_VALUE:
            value = face.number("faceManaValue", face.number("faceConvertedManaCost", value))
        type_line = face.text("type", limit=LINE_CHARS)
        types = face.texts("types") or _types(type_line)
        text = face.text("text", limit=TEXT_CHARS, lines=True)
        side = face.text("side")
        if side and not _SIDE.fullmatch(side):
            raise EntryError("not_a_side", f"expected a side letter (a, b …), found {_shown(side)}",
                             face.where + "side")
        names_fr: list[str] = []
        french: list[Fields] = []
        for foreign in face.objects("foreignData"):
            if foreign.text("language") != "French":
                continue
            french.append(foreign)
            fr = foreign.text("faceName", limit=NAME_CHARS) or foreign.text("name", limit=NAME_CHARS)
            if " // " in fr and side:
                halves = fr.split(" // ")
                fr = halves[min(ord(side) - ord("a"), len(halves) - 1)]
            if fr and fr not in names_fr:
                names_fr.append(fr)
        plane = "Plane" in types or "Phenomenon" in types
        first_fr = french[0] if french else None
        faces.append(Card(
            name=name, card_name=card_name, names_fr=tuple(names_fr), layout=layout, side=side,
            mana_cost=face.text("manaCost", limit=LINE_CHARS), mana_value=value or 0.0,
            colours=colour_string(face.texts("colors")), power=face.optional_text("power"),
            toughness=face.optional_text("toughness"), loyalty=face.optional_text("loyalty"),
            type_line=type_line, type_line_fr=first_fr.text("type", limit=LINE_CHARS) if first_fr else "",
            types=types, keywords=own_keywords(face.texts("keywords"), text), unblockable=says_unblockable(name, text),
            text=text if plane else "",
            text_fr=first_fr.text("text", limit=TEXT_CHARS, lines=True) if plane and first_fr else "",
            popularity=face.rank("edhrecRank")))
    return faces


def scryfall_faces(entry: object) -> list[Card]:
    """The faces of one Scryfall card object, or [] to skip it (tokens, other languages …). A French
    printing (`"lang": "fr"`) gives the card's faces with their French names (`printed_name`) in
    `names_fr`; an English one, without."""
    if not isinstance(entry, dict) or entry.get("object") != "card":
        raise EntryError("not_scryfall", "expected a Scryfall card object (\"object\": \"card\")")
    card = Fields(entry)
    layout = card.text("layout", "normal")
    lang = card.text("lang", "en")
    card_name = card.text("name", limit=NAME_CHARS)
    if not card_name:
        raise EntryError("missing", "expected the card's name, found none", "name")
    if layout in SKIPPED_LAYOUTS or lang not in ("en", "fr") or is_alchemy(card_name):
        return []
    parts = card.objects("card_faces") or [card]
    printed_fr = card.text("printed_name", limit=NAME_CHARS) if lang == "fr" else ""
    keywords = card.texts("keywords")
    faces = []
    for index, face in enumerate(parts):
        name = face.text("name", limit=NAME_CHARS) or card_name
        text = face.text("oracle_text", limit=TEXT_CHARS, lines=True)
        mana_cost = face.text("mana_cost", limit=LINE_CHARS)
        value = card.number("cmc", 0.0)
        if layout in OWN_FACE_VALUE:
            value = face.number("cmc", mana_value_of_cost(mana_cost))
        type_line = face.text("type_line", limit=LINE_CHARS) or card.text("type_line", limit=LINE_CHARS)
        types = _types(type_line)
        plane = "Plane" in types or "Phenomenon" in types
        if value is not None and value > MAX_MANA_VALUE:  # computed from a cost like {99999999}
            raise EntryError("out_of_range", f"expected a mana value from 0 to {MAX_MANA_VALUE:,}, found "
                             f"{_shown(value)}", face.where + "mana_cost", high=MAX_MANA_VALUE)
        name_fr = ""
        if lang == "fr":
            name_fr = (face.text("printed_name", limit=NAME_CHARS) if face is not card else "") or printed_fr
            if " // " in name_fr and len(parts) > 1:
                halves = name_fr.split(" // ")
                name_fr = halves[min(index, len(halves) - 1)]
        faces.append(Card(
            name=name, card_name=card_name, names_fr=(name_fr,) if name_fr else (), layout=layout,
            side=chr(ord("a") + index) if len(parts) > 1 else "", mana_cost=mana_cost, mana_value=value or 0.0,
            colours=colour_string(face.texts("colors")) if "colors" in face else
            colours_of_cost(mana_cost) if len(parts) > 1 else colour_string(card.texts("colors")),
            power=face.optional_text("power"), toughness=face.optional_text("toughness"),
            loyalty=face.optional_text("loyalty"), type_line=type_line, types=types,
            keywords=own_keywords(keywords, text), unblockable=says_unblockable(name, text),
            text=text if plane else "", popularity=card.rank("edhrec_rank")))
    return faces
