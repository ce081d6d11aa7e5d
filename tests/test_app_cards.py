"""The app's card look-up without a window: what the search offers as the table types, what a
chosen card makes of a piece, the planar-deck entry, the face-up plane's text, the card library
(the app's data folder, the demo's own cards) and the import in a worker thread.

Expected values are the real cards' facts (tests/fixtures/cards/write_fixtures.py) and the rules
(MT 4.03.c, 5.01.b, 3.04.d), never the presenter's own output.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion import cards
from companion.app.card_library import DEMO_CARD_FILE, CardLibrary, ImportJob
from companion.app.widgets import card_search_presenter as presenter
from companion.app.widgets.card_files import folder_entries, start_folder
from companion.i18n import translate

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ATOMIC = FIXTURES / "AtomicCards.fixture.json"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cards")
    cards.import_file(ATOMIC, folder)
    with cards.open_database(folder) as database:
        yield database


def titles(rows) -> list[str]:
    return [row.title for row in rows]


# -- search as the table types -------------------------------------------------------------------

def test_a_french_name_typed_in_part_suggests_the_card_in_french_with_its_english_name(db):
    rows = presenter.card_rows(db, "ange de ser", "fr")
    assert titles(rows)[0] == "Ange de Serra"
    detail = rows[0].detail
    assert detail.startswith("Serra Angel · ")
    assert "créature 4/4" in detail and "VM 5" in detail and "blanc" in detail and "vol" in detail


def test_an_english_name_in_the_french_app_and_a_french_name_in_the_english_app(db):
    assert titles(presenter.card_rows(db, "Llanowar El", "fr"))[0] == "Elfes de Llanowar"
    rows = presenter.card_rows(db, "elfes de llan", "en")
    assert titles(rows)[0] == "Llanowar Elves" and rows[0].detail.startswith("Elfes de Llanowar · creature 1/1")


def test_a_name_with_a_typo_still_finds_the_card(db):
    assert titles(presenter.card_rows(db, "Shivan Dargon", "en"))[0] == "Shivan Dragon"
    assert titles(presenter.card_rows(db, "dragon chivan", "fr"))[0] == "Dragon shivân"


def test_a_token_described_in_words_comes_first_and_needs_no_card_data(db):
    """A token has no mana cost: MV 0 (MT 4.03.c)."""
    for database in (db, None):
        rows = presenter.card_rows(database, "Soldier token 1/1 W", "en")
        token = rows[0]
        assert token.card_id is None and token.draft.power == 1 and token.draft.toughness == 1
        assert token.draft.colours == {"W"} and token.draft.mana_value == 0
        assert token.detail == "Token · creature 1/1 · white"
    assert presenter.card_rows(None, "serra", "fr") == []   # no data: nothing but tokens


def test_the_detail_line_says_what_is_not_on_the_grid_and_counts_x_as_zero(db):
    """MT 5.01.b: an instant is not on the grid; MT 4.03.c: X counts as 0."""
    bolt = presenter.card_rows(db, "foudre", "fr")[0]
    assert bolt.title == "Foudre" and "hors de la grille" in bolt.detail and "créature" not in bolt.detail
    serpent = presenter.card_rows(db, "stonecoil", "en")[0]
    assert "MV 0 (X = 0)" in serpent.detail and "colourless" in serpent.detail
    liliana = presenter.card_rows(db, "liliana", "en")[0]
    assert "planeswalker loyalty 3" in liliana.detail and "MV 3" in liliana.detail


# -- what a chosen card makes of a piece -----------------------------------------------------------

def _draft(db, name, lang="fr"):
    row = next(r for r in presenter.card_rows(db, name, lang) if r.card_id is not None)
    return presenter.draft_of(db, row, lang)


def test_a_chosen_creature_gives_the_piece_its_cards_values_in_the_shown_language(db):
    changes = presenter.piece_changes(_draft(db, "Serra Angel"), "creature", {})
    assert changes == {"name": "Ange de Serra", "mana_value": 5, "power": 4, "toughness": 4,
                       "colours": frozenset("W"), "keywords": frozenset({"flying", "vigilance"}), "kind": "creature"}


def test_a_planeswalker_makes_the_token_a_planeswalker(db):
    """MT 5.01: planeswalkers stand on the grid like creatures."""
    changes = presenter.piece_changes(_draft(db, "Liliana du Voile"), "creature", {})
    assert changes["kind"] == "planeswalker" and changes["mana_value"] == 3 and changes["colours"] == {"B"}


def test_a_card_not_on_the_grid_keeps_the_tokens_kind_and_says_so(db):
    """MT 5.01.b: an instant is no permanent on the grid; the token keeps what it is (it may stand for
    a permanent that became a creature, MT 5.02.a)."""
    draft = _draft(db, "Lightning Bolt", "en")
    changes = presenter.piece_changes(draft, "creature", {})
    assert "kind" not in changes and changes["name"] == "Lightning Bolt" and changes["mana_value"] == 1
    assert translate("en", "cards.not_on_grid") in presenter.choice_notes(draft, "en", {})


def test_a_pawn_never_changes_kind(db):
    """MT 2.05: a player's pawn stands for its player."""
    assert "kind" not in presenter.piece_changes(_draft(db, "Serra Angel"), "player", {})


def test_a_chosen_card_is_a_new_token_unless_the_table_chose_to_edit_the_selected_one():
    """#27: a card chosen while another player's token is still selected must not rewrite it."""
    assert presenter.choice_effect(None, editing=False) == "new"
    assert presenter.choice_effect("creature", editing=False) == "new"
    assert presenter.choice_effect("planeswalker", editing=False) == "new"
    assert presenter.choice_effect("creature", editing=True) == "edit"
    assert presenter.choice_effect("planeswalker", editing=True) == "edit"
    assert presenter.choice_effect("player", editing=True) == "pawn"   # MT 2.05: a pawn is its player
    assert presenter.choice_effect(None, editing=True) == "new"


def test_a_printed_star_is_asked_and_the_answers_fill_the_piece(db):
    """MT 3.04.d needs the current power: Tarmogoyf's */1+* is asked, field by field."""
    draft = _draft(db, "Tarmogoyf", "en")
    assert draft.asks == ("power", "toughness")
    title, hint = presenter.ask_words(draft, "toughness", "en")
    assert title == "Tarmogoyf — Toughness" and "1+*" in hint
    changes = presenter.piece_changes(draft, "creature", {"power": 3, "toughness": 4})
    assert (changes["power"], changes["toughness"]) == (3, 4)
    unanswered = presenter.choice_notes(draft, "fr", {"power": 3})
    assert "Endurance : imprimée 1+*" in unanswered and "Force :" not in unanswered


def test_an_x_cost_is_noted_after_the_choice(db):
    """MT 4.03.c: X counts as 0 and the zone then has a radius of 1."""
    draft = _draft(db, "Stonecoil Serpent", "en")
    assert draft.mana_value == 0 and translate("en", "cards.x_cost") in presenter.choice_notes(draft, "en", {})


# -- planar decks ---------------------------------------------------------------------------------------

def test_the_planar_deck_entry_suggests_planes_for_the_name_being_typed(db):
    assert presenter.entry_being_typed("Naya, The Great Forest\nsok") == "sok"
    rows = presenter.plane_rows(db, presenter.entry_being_typed("Naya, sok"), "fr")
    assert titles(rows) == ["Sokenzan"] and rows[0].detail == "plan · Kamigawa"
    assert presenter.plane_rows(db, "chaotic", "en")[0].detail == "phenomenon"
    assert presenter.plane_rows(db, "serra", "en") == [] and presenter.plane_rows(None, "nay", "en") == []


def test_choosing_a_plane_completes_the_last_entry_of_the_list():
    assert presenter.complete_entry("Nay", "Naya") == "Naya, "
    assert presenter.complete_entry("Naya, sok", "Sokenzan") == "Naya, Sokenzan, "
    assert presenter.complete_entry("Naya\ngre", "The Great Forest") == "Naya\nThe Great Forest, "


def test_the_face_up_planes_text_says_when_it_is_english_in_the_french_app(db):
    plane = db.plane_text("Sokenzan", "fr")
    french = presenter.plane_view(plane, "fr")
    assert "All creatures get +1/+1 and have haste." in french
    assert translate("fr", "cards.app.text_in_english") in french
    assert translate("en", "cards.app.text_in_english") not in presenter.plane_view(db.plane_text("Sokenzan", "en"), "en")
    assert presenter.plane_view(None, "fr") == ""


def test_card_text_is_shown_literally_not_as_markup():
    assert presenter.escape_markup("[−2]: [b]x[/b] & y") == "&bl;−2&br;: &bl;b&br;x&bl;/b&br; &amp; y"


def test_an_import_time_is_said_with_a_decimal_comma_in_french():
    assert presenter.import_done_text(36, 1.25, "fr").endswith("en 1,2 s.")
    assert presenter.import_done_text(36, 1.25, "en").endswith("in 1.2 s.")


# -- the library: the app's data folder, the demo's cards ------------------------------------------------

def test_without_cards_the_hint_says_how_to_import_and_nothing_is_searched(tmp_path):
    library = CardLibrary(tmp_path / "app")
    assert library.db is None and library.hint("fr") == cards.no_data_line("fr")
    assert "tactical cards import" in library.hint("en") and translate("en", "cards.app.import") in library.hint("en")


def test_the_demo_searches_the_fixture_from_its_own_folder_never_the_apps(tmp_path):
    app_folder, demo_folder = tmp_path / "app", tmp_path / "demo"
    library = CardLibrary(app_folder, demo_file=DEMO_CARD_FILE, demo_folder=demo_folder)
    assert library.db is not None and library.demo and library.db.find("Serra Angel") is not None
    assert not cards.database_path(app_folder).exists() and cards.database_path(demo_folder).is_file()
    assert library.hint("en") == translate("en", "cards.app.demo_data", cards=36)
    cards.import_file(ATOMIC, app_folder)      # the table imports: the app's cards win from then on
    library.reopen()
    assert library.db.path == cards.database_path(app_folder) and not library.demo and library.hint("fr") == ""
    assert library.summary("en").startswith("36 cards (25 with a French name, 5 planes and phenomena)")
    library.close()


def test_a_damaged_database_is_said_and_the_app_goes_on(tmp_path):
    cards.database_path(tmp_path).write_bytes(b"not sqlite" * 100)
    library = CardLibrary(tmp_path)
    assert library.db is None and library.problem.key == "cards.errors.damaged_database"
    assert library.hint("fr") == cards.error_text(library.problem, "fr")


# -- the import in a worker thread ---------------------------------------------------------------------

def _run(job_folder: Path, file: Path, cancel: bool = False):
    seen, finished, threads = [], threading.Event(), set()
    outcome = {}

    def progress(p):
        threads.add(threading.current_thread().name)
        seen.append(p)

    def done(report, error):
        threads.add(threading.current_thread().name)
        outcome.update(report=report, error=error)
        finished.set()

    job = ImportJob(file, job_folder, on_progress=progress, on_done=done)
    if cancel:
        job.cancel()
    job.start()
    assert finished.wait(60)
    return seen, outcome, threads


def test_the_import_runs_off_the_ui_thread_with_progress_to_the_end(tmp_path):
    seen, outcome, threads = _run(tmp_path, ATOMIC)
    assert threads == {"card-import"} and threading.current_thread().name not in threads
    assert outcome["error"] is None and outcome["report"].cards == 36
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert [p.step for p in seen][-1] == "cards.step.done"


def test_a_bad_file_or_a_cancel_keeps_the_previous_cards(tmp_path):
    cards.import_file(ATOMIC, tmp_path)
    before = cards.database_path(tmp_path).read_bytes()
    bad = tmp_path / "AtomicCards.json"
    bad.write_bytes(ATOMIC.read_bytes()[:5000])
    _, outcome, _ = _run(tmp_path, bad)
    assert outcome["report"] is None and outcome["error"].key == "cards.errors.bad_json"
    _, outcome, _ = _run(tmp_path, ATOMIC, cancel=True)
    assert isinstance(outcome["error"], cards.ImportCancelled)
    assert cards.database_path(tmp_path).read_bytes() == before


# -- the file browser ---------------------------------------------------------------------------------

def test_the_browser_lists_folders_then_card_files_and_opens_where_the_path_points(tmp_path):
    (tmp_path / "b-folder").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "AtomicCards.json.xz").write_bytes(b"x" * 2_500_000)
    (tmp_path / "photo.png").write_bytes(b"x")
    (tmp_path / "oracle-cards.json").write_bytes(b"x" * 10)
    entries = folder_entries(tmp_path)
    assert [e.label for e in entries] == ["b-folder/", "AtomicCards.json.xz  (2.5 MB)", "oracle-cards.json  (1 kB)"]
    assert [e.is_dir for e in entries] == [True, False, False]
    assert folder_entries(tmp_path / "missing") == []
    assert start_folder(str(tmp_path / "AtomicCards.json.xz")) == tmp_path
    assert start_folder(str(tmp_path / "b-folder")) == tmp_path / "b-folder"
    assert start_folder("").is_dir()
