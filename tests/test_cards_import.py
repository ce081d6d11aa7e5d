"""Importing the public card files: both formats, every compression, bad files lose nothing."""
import bz2
import gzip
import importlib.util
import json
import lzma
import shutil
import threading
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from companion import cards
from companion.cards.synthetic import write_atomic_cards

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ATOMIC = FIXTURES / "AtomicCards.fixture.json"
ORACLE = FIXTURES / "oracle-cards.fixture.json"


def compressed(source: Path, folder: Path, kind: str) -> Path:
    data = source.read_bytes()
    target = folder / f"{source.name}.{kind}"
    if kind == "gz":
        target.write_bytes(gzip.compress(data))
    elif kind == "xz":
        target.write_bytes(lzma.compress(data))
    elif kind == "bz2":
        target.write_bytes(bz2.compress(data))
    else:
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(source.name, data)
    return target


def test_the_committed_fixtures_are_what_their_script_writes(tmp_path):
    spec = importlib.util.spec_from_file_location("write_fixtures", FIXTURES / "write_fixtures.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert json.loads(ATOMIC.read_text(encoding="utf-8")) == script.atomic_cards()
    assert json.loads(ORACLE.read_text(encoding="utf-8")) == script.oracle_cards()


@pytest.mark.parametrize("kind", ["json", "gz", "xz", "bz2", "zip"])
def test_atomic_cards_import_in_every_compression(tmp_path, kind):
    source = ATOMIC if kind == "json" else compressed(ATOMIC, tmp_path, kind)
    steps = []
    report = cards.import_file(source, tmp_path / "data", progress=steps.append)
    assert (report.source, report.cards, report.faces, report.planes) == ("mtgjson", 36, 39, 5)
    assert report.skipped == 1  # the Alchemy card
    assert steps[-1].step == "cards.step.done" and steps[-1].fraction == 1.0
    assert [s.fraction for s in steps] == sorted(s.fraction for s in steps)
    with cards.open_database(tmp_path / "data") as db:
        serra = db.find("Ange de Serra")
        assert (serra.name, serra.mana_value, serra.colours, serra.power, serra.toughness) == \
               ("Serra Angel", 5, "W", "4", "4")
        assert serra.keywords == ("Flying", "Vigilance") and serra.types == ("Creature",)


def test_french_names_come_from_foreign_data_and_double_faced_cards_by_either_face(tmp_path):
    cards.import_file(ATOMIC, tmp_path)
    with cards.open_database(tmp_path) as db:
        back = db.find("Aberration insectoïde")
        assert (back.name, back.side, back.card_name) == ("Insectile Aberration", "b",
                                                           "Delver of Secrets // Insectile Aberration")
        assert (back.mana_value, back.colours, back.power, back.toughness, back.keywords) == (1, "U", "3", "2",
                                                                                             ("Flying",))
        assert db.find("Guetteur des secrets").name == "Delver of Secrets"
        assert [f.name for f in db.faces_of("Delver of Secrets // Insectile Aberration")] == \
               ["Delver of Secrets", "Insectile Aberration"]
        assert db.find("Serra-Engel") is None  # German names are not imported
        assert db.find("Glace").name == "Ice"


def test_scryfall_oracle_cards_give_the_same_facts_in_english(tmp_path):
    cards.import_file(ATOMIC, tmp_path / "mtgjson")
    report = cards.import_file(ORACLE, tmp_path / "scryfall")
    assert (report.source, report.cards, report.french_names, report.skipped) == ("scryfall", 36, 0, 2)
    with cards.open_database(tmp_path / "mtgjson") as a, cards.open_database(tmp_path / "scryfall") as b:
        for name in ("Serra Angel", "Insectile Aberration", "Tergrid's Lantern", "Tarmogoyf", "Shanodin Dryads",
                     "Lord of Atlantis", "Liliana of the Veil", "Fire", "Naya", "Stonecoil Serpent"):
            x, y = a.find(name), b.find(name)
            assert (x.mana_value, x.colours, x.power, x.toughness, x.loyalty, x.types, set(x.keywords),
                    x.unblockable, x.text) == \
                   (y.mana_value, y.colours, y.power, y.toughness, y.loyalty, y.types, set(y.keywords),
                    y.unblockable, y.text), name
        assert b.find("Soldier") is None  # tokens of the bulk file are not cards


def test_a_modal_double_faced_back_has_its_own_mana_value_and_a_transformed_back_its_fronts(tmp_path):
    """MT 4.03: the zone follows the mana value of the face that is up (CR 712.8)."""
    cards.import_file(ATOMIC, tmp_path)
    with cards.open_database(tmp_path) as db:
        assert db.find("Tergrid's Lantern").mana_value == 4
        assert db.find("Tergrid, God of Fright").mana_value == 5
        assert db.find("Insectile Aberration").mana_value == 1


def good_database(tmp_path) -> Path:
    folder = tmp_path / "data"
    cards.import_file(ATOMIC, folder)
    return folder


@pytest.mark.parametrize("make, key", [
    (lambda p: p.write_bytes(ATOMIC.read_bytes()[:20000]), "cards.errors.bad_json"),
    (lambda p: p.write_bytes((lambda z: z[:len(z) // 2])(gzip.compress(ATOMIC.read_bytes()))), "cards.errors.bad_archive"),
    (lambda p: p.write_bytes((lambda z: z[:len(z) // 2])(lzma.compress(ATOMIC.read_bytes()))), "cards.errors.bad_archive"),
    (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(300)), "cards.errors.bad_json"),
    (lambda p: p.write_text("<html>Not found</html>"), "cards.errors.not_card_data"),
    (lambda p: p.write_text(json.dumps({"meta": {}, "data": {"LEA": {"cards": [], "name": "Alpha"}}})),
     "cards.errors.bad_entry"),
    (lambda p: p.write_text(json.dumps({"meta": {}, "other": 1})), "cards.errors.bad_json"),
    (lambda p: p.write_text(json.dumps([{"object": "set", "name": "Alpha"}])), "cards.errors.bad_entry"),
    (lambda p: p.write_text(json.dumps({"data": {}})), "cards.errors.no_cards"),
])
def test_a_bad_truncated_or_foreign_file_is_refused_and_the_previous_cards_stay(tmp_path, make, key):
    folder = good_database(tmp_path)
    before = cards.database_path(folder).read_bytes()
    bad = tmp_path / "bad.json"
    make(bad)
    with pytest.raises(cards.CardDataError) as caught:
        cards.import_file(bad, folder)
    assert caught.value.key == key
    assert str(bad) in str(caught.value)
    for lang in ("fr", "en"):  # worded whole in each language: no "[key]", no English detail in French
        text = cards.error_text(caught.value, lang)
        assert str(bad) in text and "[" not in text.replace(str(bad), "")
        assert lang == "en" or caught.value.fields.get("reason", "§") not in text
    assert cards.database_path(folder).read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == [cards.DATABASE_NAME]  # no temporary file left


def test_a_truncated_file_says_where_it_ends(tmp_path):
    bad = tmp_path / "AtomicCards.json"
    bad.write_bytes(ATOMIC.read_bytes()[:30000])
    with pytest.raises(cards.CardDataError) as caught:
        cards.import_file(bad, tmp_path / "data")
    assert "truncated" in str(caught.value) and caught.value.fields["line"] > 1


def test_a_cancelled_import_keeps_the_previous_cards(tmp_path):
    folder = good_database(tmp_path)
    before = cards.database_path(folder).read_bytes()
    big = write_atomic_cards(tmp_path / "big.json", 1500)
    stop = threading.Event()

    def progress(step):
        if step.fraction > 0.2:
            stop.set()
    with pytest.raises(cards.ImportCancelled):
        cards.import_file(big, folder, progress=progress, cancel=stop)
    assert cards.database_path(folder).read_bytes() == before


def test_a_new_import_replaces_the_old_database_whole(tmp_path):
    folder = good_database(tmp_path)
    cards.import_file(ORACLE, folder)
    with cards.open_database(folder) as db:
        assert db.info["source"] == "scryfall" and db.find("Ange de Serra") is None


def test_the_import_streams_in_bounded_memory(tmp_path):
    """Peak Python memory stays a fraction of the file: the file is never held whole (json.load
    of this file alone takes several times its size)."""
    big = write_atomic_cards(tmp_path / "big.json", 6000)
    tracemalloc.start()
    try:
        cards.import_file(big, tmp_path / "data")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < big.stat().st_size


def test_no_database_yet_is_none_and_says_how_to_import(tmp_path):
    assert cards.open_database(tmp_path) is None
    assert "tactical cards import" in cards.no_data_line("en")
    assert "tactical cards import" in cards.no_data_line("fr")


def test_a_damaged_database_file_is_reported_not_crashed_on(tmp_path):
    cards.database_path(tmp_path).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(cards.CardDataError) as caught:
        cards.open_database(tmp_path)
    assert caught.value.key == "cards.errors.damaged_database"


def test_the_database_opens_read_only(tmp_path):
    folder = good_database(tmp_path)
    with cards.open_database(folder) as db:
        with pytest.raises(Exception, match="readonly"):
            db.db.execute("DELETE FROM faces")
