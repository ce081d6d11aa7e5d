"""docs/rules.md maps every rule of the seeds to code and tests (or says why not), and what it cites exists.

The seeds are copied in tests/fixtures/seeds/ (from ../shared/seeds/) so the check runs anywhere. Magic Tactical
and the Horde number their rules: every number must be listed. Planechase and the basic rules are texts without
numbers: each of their rules is a topic below, with the seed's own words, and must have its row.
"""
import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from companion.i18n import strings

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tests" / "fixtures" / "seeds"
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")

PC_TOPICS = {  # row topic → the seed's words it stands for
    "Setup": "installez tous les joueurs au hasard autour d'une table",
    "Starting player": "Après avoir décidé aléatoirement qui va commencer",
    "Planar deck": "vous ne pouvez ni le consulter, ni modifier l'ordre de ses cartes",
    "First plane": "ne se déclenchent pas parce que la partie n'a pas encore commencé",
    "Multiplayer mulligan": "il pioche une nouvelle main de sept cartes au lieu de six",
    "First draw": "le joueur qui commence le premier tour ne passe pas sa première pioche",
    "Attacking": "Vous pouvez même attaquer plus d'un adversaire à la fois",
    "Blocking in multiplayer": "Les créatures d'un joueur peuvent uniquement bloquer les créatures qui l'attaquent",
    "Reach of spells": "peuvent affecter n'importe quel joueur, permanent ou sort dans la partie, quelle que soit sa distance",
    "Control": "son contrôleur change à chaque tour",
    "Planar die": "à tout moment où vous pourriez lancer un rituel, vous pouvez lancer le dé planaire",
    "Planar die cost": "le premier lancer est gratuit",
    "Chaos": "la capacité de chaos de la carte de plan face visible se déclenche",
    "Planeswalk": "met celle-ci au-dessous de son deck planaire",
    "Leaving the game": "Quand un joueur quitte la partie",
    "Winning": "Vous gagnez la partie quand chaque autre joueur a été éliminé",
}
BR_TOPICS = {
    "Decks": "au moins un paquet de 60 cartes minimum",
    "Who starts": "les joueurs déterminent qui va choisir de jouer en premier",
    "Life": "chaque joueur met son total de points de vie à 20",
    "Opening hand, mulligans": "peut déclarer une misère",
    "Losing at 0 life": "Si le total des points de vie d'un joueur est de zéro ou moins, celui-ci perd",
    "Drawing from an empty library": "il pioche les cartes restantes, puis perd la partie",
    "One draw per turn": "Chaque joueur pioche une carte par tour",
    "Turn structure": "Untour est organisé de la manière suivante",
    "Tapping": "il faut engager cette carte",
    "Permanents": "Un permanent est un artefact, une créature, un terrain et un enchantement",
    "First turn": "Une créature ne peut pas attaquer au premier tour",
    "Card types": "Il éxiste plusieurs types de cartes",
    "Mana costs": "Le coût de mana d'une carte est indiqué par des symboles de mana",
    "Mana burn": "brûlure de mana",
    "Power and toughness": "Le premier nombre est sa force",
    "Attacking and blocking": "Le défenseur déclare ses bloqueurs",
    "Damage": "doit assigner un nombre de blessures de combat égal à sa force",
    "Keywords": "Certaines créatures ont des pouvoirs spéciaux",
}


def seed(name: str) -> str:
    """A seed's text, with typographic apostrophes and runs of spaces made plain (so quotes compare)."""
    return re.sub(r"\s+", " ", (SEEDS / name).read_text(encoding="utf-8").replace("’", "'"))


def section(heading: str) -> str:
    return DOC.split(heading, 1)[1].split("\n## ", 1)[0]


def rows(heading: str) -> dict[str, str]:
    """The rows of a section's table, by the text of their first cell."""
    found = {}
    for line in section(heading).splitlines():
        cells = [c.strip() for c in line.split("|")]
        if line.startswith("|") and len(cells) > 2 and not set(cells[1]) <= {"-"}:
            found[cells[1]] = line
    return found


# -- Magic Tactical: every number -------------------------------------------------------------------

def seed_rule_numbers() -> list[str]:
    """Rule numbers as the MT seed writes them at the start of a line: '4.03.c _', '2.02.b.01 _'."""
    return re.findall(r"^(\d\.\d{2,3}(?:\.[a-z])?(?:\.\d+)?)\s*_",
                      (SEEDS / "magic-tactical-rules.fr.txt").read_text(encoding="utf-8"), re.M)


def documented(number: str) -> bool:
    """Named as such, or inside a documented group: '2.02.b (.01–.05)', '3.01.a–b', '4.05–4.07'."""
    if re.search(re.escape(number) + r"(?!\d)", DOC):
        return True
    sub = re.match(r"(\d\.\d\d\.[a-z])\.\d+$", number)
    if sub and sub.group(1) in DOC:
        return True
    letter = re.match(r"(\d\.\d\d)\.([a-z])$", number)
    if letter and any(a <= letter.group(2) <= b
                      for a, b in re.findall(re.escape(letter.group(1)) + r"\.([a-z])–([a-z])", DOC)):
        return True
    major = re.match(r"(\d)\.(\d\d)$", number)
    if major:
        for first, last in re.findall(rf"{major.group(1)}\.(\d\d)–{major.group(1)}\.(\d\d)", DOC):
            if int(first) <= int(major.group(2)) <= int(last):
                return True
    return False


def test_the_seed_has_rule_numbers():
    assert len(seed_rule_numbers()) > 100


def test_every_mt_rule_number_is_in_docs_rules_md():
    """MT 1–9: every rule of the seed appears in docs/rules.md (code + tests, or why left to players)."""
    assert [n for n in seed_rule_numbers() if not documented(n)] == []


# -- Horde: every number, in the HO table -----------------------------------------------------------

def horde_numbers() -> list[str]:
    """'100.1.', '103.3a.', '404.1a.' at the start of a line of the Horde seed (section titles '100. Général' aside)."""
    return re.findall(r"^(\d{3}\.\d+[a-z]?)\.", (SEEDS / "horde-rules.fr.txt").read_text(encoding="utf-8"), re.M)


def _order(number: str) -> tuple:
    rule, point, letter = re.match(r"(\d{3})\.(\d+)([a-z]?)$", number).groups()
    return int(rule), int(point), letter


def horde_documented(number: str, cells: list[str]) -> bool:
    """In a row's first cell by itself ('105.6'), or inside a range of it ('300.3–300.5', '200.2a–200.2c')."""
    for cell in cells:
        if re.search(rf"(?<![\d.]){re.escape(number)}(?![\da-z])", cell):
            return True
        for first, last in re.findall(r"(\d{3}\.\d+[a-z]?)–(\d{3}\.\d+[a-z]?)", cell):
            if _order(first) <= _order(number) <= _order(last):
                return True
    return False


def test_the_horde_seed_has_its_numbers():
    numbers = horde_numbers()
    assert len(numbers) > 90 and numbers.count("103.3") == 2  # the seed numbers two rules 103.3


def test_every_horde_rule_number_is_in_the_ho_table():
    """HO: every rule number of the Horde seed has its row (or is inside a row's range), 4xx included one by one."""
    cells = list(rows("## HO — Horde"))
    assert [n for n in dict.fromkeys(horde_numbers()) if not horde_documented(n, cells)] == []
    assert len([c for c in cells if c.startswith("103.3 (")]) == 2  # both rules 103.3, each its row


# -- Planechase and the basic rules: every topic -----------------------------------------------------

@pytest.mark.parametrize("heading, file, topics", [
    ("## PC — Planechase", "planechase-rules.fr.txt", PC_TOPICS),
    ("## BR — Basic rules", "basic-rules.fr.txt", BR_TOPICS),
])
def test_every_topic_of_the_unnumbered_seeds_has_its_row(heading, file, topics):
    """PC, BR: each topic stands for words the seed says, and docs/rules.md has its row (code and tests, or why
    it is the players')."""
    text = seed(file)
    assert [t for t, words in topics.items() if words not in text] == [], "the topic's words are not the seed's"
    table = rows(heading)
    assert [t for t in topics if t not in table] == []
    assert all(len(table[t].split("|")) >= 6 for t in topics)  # topic, what, code, tests


def test_every_keyword_of_the_basic_rules_is_in_the_keywords_row():
    """BR « Les capacités des créatures »: Vol, Célérité, … each said modelled or left to the players."""
    text = (SEEDS / "basic-rules.fr.txt").read_text(encoding="utf-8").split("6.Les capacités des créatures", 1)[1]
    keywords = re.findall(r"^- ([^:\n]+?) :", text, re.M)
    assert len(keywords) == 9
    assert [k for k in keywords if k not in rows("## BR — Basic rules")["Keywords"]] == []


# -- what the document cites exists -------------------------------------------------------------------

def cited_tests() -> set[str]:
    """Test names the document gives (not its file names, `tests/test_x.py`)."""
    return set(re.findall(r"\b(test_\w*[A-Za-z0-9])\b(?!\.py)", DOC))


def test_every_test_the_document_names_exists():
    """A citation is a test someone can run: every test name docs/rules.md gives is defined in tests/."""
    defined = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    assert len(cited_tests()) > 150
    assert sorted(cited_tests() - defined) == []


ALIASES = {"reducer": "companion.game.reducer", "actions": "companion.game.actions", "game": "companion.game.game", "state": "companion.game.state",
           "events": "companion.game.events", "dice": "companion.game.dice", "setup": "companion.game.setup",
           "rules": "companion.rules"}


def _resolve(dotted: str) -> bool:
    """Whether `X.y.z` names something that exists: an i18n key, a module, or a name in a module or class
    (a dataclass field included)."""
    if dotted in strings("en"):
        return True
    head, *rest = dotted.split(".")
    if head[0].isupper():
        game, rules = importlib.import_module("companion.game"), importlib.import_module("companion.rules")
        obj = getattr(game, head, None) or getattr(rules, head, None) or getattr(
            importlib.import_module("boards"), head, None)
        if obj is None:
            return False
    else:
        name = ALIASES.get(head, head)
        obj = None
        while rest and obj is None:
            try:
                obj = importlib.import_module(name)
            except ModuleNotFoundError:
                return False
            try:
                importlib.import_module(f"{name}.{rest[0]}")
                name, obj = f"{name}.{rest.pop(0)}", None
            except ModuleNotFoundError:
                pass
        if obj is None:
            return importlib.util.find_spec(name) is not None
    for attr in rest:
        fields = {f.name for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) else set()
        if attr in fields:
            return True  # a field: what it holds is data, not a name to follow
        if not hasattr(obj, attr):
            return False
        obj = getattr(obj, attr)
    return True


def test_every_code_name_the_document_gives_exists():
    """`reducer._event_card`, `Game.pawn_squares`, `GameState.last_known`, `game.error.pawn_off_grid` …: every
    dotted name in backticks is a module, function, class, field or i18n key of the project."""
    names = set(re.findall(r"`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)`", DOC))
    assert len(names) > 100
    assert sorted(n for n in names if not _resolve(n)) == []
