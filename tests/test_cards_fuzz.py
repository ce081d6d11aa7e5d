"""Fuzzing the card readers (issue #29): whatever a card file holds, importing it either works or
raises the project's located CardDataError — never another exception — and a refused file leaves
the previous cards as they were. A regression corpus of the files that once crashed the importer
(tests/fixtures/cards/fuzz/, written by its write_corpus.py) runs first, then generated entries of
both formats with every field of any JSON type, then byte-level damage to a real file."""
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import cards

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
CORPUS = sorted(p for p in (FIXTURES / "fuzz").iterdir() if "--" in p.name)
ORACLE_TEXT = (FIXTURES / "oracle-cards.fixture.json").read_bytes()


def outcome(path: Path, folder: Path) -> str:
    """"ok", or the key of the CardDataError importing `path` raised (anything else fails the test)."""
    try:
        cards.import_file(path, folder)
    except cards.CardDataError as error:
        assert str(path) in str(error)
        for lang in ("en", "fr"):
            assert "[cards." not in cards.error_text(error, lang)
        return error.key.removeprefix("cards.errors.")
    with cards.open_database(folder) as db:   # what was imported can be searched and shown
        for suggestion in db.suggest("s") + db.suggest("serra angle"):
            cards.card_to_piece(db.card(suggestion.card_id), "fr")
    return "ok"


def test_the_corpus_holds_every_crash_of_the_audit():
    assert len(CORPUS) >= 20 and all(p.stat().st_size < 10_000 for p in CORPUS)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_each_file_of_the_regression_corpus_gives_its_outcome(tmp_path, path):
    assert outcome(path, tmp_path) == path.name.split("--")[0]


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
    | st.text(st.characters(codec=None, exclude_categories=()), max_size=8)
    | st.sampled_from(["", "a", "A // B", "W", "Flying", "French", "Creature", "Plane", "\ud800", "\x1b[2J",
                       "x" * 300, "modal_dfc", "token", "transform", "{X}{R}", "*", "1+*"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8)

ATOMIC_FIELDS = ["name", "faceName", "layout", "manaValue", "convertedManaCost", "faceManaValue", "type",
                 "types", "text", "side", "foreignData", "manaCost", "colors", "power", "toughness", "loyalty",
                 "keywords", "edhrecRank"]
SCRYFALL_FIELDS = ["object", "name", "lang", "layout", "cmc", "mana_cost", "type_line", "oracle_text", "colors",
                   "power", "toughness", "loyalty", "keywords", "edhrec_rank", "card_faces", "printed_name"]


def fields_of(names):
    """A JSON object of some of `names`, each of any type (or a plausible value)."""
    return st.dictionaries(st.sampled_from(names), ANY_JSON, max_size=len(names))


GOOD_FACE = {"name": "Serra Angel", "manaValue": 5.0, "type": "Creature — Angel", "types": ["Creature"]}
GOOD_CARD = {"object": "card", "name": "Serra Angel", "lang": "en", "cmc": 5.0, "type_line": "Creature — Angel"}

ATOMIC_FILES = st.dictionaries(
    st.text(max_size=6) | st.just("Serra Angel"),
    st.lists(fields_of(ATOMIC_FIELDS).map(lambda f: {**GOOD_FACE, **f}) | ANY_JSON, min_size=1, max_size=2)
    | ANY_JSON, min_size=1, max_size=3).map(lambda data: {"meta": {}, "data": data})
SCRYFALL_FILES = st.lists(
    fields_of(SCRYFALL_FIELDS).map(lambda f: {**GOOD_CARD, **f})
    | fields_of(SCRYFALL_FIELDS).map(lambda f: {**GOOD_CARD, "card_faces": [f, {**f, "name": "Back"}]})
    | ANY_JSON, min_size=1, max_size=3)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def import_document(document) -> str:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cards.json"
        path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
        return outcome(path, Path(folder) / "data")


@FUZZ
@given(ATOMIC_FILES)
def test_any_atomic_cards_entry_imports_or_is_a_located_error(document):
    result = import_document(document)
    if result == "ok":   # nothing imported may hold what the checks refuse
        assert all(isinstance(face, list) for face in document["data"].values())


@FUZZ
@given(SCRYFALL_FILES)
def test_any_scryfall_card_imports_or_is_a_located_error(document):
    import_document(document)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(ORACLE_TEXT) - 1), st.binary(min_size=1, max_size=4)),
                min_size=1, max_size=6))
def test_a_real_file_damaged_anywhere_imports_or_is_a_located_error(damage):
    data = bytearray(ORACLE_TEXT)
    for at, replacement in damage:
        data[at:at + len(replacement)] = replacement
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "oracle-cards.json"
        path.write_bytes(bytes(data))
        outcome(path, Path(folder) / "data")

