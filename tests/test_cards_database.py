"""The card database when its file or folder is not what it should be (issue #29): damaged bytes,
edited meta rows, a folder in its place, places that cannot be written, and the leftovers of killed
imports. Each is said as a CardDataError naming the path — never sqlite3's or the system's raw
error — the previous cards stay, and the app keeps running."""
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cards
from companion.app.card_library import CardLibrary
from companion.cards.importer import TEMPORARY_PREFIX, remove_leftovers
from read_only import make_read_only, make_writable

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> bytes:
    """The bytes of a good card database (imported once for the module)."""
    folder = tmp_path_factory.mktemp("good")
    cards.import_file(ATOMIC, folder)
    return cards.database_path(folder).read_bytes()


def database_in(folder: Path, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    cards.database_path(folder).write_bytes(content)
    return folder


def use_everything(db: cards.CardDatabase) -> None:
    """What the app and the command line ask of a database."""
    for text in ("serr", "ange de", "dragon", "delvr of", "xyzzy", "n"):
        for suggestion in db.suggest(text) + db.suggest_planes(text):
            cards.card_to_piece(db.card(suggestion.card_id), "fr")
    for name in ("Serra Angel", "Ange de Serra", "Naya", "Delver of Secrets"):
        db.find(name)
        db.plane_text(name, "fr")
    db.faces_of("Delver of Secrets // Insectile Aberration")


@pytest.mark.parametrize("seed", range(12))
def test_random_damage_is_found_at_opening_or_said_by_the_query_that_meets_it(tmp_path, imported, seed):
    """300 random bytes changed: opening passed, then search raised `sqlite3.DatabaseError: database
    disk image is malformed`. Now every failure is the damaged-database error, naming the file."""
    data = bytearray(imported)
    generator = random.Random(seed)
    start = generator.randrange(100, len(data) - 300)  # past SQLite's own header, which says "not a database"
    data[start:start + 300] = generator.randbytes(300)
    folder = database_in(tmp_path, bytes(data))
    try:
        with cards.open_database(folder) as db:
            use_everything(db)
    except cards.CardDataError as error:
        assert error.key == "cards.errors.damaged_database"
        assert str(cards.database_path(folder)) in str(error) and "import it again" in str(error)


def test_quick_check_finds_damaged_pages_when_the_database_is_opened(tmp_path, imported):
    """Zeroes over the index pages (the end of the file): found before any search."""
    data = bytearray(imported)
    data[len(data) // 2:len(data) // 2 + 4096] = bytes(4096)
    with pytest.raises(cards.CardDataError) as caught:
        cards.open_database(database_in(tmp_path, bytes(data)))
    assert caught.value.key == "cards.errors.damaged_database"


@pytest.mark.parametrize("edit, reason", [
    ("UPDATE meta SET value = 'not json {' WHERE key = 'cards'", "meta 'cards' is not JSON"),
    ("DELETE FROM meta WHERE key = 'gram_ids'", "meta 'gram_ids' missing"),
    ("UPDATE meta SET value = '\"Q\"' WHERE key = 'gram_ids'", "meta 'gram_ids' is not a posting list type"),
    ("UPDATE meta SET value = '\"many\"' WHERE key = 'faces'", "meta 'faces' missing or not int"),
    ("DROP TABLE grams", "no table grams"),
])
def test_a_meta_table_not_as_written_is_damage_said_at_opening(tmp_path, imported, edit, reason):
    """A meta value that is not JSON raised JSONDecodeError (and the app exited); no gram_ids, KeyError."""
    folder = database_in(tmp_path, imported)
    with sqlite3.connect(cards.database_path(folder)) as connection:
        connection.execute(edit)
    connection.close()
    with pytest.raises(cards.CardDataError) as caught:
        cards.open_database(folder)
    assert caught.value.key == "cards.errors.damaged_database" and reason in str(caught.value)
    for lang, words in (("en", "the card data is damaged: import it again"),
                        ("fr", "les données de cartes sont abîmées : importez-les de nouveau")):
        assert words in cards.error_text(caught.value, lang)


def test_a_face_row_of_the_wrong_types_is_damage_not_a_crash_later(tmp_path, imported):
    folder = database_in(tmp_path, imported)
    with sqlite3.connect(cards.database_path(folder)) as connection:
        connection.execute("UPDATE faces SET types = 5, mana_value = 1e999 WHERE name = 'Serra Angel'")
    connection.close()
    with cards.open_database(folder) as db:
        with pytest.raises(cards.CardDataError) as caught:
            db.find("Serra Angel")
    assert caught.value.key == "cards.errors.damaged_database"


def test_the_app_says_the_damage_and_keeps_searching_by_hand(tmp_path, imported):
    """A damaged database met by a search: the library closes it and its hint says so, in both languages."""
    folder = database_in(tmp_path, imported)
    library = CardLibrary(folder)
    assert library.db is not None and library.hint("en") == ""
    with sqlite3.connect(cards.database_path(folder)) as connection:
        connection.execute("DROP TABLE prefixes")
    connection.close()
    with pytest.raises(cards.CardDataError) as caught:
        library.db.suggest("serr")
    library.damaged(caught.value)
    assert library.db is None
    assert "the card data is damaged: import it again" in library.hint("en")
    assert "importez-les de nouveau" in library.hint("fr")
    assert library.plane_text("Naya", "en") is None
    library.reopen()
    assert library.problem is not None and library.db is None   # opening finds it damaged too


def test_a_plane_text_query_meeting_damage_is_said_by_the_library(tmp_path, imported):
    folder = database_in(tmp_path, imported)
    library = CardLibrary(folder)
    assert library.db is not None
    with sqlite3.connect(cards.database_path(folder)) as connection:
        connection.execute("DROP TABLE names")
    connection.close()
    assert library.plane_text("Naya", "fr") is None
    assert library.problem is not None and "import" in library.hint("en")


def test_a_folder_named_cards_sqlite_is_said_not_taken_for_no_data(tmp_path):
    """It said "No card data yet", and import raised IsADirectoryError."""
    cards.database_path(tmp_path).mkdir()
    for action in (lambda: cards.open_database(tmp_path), lambda: cards.import_file(ATOMIC, tmp_path)):
        with pytest.raises(cards.CardDataError) as caught:
            action()
        assert caught.value.key == "cards.errors.not_a_database_file"
        assert str(cards.database_path(tmp_path)) in cards.error_text(caught.value, "fr")
    assert cards.database_path(tmp_path).is_dir()


def test_a_data_folder_that_is_a_file_is_said(tmp_path):
    folder = tmp_path / "data"
    folder.write_text("not a folder")
    with pytest.raises(cards.CardDataError) as caught:
        cards.import_file(ATOMIC, folder)
    assert caught.value.key == "cards.errors.cannot_write" and str(folder) in str(caught.value)
    assert "a file is in the way of the folder" in cards.error_text(caught.value, "en")


@pytest.mark.parametrize("what", ["database", "folder"])
def test_an_unchangeable_database_or_folder_is_said_with_its_path_and_the_cards_stay(tmp_path, imported, what):
    """An immutable cards.sqlite raised PermissionError at the final rename; an immutable data folder
    `OperationalError: unable to open database file`."""
    folder = database_in(tmp_path / "data", imported)
    locked = cards.database_path(folder) if what == "database" else folder
    make_read_only(locked)
    try:
        with pytest.raises(cards.CardDataError) as caught:
            cards.import_file(ATOMIC, folder)
        assert cards.database_path(folder).read_bytes() == imported
        assert sorted(p.name for p in folder.iterdir()) == [cards.DATABASE_NAME]
    finally:
        make_writable(locked)
    assert caught.value.key == "cards.errors.cannot_write"
    assert caught.value.fields["path"] == str(locked) and str(caught.value).startswith(f"{locked}: ")
    assert "permission refused" in cards.error_text(caught.value, "en")
    assert "autorisation refusée" in cards.error_text(caught.value, "fr")


def test_leftovers_of_dead_imports_are_removed_and_running_ones_kept(tmp_path):
    """After kill -9 during an import, `.cards.sqlite.<pid>.<thread>.tmp` stayed for good."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        names = {"dead": f"{TEMPORARY_PREFIX}{dead.stdout.strip()}.1234.tmp",
                 "running": f"{TEMPORARY_PREFIX}{running.pid}.1234.tmp",
                 "ours": f"{TEMPORARY_PREFIX}{os.getpid()}.99.tmp",
                 "not an import's": f"{TEMPORARY_PREFIX}notes.tmp"}
        for name in names.values():
            (tmp_path / name).write_bytes(b"half a database")
        cards.import_file(ATOMIC, tmp_path)
        left = {p.name for p in tmp_path.iterdir()}
    finally:
        running.kill()
        running.wait()
    assert left == {cards.DATABASE_NAME, names["running"], names["ours"], names["not an import's"]}
    assert remove_leftovers(tmp_path) == [tmp_path / names["running"]]
