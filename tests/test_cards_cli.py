"""`tactical cards import|search|show|info` through the real command line."""
from pathlib import Path

from companion.cli.main import main

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"


def test_import_then_search_show_and_info(tmp_path, capsys):
    folder = ["--data-dir", str(tmp_path)]
    assert main(["cards", *folder, "import", str(ATOMIC)]) == 0
    out = capsys.readouterr()
    assert "36 cards" in out.out and "100%" in out.err
    assert main(["cards", *folder, "--lang", "fr", "search", "serr"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Ange de Serra — Serra Angel")
    assert main(["cards", *folder, "show", "Tarmogoyf"]) == 0
    out = capsys.readouterr().out
    assert "creature, mana value 2, colours G, */1+*" in out and "Power: Printed *" in out
    assert main(["cards", *folder, "--lang", "fr", "show", "Tarmogoyf"]) == 0
    out = capsys.readouterr().out
    assert "pion : créature, valeur de mana 2, couleurs G" in out and "Force: Imprimé *" in out
    assert main(["cards", *folder, "show", "naya"]) == 0
    assert "Not on the grid (MT 5.01.b)" in capsys.readouterr().out
    assert main(["cards", *folder, "info"]) == 0
    assert "36 cards (25 with a French name, 5 planes and phenomena)" in capsys.readouterr().out
    assert main(["cards", *folder, "--lang", "fr", "search", "serr"]) == 0
    assert "suggestions : " in capsys.readouterr().err
    assert main(["cards", *folder, "--lang", "fr", "show", "nothing like it"]) == 1
    assert "aucune carte ne s'appelle « nothing like it »" in capsys.readouterr().err


def test_without_data_every_query_says_how_to_import(tmp_path, capsys):
    assert main(["cards", "--data-dir", str(tmp_path), "search", "serra"]) == 1
    assert "tactical cards import" in capsys.readouterr().err


def test_a_bad_file_is_an_error_message_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "AtomicCards.json"
    bad.write_text('{"data": {"Serra Angel": [{"manaValue": 5', encoding="utf-8")
    assert main(["cards", "--data-dir", str(tmp_path / "data"), "import", str(bad)]) == 1
    assert "the file ends too early" in capsys.readouterr().err


def test_a_card_error_is_worded_in_the_language_asked(tmp_path, capsys):
    """`--lang fr` words the error in French too, its detail included, not the English of the exception."""
    assert main(["cards", "--data-dir", str(tmp_path), "--lang", "fr", "import", str(tmp_path / "none.json")]) == 1
    said = capsys.readouterr().err
    assert "fichier introuvable" in said and "no such file" not in said
