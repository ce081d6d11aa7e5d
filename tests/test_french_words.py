"""French as the table reads it (#27): elisions before the names the table types, the planar die's
faces as the French Planechase rules name them, warnings written as sentences."""
from __future__ import annotations

import pytest

from boards import library_boards, load_board
from companion.game import board_warnings
from companion.i18n import LANGUAGES, elide_french, translate
from companion.rules import word


@pytest.mark.parametrize("name, expected", [
    ("Émile", "le pion d'Émile"), ("Anna", "le pion d'Anna"), ("Ugo", "le pion d'Ugo"),
    ("Bruno", "le pion de Bruno"), ("Hugo", "le pion de Hugo"),   # an h is left as typed: mute or aspirated?
])
def test_de_elides_before_a_name_that_begins_with_a_vowel(name, expected):
    assert translate("fr", "board.place_pawn", name=name) == f"Touchez une case violette pour poser {expected}."


def test_elision_in_the_games_own_words_history_and_refusals():
    assert word("fr", "game.elimination.commander", {"name": "Bruno", "damage": 21, "commander": "Anna"}) == \
        "Bruno a subi 21 blessures de combat d'Anna"
    assert translate("fr", "plane.face_up", plane="Naya", owner="Anna", controller="Émile") == \
        "[b]Plan :[/b] Naya (paquet d'Anna, contrôlé par Émile)"


def test_no_elision_before_a_square_a_number_or_in_english():
    assert elide_french("va de {frm} à {to}", {"frm": "A5", "to": "B6"}) == "va de {frm} à {to}"
    assert elide_french("va de {frm} à {to}", {"frm": "AE12", "to": "B6"}) == "va de {frm} à {to}"   # 40 columns
    assert elide_french("de {low} à {high}", {"low": 8, "high": 12}) == "de {low} à {high}"
    assert elide_french("le {which} et la {x} que {y}", {"which": "ange", "x": "Île", "y": "Anna"}) == \
        "l'{which} et l'{x} qu'{y}"
    assert elide_french("monde {name}", {"name": "Anna"}) == "monde {name}"   # "de" must be a word of its own
    assert translate("en", "board.place_pawn", name="Anna").count("Anna") == 1


def test_the_planar_die_faces_are_the_french_planechase_words():
    """PC (French rules text): "un symbole planeswalker sur une face, un symbole chaos sur une autre,
    et quatre faces vierges"; the planeswalker face triggers the "capacité de transplanement"."""
    faces = {face: translate("fr", f"dice.planar_faces.{face}") for face in ("planeswalk", "chaos", "blank")}
    assert faces == {"planeswalk": "Symbole planeswalker", "chaos": "Symbole chaos", "blank": "Face vierge"}
    assert translate("fr", "game.trigger.planeswalk") == "transplanement"
    history = {face: translate("fr", f"game.face.{face}") for face in ("planeswalk", "chaos", "blank")}
    assert history == {"planeswalk": "symbole planeswalker", "chaos": "symbole chaos", "blank": "face vierge"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_warning_is_a_sentence_that_begins_with_a_capital(lang):
    """MT 2.04.a: fewer start squares than players, said before the game starts."""
    board = load_board(library_boards()["duel-20x12"])   # 2 start squares
    warnings = board_warnings(board, ["Anna", "Bruno", "Émile"])
    assert warnings
    for message in warnings:
        text = message.text(lang)
        assert text[0].isupper(), text
    assert warnings[0].text("fr").endswith("placez à la main le pion d'Émile (MT 2.04.a)")
