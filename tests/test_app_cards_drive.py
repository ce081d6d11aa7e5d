"""Card look-up in the real app (offscreen window, driven like a table), one run per language.

French: no card data at first (the Pieces screen says how to import and a token typed in words
still works), then Settings → Import cards (a generated file to watch the progress and the window
drawing meanwhile, then the project's fixture); a card found by its French name, by its English
name and with a typo becomes the selected piece in two taps; a printed "*" asked on the keypad; a
planeswalker; a card chosen with no token selected becomes a new token; the planar-deck entry
suggests planes; the face-up plane's text on the Table, said to be English.
English: the demo's own cards, a French name in the English app, a typo; the fixture imported,
then a truncated file refused with the previous cards kept.

On every screen shown: touch targets ≥ 48 dp, and no word of the other language outside the card
data. Expected values are the real cards' facts (tests/fixtures/cards) and the rules.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion import cards
from companion.app.demo import DEMO_ARMIES, DEMO_PLANAR_DECKS, DEMO_PLAYERS
from companion.cards.synthetic import write_atomic_cards
from companion.game import load_game
from companion.i18n import translate
from test_app_drive import run_autopilot
from test_app_table_game import _leaks, small_targets, visit_every_screen

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"
SHOTS = {lang: {part: f"cards-{part}-{lang}.png" for part in ("pieces", "settings", "newgame", "table")}
         for lang in ("fr", "en")}
FIELD = "pieces.card_search.field"
EDIT = "pieces.card_search.edit"


def choose(text: str, title: str, label: str) -> list[dict]:
    """The two taps: type in the search, tap the suggestion."""
    return [{"type": [FIELD, text]}, {"report": f"{label}_typed"}, {"tap_text": title}, {"report": label}]


def edit_with(text: str, title: str, label: str, lang: str) -> list[dict]:
    """The selected token becomes a card: *Edit this token*, the two taps, then yes to the question."""
    return [{"tap": EDIT}, {"type": [FIELD, text]}, {"report": f"{label}_typed"}, {"tap_text": title},
            {"inspect": f"{label}_question"}, {"tap_text": translate(lang, "cards.app.edit_yes")}, {"report": label}]


def _save_shots(tmp: Path, lang: str) -> None:
    if os.environ.get("UPDATE_SCREENSHOTS"):
        for name in SHOTS[lang].values():
            shutil.copy(tmp / name, DOCS / name)


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cards-fr")
    shots = {part: str(tmp / name) for part, name in SHOTS["fr"].items()}
    generated = write_atomic_cards(tmp / "generated.json", 6000)
    steps = [
        {"show": "pieces"}, {"tap_text": "jaune 3 · Savannah Lions"}, {"report": "nodata"},
        {"inspect": "fr-pieces-nodata"},
        *edit_with("Soldat 1/1 blanc vol", "Jeton Soldat", "token", "fr"),
        {"show": "settings"},
        {"type": ["settings.cards_import.path", str(generated)]}, {"tap": "settings.cards_import.start"},
        {"report": "generated"},
        {"type": ["settings.cards_import.path", str(ATOMIC)]}, {"tap": "settings.cards_import.start"},
        {"report": "imported"}, {"inspect": "fr-settings-imported"}, {"screenshot": shots["settings"]},
        {"show": "pieces"}, {"tap_text": "jaune 2 · Serra Angel"}, {"tap": EDIT},
        {"type": [FIELD, "ange de ser"]}, {"inspect": "fr-suggestions"}, {"screenshot": shots["pieces"]},
        {"tap_text": "Ange de Serra"}, {"inspect": "french_question"},
        {"tap_text": translate("fr", "cards.app.edit_yes")}, {"report": "french"},
        # #27: the angel still selected, a card chosen without "Edit this token" is a new token
        *choose("sengir", "Vampire de Sengir", "stray"), {"inspect": "fr-stray-new-token"},
        {"tap_text": translate("fr", "table.cancel")}, {"report": "stray_cancelled"},
        {"tap_text": "jaune 4 · Llanowar Elves"}, *edit_with("Sengir Vamp", "Vampire de Sengir", "english", "fr"),
        {"tap_text": "jaune 5 · Grizzly Bears"}, *edit_with("Shivan Dargon", "Dragon shivân", "typo", "fr"),
        {"show": "board"}, {"tap_token": [2, 3]}, {"show": "pieces"}, {"tap": EDIT}, {"type": [FIELD, "tarmo"]},
        {"tap_text": "Tarmogoyf"},
        {"inspect": "fr-ask"}, {"tap_text": "3"}, {"tap_text": "OK"}, {"tap_text": "4"}, {"tap_text": "OK"},
        {"tap_text": translate("fr", "cards.app.edit_yes")}, {"report": "goyf"},
        {"show": "board"}, {"tap_token": [2, 5]}, {"show": "pieces"},
        *edit_with("liliana", "Liliana du Voile", "walker", "fr"),
        {"show": "board"}, {"tap_token": [1, 3]}, {"show": "pieces"}, {"tap": "pieces.remove"},   # no token selected now
        *choose("boggart", "Boggart Ram-Gang", "unselected"), {"inspect": "fr-new-token"},
        {"tap_text": translate("fr", "pieces.add")}, {"report": "new_piece"},
        {"show": "table"}, {"inspect": "fr-table-plane"}, {"screenshot": shots["table"]},
        {"show": "newgame"}, {"tap": "newgame.planechase"},
        {"type": ["newgame.player-1.planes", "Nay"]}, {"inspect": "fr-planes"}, {"screenshot": shots["newgame"]},
        {"tap_text": "Naya"}, {"type": ["newgame.player-1.planes", "Naya, soke"]}, {"tap_text": "Sokenzan"},
        {"type": ["newgame.player-2.planes", "Sokenzan, gre"]}, {"tap_text": "The Great Forest"},
        {"tap": "newgame.start"}, {"tap_text": translate("fr", "newgame.replace_yes")}, {"report": "started"},
        *visit_every_screen("fr"),
    ]
    report = run_autopilot(tmp, steps, name="cards-fr", lang="fr", timeout=300,
                           options={"cards_dir": str(tmp / "cards"), "demo_cards": False})
    _save_shots(tmp, "fr")
    return report, tmp


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cards-en")
    shots = {part: str(tmp / name) for part, name in SHOTS["en"].items()}
    truncated = tmp / "AtomicCards.json"
    truncated.write_bytes(ATOMIC.read_bytes()[:30000])   # a download cut short
    steps = [
        {"show": "pieces"}, {"tap_text": "yellow 2 · Serra Angel"}, {"report": "demo"}, {"tap": EDIT},
        {"type": [FIELD, "ange de ser"]}, {"inspect": "en-suggestions"}, {"screenshot": shots["pieces"]},
        {"tap_text": "Serra Angel"}, {"report": "french"},   # already that card: nothing to ask
        {"tap_text": "yellow 4 · Llanowar Elves"}, *edit_with("Sengir Vampyre", "Sengir Vampire", "typo", "en"),
        {"show": "settings"},
        {"type": ["settings.cards_import.path", str(ATOMIC)]}, {"tap": "settings.cards_import.start"},
        {"report": "imported"},
        {"type": ["settings.cards_import.path", str(truncated)]}, {"tap": "settings.cards_import.start"},
        {"report": "bad"}, {"inspect": "en-settings-bad"}, {"screenshot": shots["settings"]},
        {"tap": "settings.cards_import.browse"}, {"inspect": "en-chooser"}, {"tap_text": "AtomicCards.json  (30 kB)"},
        {"report": "chosen"},
        {"show": "pieces"}, {"tap_text": "yellow 5 · Grizzly Bears"},
        *edit_with("elfes de llan", "Llanowar Elves", "after_bad", "en"),
        {"show": "table"}, {"inspect": "en-table-plane"}, {"screenshot": shots["table"]},
        {"show": "newgame"}, {"tap": "newgame.planechase"},
        {"type": ["newgame.player-1.planes", "sok"]}, {"inspect": "en-planes"}, {"screenshot": shots["newgame"]},
        {"tap_text": "Sokenzan"}, {"type": ["newgame.player-2.planes", "Sokenzan, nay"]}, {"tap_text": "Naya"},
        {"tap": "newgame.start"}, {"tap_text": translate("en", "newgame.replace_yes")}, {"report": "started"},
        *visit_every_screen("en"),
    ]
    report = run_autopilot(tmp, steps, name="cards-en", lang="en", timeout=300,
                           options={"cards_dir": str(tmp / "cards"), "demo_cards": True})
    _save_shots(tmp, "en")
    return report, tmp


def form(report: dict, label: str) -> dict:
    return report[label]["screens"]["pieces"]["form"]


def search(report: dict, label: str) -> dict:
    return report[label]["screens"]["pieces"]["search"]


def demo_game(report: dict, tmp: Path):
    """The demo game the pieces were entered in (a new game was started after it)."""
    return load_game(tmp / "save" / report["french"]["game_file"])


# -- no data: the hint, and tokens by hand -------------------------------------------------------------

def test_without_card_data_the_pieces_screen_says_how_to_import(french):
    report, _ = french
    assert search(report, "nodata")["hint"] == cards.no_data_line("fr")
    texts = report["inspected"]["fr-pieces-nodata"]["texts"]
    assert cards.no_data_line("fr") in texts and translate("fr", "pieces.save") in texts   # the form by hand


def test_a_token_typed_in_words_becomes_the_piece_without_any_card_data(french):
    """A token has no mana cost: MV 0 (MT 4.03.c)."""
    report, _ = french
    assert search(report, "token_typed")["suggestions"] == ["Jeton Soldat"]
    assert form(report, "token") == {"name": "Jeton Soldat", "mana_value": 0, "power": 1, "toughness": 1,
                                     "colours": ["W"], "keywords": ["flying"]}


# -- the import ---------------------------------------------------------------------------------------

def test_the_import_runs_while_the_window_keeps_drawing_with_its_progress(french):
    imported = french[0]["generated"]["screens"]["settings"]["cards"]
    assert imported["failed"] is False and imported["frames_during_import"] >= 2   # never the UI thread
    fractions = [fraction for fraction, _ in imported["progress_seen"]]
    assert len(fractions) >= 5 and fractions == sorted(fractions) and fractions[-1] == 1.0
    reading = [text for _, text in imported["progress_seen"] if text.startswith("Lecture du fichier")]
    assert len(reading) >= 3


def test_the_fixture_is_imported_from_the_settings_with_progress_and_a_summary(french):
    report, tmp = french
    imported = report["imported"]["screens"]["settings"]["cards"]
    steps = [text for _, text in imported["progress_seen"]]
    assert steps[0].startswith("Lecture du fichier") and steps[-1] == translate("fr", "cards.step.done", cards=36)
    assert imported["summary"].startswith("36 cartes (25 avec un nom français, 5 plans et phénomènes)")
    assert imported["outcome"].startswith("Terminé : 36 cartes importées")
    with cards.open_database(tmp / "cards") as db:   # in the app's data folder, not the demo's save folder
        assert db.info["file"] == ATOMIC.name
    assert not cards.database_path(tmp / "save").exists()


def test_a_truncated_file_is_said_and_the_previous_cards_stay(english):
    report, tmp = english
    before, after = (report[label]["screens"]["settings"]["cards"] for label in ("imported", "bad"))
    assert after["failed"] is True and after["busy"] is False
    assert "AtomicCards.json" in after["outcome"] and translate("en", "cards.errors.json.truncated") in after["outcome"]
    assert translate("en", "cards.app.kept") in after["outcome"]
    assert after["summary"] == before["summary"]
    assert search(report, "after_bad_typed")["suggestions"][0] == "Llanowar Elves"   # the search still works
    with cards.open_database(tmp / "cards") as db:
        assert db.info["file"] == ATOMIC.name and db.info["cards"] == 36


def test_the_file_browser_fills_the_path(english):
    report, tmp = english
    chooser = report["inspected"]["en-chooser"]
    assert chooser["popups"][-1] == "CardFileChooser"
    assert report["chosen"]["popups"] == [] and report["chosen"]["screens"]["settings"]["cards"]["busy"] is False


# -- a card in two taps -----------------------------------------------------------------------------

def test_a_card_found_by_its_french_name_becomes_the_piece_in_two_taps(french):
    report, tmp = french
    assert form(report, "french") == {"name": "Ange de Serra", "mana_value": 5, "power": 4, "toughness": 4,
                                      "colours": ["W"], "keywords": ["flying", "vigilance"]}
    assert report["french"]["undo"].startswith(translate("fr", "nav.undo"))   # one undoable action
    piece = demo_game(report, tmp).state.pieces[(1, 2)]
    assert (piece.name, piece.kind, piece.mana_value, piece.power, piece.toughness) == ("Ange de Serra", "creature", 5, 4, 4)


def test_a_card_chosen_with_a_token_selected_is_a_new_token_unless_edit_was_chosen(french):
    """#27: with Anna's "Ange de Serra" still selected, choosing "Vampire de Sengir" renamed and
    recoloured her token and saved it at once. Now it offers a new token; an edit asks first."""
    report, _ = french
    assert report["stray_typed"]["selected"] == [1, 2]
    assert report["inspected"]["fr-stray-new-token"]["popups"] == ["NewTokenPopup"]
    assert form(report, "stray_cancelled")["name"] == "Ange de Serra"
    assert form(report, "stray_cancelled")["colours"] == ["W"]
    assert report["stray_cancelled"]["pieces"] == report["french"]["pieces"]
    assert report["stray_cancelled"]["undo"] == report["french"]["undo"]   # nothing was played
    question = report["inspected"]["english_question"]
    assert question["popups"] == ["ConfirmPopup"]
    assert any("jaune 4 · Llanowar Elves devient Vampire de Sengir" in text for text in question["texts"])


def test_a_card_found_by_its_english_name_in_the_french_app(french):
    report, _ = french
    assert search(report, "english_typed")["suggestions"][0] == "Vampire de Sengir"
    assert form(report, "english") == {"name": "Vampire de Sengir", "mana_value": 5, "power": 4, "toughness": 4,
                                       "colours": ["B"], "keywords": ["flying"]}


def test_a_card_found_with_a_typo(french, english):
    report, _ = french
    assert form(report, "typo") == {"name": "Dragon shivân", "mana_value": 6, "power": 5, "toughness": 5,
                                    "colours": ["R"], "keywords": ["flying"]}
    report, _ = english
    assert form(report, "typo")["name"] == "Sengir Vampire" and form(report, "typo")["colours"] == ["B"]


def test_a_french_name_in_the_english_app_gives_the_english_name(english):
    report, _ = english
    assert search(report, "demo")["hint"] == translate("en", "cards.app.demo_data", cards=36)
    assert form(report, "french")["name"] == "Serra Angel" and form(report, "french")["mana_value"] == 5


def test_a_printed_star_is_asked_on_the_keypad(french):
    """MT 3.04.d needs the current power and toughness: Tarmogoyf's */1+* are asked, then set."""
    report, tmp = french
    assert report["inspected"]["fr-ask"]["popups"] == ["NumberPad"]
    assert "Tarmogoyf — Force" in report["inspected"]["fr-ask"]["texts"]
    assert form(report, "goyf")["power"] == 3 and form(report, "goyf")["toughness"] == 4
    piece = demo_game(report, tmp).state.pieces[(2, 3)]
    assert (piece.name, piece.mana_value, piece.power, piece.toughness) == ("Tarmogoyf", 2, 3, 4)


def test_a_planeswalker_card_makes_the_token_a_planeswalker(french):
    """MT 5.01: planeswalkers stand on the grid."""
    report, tmp = french
    assert report["walker_typed"]["selected"] == [2, 5] and form(report, "walker")["name"] == "Liliana du Voile"
    piece = demo_game(report, tmp).state.pieces[(2, 5)]   # it was Wall of Stone, a creature
    assert (piece.kind, piece.mana_value, piece.colours) == ("planeswalker", 3, frozenset("B"))


def test_a_card_chosen_with_no_token_selected_becomes_a_new_token(french):
    report, tmp = french
    assert report["unselected_typed"]["selected"] is None
    assert report["inspected"]["fr-new-token"]["popups"] == ["NewTokenPopup"]
    assert "Nouveau jeton pour Boggart Ram-Gang : à qui ?" in report["inspected"]["fr-new-token"]["texts"]  # #27
    new = [token for token in report["new_piece"]["pieces"] if token not in report["unselected"]["pieces"]]
    assert len(new) == 1
    piece = demo_game(report, tmp).state.pieces[tuple(map(int, new[0].split("-")))]
    assert (piece.name, piece.kind, piece.mana_value, piece.colours, piece.keywords) == (
        "Boggart Ram-Gang", "creature", 3, frozenset("RG"), frozenset({"haste", "wither"}))


# -- planes ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("run, label, lang", [("french", "fr-planes", "fr"), ("english", "en-planes", "en")])
def test_an_empty_planes_field_shows_its_whole_hint(run, label, lang, request):
    """#27: the Planes field's hint was cut; player 2's field is still empty while player 1 types."""
    report, _ = request.getfixturevalue(run)
    seen = report["inspected"][label]
    assert translate(lang, "newgame.planes_hint") in seen["texts"] and seen["cut"] == []


@pytest.mark.parametrize("run, decks", [("french", {"1": ["Naya", "Sokenzan"], "2": ["The Great Forest", "Sokenzan"]}),
                                         ("english", {"1": ["Sokenzan"], "2": ["Sokenzan", "Naya"]})])
def test_the_planar_deck_entry_suggests_planes_and_a_choice_completes_the_list(run, decks, request):
    """PC: each player's planar deck, typed with the suggestions (the game shuffles it)."""
    report, _ = request.getfixturevalue(run)
    lang = "fr" if run == "french" else "en"
    assert report["inspected"][f"{lang}-planes"]["popups"] == ["SuggestionList"]
    planar = report["started"]["game"]["planar_decks"]
    assert {seat: sorted(deck) for seat, deck in planar.items()} == {seat: sorted(deck) for seat, deck in decks.items()}


def test_the_face_up_planes_text_is_shown_and_said_english_in_the_french_app(french, english):
    """The demo's face-up plane is Sokenzan: its text from the card data, in English (the data has no other)."""
    for (report, _), lang in ((french, "fr"), (english, "en")):
        texts = "\n".join(report["inspected"][f"{lang}-table-plane"]["texts"])
        assert "All creatures get +1/+1 and have haste." in texts
        assert (translate("fr", "cards.app.text_in_english") in texts) == (lang == "fr")


# -- every screen: fingers and words ------------------------------------------------------------------

@pytest.mark.parametrize("run", ["french", "english"])
def test_every_touch_target_measures_at_least_48_dp(run, request):
    """Suggestions, the keypad, the import panel, the file browser and every screen around them."""
    report, _ = request.getfixturevalue(run)
    assert {"fr-suggestions", "fr-ask", "fr-planes", "fr-new-token"} <= set(report["inspected"]) or \
        {"en-suggestions", "en-chooser", "en-planes", "en-settings-bad"} <= set(report["inspected"])
    assert small_targets(report) == []


def _card_words(tmp: Path) -> list[str]:
    """Names and texts the card data and the demo carry: not words of the app's language."""
    with cards.open_database(tmp / "cards") as db:
        names = [row[0] for row in db.db.execute("SELECT name FROM names")]
        texts = [line for row in db.db.execute("SELECT text, type_line FROM faces WHERE text != ''")
                 for part in row for line in part.splitlines()]
    demo = [card.name for army in DEMO_ARMIES for card in army] + [p for deck in DEMO_PLANAR_DECKS for p in deck]
    return sorted(set(names + texts + demo + [name for name, _ in DEMO_PLAYERS]), key=len, reverse=True)


@pytest.mark.parametrize("run, lang, other", [("french", "fr", "en"), ("english", "en", "fr")])
def test_no_word_of_the_other_language_outside_the_card_data(run, lang, other, request):
    report, tmp = request.getfixturevalue(run)
    known = _card_words(tmp)
    stripped = {"inspected": {}}
    for label, seen in report["inspected"].items():
        texts = []
        for text in seen["texts"]:
            for name in known:
                text = text.replace(name, " ")
            texts.append(text)
        stripped["inspected"][label] = {**seen, "texts": texts}
    assert _leaks(stripped, lang, other) == []
