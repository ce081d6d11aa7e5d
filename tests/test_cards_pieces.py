"""A card becomes the data of a piece for the rules engine (companion.rules.Piece)."""
from pathlib import Path

import pytest

from companion import cards
from companion.cards.formats import own_keywords, says_unblockable
from companion.rules import KEYWORDS, LANDWALKS, Piece

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"
ORACLE = Path(__file__).parent / "fixtures" / "cards" / "oracle-cards.fixture.json"


@pytest.fixture(scope="module", params=[ATOMIC, ORACLE], ids=["mtgjson", "scryfall"])
def db(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cards")
    cards.import_file(request.param, folder)
    database = cards.open_database(folder)
    yield database
    database.close()


def piece(db, name, lang="en"):
    return cards.card_to_piece(db.find(name), lang)


def test_serra_angel_becomes_a_complete_piece(db):
    """MT 4.03 mana value, MT 2.02.b colours, MT 3.04.d power/toughness, MT 6.10 flying."""
    draft = piece(db, "Serra Angel")
    assert (draft.kind, draft.mana_value, draft.colours, draft.power, draft.toughness) == \
           ("creature", 5, {"W"}, 4, 4)
    assert draft.keywords == {"flying", "vigilance"} and draft.asks == ()
    built = Piece(1, 3, **draft.piece_fields())
    assert (built.kind, built.mana_value, built.keywords) == ("creature", 5, {"flying", "vigilance"})


def test_the_piece_takes_the_name_in_the_tables_language(db):
    if db.info["source"] == "mtgjson":
        assert piece(db, "Serra Angel", "fr").name == "Ange de Serra"
    assert piece(db, "Serra Angel", "en").name == "Serra Angel"
    assert piece(db, "Stonecoil Serpent", "fr").name == "Stonecoil Serpent"  # no French name in the data


def test_an_x_cost_counts_as_zero(db):
    """MT 4.03.c: X is 0 outside the stack; the zone of a 0 mana value has radius 1."""
    serpent = piece(db, "Stonecoil Serpent")
    assert (serpent.mana_value, serpent.x_in_cost, serpent.colours) == (0, True, frozenset())
    assert serpent.keywords == {"reach", "trample"} and "Protection" in serpent.unmapped_keywords
    assert piece(db, "Fireball").x_in_cost and piece(db, "Fireball").mana_value == 1


def test_a_variable_power_or_toughness_is_flagged_for_the_table(db):
    """MT 3.04.d needs the current P/T: '*' and '1+*' are asked for, not guessed."""
    goyf = piece(db, "Tarmogoyf")
    assert (goyf.power, goyf.toughness, goyf.printed_power, goyf.printed_toughness) == (None, None, "*", "1+*")
    assert goyf.variable == ("power", "toughness") == goyf.asks
    nightmare = piece(db, "Nightmare")
    assert nightmare.asks == ("power", "toughness") and nightmare.keywords == {"flying"}
    assert Piece(2, 1, **nightmare.piece_fields()).power is None


def test_creatures_and_planeswalkers_are_on_the_grid_other_permanents_not(db):
    """MT 5.01.a–b."""
    liliana = piece(db, "Liliana of the Veil")
    assert (liliana.kind, liliana.loyalty, liliana.mana_value, liliana.power) == ("planeswalker", 3, 3, None)
    assert piece(db, "Juggernaut").kind == "creature"            # an artifact creature is a creature
    for name in ("Forest", "Tergrid's Lantern", "Lightning Bolt", "Naya"):
        draft = piece(db, name)
        assert draft.kind is None and not draft.on_grid, name
        assert "kind" not in draft.piece_fields()
    assert piece(db, "Tergrid, God of Fright").kind == "creature"


def test_landwalks_map_to_the_engine_and_only_the_cards_own(db):
    """MT 6.09: Shanodin Dryads has forestwalk; Lord of Atlantis only gives islandwalk to others."""
    assert piece(db, "Shanodin Dryads").keywords == {"forestwalk"}
    assert piece(db, "Lord of Atlantis").keywords == frozenset()


@pytest.mark.parametrize("name, keywords", [
    ("Lu Bu, Master-at-Arms", {"haste", "horsemanship"}),   # MT 6.04
    ("Krosan Vorine", {"provoke"}),                          # MT 6.08
    ("Student of Warfare", {"level_up"}),                    # MT 6.05
    ("Boggart Ram-Gang", {"haste", "wither"}),
    ("Breezekeeper", {"flying", "phasing"}),                 # MT 6.02
    ("Wall of Wood", {"defender"}),                          # MT 3.08
    ("Insectile Aberration", {"flying"}),
    ("Delver of Secrets", set()),
    ("Phantom Warrior", {"unblockable"}),
    ("Juggernaut", set()),                                    # "can't be blocked by Walls" is not unblockable
])
def test_grid_keywords_of_real_cards(db, name, keywords):
    assert piece(db, name).keywords == keywords


def test_boggart_ram_gang_has_both_hybrid_colours(db):
    """MT 2.02.b: a multicoloured creature gets the bonus of each of its colours."""
    assert piece(db, "Boggart Ram-Gang").colours == {"R", "G"}


def test_every_landwalk_is_known_by_its_english_and_french_names():
    french = {"plainswalk": "Traversée des plaines", "islandwalk": "Traversée des îles",
              "swampwalk": "Traversée des marais", "mountainwalk": "Traversée des montagnes",
              "forestwalk": "Traversée des forêts"}
    for key in LANDWALKS:
        assert cards.keyword_key(key.capitalize()) == key
        assert cards.keyword_key(french[key]) == key
        assert cards.keyword_key(french[key].upper()) == key
    assert cards.keyword_key("Vol") == "flying" and cards.keyword_key("Level up") == "level_up"
    assert cards.keyword_key("Montée de niveau") == "level_up" and cards.keyword_key("Piétinement") == "trample"
    assert cards.keyword_key("First strike") is None
    assert {cards.keyword_key(k.replace("_", " ")) for k in KEYWORDS} == set(KEYWORDS)


def test_keywords_count_only_as_keyword_lines_of_the_cards_own_text():
    assert own_keywords(["Flying", "Vigilance"], "Flying, vigilance") == ("Flying", "Vigilance")
    assert own_keywords(["Level up"], "Level up {1}{W} ({1}{W}: Put a level counter on this.)") == ("Level up",)
    assert own_keywords(["Flying"], "Creatures you control have flying.") == ()
    assert own_keywords(["Flying"], "Flying creatures you control get +1/+1.") == ()
    assert own_keywords(["Trample"], "Trample over planeswalkers") == ("Trample",)


@pytest.mark.parametrize("text, unblockable", [
    ("Phantom Warrior can't be blocked.", True),
    ("This creature can't be blocked.", True),
    ("Flying\nPhantom Warrior can't be blocked.", True),
    ("Phantom Warrior can't be blocked except by two or more creatures.", False),
    ("Phantom Warrior can't be blocked as long as defending player controls an Island.", False),
    ("{1}{U}: Phantom Warrior can't be blocked this turn.", False),
    ("Other creatures you control can't be blocked.", False),
])
def test_cant_be_blocked_counts_only_when_unconditional_and_about_itself(text, unblockable):
    assert says_unblockable("Phantom Warrior", text) is unblockable


@pytest.mark.parametrize("text, lang, expected", [
    ("Soldier token 1/1 W", "en", ("Soldier token", {"W"}, set(), 1, 1)),
    ("jeton Esprit 1/1 blanc vol", "fr", ("Jeton Esprit", {"W"}, {"flying"}, 1, 1)),
    ("2/2 G wolf", "en", ("Wolf token", {"G"}, set(), 2, 2)),
    ("Élémental 4/4 UR piétinement", "fr", ("Jeton Élémental", {"U", "R"}, {"trample"}, 4, 4)),
    ("Zombie 2/2 noir", "fr", ("Jeton Zombie", {"B"}, set(), 2, 2)),
    ("Plante 0/1 verte défenseur", "fr", ("Jeton Plante", {"G"}, {"defender"}, 0, 1)),
    ("Insect 1/1 bg flying", "en", ("Insect token", {"B", "G"}, {"flying"}, 1, 1)),
    ("Beast 3/3 G forestwalk", "en", ("Beast token", {"G"}, {"forestwalk"}, 3, 3)),
    ("Construct 0/0", "en", ("Construct token", set(), set(), 0, 0)),
])
def test_a_token_is_entered_from_a_few_words_without_any_card(text, lang, expected):
    """Tokens and copies (MT 3.03): no card needed; a token has no mana cost (MT 4.03.c)."""
    draft = cards.parse_token(text, lang)
    assert (draft.name, draft.colours, draft.keywords, draft.power, draft.toughness) == expected
    assert (draft.kind, draft.mana_value, draft.token) == ("creature", 0, True)
    Piece(1, 1, **draft.piece_fields())


def test_a_variable_token_asks_and_text_without_power_is_no_token():
    assert cards.parse_token("Ooze */* G", "en").asks == ("power", "toughness")
    assert cards.parse_token("Serra Angel", "en") is None
    assert cards.parse_token("", "fr") is None


def test_a_token_copy_of_a_card_keeps_the_cards_data(db):
    copy = cards.card_to_piece(db.find("Serra Angel"), "en", token=True)
    assert copy.token and copy.mana_value == 5 and copy.keywords == {"flying", "vigilance"}
