"""The game's words: every refusal, verdict, warning and history line is an i18n key with fields, worded in French
and English by companion/i18n/{fr,en}/game.yaml — never English in the French app, never a raw dict."""
import re
import string
from pathlib import Path

from boards import library_boards, load_board
from companion.game import Dice, Game, GameError, GameSetup, PlayerSetup
from companion.i18n import strings
from companion.rules import KEYWORDS, Piece

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*(ROOT / "companion" / "game").rglob("*.py"), *(ROOT / "companion" / "rules").rglob("*.py")]
KEY = re.compile(r"""["'](game\.[a-z_]+\.[a-z_0-9.]+)["']""")
FAMILY = re.compile(r"""f["'](game\.[a-z_]+\.)\{""")
SHORT_HISTORY = re.compile(r"""\bsaid\(\s*["']([a-z_]+)["']""")  # companion.game.actions.common.said


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_the_game_and_the_rules_use_exists_in_both_languages():
    used, families = set(), set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        used |= set(KEY.findall(text))
        families |= set(FAMILY.findall(text))
        used |= {f"game.history.{k}" for k in SHORT_HISTORY.findall(text)}
    assert len(used) > 150, "the scan found too few keys: the pattern is broken"
    for lang in ("fr", "en"):
        words = strings(lang)
        assert sorted(k for k in used if k not in words) == [], lang
        assert sorted(f for f in families if not any(k.startswith(f) for k in words)) == [], lang


def test_both_languages_have_the_same_game_keys_and_fields():
    fr = {k: v for k, v in strings("fr").items() if k.startswith("game.")}
    en = {k: v for k, v in strings("en").items() if k.startswith("game.")}
    assert set(fr) == set(en)
    assert {k: (_fields(fr[k]), _fields(en[k])) for k in fr if _fields(fr[k]) != _fields(en[k])} == {}


def test_the_vocabulary_is_complete():
    from companion.game import HORDE_DIFFICULTIES, MOVEMENT_STEPS, PHASES, PREGAME
    from companion.rules import KINDS
    needed = ([f"game.phase.{p}" for p in (*PHASES, PREGAME)] + [f"game.step.{s}" for s in MOVEMENT_STEPS]
              + [f"game.colour.{c}" for c in "WUBRG"] + [f"game.kind.{k}" for k in KINDS]
              + [f"game.keyword.{k}" for k in KEYWORDS] + [f"game.difficulty.{d}" for d in HORDE_DIFFICULTIES])
    for lang in ("fr", "en"):
        assert [k for k in needed if k not in strings(lang)] == []


def test_a_refusal_carries_its_key_fields_and_rule_and_reads_in_french():
    game = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], load_board(
        library_boards()["duel-20x12"]), starting_player=1), dice=Dice.seeded(1))
    try:
        game.roll_movement((1, 1))
    except GameError as refusal:
        assert (refusal.key, refusal.rule, refusal.fields) == ("game.error.roll_timing", "MT 3.01.a", {})
        assert str(refusal) == "movement dice are rolled in the movement phase (MT 3.01.a)"
        assert refusal.text("fr") == "les dés de déplacement se lancent pendant la phase de déplacement (MT 3.01.a)"
    else:
        raise AssertionError("rolling before the movement phase must be refused")


def test_a_piece_changed_reads_as_words_not_as_a_dict():
    """The history said `name=Serra Angel, mana_value=5, … colours=['W']`; it says what changed, in words."""
    game = Game.new(GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], load_board(
        library_boards()["duel-20x12"]), starting_player=1), dice=Dice.seeded(1))
    game.add_piece(Piece(1, 3, name="Serra Angel", mana_value=5, power=4, toughness=4, colours={"W"}, at=(10, 5)))
    game.update_piece((1, 3), name="Serra Angel", mana_value=5, power=5, toughness=5, colours={"W", "U"},
                      keywords={"flying", "vigilance"}, tapped=True, summoning_sick=False)
    en, fr = game.history("en")[-1][6:], game.history("fr")[-1][6:]
    assert en == "Serra Angel (#3): colours white, blue · flying, vigilance · tapped · 5/5"
    assert fr == "Serra Angel (#3) : couleurs blanc, bleu · vol, vigilance · engagé · 5/5"
    assert not any(mark in line for line in game.history("fr") for mark in ("=", "['", "{'"))
