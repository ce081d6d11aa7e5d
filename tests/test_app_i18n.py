"""The app's French and English strings: same keys, same fields, every key the app uses exists.

No window needed: these read the YAML files and the app's sources.
"""
from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.app import PACKAGE_DIR
from companion.i18n import LANGUAGES, strings, translate
from companion.app.platform_services import system_language

# t("key"...) / app.t("key"...) / translate(lang, "key"...) / t(f"key.{...}") prefixes in .py and .kv files
USED_KEY = re.compile(r"""\bt\(\s*["']([a-z_]+(?:\.[a-z_0-9]+)+)["']""")
TRANSLATE_KEY = re.compile(r"""translate\(\s*\w+,\s*["']([a-z_]+(?:\.[a-z_0-9]+)+)["']""")
DYNAMIC_PREFIX = re.compile(r"""\b(?:t|translate)\(\s*(?:\w+,\s*)?f?["']([a-z_]+\.)(?:\{|["']\s*\+)""")


def _sources() -> list[Path]:
    return [p for p in PACKAGE_DIR.rglob("*") if p.suffix in (".py", ".kv")]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys():
    fr, en = strings("fr"), strings("en")
    assert sorted(set(fr) - set(en)) == [], "keys only in French"
    assert sorted(set(en) - set(fr)) == [], "keys only in English"


def test_both_languages_use_the_same_fields_in_each_string():
    fr, en = strings("fr"), strings("en")
    different = {key: (_fields(fr[key]), _fields(en[key])) for key in fr if _fields(fr[key]) != _fields(en[key])}
    assert different == {}


def test_every_key_the_app_uses_exists():
    used = set()
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        used |= set(USED_KEY.findall(text)) | set(TRANSLATE_KEY.findall(text))
    assert len(used) > 60, "the scan found too few keys: the pattern is broken"
    missing = sorted(key for key in used if key not in strings("fr"))
    assert missing == []


def test_dynamic_key_prefixes_exist():
    """Keys built at run time (phases.<phase>, colours.<letter> ...) have their family in the files."""
    prefixes = set()
    for path in _sources():
        prefixes |= set(DYNAMIC_PREFIX.findall(path.read_text(encoding="utf-8")))
    assert {"phases.", "colours.", "kinds.", "steps."} <= prefixes
    keys = strings("fr")
    assert all(any(k.startswith(prefix) for k in keys) for prefix in prefixes)


def test_game_vocabulary_is_translated():
    """Every phase, movement step (MT 3.01), colour (MT 2.02), bonus (MT 2.02.b), kind and keyword
    with a grid erratum (MT 6.xx) has a string."""
    from companion.game import HORDE_DIFFICULTIES, MOVEMENT_STEPS, PHASES, PREGAME
    from companion.rules import BONUS_OF_COLOUR, KEYWORDS, KINDS

    needed = ([f"phases.{p}" for p in (*PHASES, PREGAME)] + [f"steps.{s}" for s in MOVEMENT_STEPS]
              + [f"colours.{c}" for c in "WUBRG"] + [f"bonuses.{b}" for b in BONUS_OF_COLOUR.values()]
              + [f"kinds.{k}" for k in KINDS] + [f"keywords.{k}" for k in KEYWORDS]
              + [f"horde.{d}" for d in HORDE_DIFFICULTIES]
              + [f"horde.level_{level}" for _, levels in HORDE_DIFFICULTIES.values() for level in levels])
    for lang in LANGUAGES:
        assert [key for key in needed if key not in strings(lang)] == []


def test_translate_formats_fields_and_shows_a_missing_key_plainly():
    assert translate("fr", "newgame.default_name", n=3) == "Joueur 3"
    assert translate("en", "newgame.default_name", n=3) == "Player 3"
    assert translate("en", "no.such.key") == "[no.such.key]"
    with pytest.raises(ValueError, match="language"):
        translate("de", "nav.board")


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "fr_CA.UTF-8"}, "fr"), ({"LC_ALL": "fr_BE"}, "fr"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "en_US", "LANG": "fr_FR"}, "en"),
])
def test_french_by_default_when_the_system_is_french(monkeypatch, env, expected):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert system_language() == expected
