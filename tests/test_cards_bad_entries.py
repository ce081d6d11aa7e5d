"""Card files whose entries are not what the format says (issue #29): every field of every entry is
checked, and a bad entry refuses the file with `FILE: line L, column C, entry NAME, field F: expected …`
— never a TypeError, KeyError or sqlite3 error — while the previous cards stay."""
import copy
import json
from pathlib import Path

import pytest

from companion import cards
from companion.cards.formats import NAME_CHARS
from companion.cards.search import PREFIX_KEY_CHARS

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ATOMIC = json.loads((FIXTURES / "AtomicCards.fixture.json").read_text(encoding="utf-8"))
ORACLE = json.loads((FIXTURES / "oracle-cards.fixture.json").read_text(encoding="utf-8"))


def atomic_with(tmp_path: Path, file_text: str | None = None, **changes) -> Path:
    """The fixture's AtomicCards with the face of Serra Angel changed (None removes a field); the
    file's text may be given whole instead (for what json.dumps cannot write)."""
    data = copy.deepcopy(ATOMIC)
    face = data["data"]["Serra Angel"][0]
    for key, value in changes.items():
        if value is None:
            face.pop(key, None)
        else:
            face[key] = value
    path = tmp_path / "AtomicCards.json"
    path.write_text(file_text if file_text is not None else json.dumps(data, indent=1), encoding="utf-8")
    return path


def oracle_with(tmp_path: Path, **changes) -> Path:
    """The fixture's oracle-cards with Serra Angel (its first card) changed (None removes a field)."""
    data = copy.deepcopy(ORACLE)
    card = data[0]
    for key, value in changes.items():
        if value is None:
            card.pop(key, None)
        else:
            card[key] = value
    path = tmp_path / "oracle-cards.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def refused(path: Path, folder: Path) -> cards.CardDataError:
    """The error importing `path` gives, after checking the previous cards stayed as they were."""
    cards.import_file(FIXTURES / "AtomicCards.fixture.json", folder)
    before = cards.database_path(folder).read_bytes()
    with pytest.raises(cards.CardDataError) as caught:
        cards.import_file(path, folder)
    assert cards.database_path(folder).read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [cards.DATABASE_NAME]
    for lang in ("en", "fr"):
        worded = cards.error_text(caught.value, lang)
        assert str(path) in worded and "[cards." not in worded
    return caught.value


def serra_line(path: Path) -> int:
    """The line where the entry of Serra Angel begins in an indented fixture file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith('  "Serra Angel": ['))


@pytest.mark.parametrize("changes, field, expected", [
    ({"colors": 5}, "colors", "expected a list of text, found the number 5"),
    ({"text": 5}, "text", "expected text, found the number 5"),
    ({"keywords": 5}, "keywords", "expected a list of text, found the number 5"),
    ({"foreignData": 5}, "foreignData", "expected a list of objects, found the number 5"),
    ({"name": 5}, "name", "expected text, found the number 5"),
    ({"edhrecRank": {"a": 1}}, "edhrecRank", "expected a whole number, found an object"),
    ({"manaValue": float("nan")}, "manaValue", "expected a finite number, found the number nan"),
    ({"manaValue": float("inf")}, "manaValue", "expected a finite number, found the number inf"),
    ({"manaValue": -1}, "manaValue", "expected a number from 0 to 1,000,000, found the number -1"),
    ({"colors": ["W", 7]}, "colors[1]", "expected text, found the number 7"),
    ({"foreignData": [{"language": "French", "name": ["Ange"]}]}, "foreignData[0].name",
     "expected text, found a list"),
    ({"power": 4}, "power", "expected text, found the number 4"),
    ({"side": "zz", "foreignData": [{"language": "French", "name": "A // B"}]}, "side",
     "expected a side letter (a, b …), found text of 2 characters"),
    ({"name": "Serra\ud800Angel"}, "name", "expected text without control characters or lone surrogates, "
                                           "found U+D800 at character 6"),
    ({"faceName": "Evil\x1b]0;pwned\x07"}, "faceName", "found U+001B at character 5"),
    ({"text": "x" * 10_001}, "text", "expected at most 10,000 characters, found 10,001"),
])
def test_a_field_of_the_wrong_type_refuses_the_file_with_its_place(tmp_path, changes, field, expected):
    path = atomic_with(tmp_path, **changes)
    error = refused(path, tmp_path / "data")
    assert error.key == "cards.errors.bad_field"
    assert str(error).startswith(f"{path}: line {serra_line(path)}, column 18, entry 'Serra Angel', "
                                 f"field {field}: expected")
    assert expected in str(error)
    assert (error.fields["field"], error.fields["line"]) == (field, serra_line(path))


def test_a_number_beyond_floats_is_refused_not_shown_later(tmp_path):
    """`manaValue: 1e999` was imported as infinity, then `cards show` failed with OverflowError."""
    path = atomic_with(tmp_path, file_text=json.dumps(ATOMIC, indent=1).replace('"manaValue": 5.0', '"manaValue": 1e999', 1))
    error = refused(path, tmp_path / "data")
    assert "field manaValue: expected a finite number, found the number inf" in str(error)


def test_a_number_of_thousands_of_digits_is_a_located_error(tmp_path):
    text = json.dumps(ATOMIC, indent=1).replace('"manaValue": 5.0', '"manaValue": ' + "9" * 5000, 1)
    error = refused(atomic_with(tmp_path, file_text=text), tmp_path / "data")
    assert error.key == "cards.errors.bad_json" and "Exceeds the limit" in str(error)


@pytest.mark.parametrize("changes, field, expected", [
    ({"name": None}, "name", "expected the card's name, found none"),
    ({"card_faces": [5]}, "card_faces[0]", "expected an object, found the number 5"),
    ({"cmc": [1]}, "cmc", "expected a number, found a list"),
    ({"edhrec_rank": 1.5}, "edhrec_rank", "expected a whole number, found the number 1.5"),
    ({"mana_cost": "{99999999}", "layout": "modal_dfc", "cmc": None}, "mana_cost", "expected a mana value from 0"),
])
def test_a_scryfall_card_of_the_wrong_shape_refuses_the_file_with_its_place(tmp_path, changes, field, expected):
    path = oracle_with(tmp_path, **changes)
    error = refused(path, tmp_path / "data")
    assert error.key == "cards.errors.bad_field"
    assert f", field {field}: " in str(error) and expected in str(error)
    assert ", entry 0" in str(error) and str(error).startswith(f"{path}: line 2, column 2, entry 0")


def test_an_entry_level_error_says_where_the_entry_begins(tmp_path):
    path = tmp_path / "AllPrintings.json"
    path.write_text('{"meta": {},\n "data": {"LEA": {"cards": []}}}')
    error = refused(path, tmp_path / "data")
    assert error.key == "cards.errors.bad_entry"
    assert str(error).startswith(f"{path}: line 2, column 18, entry 'LEA': expected a list of card faces")


def test_the_longest_real_name_is_kept_and_a_longer_one_refused(tmp_path):
    """The longest card name (141 characters, Unstable) imports; past NAME_CHARS the file is refused."""
    longest = ("Our Market Research Shows That Players Like Really Long Card Names So We Made this Card to Have "
               "the Absolute Longest Card Name Ever Elemental")
    assert len(longest) == 141 < NAME_CHARS
    cards.import_file(atomic_with(tmp_path, faceName=longest), tmp_path / "ok")
    with cards.open_database(tmp_path / "ok") as db:
        assert db.find(longest).name == longest
        assert [s.name for s in db.suggest("absolute longest card name ever elem")] == [longest]
        assert [s.name for s in db.suggest("our market research shows that players like really long")] == [longest]
    error = refused(atomic_with(tmp_path, faceName="a " * 12_000), tmp_path / "data")
    assert f"field faceName: expected at most {NAME_CHARS} characters, found 24,000" in str(error)


def test_the_name_index_grows_linearly_with_the_names(tmp_path):
    """Each word start of a name is indexed by at most PREFIX_KEY_CHARS characters: 12 000 one-letter
    words made a 150 MB database when every key ran to the end of its name. Here, 400 cards named by
    99 one-letter words each: the index stays within PREFIX_KEY_CHARS characters per word start."""
    data = {"meta": {}, "data": {}}
    for number in range(400):
        name = f"n{number} " + " ".join("abcdefghijklmnopqrstuvwxyz"[i % 26] for i in range(98))
        data["data"][name] = [{"name": name, "manaValue": 1, "type": "Creature — Test", "types": ["Creature"]}]
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(data))
    report = cards.import_file(path, tmp_path / "data")
    with cards.open_database(tmp_path / "data") as db:
        longest_key = db.db.execute("SELECT max(length(key)) FROM prefixes").fetchone()[0]
        keys = db.db.execute("SELECT count(*) FROM prefixes").fetchone()[0]
        assert [s.name for s in db.suggest("n17 a b c d e f g h i j k l m n o p q r s t u v w x y z a b")][:1] == \
               [next(n for n in data["data"] if n.startswith("n17 "))]
    assert longest_key == PREFIX_KEY_CHARS and keys <= 400 * 99
    assert report.size_bytes < 400 * 99 * (PREFIX_KEY_CHARS + 40) + 200_000   # was about 400 * 99 * 100


def test_french_printings_of_a_scryfall_file_give_the_french_names(tmp_path):
    """A Scryfall all-cards file holds each card in several languages: a French printing's
    `printed_name` is the card's French name (before or after its English printing, either face)."""
    data = copy.deepcopy(ORACLE)
    serra = next(c for c in data if c["name"] == "Serra Angel")
    delver = next(c for c in data if c["name"].startswith("Delver of Secrets"))
    french_serra = {**copy.deepcopy(serra), "lang": "fr", "printed_name": "Ange de Serra"}
    french_delver = copy.deepcopy(delver)
    french_delver["lang"] = "fr"
    for face, printed in zip(french_delver["card_faces"], ("Guetteur des secrets", "Aberration insectoïde")):
        face["printed_name"] = printed
    german = {**copy.deepcopy(serra), "lang": "de", "printed_name": "Serra-Engel"}
    path = tmp_path / "all-cards.json"
    path.write_text(json.dumps([french_serra, german] + data + [french_delver, french_serra]), encoding="utf-8")
    report = cards.import_file(path, tmp_path / "data")
    assert (report.cards, report.french_names) == (36, 3)
    with cards.open_database(tmp_path / "data") as db:
        assert db.find("Ange de Serra").name == "Serra Angel"
        assert db.find("Aberration insectoïde").name == "Insectile Aberration"
        assert db.suggest("guetteur")[0].title("fr") == "Guetteur des secrets"
        assert db.find("Serra-Engel") is None
