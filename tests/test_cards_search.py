"""Search as you type: French and English, accents and case aside, typos, prefixes first."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion import cards
from companion.cards.search import prefix_distance, typo_budget
from companion.cards.text import fold, word_starts

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cards")
    cards.import_file(ATOMIC, folder)
    database = cards.open_database(folder)
    yield database
    database.close()


def names(found, lang="en"):
    return [s.title(lang) for s in found]


def test_fold_drops_accents_case_ligatures_and_punctuation():
    assert fold("Élémental de l'AIR") == "elemental de l air"
    assert fold("Dragon shivân") == "dragon shivan"
    assert fold("Cœur d'Æther — Crinière-Dorée") == "coeur d aether criniere doree"
    assert word_starts("ange de serra") == ["ange de serra", "de serra", "serra"]


def test_a_prefix_finds_the_card_in_both_languages(db):
    """ "serr" → Serra Angel / Ange de Serra, prefix matches before anything with a typo."""
    found = db.suggest("serr")
    assert {"Serra Angel", "Serra Avatar"} == set(names(found[:2]))
    assert all(s.typos == 0 for s in found[:2]) and all(s.typos > 0 for s in found[2:])
    angel = next(s for s in found if s.name == "Serra Angel")
    assert (angel.title("fr"), angel.subtitle("fr")) == ("Ange de Serra", "Serra Angel")
    assert (angel.title("en"), angel.subtitle("en")) == ("Serra Angel", "Ange de Serra")
    assert names(db.suggest("ange de s", 3)) == ["Serra Angel"]


@pytest.mark.parametrize("typed, meant", [
    ("ELFES DE LLANO", "Llanowar Elves"), ("dragon shivan", "Shivan Dragon"), ("élémental de l'air", "Air Elemental"),
    ("foudre", "Lightning Bolt"), ("contresort", "Counterspell"),
    ("colere de dieu", "Wrath of God"), ("Oiseaux", "Birds of Paradise"), ("liliana du", "Liliana of the Veil"),
])
def test_accents_case_and_punctuation_do_not_matter(db, typed, meant):
    assert names(db.suggest(typed, 1)) == [meant]
    assert db.suggest(typed, 1)[0].typos == 0


@pytest.mark.parametrize("typed, meant, typos", [
    ("lianowar", "Llanowar Elves", 1),        # a letter missing
    ("sengr vamp", "Sengir Vampire", 1),
    ("mahamotti", "Mahamoti Djinn", 1),       # a letter doubled
    ("tarmgoyf", "Tarmogoyf", 1),
    ("shviian dragon", "Shivan Dragon", 2),   # two typos in a long query
    ("gurerier fantome", "Phantom Warrior", 1),
    ("seigneru de", "Lord of Atlantis", 1),   # two letters swapped: one typo
    ("cauchmear", "Nightmare", 1),
    ("elemental de lair", "Air Elemental", 1),  # a space missing
])
def test_one_or_two_typos_still_find_the_card(db, typed, meant, typos):
    found = db.suggest(typed, 3)
    assert found and found[0].name == meant
    assert found[0].typos == typos


def test_short_queries_allow_no_typo_and_long_ones_two():
    assert [typo_budget(q) for q in ("ser", "serr", "serra an", "a b c d")] == [0, 1, 2, 1]


def test_either_face_of_a_double_faced_card_is_found(db):
    for typed, face in (("insectile", "Insectile Aberration"), ("guetteur", "Delver of Secrets"),
                        ("aberration insecto", "Insectile Aberration"), ("delver of secrets // ins", "Delver of Secrets")):
        found = db.suggest(typed, 1)
        assert found[0].name == face, typed
        assert found[0].card_name == "Delver of Secrets // Insectile Aberration"


def test_nothing_matches_nonsense_and_empty_text(db):
    assert db.suggest("zzqx", 5) == []
    assert db.suggest("  ' ", 5) == []


def test_plane_search_offers_planes_and_phenomena_only(db):
    """PC: the planar-deck entry of the New game form suggests planes and phenomena."""
    assert names(db.suggest_planes("the")) == ["The Great Forest"]
    assert names(db.suggest_planes("nay")) == ["Naya"]
    assert set(names(db.suggest_planes("c"))) == {"Chaotic Aether"}
    assert db.suggest_planes("serra") == []


def test_a_plane_shows_its_text_in_the_language_the_data_has(db, tmp_path):
    plane = db.plane_text("naya", "fr")
    assert (plane.name, plane.lang) == ("Naya", "en") and plane.text.startswith("You may play any number of lands")
    assert db.plane_text("Serra Angel", "en") is None
    # A file whose plane has French text (the fixture's real planes were never printed in French).
    import json
    document = {"data": {"Naya": [{"name": "Naya", "manaValue": 0, "colors": [], "layout": "planar",
                                    "type": "Plane — Alara", "types": ["Plane"], "text": "English text.",
                                    "foreignData": [{"language": "French", "name": "Naya", "text": "Texte français.",
                                                     "type": "Plan : Alara"}]}]}}
    source = tmp_path / "planes.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    cards.import_file(source, tmp_path)
    with cards.open_database(tmp_path) as planes:
        assert planes.plane_text("NAYA", "fr") == cards.PlaneText("Naya", "Plan : Alara", "Texte français.", "fr")
        assert planes.plane_text("naya", "en").text == "English text."


def osa_prefix_distance(a: str, b: str) -> int:
    """Plain dynamic programming: optimal string alignment distance from a to the best prefix of b."""
    rows = [list(range(len(b) + 1))] + [[i] + [0] * len(b) for i in range(1, len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return min(rows[len(a)])


@settings(max_examples=400, deadline=None)
@given(st.text("abcd ", min_size=1, max_size=9), st.text("abcd ", max_size=14))
def test_the_bit_parallel_distance_equals_dynamic_programming(query, text):
    assert prefix_distance(query, text, limit=20) == osa_prefix_distance(query, text)
