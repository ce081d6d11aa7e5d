"""The event deck builder of the New game screen, without a window (issue #27): the cards and copies
it shows, which of −/+ work (MT 7.02.c), the count against the minimum for the players (MT 7.02.a).
Expected numbers come from the rules' text (25 + 4 per extra player; mythic 1, uncommon 2, common 4)
and the MT 9.03 list, never from the code under test."""
from __future__ import annotations

import pytest

from companion.app.screens.newgame.presenter import DeckDraft, deck_rows, deck_shortfall, deck_tally
from companion.game import EventCard, EventDeckList, GameError, parse_event_deck, prebuilt_event_deck
from companion.game.events import deck_document

MT_9_03_CARDS, MT_9_03_SIZE = 12, 26  # twelve names, 26 cards (MT 9.03)


def bundled_draft() -> DeckDraft:
    return DeckDraft.of(prebuilt_event_deck(), "")


def index_of(draft: DeckDraft, name: str) -> int:
    return [card.name for card in draft.cards].index(name)


def test_the_builder_starts_from_the_bundled_deck_every_card_at_its_limit_MT_9_03_MT_7_02_c():
    """MT 9.03 holds each card at its rarity's limit: every − works, no + does."""
    draft = bundled_draft()
    rows = deck_rows(draft, "en")
    assert len(rows) == MT_9_03_CARDS and draft.total == MT_9_03_SIZE
    assert all(row.can_remove and not row.can_add for row in rows)
    assert [row.count for row in rows] == [row.limit for row in rows]
    vol = rows[index_of(draft, "Problème de Vol")]
    assert (vol.count, vol.limit) == (4, 4) and "Problème de Vol" in vol.text and "common" in vol.text


@pytest.mark.parametrize("name,limit", [("Jugement Dernier", 1), ("Purger le Malin", 2), ("Rixe de Saoulards", 4)])
def test_plus_and_minus_stay_between_none_and_the_copy_limit_MT_7_02_c(name, limit):
    """MT 7.02.c: mythic ≤ 1, uncommon ≤ 2, common ≤ 4; − stops at 0."""
    draft = bundled_draft()
    at = index_of(draft, name)
    for _ in range(limit + 2):
        draft = draft.changed(at, -1)
    emptied = deck_rows(draft, "en")[at]
    assert emptied.count == 0 and not emptied.can_remove and emptied.can_add
    assert draft.total == MT_9_03_SIZE - limit
    for _ in range(limit + 2):
        draft = draft.changed(at, +1)
    full = deck_rows(draft, "en")[at]
    assert full.count == limit and full.can_remove and not full.can_add


def test_the_count_is_said_against_the_minimum_for_the_players_of_the_form_MT_7_02_a():
    """MT 7.02.a: 25 for two, +4 per extra player: the 26 bundled cards do for two, not for five (37)."""
    draft = bundled_draft()
    text, enough = deck_tally(draft, 2, "en")
    assert enough and "26" in text and "25" in text
    text, enough = deck_tally(draft, 5, "en")
    assert not enough and "37" in text and "11 missing" in text
    text, _ = deck_tally(draft, 5, "fr")
    assert "il en manque 11" in text


def test_a_short_deck_says_how_many_cards_it_lacks_MT_7_02_a():
    assert "37" in deck_shortfall(26, 5, "en") and "11 cards missing" in deck_shortfall(26, 5, "en")
    assert "il manque 7 cartes" in deck_shortfall(26, 4, "fr")  # 33 at four
    assert deck_shortfall(26, 2, "en") == "" and deck_shortfall(37, 5, "en") == ""


def test_the_tables_own_cards_make_a_deck_of_37_for_five_players_MT_7_02_a_c():
    """The bundled list gives 26 cards at most under MT 7.02.c: the table adds the events it owns."""
    draft = bundled_draft()
    for name, rarity, copies in (("Storm", "common", 4), ("Flood", "common", 4), ("Eclipse", "uncommon", 2),
                                 ("Comet", "mythic", 1)):
        draft = draft.with_card(name, rarity)
        for _ in range(copies + 1):  # one more than allowed: refused by the limit
            draft = draft.changed(len(draft.cards) - 1, +1)
    assert draft.total == 37
    text, enough = deck_tally(draft, 5, "en")
    assert enough and "37" in text
    deck = DeckDraft("Five", draft.cards, draft.counts).deck()
    again = parse_event_deck(deck_document(deck))  # within every rule a deck file is checked against
    assert len(again.cards) == 37 and again.name == "Five"
    assert sum(card.name == "Comet" for card in again.cards) == 1


def test_an_own_card_needs_a_name_not_already_offered():
    draft = bundled_draft()
    with pytest.raises(GameError) as missing:
        draft.with_card("  ", "common")
    assert missing.value.key == "decks.name_missing"
    with pytest.raises(GameError) as taken:
        draft.with_card("problème de vol", "common")  # the same card, whatever the case
    assert taken.value.key == "decks.name_taken"


def test_a_deck_to_extend_keeps_its_own_cards_and_offers_the_bundled_ones_it_lacks():
    own = EventCard("Storm", "common", "natural", 3, "Rain")
    deck = EventDeckList("Ours", (own, own, EventCard("Jugement Dernier", "mythic")))
    draft = DeckDraft.of(deck, "Ours")
    assert draft.total == 3 and draft.cards[0] == own
    counts = dict(zip((card.name for card in draft.cards), draft.counts))
    assert counts["Storm"] == 2 and counts["Jugement Dernier"] == 1 and counts["Problème de Vol"] == 0
    assert len(draft.cards) == MT_9_03_CARDS + 1

