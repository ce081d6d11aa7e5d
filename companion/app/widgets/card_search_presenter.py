"""What the card search shows and what a choice does: suggestion rows as the table types (a token
described in words first, then cards; planes only for a planar deck), the changes a chosen card
makes to a piece, the notes after it, the face-up plane's text. Pure (no kivy): tested without a window.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from companion import cards
from companion.cards import CardDatabase, PieceDraft, PlaneText
from companion.game import Game
from companion.i18n import decimal, translate

SUGGESTIONS = 6                 # rows under the field: what fits above a tablet's keyboard
ENTRY_SEPARATORS = re.compile(r"[,\n]")   # a planar deck is typed as names separated by commas or lines
ASKABLE = ("power", "toughness")

# What a chosen card may do to the game, through `app.play` (which says a refusal): a `Game` method,
# so a checker and an editor follow the call.
update_piece = Game.update_piece      # the selected piece becomes the card (one undo step)


@dataclass(frozen=True)
class SuggestionRow:
    """One suggestion: what it is called in the shown language, and a line saying what it is."""

    title: str
    detail: str
    card_id: int | None = None         # a face of the card database
    draft: PieceDraft | None = None    # a token described in words ("Soldier token 1/1 W"): no card needed


def _colours(colours, lang: str) -> str:
    shown = [translate(lang, f"colours.{c}") for c in "WUBRG" if c in colours]
    return "/".join(shown) if shown else translate(lang, "cards.app.colourless")


def describe(draft: PieceDraft, lang: str) -> str:
    """"creature 4/4 · MV 5 · white · flying, vigilance": what a card or token is on the grid."""
    if draft.kind == "creature":
        kind = f"{translate(lang, 'kinds.creature')} {draft.printed_power or '?'}/{draft.printed_toughness or '?'}"
    elif draft.kind == "planeswalker":
        kind = translate(lang, "kinds.planeswalker") + (
            " " + translate(lang, "cards.app.loyalty", loyalty=draft.loyalty) if draft.loyalty is not None else "")
    else:
        kind = translate(lang, "cards.app.off_grid")
    parts = [kind]
    if not draft.token:
        parts.append(translate(lang, "cards.app.mana_value_x" if draft.x_in_cost else "cards.app.mana_value",
                               value=draft.mana_value))
    parts.append(_colours(draft.colours, lang))
    keywords = sorted(translate(lang, f"keywords.{k}") for k in draft.keywords)
    if keywords:
        parts.append(", ".join(keywords))
    return " · ".join(parts)


def card_rows(db: CardDatabase | None, text: str, lang: str, limit: int = SUGGESTIONS) -> list[SuggestionRow]:
    """What the search field offers for `text`: a token described in words first (it needs no card
    data), then the cards whose French or English name begins like it (typos too), best first."""
    rows = []
    token = cards.parse_token(text, lang)
    if token is not None:
        rows.append(SuggestionRow(token.name, f"{translate(lang, 'cards.token')} · {describe(token, lang)}",
                                  draft=token))
    if db is not None and text.strip():
        for suggestion in db.suggest(text, limit=limit - len(rows)):
            draft = cards.card_to_piece(db.card(suggestion.card_id), lang)
            other = suggestion.subtitle(lang)
            rows.append(SuggestionRow(suggestion.title(lang), " · ".join(filter(None, (other, describe(draft, lang)))),
                                      card_id=suggestion.card_id))
    return rows


def plane_rows(db: CardDatabase | None, entry: str, lang: str, limit: int = SUGGESTIONS) -> list[SuggestionRow]:
    """Planes and phenomena whose name begins like the planar-deck entry being typed."""
    if db is None or not entry.strip():
        return []
    rows = []
    for suggestion in db.suggest_planes(entry, limit=limit):
        kind = "cards.app.phenomenon" if suggestion.type_line.startswith("Phenomenon") else "cards.app.plane"
        world = suggestion.type_line.partition(" — ")[2]   # "Plane — Alara": the plane's world, a proper name
        rows.append(SuggestionRow(suggestion.title(lang), " · ".join(filter(None, (
            suggestion.subtitle(lang), translate(lang, kind), world))), card_id=suggestion.card_id))
    return rows


def draft_of(db: CardDatabase | None, row: SuggestionRow, lang: str) -> PieceDraft:
    """The piece a chosen row stands for."""
    if row.draft is not None:
        return row.draft
    if db is None or row.card_id is None:
        raise ValueError(f"no card data for {row.title!r}")
    return cards.card_to_piece(db.card(row.card_id), lang)


def choice_effect(selected_kind: str | None, editing: bool) -> str:
    """What choosing a card in the Pieces screen's search does: "new", a new token standing for it —
    also while a token is selected, since the table searches for the next permanent far more often
    than it rewrites one, and a stray choice must not rename and recolour another player's token
    (#27); "edit", the selected token becomes the card (after a question), only when the table chose
    "Edit this token"; "pawn", refused: a pawn stands for its player, never a card (MT 2.05)."""
    if selected_kind is None or not editing:
        return "new"
    return "pawn" if selected_kind == "player" else "edit"


def piece_changes(draft: PieceDraft, current_kind: str, answers: dict[str, int]) -> dict:
    """What choosing `draft` changes on a piece of kind `current_kind`, for `Game.update_piece`:
    everything the card says; the values the table typed for a variable P/T (`answers`); its kind
    only when the card is on the grid (a card that is not keeps the token as it is, MT 5.01.b: it may
    stand for a permanent that became a creature, MT 5.02.a)."""
    changes = {**draft.piece_fields(), **{k: v for k, v in answers.items() if k in ASKABLE}}
    if draft.kind is None or current_kind == "player":
        changes.pop("kind", None)
    return changes


def choice_notes(draft: PieceDraft, lang: str, answers: dict[str, int]) -> str:
    """The lines under the search after a choice: what came from the card, and what the data could
    not say (not on the grid, X counted as 0, a variable power or toughness not entered)."""
    lines = [translate(lang, "cards.app.filled", name=draft.name)]
    if draft.kind is None:
        lines.append(translate(lang, "cards.not_on_grid") + " — " + translate(lang, "cards.app.kind_kept"))
    if draft.x_in_cost:
        lines.append(translate(lang, "cards.x_cost"))
    for field in draft.asks:
        if field not in answers:
            printed = draft.printed_power if field == "power" else draft.printed_toughness
            lines.append(translate(lang, "cards.app.to_enter", field=translate(lang, f"pieces.{field}"), printed=printed))
    return "\n".join(lines)


def ask_words(draft: PieceDraft, field: str, lang: str) -> tuple[str, str]:
    """The keypad's title and hint when a printed "*" must be given its current value (MT 3.04.d
    needs it): ("Tarmogoyf — Power", "printed *: its current value")."""
    printed = draft.printed_power if field == "power" else draft.printed_toughness
    return (translate(lang, "cards.app.ask", name=draft.name, field=translate(lang, f"pieces.{field}")),
            translate(lang, "cards.app.ask_hint", printed=printed))


def import_done_text(cards_imported: int, seconds: float, lang: str) -> str:
    """"Done: 35 cards imported in 0.1 s." (a decimal comma in French)."""
    return translate(lang, "cards.app.imported", cards=cards_imported, seconds=decimal(seconds, lang))


# -- planar decks typed as a list ---------------------------------------------------------------
def entry_being_typed(text: str) -> str:
    """The last name of a list typed with commas or lines: what the suggestions are for."""
    return ENTRY_SEPARATORS.split(text)[-1].strip()


def complete_entry(text: str, name: str) -> str:
    """The list with its last entry replaced by the chosen name, ready for the next one."""
    cut = max(text.rfind(","), text.rfind("\n"))
    head = text[:cut + 1]
    return f"{head}{' ' if head.endswith(',') else ''}{name}, "


# -- the face-up plane ---------------------------------------------------------------------------
def escape_markup(text: str) -> str:
    """Card text as Kivy markup shows it literally ("[−2]" is not a tag)."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def plane_view(plane: PlaneText | None, lang: str) -> str:
    """The face-up plane's card text (markup), saying when it is in English in another language's app."""
    if plane is None:
        return ""
    lines = [f"[b]{escape_markup(plane.name)}[/b] · {escape_markup(plane.type_line)}", escape_markup(plane.text)]
    if plane.lang != lang:
        lines.append(f"[i][color=b0b0b0]{translate(lang, 'cards.app.text_in_english')}[/color][/i]")
    return "\n".join(lines)
